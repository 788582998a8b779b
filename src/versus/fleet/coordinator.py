"""The coordinator of a session on PostgreSQL: the rounds the scheduler chooses, handed out to workers.

It does what `runner.run_session` does on one host, with workers in place of the driver: each batch
the scheduler yields (a round of a group) becomes a work item; each process run a worker stores is
learned as the local runner learns it (facts, wall time, calibration, warmup raises), so the
scheduler chooses the next rounds from everything stored. A batch's round is reserved when it is
handed out, so the next batch of its group gets the next round while this one runs elsewhere.

Leases: an item whose lease ran out, or whose worker's connection has been gone for LIVENESS
seconds (a worker killed with -9), is taken back and its arms handed out again as a new round of
their group (all of them, so that the new round is paired on one host; what the lost round stored
stays, and is stored once). Arms that no enlisted worker can run get a failed process run that says
so, once every live worker has enlisted. The coordinator itself runs nothing and measures nothing;
it wakes when a run is stored and every WAKE seconds.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from ..drivers import FAILED, ProcessRun
from ..protocol import SampleRecord
from ..runner import Job, Progress, QuietProgress, apply_raises, learn, status_line
from ..scheduler import Batch, Scheduler
from ..store import Store, StoredRun
from ..store.work import LEASED, LOST, QUEUED, Enlisted, WorkItem, WorkQueue

WAKE = 5.0  # seconds between looks when no run is stored
LIVENESS = 5.0  # a worker whose connection has been gone this long (after it renewed) has lost its lease
WAITING_NOTE_EVERY = 60.0  # seconds between "no worker yet" notes
MAX_PASSES = 3  # the scheduler asked again when runs that came in late reopened an item


def as_process_run(run: StoredRun) -> ProcessRun:
    """A stored run as the runner's learning and the progress line take it."""
    return ProcessRun(run.status, run.reason, [SampleRecord(ns, inner, warm) for _, ns, inner, warm in run.samples],
                      list(run.checks or []), list(run.metrics), dict(run.hello), run.log_tail, run.wall_ns, run.exit_code,
                      run.started)


@dataclass
class _State:
    items: dict[int, WorkItem] = field(default_factory=dict)  # queued or leased, by id
    gone_since: dict[int, float] = field(default_factory=dict)  # item id → when its worker was first seen gone
    seen: set[int] = field(default_factory=set)  # process runs learned
    broken: dict[int, str] = field(default_factory=dict)  # arm index → why no host runs it
    noted: float = 0.0


