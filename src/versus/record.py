"""A session's stored record: what `versus run` was asked (its options), the experiments' definitions
and content hashes, each arm's row and the plan with its rule. One shape, written by the run that
stores it, by imports and by the selftest; read back as typed values (StoredSession, StoredPlan,
StoredArm) by --resume and --more, the workers of a fleet, analyze and the reports; and the
experiments exactly as a stored session ran them.

The store hands over its rows with every value of the type its column promises (store.Store.session_row);
here they become the types the harness passes around, once. Parts that are free-form documents (the
host's metadata, the options, a definition, a method as stored) keep their stored mapping beside the
typed fields, so the session document (`--format json`, export) shows them exactly as stored.
"""
from __future__ import annotations

import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from . import experiment as experiments
from .arms import ArmId
from .content import experiment_hash, file_hash
from .errors import UsageError, VersusError
from .experiment import Experiment, Method
from .plan import Arm, Plan, make_plan
from .rule import CURRENT, Rule
from .store import ArmRow, Store


@dataclass
class Options:
    """What `versus run` was asked: stored with the session so --resume rebuilds the same plan."""

    experiments: list[str]
    runtimes: list[str] | None = None
    cases: list[str] | None = None
    quick: bool = False
    method: dict[str, Any] | None = None
    params: dict[str, str | list[str]] | None = None
    budget: float | None = None  # seconds for the whole run, builds included
    baseline: str | None = None  # a runtime selector, or case:NAME

    def stored(self) -> dict[str, Any]:
        return dict(self.__dict__)


def git_commit(folder: Path) -> str:
    """The commit a folder's files are at, with `-dirty` when they differ from it ('' outside git)."""
    try:
        head = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        if head.returncode != 0:
            return ""
        dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--", "."], capture_output=True,
                               text=True, timeout=10)
        return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return ""


def versus_info() -> dict[str, str]:
    return {"version": __version__, "commit": git_commit(Path(__file__).resolve().parent)}


def definitions_of(plan: Plan) -> dict[str, Any]:
    return {name: {"raw": e.raw, "path": str(e.path), "commit": git_commit(e.path), "hash": experiment_hash(e.path)}
            for name, e in plan.experiments.items()}


def arm_row(arm: Arm, method: Method) -> ArmRow:
    runtime = arm.runtime
    info = {"family": runtime.family, "version": runtime.version, "flags": list(runtime.flags),
            "jdk_version": runtime.jdk_version, "source": runtime.source, "executable": str(runtime.executable),
            "jar": str(runtime.jar or ""), "impl": runtime.details.get("impl", ""),
            "hash": runtime_hash(arm)}
    return row(arm.id, str(arm.experiment.path), info, dict(arm.params), method.model_dump())


def runtime_hash(arm: Arm) -> str:
    """The runtime's executable and jar, as bytes: a runtime that changed under the same name differs."""
    return file_hash(arm.runtime.executable, arm.runtime.jar)


def row(arm: ArmId, path: str, runtime_info: dict[str, Any], params: dict[str, str], method: dict[str, Any]) -> ArmRow:
    """The one shape of a stored arm (runs, imports, the selftest)."""
    return {"experiment": arm.experiment, "experiment_path": path, "case": arm.case, "variant": arm.variant,
            "runtime": arm.runtime, "runtime_info": runtime_info, "params": params, "method": method}


def plan_of(options: Options, loaded: list[Experiment] | None = None, fetch: bool = True) -> Plan:
    loaded = loaded or [experiments.load(experiments.find(name)) for name in options.experiments]
    if options.baseline:
        loaded = with_baseline(loaded, options.baseline)
    return make_plan(loaded, options.runtimes, options.cases, options.quick, options.method or {}, options.params,
                     fetch=fetch)


def with_baseline(loaded: list[Experiment], baseline: str) -> list[Experiment]:
    """`--baseline`: the experiments as if their [experiment] baseline said so (stored like that too)."""
    kind, _, value = baseline.partition(":") if baseline.startswith("case:") else ("runtime", "", baseline)
    if kind == "case" and not any(value in {c.name for c in e.cases} for e in loaded):
        names = sorted({c.name for e in loaded for c in e.cases})
        raise UsageError(f"--baseline case:{value}: no experiment of this run has a case {value!r}",
                         "cases: " + ", ".join(names))
    changed = []
    for experiment in loaded:
        if kind == "case" and value not in {c.name for c in experiment.cases}:
            changed.append(experiment)
            continue
        raw = {**experiment.raw, "experiment": {**experiment.raw.get("experiment", {}),
                                                "baseline": {"case": value} if kind == "case" else value}}
        changed.append(experiments.from_raw(raw, experiment.path, f"--baseline {baseline}"))
    return changed


