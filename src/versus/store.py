"""SQLite store, WAL mode, versioned schema. Each process run is committed in one transaction.

A session stands alone: it keeps the experiment definitions as run (with their commit), its options
and its plan, so `report`, `compare` and `--resume` read only the store, never today's files.
One run at a time holds a database (a lock file beside it, as JMH locks the machine).
"""
from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import math
import os
import sqlite3
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import quote

from .errors import StoreError, UsageError

DEFAULT_DB = Path("versus-results") / "versus.db"

# Each entry migrates from version i to i + 1. Never edit a released entry; append a new one.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY, created REAL NOT NULL, finished REAL, status TEXT NOT NULL,
        seed INTEGER NOT NULL, argv TEXT NOT NULL, host TEXT NOT NULL, options TEXT NOT NULL);
    CREATE TABLE arms (
        id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id), position INTEGER NOT NULL,
        experiment TEXT NOT NULL, experiment_path TEXT NOT NULL, case_name TEXT NOT NULL,
        runtime TEXT NOT NULL, runtime_info TEXT NOT NULL, params TEXT NOT NULL, method TEXT NOT NULL,
        inner INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE process_runs (
        id INTEGER PRIMARY KEY, arm_id INTEGER NOT NULL REFERENCES arms(id), round INTEGER NOT NULL,
        started REAL NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL, exit_code INTEGER,
        wall_ns INTEGER NOT NULL, hello TEXT NOT NULL, log_tail TEXT NOT NULL, UNIQUE (arm_id, round));
    CREATE TABLE samples (
        process_run_id INTEGER NOT NULL REFERENCES process_runs(id), idx INTEGER NOT NULL,
        warmup INTEGER NOT NULL, ns INTEGER NOT NULL, inner INTEGER NOT NULL);
    CREATE TABLE metrics (
        process_run_id INTEGER NOT NULL REFERENCES process_runs(id), idx INTEGER NOT NULL,
        name TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL);
    CREATE TABLE checks (
        process_run_id INTEGER NOT NULL REFERENCES process_runs(id), idx INTEGER NOT NULL,
        value TEXT NOT NULL, expected TEXT NOT NULL, ok INTEGER NOT NULL);
    CREATE INDEX samples_by_run ON samples(process_run_id);
    CREATE INDEX metrics_by_run ON metrics(process_run_id);
    CREATE INDEX runs_by_arm ON process_runs(arm_id);
    """,
    # 2: parameter sweeps; an arm's variant names its swept parameter values.
    "ALTER TABLE arms ADD COLUMN variant TEXT NOT NULL DEFAULT '';",
    # 3: sessions stand alone (definitions as run, the plan, versus's version); what an old one lacks.
    """
    ALTER TABLE sessions ADD COLUMN definitions TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE sessions ADD COLUMN plan TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE sessions ADD COLUMN versus TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE sessions ADD COLUMN lacks TEXT NOT NULL DEFAULT '';
    ALTER TABLE sessions ADD COLUMN upgrade INTEGER NOT NULL DEFAULT 1;
    """,
    # 4: where an imported session came from, set by the import itself and never read from the file:
    # an imported session is history, never resumable. Earlier imports are known by their options
    # (JMH, hyperfine, pyperf) or by arms without a folder (versus documents; a run's arms have one).
    """
    ALTER TABLE sessions ADD COLUMN imported TEXT NOT NULL DEFAULT '';
    UPDATE sessions SET imported = 'a file (imported before versus recorded which)'
     WHERE (CASE WHEN json_valid(options) THEN json_extract(options, '$.import') END) IS NOT NULL
        OR id NOT IN (SELECT session_id FROM arms WHERE experiment_path != '');
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
STATUSES = ("running", "complete", "interrupted", "failed")

P = ParamSpec("P")
R = TypeVar("R")


