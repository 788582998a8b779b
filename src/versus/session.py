"""Start or resume a session: plan → store the arms → run the rounds."""
from __future__ import annotations

import sys
from dataclasses import asdict
from typing import Any

from . import experiment as experiments
from .errors import UsageError
from .executor import Executor
from .host import host_metadata
from .plan import Plan, make_plan
from .runner import Job, Progress, run_session
from .store import Store


def plan_from_options(options: dict[str, Any], fetch: bool = True) -> Plan:
    loaded = [experiments.load(experiments.find(name)) for name in options["experiments"]]
    return make_plan(loaded, options.get("runtimes"), options.get("cases"), options.get("quick", False),
                     options.get("method", {}), options.get("params"), fetch=fetch)


def _arm_row(plan: Plan, index: int) -> dict[str, Any]:
    arm = plan.arms[index]
    runtime = arm.runtime
    info = {"family": runtime.family, "version": runtime.version, "flags": list(runtime.flags),
            "jdk_version": runtime.jdk_version, "source": runtime.source, "executable": str(runtime.executable),
            "jar": str(runtime.jar or ""), "impl": runtime.details.get("impl", ""),
            "experiment_path": str(arm.experiment.path)}
    return {"experiment": arm.experiment_name, "experiment_path": str(arm.experiment.path), "case": arm.case.name,
            "runtime": runtime.name, "runtime_info": info, "params": dict(arm.params), "variant": arm.variant,
            "method": asdict(plan.methods[arm.experiment_name])}


def start(store: Store, options: dict[str, Any], seed: int, executor: Executor,
          progress: Progress | None = None) -> int:
    plan = plan_from_options(options)
    for note in plan.notes:
        print(f"versus: note: {note}", file=sys.stderr)
    session_id = store.new_session(seed, sys.argv, host_metadata(), {**options, "notes": plan.notes})
    jobs = [Job(arm, store.add_arm(session_id, i, _arm_row(plan, i)), plan.methods[arm.experiment_name], 0)
            for i, arm in enumerate(plan.arms)]
    _run(store, session_id, jobs, seed, executor, progress)
    return session_id


def resume(store: Store, session_id: int | None, executor: Executor, progress: Progress | None = None) -> int:
    session = store.session(session_id)
    if session["status"] == "complete":
        raise UsageError(f"session {session['id']} is already complete", "start a new one with `versus run`")
    plan = plan_from_options(session["options"])
    stored = store.arms(session["id"])
    if [(a.runtime.name, a.case.name, a.variant) for a in plan.arms] != \
            [(a["runtime"], a["case"], a["variant"]) for a in stored]:
        raise UsageError(f"session {session['id']} cannot be resumed: the runtimes found here differ from its plan",
                         "start a new session with `versus run`")
    jobs = [Job(arm, row["id"], plan.methods[arm.experiment_name], row["inner"]) for arm, row in zip(plan.arms, stored)]
    _run(store, session["id"], jobs, session["seed"], executor, progress)
    return int(session["id"])


def _run(store: Store, session_id: int, jobs: list[Job], seed: int, executor: Executor,
         progress: Progress | None) -> None:
    try:
        run_session(store, session_id, jobs, seed, executor, progress)
    except KeyboardInterrupt:
        store.finish_session(session_id, "interrupted")
        raise
    store.finish_session(session_id, "complete")
