"""The results store: SQLite (the embedded default) or PostgreSQL (a team's lab), one schema.

Each process run is committed in one transaction. A session stands alone: it keeps the experiment
definitions as run (with their commit and content hash), its options and its plan, so `report`,
`compare`, `--resume` and `--more` read only the store, never today's files. On SQLite one run at a
time holds a database (a lock on the file, as JMH locks the machine); on PostgreSQL many sessions run
at once, each held by its coordinator (docs/fleet.md). Every SQL statement of versus lives in this
package. Whatever a database holds (an import of an older versus, a hand edit), its readers return
values of the types their callers use: what cannot be used is left out, and the session says so.
"""
from __future__ import annotations

import json
import math
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Required, TypedDict

from ..contention import Contention
from ..errors import StoreError
from .postgres import PostgresBackend, is_url
from .schema import SCHEMA_VERSION
from .sqlite import SQLiteBackend

DEFAULT_DB = Path("versus-results") / "versus.db"
LAST_TIME = 253370764800.0  # 9999-01-01 UTC: a date any time zone can show
STATUSES = ("running", "complete", "interrupted", "failed")
SESSION_LOCK = 0x73657373  # "sess": a coordinator holds its session (PostgreSQL advisory lock)

Target = Path | str  # a SQLite file, or a postgresql:// URL

__all__ = ["DEFAULT_DB", "LAST_TIME", "SCHEMA_VERSION", "STATUSES", "Leg", "RunRecord", "SessionEntry", "Store", "StoredRun",
           "Target", "is_url", "parse_target"]


def parse_target(text: str) -> Target:
    """`--db`: a postgresql:// (or postgres://) URL as it is, anything else a file path."""
    return text if is_url(text) else Path(text)


class SampleLike(Protocol):
    @property
    def ns(self) -> int: ...
    @property
    def inner(self) -> int: ...
    @property
    def warmup(self) -> bool: ...