def _guarded(method: Callable[P, R]) -> Callable[P, R]:
    """A damaged or full database is an error with a way out, never a traceback."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as error:
            store = args[0]
            raise StoreError(f"the results database {getattr(store, 'path', '?')} failed: {error}",
                             _hint_for(error)) from None

    return wrapper


def _hint_for(error: sqlite3.Error) -> str:
    text = str(error).lower()
    if "full" in text or "disk" in text:
        return "free some disk space; every process run committed so far is kept (continue with --resume)"
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return "move the file aside and start a new one with --db PATH (sqlite3's .recover may save the rest)"
    if "locked" in text or "busy" in text:
        return "another process is writing it; wait, or use another --db"
    return "give another file with --db PATH, or move this one aside"


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


class Store:
    def __init__(self, path: Path, create: bool = True, readonly: bool = False) -> None:
        """`readonly`: for the commands that only read (report, sessions, compare, export, a dry run):
        nothing is written, so a database on a read-only file system or a full disk can be reported."""
        self.path = path
        self._lock_fd: int | None = None
        self._held = False
        if path.exists() and not path.is_file():
            raise UsageError(f"--db {path} is not a file (a {_kind(path)})",
                             "give --db the path of a results database, or of a file to create")
        if (not create or readonly) and not path.exists():
            raise StoreError(f"there is no results database at {path}",
                             "run `versus run EXPERIMENT` first, or point --db at an existing one")
        if readonly:
            self.db = self._open_readonly()
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot make the folder of {path}: {error}", "give another --db PATH") from None
        try:
            self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the results database {path}: {error}", _hint_for(error)) from None

    def _open_readonly(self) -> sqlite3.Connection:
        """`mode=ro`; where SQLite cannot make the WAL's index beside the file (a read-only file system,
        a full disk), `immutable=1`, which is sound only without a WAL holding commits the file lacks."""
        address = f"file:{quote(str(self.path.absolute()))}"
        wal = self.path.with_name(self.path.name + "-wal")
        error: sqlite3.Error | None = None
        for mode in ("mode=ro", "immutable=1"):
            if mode == "immutable=1" and wal.exists() and wal.stat().st_size > 0:
                break
            try:
                db = sqlite3.connect(f"{address}?{mode}", uri=True, isolation_level=None, timeout=30)
                version = db.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.Error as failed:
                error = failed
                continue
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} has schema version {version}, newer than this versus ({SCHEMA_VERSION})",
                                 "upgrade versus, or use another --db")
            if version < SCHEMA_VERSION:  # once, to read it: the upgrade is a write, as a run would make
                db.close()
                Store(self.path).close()
                return self._open_readonly()
            return db
        raise StoreError(f"cannot open the results database {self.path} to read it: {error}",
                         _hint_for(error) if error else "")

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} has schema version {version}, newer than this versus ({SCHEMA_VERSION})",
                             "upgrade versus, or use another --db")
        for number in range(version, SCHEMA_VERSION):
            # One script, one transaction: a migration applies whole or not at all.
            self.db.executescript(f"BEGIN IMMEDIATE;\n{MIGRATIONS[number]}\nPRAGMA user_version={number + 1};\nCOMMIT;")
        if version < 3:
            self._upgrade_sessions()

    def _upgrade_sessions(self) -> None:
        """Sessions from before schema 3 kept no definitions: read them from disk once, now, and say so;
        where the folder is gone, record what the session lacks."""
        for (session_id,) in self.db.execute("SELECT id FROM sessions WHERE upgrade = 1").fetchall():
            definitions: dict[str, Any] = {}
            missing = []
            for experiment, folder in self.db.execute(
                    "SELECT DISTINCT experiment, experiment_path FROM arms WHERE session_id = ?", (session_id,)):
                file = Path(folder) / "experiment.toml"
                try:
                    definitions[experiment] = {"raw": tomllib.loads(file.read_text()), "path": folder,
                                               "commit": "", "note": "read from disk when the database moved to schema 3"}
                except (OSError, ValueError, RecursionError):
                    missing.append(experiment)
            lacks = (f"the definitions of {', '.join(missing)} (claims, baselines): their folders were gone when "
                     "this database moved to schema 3") if missing else ""
            self.db.execute("UPDATE sessions SET definitions = ?, lacks = ?, upgrade = 0 WHERE id = ?",
                            (_json(definitions), lacks, session_id))

    def close(self) -> None:
        self.release()
        self.db.close()
        if self._lock_fd is not None:  # only now: closing it would drop SQLite's own locks on the file
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)
            self._lock_fd = None

    def __del__(self) -> None:
        # the connection before the lock's descriptor, for the reason close() gives
        with contextlib.suppress(Exception):
            self.close()

    # one run at a time -------------------------------------------------------------------
    def acquire(self) -> None:
        """Hold the database for a run; a second run gets an error that names the holder.

        The lock is on the database file itself (flock on its inode), so every path to it, a hard or
        a symbolic link included, finds it held; and no file beside the database is written. Its
        descriptor stays open until close(): on Linux, closing any descriptor of a file drops the
        POSIX locks the process holds on it, SQLite's among them."""
        if self._held:
            return
        if self._lock_fd is None:
            try:
                self._lock_fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            except OSError as error:
                raise StoreError(f"cannot open {self.path} to hold it: {error.strerror or error}",
                                 "give another --db PATH") from None
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise StoreError(f"{self.path} is in use by a running versus ({_holder(self._lock_fd)})",
                             "wait for it to finish, or give this run another --db") from None
        self._held = True
        self._mark_abandoned()

    def in_use(self) -> bool:
        """Whether a run (of another Store, or another process) holds the database now."""
        if self._held:
            return False
        try:
            if self._lock_fd is None:
                self._lock_fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            fcntl.flock(self._lock_fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        with contextlib.suppress(OSError):
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
        return False

    def _status(self, stored: Any) -> str:
        """A session that says it is running while no run holds the database was stopped uncleanly
        (SIGKILL, a power cut): it is shown as interrupted, as the next run will mark it."""
        status = str(stored)
        return "interrupted" if status == "running" and not self.in_use() else status

    def release(self) -> None:
        if self._held and self._lock_fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
        self._held = False

    @_guarded
    def _mark_abandoned(self) -> None:
        """Holding the lock, no session can be running: one that says so was stopped uncleanly."""
        self.db.execute("UPDATE sessions SET status = 'interrupted' WHERE status = 'running'")

    # sessions and arms -------------------------------------------------------------------
    @_guarded
    def new_session(self, seed: int, argv: list[str], host: dict[str, Any], options: dict[str, Any],
                    definitions: dict[str, Any] | None = None, plan: dict[str, Any] | None = None,
                    versus: dict[str, Any] | None = None, imported: str = "") -> int:
        """`imported`: the file an imported session came from ('' for a session run here); such a
        session is never resumed, whatever its stored options and status say."""
        cursor = self.db.execute(
            "INSERT INTO sessions (created, status, seed, argv, host, options, definitions, plan, versus, upgrade,"
            " imported) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, 0, ?)",
            (time.time(), seed, _json(argv), _json(host), _json(options), _json(definitions or {}),
             _json(plan or {}), _json(versus or {}), imported))
        return int(cursor.lastrowid or 0)

    @_guarded
    def add_arm(self, session_id: int, position: int, row: dict[str, Any]) -> int:
        cursor = self.db.execute(
            "INSERT INTO arms (session_id, position, experiment, experiment_path, case_name, runtime, runtime_info,"
            " params, method, variant) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, position, row["experiment"], row.get("experiment_path", ""), row["case"], row["runtime"],
             _json(row.get("runtime_info", {})), _json(row.get("params", {})), _json(row.get("method", {})),
             row.get("variant", "")))
        return int(cursor.lastrowid or 0)

    @_guarded
    def set_inner(self, arm_id: int, inner: int) -> None:
        self.db.execute("UPDATE arms SET inner = ? WHERE id = ?", (inner, arm_id))

    @_guarded
    def finish_session(self, session_id: int, status: str) -> None:
        assert status in STATUSES
        self.db.execute("UPDATE sessions SET status = ?, finished = ? WHERE id = ?", (status, time.time(), session_id))

    @_guarded
    def update_plan(self, session_id: int, plan: dict[str, Any]) -> None:
        self.db.execute("UPDATE sessions SET plan = ? WHERE id = ?", (_json(plan), session_id))

    _SESSION = ("id", "created", "finished", "status", "seed", "argv", "host", "options", "definitions", "plan",
                "versus", "lacks", "imported")

    @_guarded
    def session(self, session_id: int | None = None) -> dict[str, Any]:
        if session_id is not None and not 0 <= session_id < 1 << 63:  # beyond SQLite's integers: none such
            raise StoreError(f"{self.path} has no session {session_id}", "see `versus sessions`")
        query = f"SELECT {', '.join(self._SESSION)} FROM sessions"
        row = (self.db.execute(query + " WHERE id = ?", (session_id,)).fetchone() if session_id is not None
               else self.db.execute(query + " ORDER BY id DESC LIMIT 1").fetchone())
        if row is None:
            which = f"no session {session_id}" if session_id is not None else "no sessions yet"
            raise StoreError(f"{self.path} has {which}", "see `versus sessions`, or run `versus run EXPERIMENT`")
        session = dict(zip(self._SESSION, row))
        unreadable = []
        for key in ("argv", "host", "options", "definitions", "plan", "versus"):
            try:
                session[key] = json.loads(session[key])
            except (TypeError, ValueError, RecursionError):
                session[key] = None
            if not isinstance(session[key], list if key == "argv" else dict):
                unreadable.append(key)
                session[key] = [] if key == "argv" else {}
        session["status"] = self._status(session["status"])
        return _readable(session, unreadable)

    @_guarded
    def newest_run(self) -> int | None:
        """The newest session run here (not imported): what `versus run --resume` without a number means."""
        row = self.db.execute("SELECT id FROM sessions WHERE imported = '' ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    @_guarded
    def sessions(self) -> list[dict[str, Any]]:
        """One line's worth per session: id, times, status, experiments, arms, runs, failed runs."""
        rows = self.db.execute(
            "SELECT s.id, s.created, s.finished, s.status, s.argv, s.imported,"
            " (SELECT COUNT(*) FROM arms a WHERE a.session_id = s.id),"
            " (SELECT COUNT(*) FROM process_runs p JOIN arms a ON a.id = p.arm_id WHERE a.session_id = s.id),"
            " (SELECT COUNT(*) FROM process_runs p JOIN arms a ON a.id = p.arm_id WHERE a.session_id = s.id"
            "  AND p.status != 'ok'),"
            " (SELECT GROUP_CONCAT(DISTINCT experiment) FROM arms a WHERE a.session_id = s.id)"
            " FROM sessions s ORDER BY s.id").fetchall()
        keys = ("id", "created", "finished", "status", "argv", "imported", "arms", "runs", "failed", "experiments")
        return [{**entry, "created": _time(entry["created"]), "finished": _time(entry["finished"]),
                 "status": self._status(entry["status"]), "experiments": str(entry["experiments"] or "")}
                for entry in (dict(zip(keys, row)) for row in rows)]

    @_guarded
    def arms(self, session_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT id, position, experiment, experiment_path, case_name, runtime, runtime_info, params, method, inner,"
            " variant FROM arms WHERE session_id = ? ORDER BY position", (session_id,)).fetchall()
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

    # process runs ------------------------------------------------------------------------
    def save_run(self, arm_id: int, round_: int, run: Any) -> None:
        """One transaction: a killed harness leaves either the whole process run or none of it."""
        try:
            self._save(arm_id, round_, run)
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            raise StoreError(f"cannot store a process run in {self.path}: {error}", _hint_for(error)) from None

    def _save(self, arm_id: int, round_: int, run: Any) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            cursor = self.db.execute(
                "INSERT INTO process_runs (arm_id, round, started, status, reason, exit_code, wall_ns, hello, log_tail)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                # when the process started: it ended now, its wall time ago
                (arm_id, round_, time.time() - min(run.wall_ns, 10**15) / 1e9, run.status, run.reason, run.exit_code,
                 min(run.wall_ns, (1 << 63) - 1),
                 _json(run.hello), run.log_tail))
            run_id = cursor.lastrowid
            self.db.executemany("INSERT INTO samples VALUES (?, ?, ?, ?, ?)",
                                [(run_id, i, int(s.warmup), s.ns, s.inner) for i, s in enumerate(run.samples)])
            self.db.executemany("INSERT INTO metrics VALUES (?, ?, ?, ?, ?)",
                                [(run_id, i, n, v, u) for i, (n, v, u) in enumerate(run.metrics)])
            self.db.executemany("INSERT INTO checks VALUES (?, ?, ?, ?, ?)",
                                [(run_id, i, v, e, int(ok)) for i, (v, e, ok) in enumerate(run.checks)])
            self.db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            raise

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Several writes as one (an import): all of them or none."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise StoreError(f"cannot write {self.path}: {error}", _hint_for(error)) from None
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            raise

    def insert_run(self, arm_id: int, round_: int, run: Any) -> None:
        """Within an open transaction (imports)."""
        cursor = self.db.execute(
            "INSERT INTO process_runs (arm_id, round, started, status, reason, exit_code, wall_ns, hello, log_tail)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (arm_id, round_, getattr(run, "started", 0.0) or time.time(), run.status, run.reason, run.exit_code,
             run.wall_ns, _json(run.hello), run.log_tail))
        run_id = cursor.lastrowid
        self.db.executemany("INSERT INTO samples VALUES (?, ?, ?, ?, ?)",
                            [(run_id, i, int(s.warmup), s.ns, s.inner) for i, s in enumerate(run.samples)])
        self.db.executemany("INSERT INTO metrics VALUES (?, ?, ?, ?, ?)",
                            [(run_id, i, n, v, u) for i, (n, v, u) in enumerate(run.metrics)])
        self.db.executemany("INSERT INTO checks VALUES (?, ?, ?, ?, ?)",
                            [(run_id, i, v, e, int(ok)) for i, (v, e, ok) in enumerate(run.checks)])

    @_guarded
    def done_rounds(self, arm_id: int) -> set[int]:
        return {r[0] for r in self.db.execute("SELECT round FROM process_runs WHERE arm_id = ?", (arm_id,))}

    @_guarded
    def runs(self, session_id: int) -> list[StoredRun]:
        rows = self.db.execute(
            "SELECT p.id, p.arm_id, p.round, p.status, p.reason, p.log_tail, p.hello, p.wall_ns, p.started, p.exit_code"
            " FROM process_runs p JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ? ORDER BY p.id",
            (session_id,)).fetchall()
        samples: dict[int, list[tuple[int, int, int, bool]]] = {}
        for run_id, _, _, _, _, _, _, _, _, _ in rows:  # one query per run: no join, no sort in Python
            samples[run_id] = [(idx, ns, inner, warmup != 0) for idx, warmup, ns, inner in self.db.execute(
                "SELECT idx, warmup, ns, inner FROM samples WHERE process_run_id = ? ORDER BY idx", (run_id,))]
        metrics: dict[int, list[tuple[str, float, str]]] = {}
        for run_id, name, value, unit in self.db.execute(
                "SELECT m.process_run_id, m.name, m.value, m.unit FROM metrics m JOIN process_runs p"
                " ON p.id = m.process_run_id JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ?"
                " ORDER BY m.process_run_id, m.idx", (session_id,)):
            metrics.setdefault(run_id, []).append((name, value, unit))
        checks: dict[int, list[tuple[str, str, bool]]] = {}
        for run_id, value, expected, ok in self.db.execute(
                "SELECT c.process_run_id, c.value, c.expected, c.ok FROM checks c JOIN process_runs p"
                " ON p.id = c.process_run_id JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ?"
                " ORDER BY c.process_run_id, c.idx", (session_id,)):
            checks.setdefault(run_id, []).append((value, expected, bool(ok)))
        return [StoredRun(rid, arm_id, rnd, status, reason, tail, _loads(hello), samples.get(rid, []),
                          metrics.get(rid, []), wall, started, exit_code, checks.get(rid, []))
                for rid, arm_id, rnd, status, reason, tail, hello, wall, started, exit_code in rows]

    @_guarded
    def history(self, keys: list[tuple[str, str, str, str]]) -> dict[tuple[str, str, str, str], list[int]]:
        """Wall times (ns) of earlier successful process runs of arms with these (experiment, case,
        variant, runtime) identities, for `--dry-run`'s estimate."""
        wanted = set(keys)
        found: dict[tuple[str, str, str, str], list[int]] = {}
        for experiment, case, variant, runtime, wall in self.db.execute(
                "SELECT a.experiment, a.case_name, a.variant, a.runtime, p.wall_ns FROM process_runs p"
                " JOIN arms a ON a.id = p.arm_id WHERE p.status = 'ok'"):
            identity = (experiment, case, variant, runtime)
            if identity in wanted:
                found.setdefault(identity, []).append(wall)
        return found


def _kind(path: Path) -> str:
    if path.is_dir():
        return "folder"
    if path.is_char_device() or path.is_block_device():
        return "device"
    if path.is_fifo():
        return "FIFO"
    return "socket" if path.is_socket() else "special file"


LAST_TIME = 253370764800.0  # 9999-01-01 UTC: a date any time zone can show


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


def _holder(fd: int) -> str:
    """Who holds the flock on this file, from /proc/locks (Linux): `pid N`."""
    info = os.fstat(fd)
    inode = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks") as table:
            for line in table:
                fields = line.split()
                if "->" not in fields and len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == inode:
                    return f"pid {fields[4]}"
    except OSError:
        pass
    return "another process"


def _loads(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
