"""Start, resume or preview a session: plan → store the definitions and arms → run the rounds."""
from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import __version__, judge
from . import experiment as experiments
from .arms import ArmId
from .errors import UsageError, VersusError
from .executor import Executor
from .experiment import Experiment
from .host import host_metadata
from .plan import Arm, Plan, make_plan
from .rule import CURRENT, Rule
from .runner import Job, Progress, run_session
from .scheduler import Budget, Scheduler
from .store import Store

MAX_SEED = (1 << 63) - 1


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
    return {name: {"raw": e.raw, "path": str(e.path), "commit": git_commit(e.path)}
            for name, e in plan.experiments.items()}


def arm_row(arm: Arm, method: dict[str, Any]) -> dict[str, Any]:
    runtime = arm.runtime
    info = {"family": runtime.family, "version": runtime.version, "flags": list(runtime.flags),
            "jdk_version": runtime.jdk_version, "source": runtime.source, "executable": str(runtime.executable),
            "jar": str(runtime.jar or ""), "impl": runtime.details.get("impl", "")}
    return row(arm.id, str(arm.experiment.path), info, dict(arm.params), method)


def row(arm: ArmId, path: str, runtime_info: dict[str, Any], params: dict[str, str], method: dict[str, Any]) -> dict[str, Any]:
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
    was a value, which read them."""
    rule = rule.replace(sequential=options.budget is not None if sequential is None else sequential)
    return {"methods": {k: m.model_dump() for k, m in plan.methods.items()}, "params": plan.params,
            "budget": options.budget, "notes": plan.notes, "settled": rule.settle,
            "intersection_union": rule.intersection_union, "rule": rule.to_dict()}


def start(store: Store, options: Options, seed: int, executor: Executor, progress: Progress | None = None,
          argv: list[str] | None = None) -> int:
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed {seed} is out of range", f"give a seed from 0 to {MAX_SEED}")
    started = time.monotonic()
    plan = plan_of(options)
    for note in plan.notes:
        print(f"versus: note: {note}", file=sys.stderr)
    store.acquire()
    session_id = store.new_session(seed, argv if argv is not None else sys.argv, host_metadata(),
                                   options.stored(), definitions_of(plan), plan_record(plan, options), versus_info())
    jobs = []
    for index, arm in enumerate(plan.arms):
        method = plan.methods[arm.experiment_name]
        jobs.append(Job(arm, store.add_arm(session_id, index, arm_row(arm, method.model_dump())), method, 0))
    _run(store, session_id, plan, jobs, seed, executor, progress, Budget(options.budget, started), {})
    return session_id


def stored_experiments(session: dict[str, Any]) -> list[Experiment]:
    """The experiments exactly as the session ran them (never today's files)."""
    loaded = []
    for name, definition in session["definitions"].items():
        folder = Path(str(definition.get("path") or ""))
        try:
            experiment = experiments.from_raw(definition["raw"], folder, f"session {session['id']}: {name}",
                                              check_files=False)
        except VersusError as error:
            raise UsageError(f"session {session['id']}'s stored definition of {name} no longer validates: {error.message}",
                             "report the session with the versus version that ran it") from None
        loaded.append(experiment)
    return loaded


def resume(store: Store, session_id: int | None, executor: Executor, progress: Progress | None = None) -> int:
    store.acquire()
    session = resumable(store, session_id)
    options = _options_of(session)
    loaded = stored_experiments(session)
    for experiment in loaded:
        _warn_if_changed(experiment, session["id"])
    plan = plan_of(options, loaded)
    stored = store.arms(session["id"])
    if [a.key for a in plan.arms] != [ArmId(a["experiment"], a["case"], a["variant"], a["runtime"]).key for a in stored]:
        raise UsageError(f"session {session['id']} cannot be resumed: the runtimes found here differ from its plan",
                         "start a new session with `versus run`")
    jobs = [Job(arm, row_["id"], plan.methods[arm.experiment_name], row_["inner"]) for arm, row_ in zip(plan.arms, stored)]
    observations, done = _observed(store, session["id"], stored, Rule.of(session["plan"]))
    spent = _spent(store, session["id"], session["created"])
    budget = Budget(None if options.budget is None else max(0.0, options.budget - spent))
    store.finish_session(session["id"], "running")
    _run(store, session["id"], plan, jobs, session["seed"], executor, progress, budget, done, observations)
    return int(session["id"])


def resumable(store: Store, session_id: int | None) -> dict[str, Any]:
    """The session `--resume [N]` means, when it can be resumed; else a UsageError that says why."""
    if session_id is None:  # the newest session run here: an imported one is never a default
        session_id = store.newest_run()
        if session_id is None:
            raise UsageError(f"{store.path} has no session that was run here to resume (imported sessions are "
                             "history, never resumed)", "start a new one with `versus run EXPERIMENT`")
    session = store.session(session_id)
    if session["imported"]:
        # Its options, status and definitions came from a file: data to report, never a plan to run.
        raise UsageError(f"session {session['id']} was imported from {session['imported']}: an imported session "
                         "is never resumed, whatever its file says", "start a new one with `versus run EXPERIMENT`")
    if session["unreadable"]:
        raise UsageError(f"session {session['id']} cannot be resumed: {session['lacks']}",
                         "report it with `versus report`; start a new one with `versus run`")
    if session["status"] == "complete":
        raise UsageError(f"session {session['id']} is already complete", "start a new one with `versus run`")
    if session["options"].get("import") or session["options"].get("selftest"):
        raise UsageError(f"session {session['id']} was imported or is a selftest: there is nothing to resume",
                         "start a new one with `versus run`")
    if not session["definitions"]:
        raise UsageError(f"session {session['id']} predates stored definitions and cannot be resumed",
                         "start a new one with `versus run`")
    return session


def _options_of(session: dict[str, Any]) -> Options:
    try:
        return Options(**{k: v for k, v in session["options"].items() if k in Options.__dataclass_fields__})
    except TypeError:  # an option it needs is not stored
        raise UsageError(f"session {session['id']} stored no complete options and cannot be resumed",
                         "start a new one with `versus run`") from None


def resume_dry_run(store: Store, session_id: int | None) -> str:
    """`versus run --resume [N] --dry-run`: the plan of the session that would be resumed, not a new one."""
    session = resumable(store, session_id)
    stored = len(store.runs(session["id"]))
    return (f"versus run --resume {session['id']} (dry run): session {session['id']} ({session['status']}) has "
            f"{stored} process runs stored and goes on with its own plan:\n"
            + dry_run(store, _options_of(session), stored_experiments(session)))


def _warn_if_changed(experiment: Experiment, session_id: int) -> None:
    file = experiment.path / "experiment.toml"
    try:
        import tomllib

        today = tomllib.loads(file.read_text())
    except (OSError, ValueError, RecursionError):
        return
    if today != experiment.raw:
        print(f"versus: note: {file} changed since session {session_id} started; resuming with the definition "
              "stored with the session", file=sys.stderr)


def _observed(store: Store, session_id: int, stored: list[dict[str, Any]],
              rule: Rule) -> tuple[judge.Observations, dict[int, set[int]]]:
    index_of = {row_["id"]: i for i, row_ in enumerate(stored)}
    observations: judge.Observations = {}
    done: dict[int, set[int]] = {i: set() for i in range(len(stored))}
    for run in store.runs(session_id):
        arm = index_of[run.arm_id]
        done[arm].add(run.round)
        if run.status == "ok":
            observations.setdefault(arm, {})[run.round] = judge.facts_of(
                [(ns, inner, warm) for _, ns, inner, warm in run.samples], [(n, v) for n, v, _ in run.metrics], run.wall_ns,
                judge.stored_value(stored[arm].get("method"), rule))
    return observations, done


def _spent(store: Store, session_id: int, created: float) -> float:
    runs = store.runs(session_id)
    return max((r.started + r.wall_ns / 1e9 for r in runs), default=created) - created


def _run(store: Store, session_id: int, plan: Plan, jobs: list[Job], seed: int, executor: Executor,
         progress: Progress | None, budget: Budget, done: dict[int, set[int]],
         observations: judge.Observations | None = None) -> None:
    rule = Rule.of(store.session(session_id)["plan"])  # judged as analyze will judge it
    scheduler = Scheduler(plan, observations or {}, seed, budget, done or None, rule=rule)
    try:
        run_session(store, jobs, scheduler, executor, progress)
    except BaseException:
        # Ctrl-C, a full disk, a bug: every finished process run is stored; the session can be resumed.
        _record_stop(store, session_id, scheduler.status.reason or "interrupted")
        store.finish_session(session_id, "interrupted")
        store.release()
        raise
    _record_stop(store, session_id, scheduler.status.reason)
    store.finish_session(session_id, "complete")
    store.release()


def _record_stop(store: Store, session_id: int, reason: str) -> None:
    try:
        store.update_plan(session_id, {**store.session(session_id)["plan"], "stopped": reason})
    except VersusError:
        pass


def dry_run(store: Store | None, options: Options, loaded: list[Experiment] | None = None) -> str:
    """The plan, and how long it would take judging by the stored history of the same arms."""
    plan = plan_of(options, loaded, fetch=False)
    history = store.history([(a.experiment_name, a.case.name, a.variant, a.runtime.name) for a in plan.arms]) if store else {}
    lines = [f"versus run (dry run): {len(plan.arms)} arms in {len(plan.groups)} groups, "
             f"{len(plan.items)} comparisons and claim pairs"]
    total, unknown = 0.0, 0
    for name in plan.experiments:
        arms = [a for a in plan.arms if a.experiment_name == name]
        method = plan.methods[name]
        runs = len(arms) * method.processes
        seconds, missing = 0.0, 0
        for arm in arms:
            walls = history.get((arm.experiment_name, arm.case.name, arm.variant, arm.runtime.name))
            if walls:
                seconds += sorted(walls)[len(walls) // 2] / 1e9 * method.processes
            else:
                missing += 1
        total += seconds
        unknown += missing
        estimate = f"about {seconds / 60:.1f} min" + (f" (+ {missing} arms never run here)" if missing else "")
        lines.append(f"  {name}: {len(arms)} arms × {method.processes} processes = {runs} process runs; {estimate}")
    lines.append(f"  total: about {total / 60:.1f} min for the experiments' own processes"
                 + (f"; {unknown} arms have no history in this database, so the estimate is low" if unknown else ""))
    if options.budget is not None:
        lines.append(f"  budget: {options.budget / 60:.1f} min, builds included; sequential rounds fill what is left")
    for note in plan.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)
