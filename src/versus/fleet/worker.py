"""`versus worker`: one host's share of the sessions a PostgreSQL database holds (docs/fleet.md).

A worker enlists in each session that has work queued: it rebuilds the session's plan from what the
session stored, with the experiments of its own checkout (only where their content hash is the
session's) and the runtimes found or fetched on its own host, builds what the arms need, and tells
the coordinator which arms it can run and why not the others. Then it takes rounds it can run whole,
one at a time, and runs their processes one after another.

While a process is measured the worker does nothing else: no thread, no heartbeat, no query. Between
two processes it stores the one that ended and renews its lease for the next, in one transaction.
A worker that dies loses its lease with its connection, one that hangs when the lease runs out.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .. import __version__
from .. import experiment as experiments
from ..content import experiment_hash
from ..drivers import Driver, driver_for
from ..errors import UsageError, VersusError
from ..executor import Executor
from ..experiment import Experiment, Method
from ..host import host_metadata
from ..paths import SELFTEST_PROGRAM
from ..paths import experiments as experiments_folder
from ..record import StoredSession, load_arms, load_session, plan_of, stored_experiments, versus_info
from ..runner import Job, run_one
from ..store import Store
from ..store.work import LEASE_GRACE, WorkItem, WorkQueue

IDLE_WAIT = 10.0  # seconds an idle worker sleeps between looks if no notification wakes it


@dataclass
class Joined:
    """A session this worker enlisted in: its jobs by arm row id, and what it cannot run."""

    jobs: dict[int, Job] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)
    lease: float = LEASE_GRACE  # seconds a claim is leased for: the longest timeout of its methods, and grace


class Worker:
    def __init__(self, store: Store, name: str, executor: Executor, out: TextIO | None = None) -> None:
        self.store = store
        self.name = name
        self.executor = executor
        self.out = out  # None: the stderr of the moment (a default bound at import kept a stream closed since)
        self.queue = WorkQueue(store)
        self.joined: dict[int, Joined] = {}
        self.drivers: dict[str, Driver] = {}
        self.broken: dict[int, str] = {}
        self.current: WorkItem | None = None
        self.worker_id = 0
        self.stored = 0

    def say(self, text: str) -> None:
        print(f"versus worker {self.name}: {text}", file=self.out or sys.stderr, flush=True)

    def serve(self, idle_exit: float | None = None) -> int:
        self.worker_id = self.queue.register(self.name, host_metadata(), versus_info())
        self.queue.listen_work()
        self.say(f"serving {self.store.name} (versus {__version__})")
        idle_since = time.monotonic()
        try:
            while True:
                for session_id in self.queue.sessions_with_work():
                    if session_id not in self.joined:
                        self.joined[session_id] = self.enlist(session_id)
                capable = {s: set(j.jobs) for s, j in self.joined.items() if j.jobs}
                lease = max((j.lease for j in self.joined.values()), default=LEASE_GRACE)
                item = self.queue.claim(self.worker_id, capable, lease)
                if item is None:
                    if idle_exit is not None and time.monotonic() - idle_since >= idle_exit:
                        self.say(f"idle for {idle_exit:g} s: stopping after {self.stored} process runs")
                        return 0
                    self.queue.wait(IDLE_WAIT)
                    continue
                self.run(item)
                idle_since = time.monotonic()
        except KeyboardInterrupt:
            if self.current is not None:  # the round goes to another host at once, not when its lease ends
                self.queue.give_back(self.current)
            raise
        finally:
            try:
                self.queue.stop(self.worker_id)
            except VersusError:
                pass

    # enlisting ----------------------------------------------------------------------------------
    def enlist(self, session_id: int) -> Joined:
        session = load_session(self.store, session_id)
        planned_by = str(session.versus.get("version", ""))
        if planned_by != __version__:
            raise UsageError(f"session {session_id} was planned by versus {planned_by or '(unknown)'}; "
                             f"this worker is versus {__version__}",
                             f"install versus {planned_by} on this host (every host of a session runs the same "
                             "versus), then start the worker again")
        joined = Joined()
        stored = load_arms(self.store, session_id)
        try:
            loaded, missing = self._experiments(session)
            options = session.options_of(required=False)  # a selftest's trial stores no experiments list
            plan = plan_of(options, loaded) if loaded else None
        except VersusError as error:
            plan, missing = None, {name: error.message for name in session.definitions}
        arms = {arm.key: arm for arm in plan.arms} if plan else {}
        for row in stored:
            arm = arms.get(row.arm.key)
            if row.arm.experiment in missing:
                joined.notes[row.id] = missing[row.arm.experiment]
            elif arm is None:
                joined.notes[row.id] = f"{row.arm.runtime} is not found or fetchable on this host"
            else:
                try:
                    self._driver(arm.driver).prepare(arm, self.executor)
                except VersusError as error:
                    joined.notes[row.id] = f"prepare: {error.message}"
                    continue
                except Exception as error:  # a bug in a driver costs this host the arm, not the worker
                    joined.notes[row.id] = f"internal error preparing {arm.driver}: {type(error).__name__}: {error}"
                    continue
                method = (Method.model_validate(dict(row.method.stored)) if row.method.stored
                          else plan.methods[arm.experiment_name])  # type: ignore[union-attr]
                joined.jobs[row.id] = Job(arm, row.id, method, row.inner)
                joined.lease = max(joined.lease, method.timeout + LEASE_GRACE)
        self.store.add_host(session_id, self.name, host_metadata(), versus_info())
        self.queue.enlist(self.worker_id, session_id, set(joined.jobs), joined.notes)
        self.say(f"session {session_id}: can run {len(joined.jobs)} of its {len(stored)} arms"
                 + (f"; not: {_first(joined.notes)}" if joined.notes else ""))
        return joined

    def _experiments(self, session: StoredSession) -> tuple[list[Experiment], dict[str, str]]:
        """The session's experiments with this host's folders, where their files are the session's."""
        loaded, missing = [], {}
        for experiment in stored_experiments(session):
            definition = session.definitions[experiment.name]
            wanted = definition.hash
            folder = self._folder(experiment, wanted)
            if folder is None:
                missing[experiment.name] = (
                    f"this host has no experiment {experiment.name} with the session's files (content {wanted[:12]}): "
                    f"check out the commit the session ran ({definition.commit or 'not recorded'})")
                continue
            loaded.append(experiments.from_raw(experiment.raw, folder, f"session {session.id}: {experiment.name}"))
        return loaded, missing

    @staticmethod
    def _folder(experiment: Experiment, wanted: str) -> Path | None:
        """Where this host keeps the experiment: the session's own path if it is there (one checkout),
        else the folder of that name in this checkout's experiments/."""
        candidates = [experiment.path]
        try:
            candidates.append(experiments_folder() / experiment.path.name)
        except VersusError:
            pass
        if experiment.path.name == SELFTEST_PROGRAM.name:  # `versus selftest`'s, shipped with versus
            candidates.append(SELFTEST_PROGRAM)
        elif experiment.path.parent.name == SELFTEST_PROGRAM.name:  # and the experiments inside it
            candidates.append(SELFTEST_PROGRAM / experiment.path.name)
        for folder in candidates:
            if (folder / "experiment.toml").is_file() and (not wanted or experiment_hash(folder) == wanted):
                return folder
        return None

    def _driver(self, name: str) -> Driver:
        return self.drivers.setdefault(name, driver_for(name))

    # running --------------------------------------------------------------------------------------
    def run(self, item: WorkItem) -> None:
        joined = self.joined[item.session_id]
        self.current = item
        try:
            for position, entry in enumerate(item.arms):
                job = joined.jobs[int(entry["arm"])]
                job.method = Method.model_validate(entry["method"])
                job.inner = int(entry.get("inner") or 0) or job.inner
                run = run_one(self._driver(job.arm.driver), job, self.broken, self.executor)  # nothing else meanwhile
                started = time.time() - run.wall_ns / 1e9
                following = item.arms[position + 1]["method"] if position + 1 < len(item.arms) else None
                lease = float(following.get("timeout", 0)) + LEASE_GRACE if following else LEASE_GRACE
                if not self.queue.store_run(item, position, run, self.name, started, lease):
                    self.say(f"session {item.session_id}, round {item.round + 1}: the lease was taken back "
                             "(this worker hung, or lost PostgreSQL for longer than its lease); its run is dropped")
                    return
                self.stored += 1
                if job.inner == 0 and run.inner and job.method.inner == 0:
                    job.inner = run.inner  # calibrated here: this host's later processes of the arm reuse it
        finally:
            self.current = None


def _first(notes: dict[int, str]) -> str:
    text = next(iter(notes.values()))
    return text + (f" (and {len(notes) - 1} more)" if len(notes) > 1 else "")
