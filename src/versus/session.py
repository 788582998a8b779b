"""Start, resume, continue or preview a session: plan → store the definitions and arms → run the rounds.

Each `versus run` that adds rounds to a session is a leg of it: the first, a --resume of an
interrupted one, a --more that goes on with a finished one under the same design. On a SQLite
database a leg runs its rounds on this host; on PostgreSQL it hands them out to the workers
(fleet.coordinator). Evidence is pooled only over unchanged programs: a session stores the content
hash of each experiment's files and of each runtime, and --more refuses where they changed.
"""
from __future__ import annotations

import contextlib
import os
import sys
import time
import tomllib

from . import judge
from .content import experiment_hash
from .errors import StoreError, UsageError, VersusError
from .executor import Executor, pinned_cpus
from .experiment import Experiment
from .fleet.coordinator import coordinate
from .history import learn
from .host import host_metadata, host_name
from .plan import Plan
from .record import (
    Options,
    StoredArm,
    StoredSession,
    arm_row,
    definitions_of,
    load_arms,
    load_session,
    plan_of,
    plan_record,
    runtime_hash,
    stored_experiments,
    versus_info,
)
from .rule import CURRENT, Rule
from .runner import Job, Progress, run_session
from .scheduler import Budget, Scheduler
from .store import Chosen, Store

MAX_SEED = (1 << 63) - 1


def start(store: Store, options: Options, seed: int, executor: Executor, progress: Progress | None = None,
          argv: list[str] | None = None) -> int:
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed {seed} is out of range", f"give a seed from 0 to {MAX_SEED}")
    started = time.monotonic()
    plan = plan_of(options)
    for name, method in plan.methods.items():
        if method.cpus and pinned_cpus(method.cpus) is None:
            usable = len(os.sched_getaffinity(0))
            raise UsageError(f"experiment {name} runs each process on cpus = {method.cpus}, and this host lets "
                             f"versus use {usable}", f"pass --cpus {usable} (or fewer), or run it on a host with more")
    for note in plan.notes:
        print(f"versus: note: {note}", file=sys.stderr)
    store.acquire()
    argv = argv if argv is not None else sys.argv
    # what the store's earlier sessions say of each pair's spread, fixed before the first round (history.py)
    rule = learn(store, plan.arms, plan.items, CURRENT, {name: m.model_dump() for name, m in plan.methods.items()})
    session_id = store.new_session(seed, argv, host_metadata(), options.stored(), definitions_of(plan),
                                   plan_record(plan, options, rule), versus_info())
    jobs = []
    for index, arm in enumerate(plan.arms):
        method = plan.methods[arm.experiment_name]
        jobs.append(Job(arm, store.add_arm(session_id, index, arm_row(arm, method)), method, 0))
    _run(store, session_id, plan, jobs, seed, executor, progress, Budget(options.budget, started), {},
         leg=("start", argv))
    return session_id


def _runnable(store: Store, session_id: int | None, what: str) -> StoredSession:
    """The session to resume or continue, held for this run; an error for one that cannot be."""
    store.acquire()
    session = resumable(store, session_id, what)
    store.hold(session.id)
    return session


def _rebuilt(store: Store, session: StoredSession, loaded: list[Experiment], what: str) -> tuple[Options, Plan, list[Job]]:
    options = _options_of(session, what)
    plan = plan_of(options, loaded)
    stored = load_arms(store, session.id)
    if [a.key for a in plan.arms] != [a.arm.key for a in stored]:
        raise Changed(f"session {session.id} cannot be {what}d: the runtimes found here differ from its plan",
                      "start a new session with `versus run`")
    jobs = [Job(arm, row_.id, plan.methods[arm.experiment_name], row_.inner) for arm, row_ in zip(plan.arms, stored)]
    return options, plan, jobs