class Coordinator:
    def __init__(self, store: Store, session_id: int, leg: int, jobs: list[Job], scheduler: Scheduler,
                 progress: Progress | None = None) -> None:
        self.store = store
        self.session_id = session_id
        self.leg = leg
        self.jobs = jobs
        self.scheduler = scheduler
        self.progress = progress or QuietProgress()
        self.queue = WorkQueue(store)
        self.index_of = {job.arm_id: i for i, job in enumerate(jobs)}
        self.group_of = {arm: g for g, members in enumerate(scheduler.plan.groups) for arm in members}
        self.pending: dict[int, int] = {}  # warmup raises, from the arm's next round on
        self.state = _State()

    # the loop -----------------------------------------------------------------------------------
    def run(self) -> None:
        store, scheduler = self.store, self.scheduler
        store.hold(self.session_id)
        self.queue.listen_done()
        self.state.seen = store.run_ids(self.session_id)  # learned already (a resumed or continued session)
        for item in self.queue.items(self.session_id):  # handed out by an earlier coordinator: adopted
            self.state.items[item.id] = item
            self._reserve(item.group, item.round, [int(e["index"]) for e in item.arms])
        for item in self.queue.items(self.session_id, (LOST,)):
            # a round taken back stays taken: its other arms never run in it, on another host, unpaired
            self._reserve(item.group, item.round, [int(e["index"]) for e in item.arms])
        done = sum(len(d) for d in scheduler.done.values())
        self.progress.start(done + len(scheduler.plan.arms), done, scheduler.budget.seconds)
        self.state.noted = time.monotonic()
        try:
            for _ in range(MAX_PASSES):
                self._pass()
                decided = scheduler.status.reason == "every comparison and claim is decided"
                scheduler.evaluate()
                if not (decided and scheduler.status.open_items and scheduler.budget.left() > 0):
                    break
        finally:
            self.progress.stop()

    def _pass(self) -> None:
        batches = self.scheduler.batches()
        exhausted = False
        while True:
            self._learn_new()
            self._reclaim(hand_out=self.scheduler.budget.left() >= 0)
            live = self._live_enlisted()
            self._unrunnable(live)
            if self.scheduler.budget.left() < 0 and self.queue.cancel_queued(self.session_id):
                self._refresh()  # the budget is spent: nothing new starts, what runs finishes
            queued = sum(1 for item in self.state.items.values() if item.state == QUEUED)
            # once the budget is spent the scheduler ends at its next batch, saying why
            while not exhausted and queued < max(1, len(live)):
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                queued += self._hand_out(batch)
            if exhausted and not self.state.items:
                return
            self._note_waiting(live)
            self.queue.wait(WAKE)

    # handing out --------------------------------------------------------------------------------
    def _reserve(self, group: int, round_: int, arms: list[int]) -> None:
        for index in arms:
            self.scheduler.done[index].add(round_)

    def _next_round(self, group: int) -> int:
        """A new round for arms handed out again: after every round of the group so far, and after the
        rounds the scheduler's first phase numbers itself (0 to `initial_of` − 1), which it may not have
        handed out yet."""
        members = self.scheduler.plan.groups[group]
        first = max(self.scheduler.initial_of(a) for a in members)
        return max(first, 1 + max((r for a in members for r in self.scheduler.done[a]), default=-1))

    def _hand_out(self, batch: Batch) -> int:
        self._reserve(batch.group, batch.round, batch.arms)
        apply_raises(self.jobs, batch, self.pending)
        runnable = []
        for index in batch.arms:
            if index in self.state.broken:
                self._fail(index, batch.round, self.state.broken[index])
            else:
                runnable.append(index)
        if not runnable:
            return 0
        self._enqueue(batch.group, batch.round, batch.sequential, runnable)
        return 1

    def _enqueue(self, group: int, round_: int, sequential: bool, arms: list[int]) -> None:
        payload = [{"arm": self.jobs[i].arm_id, "index": i, "method": self.jobs[i].method.model_dump(),
                    "inner": self.jobs[i].inner} for i in arms]
        item_id = self.queue.enqueue(self.session_id, self.leg, group, round_, sequential, payload)
        self.state.items[item_id] = WorkItem(item_id, self.session_id, self.leg, group, round_, sequential, payload)

    def _fail(self, index: int, round_: int, reason: str) -> None:
        """A failed process run for an arm no host can run, stored as the runner stores a broken arm's."""
        self.store.save_run(self.jobs[index].arm_id, round_, ProcessRun(FAILED, reason=reason), "", self.leg, retry=True)

    # learning -----------------------------------------------------------------------------------
    def _refresh(self) -> None:
        self.state.items = {item.id: item for item in self.queue.items(self.session_id)}

    def _learn_new(self) -> None:
        new = self.store.run_ids(self.session_id) - self.state.seen
        if new:
            for run in self.store.runs(self.session_id, only=new):
                self.state.seen.add(run.id)
                index = self.index_of.get(run.arm_id)
                if index is None:
                    continue
                batch = Batch(run.round, [index], self.group_of.get(index, 0))
                process_run = as_process_run(run)
                learn(self.scheduler, self.jobs, index, batch, process_run, self.store, self.pending)
                where = f"on {run.host}" if run.host else ""
                status = " · ".join(filter(None, [where, status_line(self.scheduler)]))
                self.progress.advance(self.jobs[index], batch, process_run, status)
        self._refresh()

    def _reclaim(self, hand_out: bool) -> None:
        leased = [item for item in self.state.items.values() if item.state == LEASED]
        if not leased:
            return
        now, restarted, live = self.queue.now(), self.queue.started(), self.queue.live_workers()
        for item in leased:
            # A worker's lock says it is alive only once it has touched the database since the server
            # last started (a worker measuring through a restart reconnects when its process ends).
            gone = item.worker_id not in live and item.renewed > restarted
            if gone:
                self.state.gone_since.setdefault(item.id, time.monotonic())
            else:
                self.state.gone_since.pop(item.id, None)
            expired = now > item.lease_until
            dead = gone and time.monotonic() - self.state.gone_since[item.id] >= LIVENESS
            if not (expired or dead) or not self.queue.lose(item):
                continue
            self.state.items.pop(item.id, None)
            why = "its lease ran out" if expired else "its worker's connection ended"
            arms = [int(e["index"]) for e in item.arms]
            if hand_out:
                round_ = self._next_round(item.group)
                self._reserve(item.group, round_, arms)
                self._enqueue(item.group, round_, item.sequential, arms)
                print(f"versus: note: round {item.round + 1} of group {item.group + 1} was taken back ({why}); "
                      f"its arms run again as round {round_ + 1}", file=sys.stderr)

    def _live_enlisted(self) -> list[Enlisted]:
        live = self.queue.live_workers()
        return [worker for worker in self.queue.enlisted(self.session_id) if worker.worker_id in live]

    def _unrunnable(self, live: list[Enlisted]) -> None:
        """Queued items that no live worker can take, once every live worker has enlisted: the arms no
        host can run fail with the hosts' reasons; the rest run as a new round on the host that can
        run the most of them."""
        if not live or {w.worker_id for w in live} != self.queue.live_workers():
            return
        for item in [i for i in self.state.items.values() if i.state == QUEUED]:
            arms = set(item.arm_ids)
            if any(arms <= worker.arms for worker in live):
                continue
            if not self.queue.cancel(item.id):
                continue
            self.state.items.pop(item.id, None)
            best = max(live, key=lambda w: (len(arms & w.arms), -w.worker_id))
            kept = []
            for entry in item.arms:
                index, arm_id = int(entry["index"]), int(entry["arm"])
                if arm_id in best.arms:
                    kept.append(index)
                    continue
                if any(arm_id in worker.arms for worker in live):
                    reason = (f"no host runs it with the other arms of its round: {best.name} runs those; "
                              + ", ".join(w.name for w in live if arm_id in w.arms) + " runs it")
                else:
                    reasons = "; ".join(f"{w.name}: {w.notes.get(str(arm_id), 'not enlisted for it')}" for w in live)
                    reason = f"no host of this session can run it ({reasons})"
                self.state.broken[index] = reason
                self.scheduler.broken.add(index)
                self._fail(index, item.round, reason)
            if kept:
                round_ = self._next_round(item.group)
                self._reserve(item.group, round_, kept)
                self._enqueue(item.group, round_, item.sequential, kept)

    def _note_waiting(self, live: list[Enlisted]) -> None:
        if live or time.monotonic() - self.state.noted < WAITING_NOTE_EVERY:
            return
        self.state.noted = time.monotonic()
        print(f"versus: note: session {self.session_id} waits for workers: start `versus worker --db "
              f"{self.store.name}` on each host (they enlist once they have found and built the session's arms)",
              file=sys.stderr)


def coordinate(store: Store, session_id: int, leg: int, jobs: list[Job], scheduler: Scheduler,
               progress: Progress | None = None) -> None:
    Coordinator(store, session_id, leg, jobs, scheduler, progress).run()