def plan_record(plan: Plan, options: Options, rule: Rule = CURRENT, sequential: bool | None = None) -> dict[str, Any]:
    """What a session stores of its plan. "rule" is the decision rule it runs with and is judged by
    (rule.py): sequential where a budget lets the rounds go on while items are open, one look at the
    size measured where the number of processes is fixed before any data is seen (no budget), as pyperf
    and JMH judge a run. "settled" and "intersection_union" are kept for versus versions before the rule
    was a value, which read them. "initial_rounds": the rounds every arm runs before the scheduler
    chooses (one with a budget: `Scheduler.initial_of`), for the analyses that weigh a run's schedule."""
    rule = rule.replace(sequential=options.budget is not None if sequential is None else sequential)
    return {"methods": {k: m.model_dump() for k, m in plan.methods.items()}, "params": plan.params,
            "budget": options.budget, "notes": plan.notes, "settled": rule.settle,
            "intersection_union": rule.intersection_union, "rule": rule.to_dict(),
            "initial_rounds": 1 if options.budget is not None else None}


def stored_experiments(session: StoredSession, only: str | None = None) -> list[Experiment]:
    """The experiments exactly as the session ran them (never today's files); `only` this one's."""
    loaded = []
    for name, definition in session.definitions.items():
        if only is not None and name != only:
            continue
        try:
            experiment = experiments.from_raw(definition.raw, Path(definition.path), f"session {session.id}: {name}",
                                              check_files=False)
        except VersusError as error:
            raise UsageError(f"session {session.id}'s stored definition of {name} no longer validates: {error.message}",
                             "report the session with the versus version that ran it") from None
        loaded.append(experiment)
    return loaded


# --- the stored record, read back ---------------------------------------------------------------

def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _positive(value: object) -> int | None:
    """A stored count (processes), else None: absent, or not a positive integer."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return value


@dataclass(frozen=True)
class StoredMethod:
    """A method as a session stored it (Method.model_dump(); older versions stored fewer keys, an
    import what its file said)."""

    processes: int | None = None  # the processes every arm ran before the first look; None: not stored
    value: str = "median"  # the per-process value; sessions before `value` existed took the median
    stored: Mapping[str, object] = field(default_factory=dict)  # as stored: the session document shows it

    @classmethod
    def of(cls, stored: object) -> StoredMethod:
        found = _mapping(stored)
        return cls(_positive(found.get("processes")), str(found.get("value", "median")), found)

    def first_look(self, rule: Rule) -> int:
        """The rounds before an item's first look: the method's processes, else the rule's first look."""
        return self.processes if self.processes is not None else rule.first_look


@dataclass(frozen=True)
class StoredPlan:
    """What a session stored of its plan (plan_record), as its readers use it."""

    methods: dict[str, StoredMethod]
    budget: float | None  # seconds; None: the session ran without one
    notes: tuple[str, ...]
    stopped: str  # why the rounds stopped ('' while running, or before it was recorded)
    stored: Mapping[str, object]  # the record as stored: its rule, and keys of older versions
    initial_rounds: int | None = None  # rounds every arm runs before the scheduler chooses (None: not stored)

    @classmethod
    def of(cls, stored: object) -> StoredPlan:
        found = _mapping(stored)
        methods = {str(name): StoredMethod.of(m) for name, m in _mapping(found.get("methods")).items()
                   if isinstance(m, Mapping)}
        budget = found.get("budget")
        notes = found.get("notes")
        initial = found.get("initial_rounds")
        return cls(methods, float(budget) if isinstance(budget, (int, float)) and not isinstance(budget, bool) else None,
                   tuple(str(n) for n in notes) if isinstance(notes, list) else (), str(found.get("stopped") or ""),
                   found, int(initial) if isinstance(initial, int) and initial > 0 else None)

    @property
    def rule(self) -> Rule:
        """The rule the session is judged by: the one it stored, or the legacy rule (rule.py)."""
        return Rule.of(self.stored)

    def first_look(self, experiment: str, rule: Rule) -> int:
        """The rounds every arm of an experiment ran before its first look."""
        method = self.methods.get(experiment)
        return method.first_look(rule) if method is not None else rule.first_look

    def initial_of(self, experiment: str, rule: Rule) -> int:
        """The rounds every arm of an experiment ran before the scheduler chose (`Scheduler.initial_of`):
        "initial_rounds" where the session stored it (a budgeted one), else all of `first_look` (without
        a budget, and in sessions stored before the scheduler took the first looks cheapest first)."""
        start = self.first_look(experiment, rule)
        return min(start, self.initial_rounds) if self.initial_rounds is not None else start

    def with_stopped(self, reason: str) -> dict[str, object]:
        """The record to store once the rounds stopped, saying why."""
        return {**self.stored, "stopped": reason}


