"""Run what the scheduler asks for: one process run at a time, each stored as it finishes.

Nothing a driver does can end the session: a VersusError while preparing an arm (a failed build, a
missing program) fails every run of that arm with its reason; any other exception is a bug in
versus, stored as a failed process run with its traceback in the log tail, and the session goes on.
"""
from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from . import interrupts, judge, stats, steady
from .definitions import Arm, Method
from .drivers import FAILED, Driver, ProcessRun, driver_for, run_process
from .errors import StoreError, VersusError
from .executor import Completed, Executor, Spawned
from .scheduler import Batch, Budget, Scheduler
from .store import Store

MAX_WARMUP_FACTOR = 8  # extra warmup for arms whose processes did not settle: at most 8× the method's,
MAX_RAISED_WARMUP = 32  # and at most 32 samples (a method that already warms up 16 gets one doubling)
RAISE_ROUNDS = stats.FIRST_LOOK - 1  # rounds 0 and 1 may raise it: the rounds left out before the last
# raise (at most 2) never reach a look, so no α is spent on them


@dataclass
class Job:
    arm: Arm
    arm_id: int
    method: Method
    inner: int  # 0 until the first successful run calibrated it


class Progress(Protocol):
    def start(self, planned: int, done: int, budget: float | None) -> None: ...
    def preparing(self, job: Job) -> None:
        """An arm's first process run is about to build its program (javac, mvn, cargo, cc)."""

    def advance(self, job: Job, batch: Batch, run: ProcessRun, status: str) -> None: ...
    def stop(self) -> None: ...


class QuietProgress:
    def start(self, planned: int, done: int, budget: float | None) -> None: ...
    def preparing(self, job: Job) -> None: ...
    def advance(self, job: Job, batch: Batch, run: ProcessRun, status: str) -> None: ...
    def stop(self) -> None: ...


class Bounded:
    """The executor an arm's preparation gets: no build outlives the run's budget (a build's own
    limit is BUILD_TIMEOUT, 900 s, which a budget of 5 minutes must not wait for)."""

    def __init__(self, executor: Executor, budget: Budget) -> None:
        self.executor, self.budget = executor, budget

    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        left = self.budget.left()
        if left <= 0:
            return Completed(None, "", "the run's budget is spent", 0, timed_out=True)
        return self.executor.execute(argv, env, min(timeout, left), cwd)

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path | None = None) -> Spawned:
        return self.executor.spawn(argv, env, cwd)


def run_session(store: Store, jobs: list[Job], scheduler: Scheduler, executor: Executor,
                progress: Progress | None = None, on_run: Callable[[Job, ProcessRun], None] | None = None,
                host: str = "", leg: int = 0) -> None:
    """Runs what is not yet stored, on this host (stored with each run, and the session's leg).
    Ctrl-C propagates after the finished runs are safe in the store."""
    progress = progress or QuietProgress()
    drivers: dict[str, Driver] = {}
    broken: dict[int, str] = {}
    planned = sum(max(0, scheduler.initial_of(i) - len(scheduler.done[i])) for i in range(len(jobs)))
    progress.start(planned + sum(len(d) for d in scheduler.done.values()), sum(len(d) for d in scheduler.done.values()),
                   scheduler.budget.seconds)
    pending: dict[int, int] = {}  # more warmup for these arms, from their next round on
    prepared: set[int] = set()
    bounded = Bounded(executor, scheduler.budget)
    try:
        for batch in scheduler.batches():
            apply_raises(jobs, batch, pending)
            for index in batch.arms:
                job = jobs[index]
                driver = drivers.setdefault(job.arm.driver, driver_for(job.arm.driver))
                if index not in prepared:
                    prepared.add(index)
                    progress.preparing(job)
                run = run_one(driver, job, broken, executor, bounded)
                store.save_run(job.arm_id, batch.round, run, host, leg)
                learn(scheduler, jobs, index, batch, run, store, pending)
                if index in broken:
                    scheduler.broken.add(index)
                progress.advance(job, batch, run, status_line(scheduler))
                if on_run:
                    on_run(job, run)
    finally:
        progress.stop()


def status_line(scheduler: Scheduler) -> str:
    left = scheduler.budget.left()
    parts = []
    if left != float("inf"):
        parts.append(f"budget left {max(0.0, left) / 60:.1f} min")
    if scheduler.status.open_items or scheduler.status.decided:
        parts.append(f"{scheduler.status.open_claims} claims open")
    return " · ".join(parts)


