"""Schedule and run: rounds of process runs, each round in a fresh random order, stored as they finish."""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .drivers import FAILED, Driver, ProcessRun, driver_for
from .drivers.base import base_env
from .drivers.server import Running, ServerFailed, free_port, server_argv, serving
from .errors import VersusError
from .executor import Executor
from .experiment import Method
from .plan import Arm
from .store import Store


@dataclass
class Job:
    arm: Arm
    arm_id: int
    method: Method
    inner: int  # 0 until the first successful run calibrated it


class Progress(Protocol):
    def start(self, total: int, done: int) -> None: ...
    def advance(self, job: Job, round_: int, run: ProcessRun) -> None: ...
    def stop(self) -> None: ...


class QuietProgress:
    def start(self, total: int, done: int) -> None: ...
    def advance(self, job: Job, round_: int, run: ProcessRun) -> None: ...
    def stop(self) -> None: ...


def schedule(jobs: list[Job], rounds: int, seed: int) -> list[tuple[int, Job]]:
    """Every round holds one process run of each arm that has that many, in its own shuffled order."""
    rng = random.Random(seed)
    order: list[tuple[int, Job]] = []
    for round_ in range(rounds):
        batch = [job for job in jobs if round_ < job.method.processes]
        rng.shuffle(batch)
        order += [(round_, job) for job in batch]
    return order


def run_session(store: Store, session_id: int, jobs: list[Job], seed: int, executor: Executor,
                progress: Progress | None = None, on_run: Callable[[Job, ProcessRun], None] | None = None) -> None:
    """Runs what is not yet stored. Ctrl-C propagates after the finished runs are safe in the store."""
    progress = progress or QuietProgress()
    drivers: dict[str, Driver] = {}
    broken: dict[int, str] = {}
    rounds = max(job.method.processes for job in jobs)
    order = schedule(jobs, rounds, seed)
    done = {job.arm_id: store.done_rounds(job.arm_id) for job in jobs}
    todo = [(r, j) for r, j in order if r not in done[j.arm_id]]
    progress.start(len(order), len(order) - len(todo))
    try:
        for round_, job in todo:
            driver = drivers.setdefault(job.arm.driver, driver_for(job.arm.driver))
            run = _one(driver, job, broken, executor)
            store.save_run(job.arm_id, round_, run)
            if job.inner == 0 and run.status != FAILED and run.inner and job.method.inner == 0:
                job.inner = run.inner  # calibrated once; later processes of the arm reuse it
                store.set_inner(job.arm_id, job.inner)
            progress.advance(job, round_, run)
            if on_run:
                on_run(job, run)
    finally:
        progress.stop()


def _one(driver: Driver, job: Job, broken: dict[int, str], executor: Executor) -> ProcessRun:
    if job.arm_id in broken:
        return ProcessRun(FAILED, reason=broken[job.arm_id])
    try:
        driver.prepare(job.arm)
    except VersusError as error:
        broken[job.arm_id] = f"prepare: {error}"
        return ProcessRun(FAILED, reason=broken[job.arm_id])
    started = time.perf_counter_ns()
    if job.arm.case.server and driver.name != "load":
        run = _with_server(driver, job, executor)
    else:
        run = driver.run(job.arm, job.method, job.inner or job.method.inner, executor)
    run.wall_ns = run.wall_ns or time.perf_counter_ns() - started
    return run


def _with_server(driver: Driver, job: Job, executor: Executor) -> ProcessRun:
    """The case's server on a free loopback port for the length of one process run of its client."""
    arm = job.arm
    running = Running(free_port())
    fields = {**dict(arm.params), "runtime": str(arm.runtime.executable), "program": str(arm.program or ""),
              "classpath": str(driver.classpath(arm) or ""), "port": str(running.port), "case": arm.case.name}
    port_env = {"VERSUS_PORT": str(running.port)}
    env = {**base_env(arm), **port_env, "VERSUS_CASE": arm.case.name}
    try:
        argv = server_argv(arm.case.server, fields, arm.key)
        with serving(argv, env, arm.experiment.path, running):
            run = driver.run(arm, job.method, job.inner or job.method.inner, executor, port_env)
    except ServerFailed as failed:
        run = ProcessRun(FAILED, reason=f"server: {failed}")
    except VersusError as error:
        run = ProcessRun(FAILED, reason=f"server: {error}")
    server_log = [f"[server] {line}" for line in running.log.splitlines()[-20:]]
    run.log_tail = "\n".join(server_log + run.log_tail.splitlines()[-20:])
    return run

