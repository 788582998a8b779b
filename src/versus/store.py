"""SQLite store, WAL mode, versioned schema. Each process run is committed in one transaction."""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import StoreError

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
]
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass
class StoredRun:
    arm_id: int
    round: int
    status: str
    reason: str
    log_tail: str
    hello: dict[str, Any]
    samples: list[tuple[int, int, int, bool]]  # idx, ns, inner, warmup
    metrics: list[tuple[str, float, str]]
    wall_ns: int


class Store:
    def __init__(self, path: Path, create: bool = True) -> None:
        self.path = path
        if not create and not path.exists():
            raise StoreError(f"there is no results database at {path}",
                             "run `versus run EXPERIMENT` first, or point --db at an existing one")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot open the results database {path}: {error}",
                             "give another file with --db PATH, or move this one aside") from None

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} has schema version {version}, newer than this versus ({SCHEMA_VERSION})",
                             "upgrade versus, or use another --db")
        for number in range(version, SCHEMA_VERSION):
            # One script, one transaction: a migration applies whole or not at all.
            self.db.executescript(f"BEGIN IMMEDIATE;\n{MIGRATIONS[number]}\nPRAGMA user_version={number + 1};\nCOMMIT;")

    def close(self) -> None:
        self.db.close()

    # sessions and arms -------------------------------------------------------------------
    def new_session(self, seed: int, argv: list[str], host: dict[str, Any], options: dict[str, Any]) -> int:
        cursor = self.db.execute(
            "INSERT INTO sessions (created, status, seed, argv, host, options) VALUES (?, 'running', ?, ?, ?, ?)",
            (time.time(), seed, json.dumps(argv), json.dumps(host), json.dumps(options)))
        return int(cursor.lastrowid or 0)

    def add_arm(self, session_id: int, position: int, row: dict[str, Any]) -> int:
        cursor = self.db.execute(
            "INSERT INTO arms (session_id, position, experiment, experiment_path, case_name, runtime, runtime_info,"
            " params, method, variant) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, position, row["experiment"], row["experiment_path"], row["case"], row["runtime"],
             json.dumps(row["runtime_info"]), json.dumps(row["params"]), json.dumps(row["method"]),
             row.get("variant", "")))
        return int(cursor.lastrowid or 0)

    def set_inner(self, arm_id: int, inner: int) -> None:
        self.db.execute("UPDATE arms SET inner = ? WHERE id = ?", (inner, arm_id))

    def finish_session(self, session_id: int, status: str) -> None:
        self.db.execute("UPDATE sessions SET status = ?, finished = ? WHERE id = ?", (status, time.time(), session_id))

    def session(self, session_id: int | None = None) -> dict[str, Any]:
        query = "SELECT id, created, finished, status, seed, argv, host, options FROM sessions"
        row = (self.db.execute(query + " WHERE id = ?", (session_id,)).fetchone() if session_id is not None
               else self.db.execute(query + " ORDER BY id DESC LIMIT 1").fetchone())
        if row is None:
            which = f"no session {session_id}" if session_id is not None else "no sessions yet"
            raise StoreError(f"{self.path} has {which}", "run `versus run EXPERIMENT` first, or name another --db")
        keys = ("id", "created", "finished", "status", "seed", "argv", "host", "options")
        session = dict(zip(keys, row))
        for key in ("argv", "host", "options"):
            session[key] = json.loads(session[key])
        return session

    def sessions(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT id FROM sessions ORDER BY id").fetchall()
        return [self.session(r[0]) for r in rows]

    def arms(self, session_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT id, position, experiment, experiment_path, case_name, runtime, runtime_info, params, method, inner,"
            " variant FROM arms WHERE session_id = ? ORDER BY position", (session_id,)).fetchall()
        keys = ("id", "position", "experiment", "experiment_path", "case", "runtime", "runtime_info", "params",
                "method", "inner", "variant")
        arms = [dict(zip(keys, r)) for r in rows]
        for arm in arms:
            for key in ("runtime_info", "params", "method"):
                arm[key] = json.loads(arm[key])
        return arms

    # process runs ------------------------------------------------------------------------
    def save_run(self, arm_id: int, round_: int, run: Any) -> None:
        """One transaction: a killed harness leaves either the whole process run or none of it."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            cursor = self.db.execute(
                "INSERT INTO process_runs (arm_id, round, started, status, reason, exit_code, wall_ns, hello, log_tail)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (arm_id, round_, time.time(), run.status, run.reason, run.exit_code, run.wall_ns,
                 json.dumps(run.hello), run.log_tail))
            run_id = cursor.lastrowid
            self.db.executemany("INSERT INTO samples VALUES (?, ?, ?, ?, ?)",
                                [(run_id, i, int(s.warmup), s.ns, s.inner) for i, s in enumerate(run.samples)])
            self.db.executemany("INSERT INTO metrics VALUES (?, ?, ?, ?, ?)",
                                [(run_id, i, n, v, u) for i, (n, v, u) in enumerate(run.metrics)])
            self.db.executemany("INSERT INTO checks VALUES (?, ?, ?, ?, ?)",
                                [(run_id, i, v, e, int(ok)) for i, (v, e, ok) in enumerate(run.checks)])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def done_rounds(self, arm_id: int) -> set[int]:
        return {r[0] for r in self.db.execute("SELECT round FROM process_runs WHERE arm_id = ?", (arm_id,))}

    def runs(self, session_id: int) -> list[StoredRun]:
        rows = self.db.execute(
            "SELECT p.id, p.arm_id, p.round, p.status, p.reason, p.log_tail, p.hello, p.wall_ns FROM process_runs p"
            " JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ? ORDER BY p.id", (session_id,)).fetchall()
        samples: dict[int, list[tuple[int, int, int, bool]]] = {}
        for run_id, idx, warmup, ns, inner in self.db.execute(
                "SELECT s.process_run_id, s.idx, s.warmup, s.ns, s.inner FROM samples s JOIN process_runs p"
                " ON p.id = s.process_run_id JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ?", (session_id,)):
            samples.setdefault(run_id, []).append((idx, ns, inner, bool(warmup)))
        metrics: dict[int, list[tuple[str, float, str]]] = {}
        for run_id, name, value, unit in self.db.execute(
                "SELECT m.process_run_id, m.name, m.value, m.unit FROM metrics m JOIN process_runs p"
                " ON p.id = m.process_run_id JOIN arms a ON a.id = p.arm_id WHERE a.session_id = ?", (session_id,)):
            metrics.setdefault(run_id, []).append((name, value, unit))
        return [StoredRun(arm_id, rnd, status, reason, tail, json.loads(hello), sorted(samples.get(rid, [])),
                          metrics.get(rid, []), wall)
                for rid, arm_id, rnd, status, reason, tail, hello, wall in rows]
