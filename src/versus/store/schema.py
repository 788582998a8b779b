"""The one schema of a results database, for SQLite and PostgreSQL alike, as numbered migrations.

Each entry migrates from version i to i + 1; never edit a released entry, append a new one. An entry
is written once, in SQLite's words, and `for_postgres` says it in PostgreSQL's: SQLite's INTEGER is
64 bits and its REAL a double, so on PostgreSQL they are BIGINT and DOUBLE PRECISION, a rowid
primary key is an identity column, and the column `inner` (a reserved word there) is quoted, as every
query quotes it. An entry that needs other words on each (a data update that
calls SQLite's JSON functions) gives both as a `Migration`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    sqlite: str
    postgres: str


MIGRATIONS: list[str | Migration] = [
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
    # PostgreSQL cannot test a text for valid JSON before version 16: it looks for the key instead.
    Migration(
        sqlite="""
        ALTER TABLE sessions ADD COLUMN imported TEXT NOT NULL DEFAULT '';
        UPDATE sessions SET imported = 'a file (imported before versus recorded which)'
         WHERE (CASE WHEN json_valid(options) THEN json_extract(options, '$.import') END) IS NOT NULL
            OR id NOT IN (SELECT session_id FROM arms WHERE experiment_path != '');
        """,
        postgres="""
        ALTER TABLE sessions ADD COLUMN imported TEXT NOT NULL DEFAULT '';
        UPDATE sessions SET imported = 'a file (imported before versus recorded which)'
         WHERE position('"import":' in options) > 0
            OR id NOT IN (SELECT session_id FROM arms WHERE experiment_path != '');
        """),
    # 5: a lab for a team (docs/fleet.md). Every process run names the host that ran it ('' before:
    # the session's own host) and the leg of its session: each `versus run` that added rounds to a
    # session (the first, --resume, --more) is a leg. Hosts are stored per session with what they
    # are. Work is a round of a group that a coordinator hands out to workers through PostgreSQL
    # with a lease; workers enlist in a session with the arms they can run. The tables exist in
    # every database (one schema), and only PostgreSQL's fill the fleet's.
    """
    ALTER TABLE process_runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
    ALTER TABLE process_runs ADD COLUMN leg INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE legs (
        id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id), number INTEGER NOT NULL,
        kind TEXT NOT NULL, started REAL NOT NULL, finished REAL, argv TEXT NOT NULL, host TEXT NOT NULL,
        budget REAL, stopped TEXT NOT NULL DEFAULT '', versus TEXT NOT NULL DEFAULT '{}',
        UNIQUE (session_id, number));
    CREATE TABLE hosts (
        id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id), name TEXT NOT NULL,
        details TEXT NOT NULL, versus TEXT NOT NULL DEFAULT '{}', first_seen REAL NOT NULL,
        UNIQUE (session_id, name));
    CREATE TABLE workers (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, details TEXT NOT NULL, versus TEXT NOT NULL,
        started REAL NOT NULL, seen REAL NOT NULL, stopped REAL);
    CREATE TABLE enlisted (
        worker_id INTEGER NOT NULL REFERENCES workers(id), session_id INTEGER NOT NULL REFERENCES sessions(id),
        arms TEXT NOT NULL, notes TEXT NOT NULL, PRIMARY KEY (worker_id, session_id));
    CREATE TABLE work (
        id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id), leg INTEGER NOT NULL,
        grp INTEGER NOT NULL, round INTEGER NOT NULL, sequential INTEGER NOT NULL, arms TEXT NOT NULL,
        state TEXT NOT NULL, worker_id INTEGER, token TEXT NOT NULL DEFAULT '', lease_until REAL NOT NULL DEFAULT 0,
        renewed REAL NOT NULL DEFAULT 0, stored INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL,
        UNIQUE (session_id, grp, round));
    CREATE INDEX work_by_state ON work(state, session_id);
    CREATE INDEX runs_by_leg ON process_runs(leg);
    """,
    # 6: what else the machine did while a process ran (contention.py), as JSON; '' before it was.
    "ALTER TABLE process_runs ADD COLUMN contention TEXT NOT NULL DEFAULT '';",
    # 7: what the scheduler chose at each of its sequential choices, and why (scheduler.Chosen), so
    # that a run can say what its rounds were spent on (`versus lab schedule`); none before it was.
    """
    CREATE TABLE choices (
        id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id), leg INTEGER NOT NULL,
        at REAL NOT NULL, item TEXT NOT NULL, partners TEXT NOT NULL, rounds INTEGER NOT NULL,
        have INTEGER NOT NULL, target INTEGER, seconds REAL NOT NULL, rank INTEGER NOT NULL,
        budget_left REAL NOT NULL, open_items INTEGER NOT NULL);
    CREATE INDEX choices_by_session ON choices(session_id);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)

# Every table, parents before children: the order a copy writes them in (store.copy).
TABLES = ("sessions", "arms", "process_runs", "samples", "metrics", "checks", "legs", "hosts", "workers",
          "enlisted", "work", "choices")


def for_sqlite(migration: str | Migration) -> str:
    return migration.sqlite if isinstance(migration, Migration) else migration


def for_postgres(migration: str | Migration) -> str:
    if isinstance(migration, Migration):
        return migration.postgres
    text = re.sub(r"\bINTEGER PRIMARY KEY\b", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", migration)
    text = re.sub(r"\bINTEGER\b", "BIGINT", text)
    text = re.sub(r"\bREAL\b", "DOUBLE PRECISION", text)
    return re.sub(r"\binner\b", '"inner"', text)  # a reserved word of PostgreSQL's, a column name of ours