def apply_raises(jobs: list[Job], batch: Batch, pending: dict[int, int]) -> None:
    """A warmup raise takes effect from the arm's next round: this batch's."""
    for index in batch.arms:
        if index in pending:
            jobs[index].method = jobs[index].method.model_copy(update={"warmup": pending.pop(index)})


def learn(scheduler: Scheduler, jobs: list[Job], index: int, batch: Batch, run: ProcessRun, store: Store,
          pending: dict[int, int]) -> None:
    """What the scheduler and later runs learn from a finished run: its facts, wall time, calibration,
    and whether its samples settled (if not, the arm's later processes warm up longer)."""
    job = jobs[index]
    scheduler.done[index].add(batch.round)
    scheduler.record_wall(index, run.wall_ns)
    if run.status == FAILED:
        return
    samples = [(s.ns, s.inner, s.warmup) for s in run.samples]
    scheduler.observations.setdefault(index, {})[batch.round] = judge.facts_of(
        samples, [(n, v) for n, v, _ in run.metrics], run.wall_ns, job.method.value)
    if job.inner == 0 and run.inner and job.method.inner == 0:
        job.inner = run.inner  # calibrated once; later processes of the arm reuse it
        store.set_inner(job.arm_id, job.inner)
    values = [s.ns / s.inner for s in run.samples]
    warm = sum(1 for s in run.samples if s.warmup)
    # Only with a budget: a fixed-size run keeps the method it was given (its unsteady processes are
    # reported as such), as pyperf and JMH do; a budgeted run may spend time on warmup. Only an arm's
    # first rounds may raise it: the analysis leaves out the rounds before the latest raise
    # (judge.settled), and a raise later would throw away rounds that looks were taken on.
    if (scheduler.budget.seconds is not None and batch.round < RAISE_ROUNDS
            and steady.still_warming(values, warm)):
        # Only this arm: the others of its group settled with the warmup they have, and a raise costs
        # every pair of the raised arm its rounds before it (judge.settled). Its partners need not warm
        # up alike: a ratio compares each arm's settled state, not equal numbers of warmup samples.
        base = scheduler.plan.methods[job.arm.experiment_name].warmup
        # Straight to 4× the method's, then 8×: fewer, larger steps reach a settled program in fewer
        # rounds than doublings from 1×, and every round before the last raise is left out.
        more = min(max(1, base) * MAX_WARMUP_FACTOR, max(max(1, base) * 4, job.method.warmup * 2))
        more = min(more, max(MAX_RAISED_WARMUP, base))
        if more > max(job.method.warmup, pending.get(index, 0)):
            pending[index] = more


def run_one(driver: Driver, job: Job, broken: dict[int, str], executor: Executor,
            builds: Executor | None = None) -> ProcessRun:
    """One process run of the job's arm; never raises but for Ctrl-C and a store that cannot write.
    `builds`: the executor of its preparation (Bounded: within the budget)."""
    interrupts.check()
    if job.arm_id in broken:
        return ProcessRun(FAILED, reason=broken[job.arm_id])
    started = time.perf_counter_ns()
    try:
        driver.prepare(job.arm, builds or executor)
    except VersusError as error:
        broken[job.arm_id] = f"prepare: {error.message}" + (f" ({error.hint})" if error.hint else "")
        return ProcessRun(FAILED, reason=broken[job.arm_id], wall_ns=time.perf_counter_ns() - started)
    except (KeyboardInterrupt, StoreError):
        raise
    except Exception as error:  # a bug in versus must not cost the other arms their results
        broken[job.arm_id] = f"internal error preparing {job.arm.driver}: {type(error).__name__}: {error}"
        return ProcessRun(FAILED, reason=broken[job.arm_id], log_tail=traceback.format_exc()[-4000:])
    try:
        run = run_process(driver, job.arm, job.method, job.inner or job.method.inner, executor)
    except (KeyboardInterrupt, StoreError):
        raise
    except VersusError as error:
        run = ProcessRun(FAILED, reason=f"{error.message}" + (f" ({error.hint})" if error.hint else ""))
    except Exception as error:
        run = ProcessRun(FAILED, reason=f"internal error in the {job.arm.driver} driver: {type(error).__name__}: {error}",
                         log_tail=traceback.format_exc()[-4000:])
    run.wall_ns = run.wall_ns or time.perf_counter_ns() - started
    return run