def resume(store: Store, session_id: int | None, executor: Executor, progress: Progress | None = None,
           argv: list[str] | None = None) -> int:
    session = _runnable(store, session_id, "resume")
    loaded = stored_experiments(session)
    for experiment in loaded:
        _warn_if_changed(experiment, session.id)
    options, plan, jobs = _rebuilt(store, session, loaded, "resume")
    observations, done, walls = _observed(store, session.id, load_arms(store, session.id), session.plan.rule)
    spent = _spent(store, session)
    budget = Budget(None if options.budget is None else max(0.0, _budget_of(store, session, options) - spent))
    store.finish_session(session.id, "running")
    _run(store, session.id, plan, jobs, session.seed, executor, progress, budget, done, observations,
         leg=("resume", argv if argv is not None else sys.argv), walls=walls)
    return session.id


class Changed(UsageError):
    """A session's programs, definitions or runtimes differ from today's: its evidence cannot grow."""


def more(store: Store, session_id: int | None, executor: Executor, progress: Progress | None = None,
         budget: float | None = None, argv: list[str] | None = None) -> int:
    """Go on with a session (finished or interrupted) under its own design: the same arms, methods,
    seed-derived order and sequential looks, for `budget` seconds more (default: the session's own
    budget). Refused where an experiment's files, definition or a runtime changed since it ran."""
    started = time.monotonic()
    session = _runnable(store, session_id, "continue")
    loaded = _unchanged(session)
    options, plan, jobs = _rebuilt(store, session, loaded, "continue")
    _same_runtimes(store, session, plan)
    rule = session.plan.rule
    if not rule.sequential:
        raise Changed(f"session {session.id} ran its fixed number of processes and was judged once, at that "
                      "size: more rounds would judge it again and break its error rate",
                      "start a new session with --budget: a budgeted session is sequential, and may go on")
    seconds = budget if budget is not None else options.budget
    if seconds is None:
        raise UsageError(f"session {session.id} ran without a budget: more rounds need one",
                         f"give it: versus run --more {session.id} --budget 30m")
    observations, done, walls = _observed(store, session.id, load_arms(store, session.id), rule)
    store.finish_session(session.id, "running")
    _run(store, session.id, plan, jobs, session.seed, executor, progress, Budget(seconds, started), done,
         observations, leg=("more", argv if argv is not None else sys.argv), walls=walls)
    return session.id


def _unchanged(session: StoredSession) -> list[Experiment]:
    """The session's experiments, if and only if their folders' files (experiment.toml and every
    program; content hash) are today what the session ran."""
    loaded = stored_experiments(session)
    for experiment in loaded:
        definition = session.definitions[experiment.name]
        stored = definition.hash
        if not stored:
            raise Changed(f"session {session.id} predates content hashes: whether its programs are today's "
                          "cannot be told", "start a new session with `versus run`")
        today = experiment_hash(experiment.path)
        if today != stored:
            raise Changed(f"session {session.id} cannot go on: the files of experiment {experiment.name} "
                          f"({experiment.path}) changed since it ran (content {stored[:12]} then, "
                          f"{today[:12] or 'unreadable'} now)",
                          "evidence of changed programs is never pooled: start a new session with `versus run`, "
                          f"or check out the commit it ran ({definition.commit or 'not recorded'})")
    return loaded


def _same_runtimes(store: Store, session: StoredSession, plan: Plan) -> None:
    for arm, stored in zip(plan.arms, load_arms(store, session.id)):
        then = stored.runtime.hash
        if not then:
            raise Changed(f"session {session.id} predates content hashes: whether its runtimes are today's "
                          "cannot be told", "start a new session with `versus run`")
        now = runtime_hash(arm)
        if now != then:
            raise Changed(f"session {session.id} cannot go on: runtime {arm.runtime.name} changed since it ran "
                          f"({arm.runtime.jar or arm.runtime.executable}: content {then[:12]} then, {now[:12] or 'missing'} now)",
                          "evidence of a changed runtime is never pooled: start a new session with `versus run`")


