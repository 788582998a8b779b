"""A session's stored record: what `versus run` was asked (its options), the experiments' definitions
and content hashes, each arm's row and the plan with its rule. One shape, read by the run that stores
it, by --resume and --more, by the workers of a fleet, by imports and by the selftest; and the
experiments exactly as a stored session ran them.
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import __version__
from . import experiment as experiments
from .arms import ArmId
from .content import experiment_hash, file_hash
from .errors import UsageError, VersusError
from .experiment import Experiment
from .plan import Arm, Plan, make_plan
from .rule import CURRENT, Rule


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


def arm_row(arm: Arm, method: dict[str, Any]) -> dict[str, Any]:
    runtime = arm.runtime
    info = {"family": runtime.family, "version": runtime.version, "flags": list(runtime.flags),
            "jdk_version": runtime.jdk_version, "source": runtime.source, "executable": str(runtime.executable),
            "jar": str(runtime.jar or ""), "impl": runtime.details.get("impl", ""),
            "hash": runtime_hash(arm)}
    return row(arm.id, str(arm.experiment.path), info, dict(arm.params), method)


def runtime_hash(arm: Arm) -> str:
    """The runtime's executable and jar, as bytes: a runtime that changed under the same name differs."""
    return file_hash(arm.runtime.executable, arm.runtime.jar)


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
    was a value, which read them. "initial_rounds": the rounds every arm runs before the scheduler
    chooses (one with a budget: `Scheduler.initial_of`), for the analyses that weigh a run's schedule."""
    rule = rule.replace(sequential=options.budget is not None if sequential is None else sequential)
    return {"methods": {k: m.model_dump() for k, m in plan.methods.items()}, "params": plan.params,
            "budget": options.budget, "notes": plan.notes, "settled": rule.settle,
            "intersection_union": rule.intersection_union, "rule": rule.to_dict(),
            "initial_rounds": 1 if options.budget is not None else None}


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
