"""The fleet's work queue, in PostgreSQL (docs/fleet.md): rounds of groups handed out with leases.

A work item is one round of one group: its arms, in the order to run them, each with the method and
iterations to run it with. It is `queued`, then `leased` to one worker (`FOR UPDATE SKIP LOCKED`, so
that workers claiming at once never wait on each other nor take the same item), then `done`; a
lease that ran out, or whose worker's connection ended, makes it `lost` and the coordinator hands its
arms out again as a new round; an item nobody took before the session stopped is `cancelled`.

A worker stores each process run in the transaction that checks it still holds the lease, so a run
is stored once, by the lease holder, whatever is retried: a worker that lost its lease (it hung, or
its connection broke for longer than its lease) finds out there and drops the run. `LISTEN/NOTIFY`
wakes idle workers when work is queued (`versus_work`) and the coordinator when a run is stored or a
worker enlists (`versus_done`); each also wakes on a timeout, so a lost notification costs a few
seconds, nothing else.

Clocks: leases are in the database's time (`clock_timestamp()`), never a host's.
"""
from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import StoreError
from . import RunRecord, Store, _json
from .postgres import PostgresBackend

NOW = "EXTRACT(EPOCH FROM clock_timestamp())::float8"
WORKER_LOCK = 0x776f726b  # "work": a worker holds its id while its connection lives
WORK, DONE = "versus_work", "versus_done"  # notification channels
QUEUED, LEASED, FINISHED, LOST, CANCELLED = "queued", "leased", "done", "lost", "cancelled"
LEASE_GRACE = 60.0  # seconds a lease outlasts the timeout of the process it covers


@dataclass
class WorkItem:
    id: int
    session_id: int
    leg: int
    group: int
    round: int
    sequential: bool
    arms: list[dict[str, Any]]  # each: arm (row id), index (in the plan), method, inner
    state: str = QUEUED
    worker_id: int | None = None
    token: str = ""
    lease_until: float = 0.0
    renewed: float = 0.0
    stored: int = 0

    @property
    def arm_ids(self) -> list[int]:
        return [int(entry["arm"]) for entry in self.arms]


@dataclass
class Enlisted:
    """A worker enlisted in a session: which of its arms that worker's host can run, and why not the rest."""

    worker_id: int
    name: str
    arms: set[int]
    notes: dict[str, str] = field(default_factory=dict)  # arm id → why this host cannot run it


_ITEM = "id, session_id, leg, grp, round, sequential, arms, state, worker_id, token, lease_until, renewed, stored"


def _item(row: Sequence[Any]) -> WorkItem:
    (id_, session, leg, group, round_, sequential, arms, state, worker, token, lease, renewed, stored) = row
    return WorkItem(int(id_), int(session), int(leg), int(group), int(round_), bool(sequential), json.loads(arms), state,
                    None if worker is None else int(worker), token, float(lease), float(renewed), int(stored))