@dataclass(frozen=True)
class StoredDefinition:
    """An experiment's definition as a session stored it: its experiment.toml as run, where and at
    which commit and content it ran; an import's or a session's from before stored definitions has
    no experiment.toml, only what its arms need (the baseline case)."""

    stored: Mapping[str, object]

    @property
    def real(self) -> bool:
        """Whether it holds an experiment.toml (`raw`): else the experiment is known only by its arms."""
        return "raw" in self.stored

    @property
    def raw(self) -> dict[str, Any]:
        raw = self.stored.get("raw")
        return dict(raw) if isinstance(raw, Mapping) else {}

    @property
    def path(self) -> str:
        return str(self.stored.get("path") or "")

    @property
    def commit(self) -> str:
        return str(self.stored.get("commit") or "")

    @property
    def hash(self) -> str:
        return str(self.stored.get("hash", ""))

    @property
    def baseline_case(self) -> str:
        return str(self.stored.get("baseline_case", ""))


@dataclass(frozen=True)
class StoredSession:
    """A stored session: `versus run`'s record of it (or an import's), read once from the store."""

    id: int
    created: float | None  # None: not a time a date can show
    finished: float | None
    status: str
    seed: int
    argv: tuple[str, ...]
    host: Mapping[str, object]  # the host's metadata as recorded (host.host_metadata; {} for an import)
    options: Mapping[str, object]  # Options.stored(), an import's or a selftest's own
    definitions: dict[str, StoredDefinition]
    plan: StoredPlan
    versus: Mapping[str, object]  # the versus that planned it: version, commit
    lacks: str  # what the session lacks, in words ('' for nothing)
    imported: str  # the file it was imported from ('' for a session run here)
    unreadable: tuple[str, ...]  # the parts the database held unreadable (never resumed then)

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> StoredSession:
        """From the store's row (store.Store.session_row: every value of its column's type)."""
        return cls(int(row["id"]), row["created"], row["finished"], str(row["status"]), int(row["seed"]),
                   tuple(row["argv"]), row["host"], row["options"],
                   {str(k): StoredDefinition(_mapping(v)) for k, v in row["definitions"].items()},
                   StoredPlan.of(row["plan"]), row["versus"], str(row["lacks"]), str(row["imported"]),
                   tuple(row["unreadable"]))

    @property
    def hostname(self) -> str:
        """The host that ran it, as recorded (the runs stored before runs named their host ran there)."""
        return str(self.host.get("hostname", ""))

    def options_of(self, required: bool = True) -> Options:
        """The options `versus run` was asked, as stored; TypeError where one it needs is not (without
        `required`, no experiments where none are stored: a selftest's trial)."""
        fields = {k: v for k, v in self.options.items() if k in Options.__dataclass_fields__}
        return Options(**{**({} if required else {"experiments": []}), **fields})  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """The record as the session document shows it (report/document.py)."""
        return {"id": self.id, "created": self.created, "finished": self.finished, "status": self.status,
                "seed": self.seed, "argv": list(self.argv), "host": self.host, "options": self.options,
                "definitions": {k: d.stored for k, d in self.definitions.items()}, "plan": self.plan.stored,
                "versus": self.versus, "lacks": self.lacks}


@dataclass(frozen=True)
class StoredRuntime:
    """A runtime as an arm's row recorded it (arm_row's runtime_info; an import's is its own)."""

    family: str
    version: str
    flags: tuple[str, ...]
    jdk_version: str
    hash: str = ""  # the executable's and jar's content ('' before content hashes, or an import)
    stored: Mapping[str, object] = field(default_factory=dict)  # as stored: the reports show it

    @classmethod
    def of(cls, stored: Mapping[str, object]) -> StoredRuntime:
        flags = stored.get("flags")
        return cls(str(stored.get("family", "")), str(stored.get("version", "")),
                   tuple(str(f) for f in flags) if isinstance(flags, list) else (), str(stored.get("jdk_version", "")),
                   str(stored.get("hash", "")), stored)

    def shown(self, key: str) -> str:
        """A recorded detail for the reports (executable, jar, impl, source), '' where none."""
        return str(self.stored.get(key) or "")


@dataclass(frozen=True)
class StoredArm:
    """An arm's row: its identity, runtime, parameters and method as the session stored them."""

    id: int  # the row's id, that its process runs name
    position: int
    arm: ArmId
    experiment_path: str
    runtime: StoredRuntime
    params: dict[str, str]
    method: StoredMethod
    inner: int  # iterations per sample the arm calibrated to (0: not yet)

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> StoredArm:
        """From the store's row (store.Store.arm_rows: every value of its column's type)."""
        return cls(int(row["id"]), int(row["position"]),
                   ArmId(row["experiment"], row["case"], row["variant"], row["runtime"]), row["experiment_path"],
                   StoredRuntime.of(row["runtime_info"]), dict(row["params"]), StoredMethod.of(row["method"]),
                   int(row["inner"] or 0))


def load_session(store: Store, session_id: int | None = None) -> StoredSession:
    """A stored session (the newest where `session_id` is None); a StoreError names one that is not."""
    return StoredSession.of(store.session_row(session_id))


def load_arms(store: Store, session_id: int) -> list[StoredArm]:
    """The session's arms in their planned order."""
    return [StoredArm.of(row) for row in store.arm_rows(session_id)]