def continue_or_start(store: Store, options: Options, seed: int, executor: Executor,
                      progress: Progress | None = None, argv: list[str] | None = None) -> int:
    """`versus run EXPERIMENTS … --more`: go on with the newest session of these same experiments and
    options (the budget aside), or start one where there is none or its programs changed (saying so)."""
    wanted = {k: v for k, v in options.stored().items() if k != "budget"}
    for entry in reversed(store.sessions()):
        session = load_session(store, entry.id)
        if session.imported or session.unreadable:  # history, or a session no run can go on with
            continue
        if {k: v for k, v in session.options.items() if k != "budget"} != wanted:
            continue
        try:
            return more(store, session.id, executor, progress, options.budget, argv)
        except Changed as error:
            store.release()
            print(f"versus: note: {error.message}; a new session starts", file=sys.stderr)
            break
    else:
        print("versus: note: no earlier session of these experiments and options in "
              f"{store.name}: a new session starts", file=sys.stderr)
    return start(store, options, seed, executor, progress, argv)


def resumable(store: Store, session_id: int | None, what: str = "resume") -> StoredSession:
    """The session `--resume [N]` (or, `what` "continue", `--more [N]`) means, when it can be run
    again; else a UsageError that says why. A complete session is resumed no more: it may go on."""
    if session_id is None:  # the newest session run here: an imported one is never a default
        session_id = store.newest_run()
        if session_id is None:
            raise UsageError(f"{store.name} has no session that was run here to {what} (imported sessions are "
                             "history, never resumed)", "start a new one with `versus run EXPERIMENT`")
    session = load_session(store, session_id)
    if session.imported:
        # Its options, status and definitions came from a file: data to report, never a plan to run.
        raise UsageError(f"session {session.id} was imported from {session.imported}: an imported session "
                         f"is never {what}d, whatever its file says", "start a new one with `versus run EXPERIMENT`")
    if session.unreadable:
        raise UsageError(f"session {session.id} cannot be {what}d: {session.lacks}",
                         "report it with `versus report`; start a new one with `versus run`")
    if what == "resume" and session.status == "complete":
        raise UsageError(f"session {session.id} is already complete",
                         f"go on with more rounds: versus run --more {session.id} --budget 30m, "
                         "or start a new one with `versus run`")
    if session.options.get("import") or session.options.get("selftest"):
        raise UsageError(f"session {session.id} was imported or is a selftest: there is nothing to {what}",
                         "start a new one with `versus run`")
    if not session.definitions:
        raise UsageError(f"session {session.id} predates stored definitions and cannot be {what}d",
                         "start a new one with `versus run`")
    return session


def _options_of(session: StoredSession, what: str = "resume") -> Options:
    try:
        return session.options_of()
    except TypeError:  # an option it needs is not stored
        raise UsageError(f"session {session.id} stored no complete options and cannot be {what}d",
                         "start a new one with `versus run`") from None


def resume_dry_run(store: Store, session_id: int | None) -> str:
    """`versus run --resume [N] --dry-run`: the plan of the session that would be resumed, not a new one."""
    session = resumable(store, session_id)
    stored = len(store.runs(session.id))
    return (f"versus run --resume {session.id} (dry run): session {session.id} ({session.status}) has "
            f"{stored} process runs stored and goes on with its own plan:\n"
            + dry_run(store, _options_of(session), stored_experiments(session)))


def _warn_if_changed(experiment: Experiment, session_id: int) -> None:
    file = experiment.path / "experiment.toml"
    try:
        today = tomllib.loads(file.read_text())
    except (OSError, ValueError, RecursionError):
        return
    if today != experiment.raw:
        print(f"versus: note: {file} changed since session {session_id} started; resuming with the definition "
              "stored with the session", file=sys.stderr)


def _observed(store: Store, session_id: int, stored: list[StoredArm],
              rule: Rule) -> tuple[judge.Observations, dict[int, set[int]], dict[int, list[int]]]:
    """What the stored runs tell a continued session's scheduler: each arm's facts by round, its rounds
    done, and its wall times (what a round of it costs: a --more leg that did not know them priced every
    arm it had not run yet at the median of the ones it had, and never went back to condvar's 0.4 s
    arms)."""
    index_of = {row_.id: i for i, row_ in enumerate(stored)}
    observations: judge.Observations = {}
    done: dict[int, set[int]] = {i: set() for i in range(len(stored))}
    walls: dict[int, list[int]] = {}
    for run in store.runs(session_id):
        arm = index_of[run.arm_id]
        done[arm].add(run.round)
        walls.setdefault(arm, []).append(run.wall_ns)
        if run.status == "ok":
            observations.setdefault(arm, {})[run.round] = judge.facts_of(
                [(ns, inner, warm) for _, ns, inner, warm in run.samples], [(n, v) for n, v, _ in run.metrics], run.wall_ns,
                judge.stored_value(stored[arm].method.value, rule))
    return observations, done, walls