class WorkQueue:
    def __init__(self, store: Store) -> None:
        if not isinstance(store.backend, PostgresBackend):
            raise StoreError(f"{store.name} is a SQLite file: hosts share a session only through PostgreSQL",
                             "give --db postgresql://USER:PASSWORD@HOST/DATABASE (docs/fleet.md)")
        self.store = store
        self.db: PostgresBackend = store.backend

    def now(self) -> float:
        return float(self.db.query(f"SELECT {NOW}")[0][0])

    def started(self) -> float:
        """When the PostgreSQL server last started (a lease renewed before it predates every reconnection)."""
        return float(self.db.query("SELECT EXTRACT(EPOCH FROM pg_postmaster_start_time())::float8")[0][0])

    def wait(self, timeout: float) -> list[str]:
        return self.db.wait(timeout)

    # the coordinator's side ---------------------------------------------------------------------
    def listen_done(self) -> None:
        self.db.listen(DONE)

    def enqueue(self, session_id: int, leg: int, group: int, round_: int, sequential: bool,
                arms: list[dict[str, Any]]) -> int:
        """A round of a group, queued; safe to run again after a lost connection (the round is unique)."""
        def add() -> int:
            found = self.db.insert(
                "INSERT INTO work (session_id, leg, grp, round, sequential, arms, state, created)"
                f" VALUES (?, ?, ?, ?, ?, ?, '{QUEUED}', {NOW}) ON CONFLICT (session_id, grp, round) DO NOTHING"
                " RETURNING id", (session_id, leg, group, round_, int(sequential), _json(arms)))
            if found is None:
                found = int(self.db.query("SELECT id FROM work WHERE session_id = ? AND grp = ? AND round = ?",
                                          (session_id, group, round_))[0][0])
            self.db.execute("SELECT pg_notify(?, ?)", (WORK, str(session_id)))
            return found

        return self.db.transact(add, "cannot queue work", retry=True)

    def items(self, session_id: int, states: Sequence[str] = (QUEUED, LEASED)) -> list[WorkItem]:
        rows = self.db.query(f"SELECT {_ITEM} FROM work WHERE session_id = ? AND state = ANY(?) ORDER BY id",
                             (session_id, list(states)))
        return [_item(r) for r in rows]

    def item(self, item_id: int) -> WorkItem:
        return _item(self.db.query(f"SELECT {_ITEM} FROM work WHERE id = ?", (item_id,))[0])

    def lose(self, item: WorkItem) -> bool:
        """Take a lease back (it ran out, or its worker is gone); False if the item moved on meanwhile."""
        return self.db.execute(f"UPDATE work SET state = '{LOST}' WHERE id = ? AND state = '{LEASED}' AND token = ?",
                               (item.id, item.token)) == 1

    def cancel(self, item_id: int) -> bool:
        return self.db.execute(f"UPDATE work SET state = '{CANCELLED}' WHERE id = ? AND state = '{QUEUED}'",
                               (item_id,)) == 1

    def cancel_queued(self, session_id: int) -> int:
        return self.db.execute(f"UPDATE work SET state = '{CANCELLED}' WHERE session_id = ? AND state = '{QUEUED}'",
                               (session_id,))

    def live_workers(self) -> set[int]:
        return self.db.held(WORKER_LOCK)

    def enlisted(self, session_id: int) -> list[Enlisted]:
        rows = self.db.query("SELECT e.worker_id, w.name, e.arms, e.notes FROM enlisted e JOIN workers w"
                             " ON w.id = e.worker_id WHERE e.session_id = ? ORDER BY e.worker_id", (session_id,))
        return [Enlisted(int(worker), name, set(json.loads(arms)), json.loads(notes)) for worker, name, arms, notes in rows]

    # a worker's side ------------------------------------------------------------------------------
    def register(self, name: str, details: dict[str, Any], versus: dict[str, Any]) -> int:
        """A worker's row, held (advisory lock) while its connection lives; a live worker of the same
        name is an error: a name is a host, and two hosts under one name would pool as one."""
        live = self.live_workers()
        if live:
            rows = self.db.query("SELECT id FROM workers WHERE name = ? AND id = ANY(?) AND stopped IS NULL",
                                 (name, sorted(live)))
            if rows:
                raise StoreError(f"a worker named {name} is already running on {self.store.name}",
                                 "give each worker its own --name (one per host)")
        worker = self.db.insert(f"INSERT INTO workers (name, details, versus, started, seen) VALUES (?, ?, ?, {NOW}, {NOW})"
                                " RETURNING id", (name, _json(details), _json(versus)))
        assert worker is not None

        def hold() -> None:  # now, and again after a reconnection: the lock goes with the connection
            self.db.hold(WORKER_LOCK, worker)

        self.db.on_connect(hold)
        return worker

    def stop(self, worker_id: int) -> None:
        self.db.execute(f"UPDATE workers SET stopped = {NOW} WHERE id = ?", (worker_id,))
        self.db.let_go(WORKER_LOCK, worker_id)

    def sessions_with_work(self) -> list[int]:
        rows = self.db.query(f"SELECT DISTINCT session_id FROM work WHERE state = '{QUEUED}' ORDER BY session_id")
        return [int(r[0]) for r in rows]

    def enlist(self, worker_id: int, session_id: int, arms: set[int], notes: dict[int, str]) -> None:
        self.db.execute("INSERT INTO enlisted (worker_id, session_id, arms, notes) VALUES (?, ?, ?, ?)"
                        " ON CONFLICT (worker_id, session_id) DO UPDATE SET arms = EXCLUDED.arms, notes = EXCLUDED.notes",
                        (worker_id, session_id, _json(sorted(arms)), _json({str(k): v for k, v in notes.items()})))
        self.db.execute(f"UPDATE workers SET seen = {NOW} WHERE id = ?", (worker_id,))
        self.db.execute("SELECT pg_notify(?, ?)", (DONE, str(session_id)))  # the coordinator may hand out more now

    def claim(self, worker_id: int, capable: dict[int, set[int]], lease: float) -> WorkItem | None:
        """The oldest queued item of these sessions whose arms this worker can all run, leased for
        `lease` seconds; None if there is none. Items other workers are claiming are skipped, not waited on."""
        if not capable:
            return None
        token = uuid.uuid4().hex

        def take() -> WorkItem | None:
            mine = self.db.query(f"SELECT {_ITEM} FROM work WHERE token = ? AND state = '{LEASED}'", (token,))
            if mine:  # a retry after a lost connection whose commit had gone through
                return _item(mine[0])
            rows = self.db.query(f"SELECT {_ITEM} FROM work WHERE state = '{QUEUED}' AND session_id = ANY(?)"
                                 " ORDER BY id LIMIT 50 FOR UPDATE SKIP LOCKED", (sorted(capable),))
            for row in rows:
                item = _item(row)
                if set(item.arm_ids) <= capable.get(item.session_id, set()):
                    self.db.execute(f"UPDATE work SET state = '{LEASED}', worker_id = ?, token = ?,"
                                    f" lease_until = {NOW} + ?, renewed = {NOW} WHERE id = ?",
                                    (worker_id, token, lease, item.id))
                    item.state, item.worker_id, item.token = LEASED, worker_id, token
                    return item
            return None

        return self.db.transact(take, "cannot claim work", retry=True)

    def renew(self, item: WorkItem, lease: float) -> bool:
        """Extend the lease by `lease` seconds from now; False if it is no longer this worker's."""
        return self.db.execute(f"UPDATE work SET lease_until = {NOW} + ?, renewed = {NOW}"
                               f" WHERE id = ? AND token = ? AND state = '{LEASED}'", (lease, item.id, item.token)) == 1

    def store_run(self, item: WorkItem, position: int, run: RunRecord, host: str, started: float, lease: float) -> bool:
        """The item's `position`-th process run, stored if and only if the lease is still this worker's,
        in one transaction with the item's progress (done after its last arm) and a notification to
        the coordinator. False: the lease was lost and the run is dropped."""
        entry = item.arms[position]
        last = position + 1 == len(item.arms)

        def put() -> bool:
            rows = self.db.query("SELECT state, token FROM work WHERE id = ? FOR UPDATE", (item.id,))
            if not rows or tuple(rows[0]) != (LEASED, item.token):
                return False
            # ON CONFLICT: a retry whose first commit had gone through finds its run stored already
            self.store.insert_run(int(entry["arm"]), item.round, run, host, item.leg, started, on_conflict=True)
            self.db.execute(f"UPDATE work SET stored = ?, state = ?, lease_until = {NOW} + ?, renewed = {NOW}"
                            " WHERE id = ?", (position + 1, FINISHED if last else LEASED, lease, item.id))
            self.db.execute("SELECT pg_notify(?, ?)", (DONE, str(item.session_id)))
            return True

        return self.db.transact(put, "cannot store a process run", retry=True)

    def give_back(self, item: WorkItem) -> None:
        """A worker that stops (Ctrl-C, SIGTERM) mid-round hands its lease back at once."""
        self.lose(item)
        self.db.execute("SELECT pg_notify(?, ?)", (DONE, str(item.session_id)))

    def listen_work(self) -> None:
        self.db.listen(WORK)