class RunRecord(Protocol):
    """What the store keeps of a process run (a driver's ProcessRun, an imported one)."""

    @property
    def status(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def samples(self) -> Sequence[SampleLike]: ...
    @property
    def checks(self) -> Sequence[tuple[str, str, bool]]: ...
    @property
    def metrics(self) -> Sequence[tuple[str, float, str]]: ...
    @property
    def hello(self) -> Mapping[str, object]: ...
    @property
    def log_tail(self) -> str: ...
    @property
    def wall_ns(self) -> int: ...
    @property
    def exit_code(self) -> int | None: ...
    @property
    def contention(self) -> Contention | None: ...
    @property
    def started(self) -> float: ...


@dataclass
class StoredRun:
    id: int
    arm_id: int
    round: int
    status: str
    reason: str
    log_tail: str
    hello: dict[str, Any]
    samples: list[tuple[int, int, int, bool]]  # idx, ns, inner, warmup
    metrics: list[tuple[str, float, str]]
    wall_ns: int
    started: float = 0.0
    exit_code: int | None = None
    checks: list[tuple[str, str, bool]] | None = None
    host: str = ""  # the host that ran it ('' for runs stored before hosts were: the session's own)
    leg: int = 0  # the leg of its session that ran it (0 before legs were)
    contention: Contention | None = None  # what else the machine did meanwhile (None: not recorded)


class ArmRow(TypedDict, total=False):
    """An arm as `add_arm` stores it (record.row makes one): what a row needs, and what it may leave out."""

    experiment: Required[str]
    case: Required[str]
    runtime: Required[str]
    experiment_path: str
    variant: str
    runtime_info: dict[str, Any]
    params: dict[str, str]
    method: dict[str, Any]


@dataclass(frozen=True)
class Chosen:
    """One choice of the scheduler's sequential phase: the open item it ran next, why, and what it knew."""

    at: float  # when (seconds since the epoch)
    item: str  # "experiment claim-id: numerator ÷ denominator" (a comparison: "experiment: …")
    partners: list[str]  # open items that shared an arm and rode along
    rounds: int  # rounds asked before the next look
    have: int  # rounds the item's decision had
    target: int | None  # the look expected to decide it at today's estimate (None: on its threshold)
    seconds: float  # the decision's estimated process time
    rank: int  # 0 a comparison ≥ 2×, 1 a pair that decides its claim, 2 another, 3 on its threshold
    budget_left: float  # seconds
    open_items: int  # items still undecided


@dataclass(frozen=True)
class Leg:
    """One `versus run` that added rounds to a session: the first, a --resume, a --more."""

    number: int
    kind: str  # start / resume / more
    started: float
    finished: float | None
    argv: list[str]
    host: str  # the host that planned it (the coordinator's)
    budget: float | None
    stopped: str
    versus: dict[str, Any]


@dataclass(frozen=True)
class SessionEntry:
    """One line's worth of a session: `versus sessions`, the sessions index."""

    id: int
    created: float | None  # None: not a time a date can show
    finished: float | None
    status: str
    argv: list[str]
    imported: str  # the file it was imported from ('' for a session run here)
    arms: int
    runs: int
    failed: int  # process runs that did not succeed
    experiments: str  # their names, comma-separated, in the order of the arms


def _json(value: Any) -> str:
    """JSON that is JSON: NaN and infinities become null."""
    return json.dumps(_finite(value), allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def text(value: str) -> str:
    """Text as both backends keep it: PostgreSQL's text cannot hold NUL, so no store does."""
    return value.replace("\x00", "\ufffd")


class Store:
    def __init__(self, target: Target, create: bool = True, patience: float = 0.0, readonly: bool = False) -> None:
        """`patience`: seconds a PostgreSQL store keeps reconnecting after a lost connection (a
        worker's and a coordinator's); 0 makes a lost connection an error at once. `readonly`: for
        the commands that only read (report, sessions, compare, export, a dry run): nothing is
        written (a SQLite file is opened read-only, a PostgreSQL connection's transactions are
        read-only), but a database of an older schema is upgraded once first, as a run would."""
        self.target = target
        self.backend = self._open(target, create, patience, readonly)
        if readonly and isinstance(self.backend, SQLiteBackend) and self.backend.version() < SCHEMA_VERSION:
            self.backend.close()
            Store(target, patience=patience).close()
            self.backend = self._open(target, create, patience, readonly)
        self.name = self.backend.name
        try:
            before = self.backend.migrate()
        except StoreError:
            self.backend.close()
            raise
        if before < 3:
            self._upgrade_sessions()
        if readonly and isinstance(self.backend, PostgresBackend):
            self.backend.read_only()

    @staticmethod
    def _open(target: Target, create: bool, patience: float, readonly: bool) -> SQLiteBackend | PostgresBackend:
        if isinstance(target, str):
            return PostgresBackend(target, create, patience)
        return SQLiteBackend(target, create, readonly)

    @property
    def postgres(self) -> bool:
        return isinstance(self.backend, PostgresBackend)

    @property
    def path(self) -> Path:
        """The SQLite file (a PostgreSQL store has none: `name` says where it is)."""
        if isinstance(self.backend, SQLiteBackend):
            return self.backend.path
        raise StoreError(f"{self.name} is a PostgreSQL database, not a file", "use a SQLite --db for this")

    def _upgrade_sessions(self) -> None:
        """Sessions from before schema 3 kept no definitions: read them from disk once, now, and say so;
        where the folder is gone, record what the session lacks."""
        q = self.backend.query
        for (session_id,) in q("SELECT id FROM sessions WHERE upgrade = 1"):
            definitions: dict[str, Any] = {}
            missing = []
            for experiment, folder in q("SELECT DISTINCT experiment, experiment_path FROM arms WHERE session_id = ?",
                                        (session_id,)):
                file = Path(folder) / "experiment.toml"
                try:
                    definitions[experiment] = {"raw": tomllib.loads(file.read_text()), "path": folder,
                                               "commit": "", "note": "read from disk when the database moved to schema 3"}
                except (OSError, ValueError, RecursionError):
                    missing.append(experiment)
            lacks = (f"the definitions of {', '.join(missing)} (claims, baselines): their folders were gone when "
                     "this database moved to schema 3") if missing else ""
            self.backend.execute("UPDATE sessions SET definitions = ?, lacks = ?, upgrade = 0 WHERE id = ?",
                                 (_json(definitions), lacks, session_id))

    def close(self) -> None:
        self.backend.close()

    # one run at a time (SQLite), one coordinator a session (PostgreSQL) ---------------------------
    def acquire(self) -> None:
        """Hold a SQLite database for a run; a second run gets an error that names the holder. On
        PostgreSQL a coordinator holds its session instead (`hold`)."""
        if isinstance(self.backend, SQLiteBackend) and self.backend.held:
            return  # held already: its own session is running, not abandoned
        self.backend.acquire()
        if isinstance(self.backend, SQLiteBackend):
            self._mark_abandoned()

    def release(self) -> None:
        self.backend.release()

    def in_use(self) -> bool:
        """Whether a run (of another Store, or another process) holds a SQLite database now."""
        return isinstance(self.backend, SQLiteBackend) and self.backend.in_use()

    def _statuses(self) -> Callable[[int, Any], str]:
        """A session that says it is running while nothing runs it was stopped uncleanly (SIGKILL, a
        power cut): it is shown as interrupted, as the next run will mark it. On SQLite, nothing runs
        it when no run holds the file; on PostgreSQL, when no coordinator holds the session."""
        if isinstance(self.backend, SQLiteBackend):
            idle = not self.backend.in_use()
            return lambda session_id, stored: "interrupted" if str(stored) == "running" and idle else str(stored)
        running = self.coordinated()
        return lambda session_id, stored: ("interrupted" if str(stored) == "running" and session_id not in running
                                           else str(stored))

    def _mark_abandoned(self) -> None:
        """Holding the lock, no session can be running: one that says so was stopped uncleanly."""
        self.backend.execute("UPDATE sessions SET status = 'interrupted' WHERE status = 'running'")

    def hold(self, session_id: int) -> None:
        """PostgreSQL: be the one coordinator of this session while this connection lives."""
        if not isinstance(self.backend, PostgresBackend):
            return
        backend = self.backend
        if not backend.hold(SESSION_LOCK, session_id):
            raise StoreError(f"session {session_id} in {self.name} is being run by another coordinator "
                             f"({backend.holder(SESSION_LOCK, session_id)})",
                             "wait for it to finish, or stop that `versus run` first; its workers go on either way")
        # after a reconnection (PostgreSQL restarted), take it again: the lock went with the connection
        backend.on_connect(lambda: None if backend.hold(SESSION_LOCK, session_id) else None)

    def coordinated(self) -> set[int]:
        """Sessions whose coordinator is running now (PostgreSQL); on SQLite, none can be seen."""
        return self.backend.held(SESSION_LOCK) if isinstance(self.backend, PostgresBackend) else set()

    # sessions and arms -------------------------------------------------------------------------
    def new_session(self, seed: int, argv: list[str], host: dict[str, Any], options: dict[str, Any],
                    definitions: dict[str, Any] | None = None, plan: dict[str, Any] | None = None,
                    versus: dict[str, Any] | None = None, imported: str = "") -> int:
        """`imported`: the file an imported session came from ('' for a session run here); such a
        session is never resumed, whatever its stored options and status say."""
        session = self.backend.insert(
            "INSERT INTO sessions (created, status, seed, argv, host, options, definitions, plan, versus, upgrade,"
            " imported) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, 0, ?) RETURNING id",
            (time.time(), seed, _json(argv), _json(host), _json(options), _json(definitions or {}),
             _json(plan or {}), _json(versus or {}), text(imported)))
        assert session is not None
        return session

    def add_arm(self, session_id: int, position: int, row: ArmRow) -> int:
        arm = self.backend.insert(
            "INSERT INTO arms (session_id, position, experiment, experiment_path, case_name, runtime, runtime_info,"
            " params, method, variant) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (session_id, position, row["experiment"], row.get("experiment_path", ""), row["case"], row["runtime"],
             _json(row.get("runtime_info", {})), _json(row.get("params", {})), _json(row.get("method", {})),
             row.get("variant", "")))
        assert arm is not None
        return arm

    def set_inner(self, arm_id: int, inner: int) -> None:
        self.backend.execute('UPDATE arms SET "inner" = ? WHERE id = ?', (inner, arm_id))

    def finish_session(self, session_id: int, status: str) -> None:
        assert status in STATUSES
        self.backend.execute("UPDATE sessions SET status = ?, finished = ? WHERE id = ?", (status, time.time(), session_id))

    def restamp(self, session_id: int, created: float, finished: float | None, lacks: str = "") -> None:
        """An imported session keeps the times it had where it ran, and what it lacked there."""
        self.backend.execute("UPDATE sessions SET created = ?, finished = ?, lacks = ? WHERE id = ?",
                             (created, finished, text(lacks), session_id))

    def update_plan(self, session_id: int, plan: dict[str, Any]) -> None:
        self.backend.execute("UPDATE sessions SET plan = ? WHERE id = ?", (_json(plan), session_id))

    _SESSION = ("id", "created", "finished", "status", "seed", "argv", "host", "options", "definitions", "plan",
                "versus", "lacks", "imported")

    def session_row(self, session_id: int | None = None) -> dict[str, Any]:
        """The session's row (the newest where `session_id` is None), every value of its column's type:
        the database's edge, that record.load_session makes a StoredSession of."""
        if session_id is not None and not 0 <= session_id < 1 << 63:  # beyond either backend's integers: none such
            raise StoreError(f"{self.name} has no session {session_id}", "see `versus sessions`")
        query = f"SELECT {', '.join(self._SESSION)} FROM sessions"
        rows = (self.backend.query(query + " WHERE id = ?", (session_id,)) if session_id is not None
                else self.backend.query(query + " ORDER BY id DESC LIMIT 1"))
        if not rows:
            which = f"no session {session_id}" if session_id is not None else "no sessions yet"
            raise StoreError(f"{self.name} has {which}", "see `versus sessions`, or run `versus run EXPERIMENT`")
        session = dict(zip(self._SESSION, rows[0]))
        unreadable = []
        for key in ("argv", "host", "options", "definitions", "plan", "versus"):
            try:
                session[key] = json.loads(session[key])
            except (TypeError, ValueError, RecursionError):
                session[key] = None
            if not isinstance(session[key], list if key == "argv" else dict):
                unreadable.append(key)
                session[key] = [] if key == "argv" else {}
        session["status"] = self._statuses()(session["id"], session["status"])
        return _readable(session, unreadable)

    def newest_run(self) -> int | None:
        """The newest session run here (not imported): what `versus run --resume` without a number means."""
        rows = self.backend.query("SELECT id FROM sessions WHERE imported = '' ORDER BY id DESC LIMIT 1")
        return int(rows[0][0]) if rows else None

    def sessions(self) -> list[SessionEntry]:
        """One line's worth per session: id, times, status, experiments, arms, runs, failed runs."""
        rows = self.backend.query(
            "SELECT s.id, s.created, s.finished, s.status, s.argv, s.imported,"
            " (SELECT COUNT(*) FROM arms a WHERE a.session_id = s.id),"
            " (SELECT COUNT(*) FROM process_runs p JOIN arms a ON a.id = p.arm_id WHERE a.session_id = s.id),"
            " (SELECT COUNT(*) FROM process_runs p JOIN arms a ON a.id = p.arm_id WHERE a.session_id = s.id"
            "  AND p.status != 'ok')"
            " FROM sessions s ORDER BY s.id")
        experiments: dict[int, list[str]] = {}
        for session_id, experiment in self.backend.query("SELECT session_id, experiment FROM arms ORDER BY id"):
            names = experiments.setdefault(session_id, [])
            if str(experiment) not in names:
                names.append(str(experiment))
        status = self._statuses()
        return [SessionEntry(int(session_id), _time(created), _time(finished), status(session_id, state), _strings(argv),
                             str(imported or ""), int(arms), int(runs), int(failed),
                             ",".join(experiments.get(session_id, [])))
                for session_id, created, finished, state, argv, imported, arms, runs, failed in rows]

    def arm_rows(self, session_id: int) -> list[dict[str, Any]]:
        """The session's arm rows in order, every value of its column's type (record.load_arms)."""
        rows = self.backend.query(
            'SELECT id, position, experiment, experiment_path, case_name, runtime, runtime_info, params, method, "inner",'
            " variant FROM arms WHERE session_id = ? ORDER BY position", (session_id,))
        keys = ("id", "position", "experiment", "experiment_path", "case", "runtime", "runtime_info", "params",
                "method", "inner", "variant")
        arms = [dict(zip(keys, r)) for r in rows]
        for arm in arms:
            for key in ("runtime_info", "params", "method"):
                arm[key] = _loads(arm[key])
            info = arm["runtime_info"]
            if not isinstance(info.get("flags", []), list):
                info["flags"] = []
            info["flags"] = [str(f) for f in info.get("flags", [])]
            arm["params"] = {str(k): str(v) for k, v in arm["params"].items()}
            for key in ("experiment", "experiment_path", "case", "runtime", "variant"):
                arm[key] = str(arm[key])
        return arms

    # process runs ------------------------------------------------------------------------------
    def save_run(self, arm_id: int, round_: int, run: RunRecord, host: str = "", leg: int = 0,
                 retry: bool = False) -> None:
        """One transaction: a killed harness leaves either the whole process run or none of it. Its
        start is its end less its wall time (the store stamps a run as it arrives). With `retry`
        (PostgreSQL), a lost connection is made again and the run stored once: a second store of
        the same arm and round is then taken for the first's commit and left as it is."""
        started = time.time() - min(run.wall_ns, 10**15) / 1e9
        self.backend.transact(lambda: self.insert_run(arm_id, round_, run, host, leg, started, on_conflict=retry),
                              "cannot store a process run", retry=retry)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Several writes as one (an import): all of them or none."""
        with self.backend.transaction():
            yield

    def insert_run(self, arm_id: int, round_: int, run: RunRecord, host: str = "", leg: int = 0,
                   started: float | None = None, on_conflict: bool = False) -> int | None:
        """The inserts of one process run, within a transaction (save_run's, an import's, a worker's).
        `started` defaults to the run's own (an import's) or now. With `on_conflict`, a run already
        stored for this arm and round is left as it is and None returned (a worker's retry)."""
        when = started if started is not None else (run.started or time.time())
        run_id = self.backend.insert(
            "INSERT INTO process_runs (arm_id, round, started, status, reason, exit_code, wall_ns, hello, log_tail,"
            " host, leg, contention) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + (" ON CONFLICT (arm_id, round) DO NOTHING" if on_conflict else "") + " RETURNING id",
            (arm_id, round_, when, run.status, text(run.reason), run.exit_code, min(run.wall_ns, (1 << 63) - 1),
             _json(dict(run.hello)), text(run.log_tail), host, leg,
             run.contention.to_json() if run.contention is not None else ""))
        if run_id is None:
            return None
        self.backend.executemany("INSERT INTO samples (process_run_id, idx, warmup, ns, \"inner\") VALUES (?, ?, ?, ?, ?)",
                                 [(run_id, i, int(s.warmup), s.ns, s.inner) for i, s in enumerate(run.samples)])
        self.backend.executemany("INSERT INTO metrics (process_run_id, idx, name, value, unit) VALUES (?, ?, ?, ?, ?)",
                                 [(run_id, i, n, v, u) for i, (n, v, u) in enumerate(run.metrics)])
        self.backend.executemany("INSERT INTO checks (process_run_id, idx, value, expected, ok) VALUES (?, ?, ?, ?, ?)",
                                 [(run_id, i, text(v), text(e), int(ok)) for i, (v, e, ok) in enumerate(run.checks)])
        return run_id

    def run_ids(self, session_id: int) -> set[int]:
        return {int(r[0]) for r in self.backend.query(
            "SELECT p.id FROM process_runs p JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ?", (session_id,))}

    def runs(self, session_id: int, only: set[int] | None = None) -> list[StoredRun]:
        """The session's process runs in the order they were stored; `only` these ids, if given."""
        q = self.backend.query
        rows = q("SELECT p.id, p.arm_id, p.round, p.status, p.reason, p.log_tail, p.hello, p.wall_ns, p.started,"
                 " p.exit_code, p.host, p.leg, p.contention FROM process_runs p JOIN arms a ON a.id = p.arm_id"
                 " WHERE a.session_id = ?"
                 " ORDER BY p.id", (session_id,))
        if only is not None:
            rows = [r for r in rows if r[0] in only]
            if not rows:
                return []
        samples: dict[int, list[tuple[int, int, int, bool]]] = {}
        if isinstance(self.backend, SQLiteBackend):  # one query per run: no join, no sort in Python
            for run_id, *_ in rows:
                samples[run_id] = [(idx, ns, inner, warmup != 0) for idx, warmup, ns, inner in q(
                    'SELECT idx, warmup, ns, "inner" FROM samples WHERE process_run_id = ? ORDER BY idx', (run_id,))]
        else:  # over a network, one query whose order the server makes
            for run_id, idx, warmup, ns, inner in q(
                    'SELECT s.process_run_id, s.idx, s.warmup, s.ns, s."inner" FROM samples s JOIN process_runs p'
                    " ON p.id = s.process_run_id JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ?"
                    " ORDER BY s.process_run_id, s.idx", (session_id,)):
                samples.setdefault(run_id, []).append((idx, ns, inner, warmup != 0))
        metrics: dict[int, list[tuple[str, float, str]]] = {}
        for run_id, name, value, unit in q(
                "SELECT m.process_run_id, m.name, m.value, m.unit FROM metrics m JOIN process_runs p"
                " ON p.id = m.process_run_id JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ?"
                " ORDER BY m.process_run_id, m.idx", (session_id,)):
            metrics.setdefault(run_id, []).append((name, value, unit))
        checks: dict[int, list[tuple[str, str, bool]]] = {}
        for run_id, value, expected, ok in q(
                "SELECT c.process_run_id, c.value, c.expected, c.ok FROM checks c JOIN process_runs p"
                " ON p.id = c.process_run_id JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ?"
                " ORDER BY c.process_run_id, c.idx", (session_id,)):
            checks.setdefault(run_id, []).append((value, expected, bool(ok)))
        return [StoredRun(rid, arm_id, rnd, status, reason, tail, _loads(hello), samples.get(rid, []),
                          metrics.get(rid, []), wall, started, exit_code, checks.get(rid, []), host, leg,
                          Contention.from_json(contention))
                for rid, arm_id, rnd, status, reason, tail, hello, wall, started, exit_code, host, leg, contention in rows]

    def history(self, keys: list[tuple[str, str, str, str]]) -> dict[tuple[str, str, str, str], list[int]]:
        """Wall times (ns) of earlier successful process runs of arms with these (experiment, case,
        variant, runtime) identities, for `--dry-run`'s estimate."""
        wanted = set(keys)
        found: dict[tuple[str, str, str, str], list[int]] = {}
        for experiment, case, variant, runtime, wall in self.backend.query(
                "SELECT a.experiment, a.case_name, a.variant, a.runtime, p.wall_ns FROM process_runs p"
                " JOIN arms a ON a.id = p.arm_id WHERE p.status = 'ok'"):
            identity = (experiment, case, variant, runtime)
            if identity in wanted:
                found.setdefault(identity, []).append(wall)
        return found

    # legs and hosts ----------------------------------------------------------------------------
    def new_leg(self, session_id: int, kind: str, argv: list[str], host: str, budget: float | None,
                versus: dict[str, Any]) -> int:
        """The next leg of a session; its number (1 for the session's first)."""
        def add() -> int:
            rows = self.backend.query("SELECT COALESCE(MAX(number), 0) FROM legs WHERE session_id = ?", (session_id,))
            number = int(rows[0][0]) + 1
            self.backend.insert(
                "INSERT INTO legs (session_id, number, kind, started, argv, host, budget, versus)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (session_id, number, kind, time.time(), _json(argv), host, budget, _json(versus)))
            return number

        return self.backend.transact(add)

    def add_leg(self, session_id: int, leg: Leg) -> None:
        """A leg as it was recorded elsewhere (an import)."""
        self.backend.execute(
            "INSERT INTO legs (session_id, number, kind, started, finished, argv, host, budget, stopped, versus)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, leg.number, leg.kind, leg.started, leg.finished, _json(leg.argv), leg.host, leg.budget,
             leg.stopped, _json(leg.versus)))

    def finish_leg(self, session_id: int, number: int, stopped: str) -> None:
        self.backend.execute("UPDATE legs SET finished = ?, stopped = ? WHERE session_id = ? AND number = ?",
                             (time.time(), stopped, session_id, number))

    def legs(self, session_id: int) -> list[Leg]:
        rows = self.backend.query("SELECT number, kind, started, finished, argv, host, budget, stopped, versus FROM legs"
                                  " WHERE session_id = ? ORDER BY number", (session_id,))
        return [Leg(int(number), str(kind), _time(started) or 0.0, _time(finished), _strings(argv), str(host),
                    _count(budget, real=True), str(stopped), _loads(versus))
                for number, kind, started, finished, argv, host, budget, stopped, versus in rows]

    def add_choice(self, session_id: int, leg: int, chosen: Chosen) -> None:
        self.backend.execute(
            "INSERT INTO choices (session_id, leg, at, item, partners, rounds, have, target, seconds, rank, budget_left,"
            " open_items) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, leg, chosen.at, chosen.item, _json(chosen.partners), chosen.rounds, chosen.have, chosen.target,
             _real(chosen.seconds), chosen.rank, _real(chosen.budget_left), chosen.open_items))

    def choices(self, session_id: int) -> list[tuple[int, Chosen]]:
        """(leg, choice) in the order they were made."""
        rows = self.backend.query("SELECT leg, at, item, partners, rounds, have, target, seconds, rank, budget_left,"
                                  " open_items FROM choices WHERE session_id = ? ORDER BY id", (session_id,))
        return [(int(leg), Chosen(float(at), str(item), _strings(partners), int(rounds), int(have),
                                  None if target is None else int(target), float(seconds), int(rank),
                                  float(budget_left), int(open_)))
                for leg, at, item, partners, rounds, have, target, seconds, rank, budget_left, open_ in rows]

    def add_host(self, session_id: int, name: str, details: dict[str, Any], versus: dict[str, Any]) -> None:
        """A host that runs process runs of the session, with what it is; the first record of a name stays."""
        self.backend.execute("INSERT INTO hosts (session_id, name, details, versus, first_seen) VALUES (?, ?, ?, ?, ?)"
                             " ON CONFLICT (session_id, name) DO NOTHING",
                             (session_id, name, _json(details), _json(versus), time.time()))

    def hosts(self, session_id: int) -> dict[str, dict[str, Any]]:
        """Host name → its details, for the hosts recorded with the session."""
        rows = self.backend.query("SELECT name, details FROM hosts WHERE session_id = ? ORDER BY id", (session_id,))
        return {name: _loads(details) for name, details in rows}


def _time(value: Any) -> float | None:
    """A stored timestamp that a date can show, else None (shown as "?")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
            and 0 <= value <= LAST_TIME:
        return float(value)
    return None


def _readable(session: dict[str, Any], unreadable: list[str]) -> dict[str, Any]:
    """A stored session whose every value its readers can use, whatever the database holds (an
    import of an older versus, a hand edit): a value of the wrong type or out of range is left out
    and the session says what it lacks; `unreadable` names the parts that were, so it is not resumed."""
    session["created"], session["finished"] = _time(session["created"]), _time(session["finished"])
    session["status"], session["lacks"] = str(session["status"]), str(session["lacks"] or "")
    session["imported"] = str(session["imported"] or "")
    session["seed"] = session["seed"] if isinstance(session["seed"], int) else 0
    session["argv"] = [str(a) for a in session["argv"]]
    plan = session["plan"]
    methods = plan.get("methods")
    if "methods" in plan and not (isinstance(methods, dict) and all(
            isinstance(m, dict) and _count(m.get("processes", 1)) for m in methods.values())):
        unreadable.append("plan's methods")
        plan["methods"] = {}
    if "budget" in plan and plan["budget"] is not None and _count(plan["budget"], real=True) is None:
        unreadable.append("plan's budget")
        plan["budget"] = None
    if not isinstance(plan.get("notes", []), list):
        plan["notes"] = []
    plan["notes"] = [str(n) for n in plan.get("notes", [])]
    plan["stopped"] = str(plan.get("stopped") or "")
    session["unreadable"] = unreadable
    if unreadable:
        said = f"its {', '.join(unreadable)} (unreadable in the database)"
        session["lacks"] = f"{session['lacks']}; {said}" if session["lacks"] else said
    return session


def _count(value: Any, real: bool = False) -> float | None:
    """A positive count (or, `real`, a non-negative finite number), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float) if real else int):
        return None
    if not math.isfinite(value) or value < (0 if real else 1):
        return None
    return float(value)


def _real(value: float) -> float:
    """A finite number for a NOT NULL column: −1 stands for none (an unbounded budget)."""
    return value if math.isfinite(value) else -1.0


def _strings(text: str) -> list[str]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def _loads(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