def _budget_leg(store: Store, session: StoredSession) -> int:
    """The leg whose budget a resume finishes: the latest that started or continued the session."""
    legs = [leg for leg in store.legs(session.id) if leg.kind in ("start", "more")]
    return legs[-1].number if legs else 0


def _budget_of(store: Store, session: StoredSession, options: Options) -> float:
    number = _budget_leg(store, session)
    leg = next((g for g in store.legs(session.id) if g.number == number), None)
    return float(leg.budget) if leg is not None and leg.budget is not None else float(options.budget or 0.0)


def _spent(store: Store, session: StoredSession) -> float:
    """Budget spent by the legs since the one being finished started (the whole session before legs)."""
    number = _budget_leg(store, session)
    since = next((g.started for g in store.legs(session.id) if g.number == number), session.created or 0.0)
    runs = [r for r in store.runs(session.id) if r.leg >= number]
    return max((r.started + r.wall_ns / 1e9 for r in runs), default=since) - since


def _run(store: Store, session_id: int, plan: Plan, jobs: list[Job], seed: int, executor: Executor,
         progress: Progress | None, budget: Budget, done: dict[int, set[int]],
         observations: judge.Observations | None = None, leg: tuple[str, list[str]] = ("start", []),
         walls: dict[int, list[int]] | None = None) -> None:
    rule = load_session(store, session_id).plan.rule  # judged as analyze will judge it
    kind, argv = leg
    number = store.new_leg(session_id, kind, argv, host_name(), budget.seconds, versus_info())
    # each leg its own order of arms within rounds: a continued session does not replay its first leg's
    order = seed if number <= 1 or kind == "resume" else (seed + 1_000_003 * (number - 1)) % (MAX_SEED + 1)
    scheduler = Scheduler(plan, observations or {}, order, budget, done or None, rule=rule)
    for arm, arm_walls in (walls or {}).items():
        for wall in arm_walls:
            scheduler.record_wall(arm, wall)
    scheduler.on_choice = lambda chosen: _trace(store, session_id, number, chosen)
    try:
        if store.postgres:
            coordinate(store, session_id, number, jobs, scheduler, progress)
        else:
            store.add_host(session_id, host_name(), host_metadata(), versus_info())
            run_session(store, jobs, scheduler, executor, progress, host=host_name(), leg=number)
    except BaseException:
        # Ctrl-C, a full disk, a bug: every finished process run is stored; the session can be resumed.
        _record_stop(store, session_id, scheduler.status.reason or "interrupted")
        _finish_leg(store, session_id, number, scheduler.status.reason or "interrupted")
        store.finish_session(session_id, "interrupted")
        store.release()
        raise
    _record_stop(store, session_id, scheduler.status.reason)
    _finish_leg(store, session_id, number, scheduler.status.reason)
    store.finish_session(session_id, "complete")
    store.release()


def _trace(store: Store, session_id: int, leg: int, chosen: Chosen) -> None:
    """The scheduler's choice, for `versus lab schedule`; a trace that cannot be stored (PostgreSQL
    away for a moment) is left out rather than stopping the rounds it explains."""
    with contextlib.suppress(StoreError):
        store.add_choice(session_id, leg, chosen)


def _finish_leg(store: Store, session_id: int, number: int, reason: str) -> None:
    try:
        store.finish_leg(session_id, number, reason)
    except VersusError:
        pass


def _record_stop(store: Store, session_id: int, reason: str) -> None:
    try:
        store.update_plan(session_id, load_session(store, session_id).plan.with_stopped(reason))
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
