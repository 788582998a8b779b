"""The team's backend: a PostgreSQL database, through psycopg 3 (docs/fleet.md).

Several hosts write it at once, so nothing here holds the whole database: a coordinator holds its
session with an advisory lock, a worker holds its own name with another, and PostgreSQL releases
both the moment their connection ends (a process killed with -9 included). A connection lost while
PostgreSQL restarts is made again, for as long as `patience` allows, and the statement or the
transaction that failed is run again: every write that may be retried is written so that running it
twice stores it once.
"""
from __future__ import annotations

import contextlib
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..errors import StoreError
from .schema import MIGRATIONS, SCHEMA_VERSION, for_postgres

T = TypeVar("T")

SCHEMES = ("postgresql://", "postgres://")
MIGRATION_LOCK = 0x76657273  # "vers": one migration at a time, whoever opens the database first
NOTE_EVERY = 30.0  # seconds between "still reconnecting" notes


def is_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(SCHEMES)


def _psycopg() -> Any:
    # psycopg is an optional dependency (`pip install 'versus[postgres]'`), and its import costs
    # start-up time that a SQLite user should not pay: imported when a PostgreSQL --db is given.
    try:
        import psycopg
    except ImportError:
        raise StoreError("a PostgreSQL --db needs psycopg 3, which is not installed",
                         "pip install 'versus[postgres]' (or: pip install 'psycopg[binary]')") from None
    return psycopg


def shown(url: str) -> str:
    """The URL as messages print it: without its password."""
    head, sep, tail = url.partition("://")
    if "@" not in tail:
        return url
    credentials, _, rest = tail.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{head}{sep}{user}@{rest}" if user else f"{head}{sep}{rest}"


def hint_for(message: str, url: str) -> str:
    text = message.lower()
    if "password authentication failed" in text or "no password supplied" in text:
        return "check the user and password in --db (postgresql://USER:PASSWORD@HOST/DATABASE), or in ~/.pgpass"
    if "does not exist" in text and "database" in text:
        return "create the database first (createdb NAME, or CREATE DATABASE NAME), or name an existing one"
    if "role" in text and "does not exist" in text:
        return "create the user first (createuser NAME), or give an existing one in --db"
    if "refused" in text or "timeout" in text or "could not translate host" in text or "no route" in text \
            or "unreachable" in text or "could not connect" in text or "connection failed" in text:
        return f"start PostgreSQL there, or check the host and port of {shown(url)}"
    if "permission denied" in text:
        return "grant the user CREATE and USAGE on the database's public schema, or give another user in --db"
    return f"check that {shown(url)} is a PostgreSQL database this user may write"


class PostgresBackend:
    dialect = "postgres"

    def __init__(self, url: str, create: bool = True, patience: float = 0.0) -> None:
        self.url = url
        self.name = shown(url)
        self.patience = patience
        self.psycopg = _psycopg()
        self._depth = 0
        self._on_connect: list[Callable[[], None]] = []
        self.conn: Any = None
        self._connect()  # a database that is not there at the start is an error at once, not a wait

    # connection -----------------------------------------------------------------------------------
    def _connect(self) -> None:
        try:
            self.conn = self.psycopg.connect(self.url, autocommit=True, connect_timeout=10,
                                             application_name=f"versus on {platform.node()} pid {os.getpid()}"[:63])
        except self.psycopg.Error as error:
            message = _first_line(error)
            raise StoreError(f"cannot reach the PostgreSQL database {self.name}: {message}",
                             hint_for(message, self.url)) from None

    def _connect_or_wait(self) -> None:
        """Connect; with patience, wait for a database that is down (restarting) rather than fail."""
        deadline = time.monotonic() + self.patience
        noted = time.monotonic()
        pause = 0.5
        while True:
            try:
                self._connect()
                break
            except StoreError as error:
                lost = "refused" in error.message or "shutting down" in error.message or "starting up" in error.message \
                    or "recovery" in error.message or "terminat" in error.message or "closed" in error.message
                if not lost or time.monotonic() + pause > deadline:
                    if lost:
                        # Given up: the database is gone. What still wants it (a run's stop being
                        # recorded, the session's status) fails at once instead of waiting all over again.
                        self.patience = 0.0
                    raise
                if time.monotonic() - noted >= NOTE_EVERY:
                    noted = time.monotonic()
                    print(f"versus: note: {error.message}; trying again", file=sys.stderr)
                time.sleep(pause)
                pause = min(5.0, pause * 2)
        for callback in self._on_connect:
            callback()

    def on_connect(self, callback: Callable[[], None]) -> None:
        """Run `callback` now and after every reconnection (LISTEN again, take advisory locks again)."""
        self._on_connect.append(callback)
        callback()

    def _lost(self, error: Exception) -> bool:
        return isinstance(error, (self.psycopg.OperationalError, self.psycopg.InterfaceError)) and (
            self.conn is None or self.conn.closed or getattr(self.conn, "broken", False))

    def _reconnect(self, error: Exception) -> None:
        if self.patience <= 0:
            raise StoreError(f"the connection to {self.name} was lost: {_first_line(error)}",
                             "check that PostgreSQL is running; every process run committed so far is kept") from None
        print(f"versus: note: the connection to {self.name} was lost ({_first_line(error)}); reconnecting",
              file=sys.stderr)
        with contextlib.suppress(Exception):
            self.conn.close()
        self._connect_or_wait()

    def _fail(self, error: Exception, what: str) -> StoreError:
        message = _first_line(error)
        return StoreError(f"the PostgreSQL database {self.name} {what}: {message}", hint_for(message, self.url))

    @staticmethod
    def _sql(sql: str) -> str:
        assert "%" not in sql, "a literal % would be read as a placeholder"
        return sql.replace("?", "%s")

    def _run(self, call: Callable[[], T], what: str = "failed") -> T:
        """A statement outside a transaction: run again after a reconnection."""
        while True:
            try:
                return call()
            except self.psycopg.Error as error:
                if self._depth or not self._lost(error):
                    raise self._fail(error, what) from None
                self._reconnect(error)

    # statements -----------------------------------------------------------------------------------
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        text = self._sql(sql)
        return self._run(lambda: self.conn.execute(text, params).fetchall())

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        text = self._sql(sql)
        return self._run(lambda: self.conn.execute(text, params).rowcount)

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        text = self._sql(sql)
        row = self._run(lambda: self.conn.execute(text, params).fetchone())
        return None if row is None else int(row[0])

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            text = self._sql(sql)
            self._run(lambda: self.conn.cursor().executemany(text, rows))

    def transact(self, work: Callable[[], T], what: str = "cannot be written", retry: bool = False) -> T:
        """`work` as one transaction. With `retry`, a lost connection (PostgreSQL restarting) is made
        again and `work` runs again from its start: it must store what it stores once however often
        it runs (its own checks, or ON CONFLICT). Inside another transaction it joins that one."""
        if self._depth:
            return work()
        while True:
            try:
                with self.transaction():
                    return work()
            except StoreError:
                if not retry or not (self.conn.closed or getattr(self.conn, "broken", False)):
                    raise
                self._reconnect(ConnectionError("lost within a transaction"))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        if self._depth:
            yield
            return
        self._depth += 1
        try:
            with self.conn.transaction():
                yield
        except self.psycopg.Error as error:
            raise self._fail(error, "cannot be written") from None
        finally:
            self._depth -= 1

    # schema -------------------------------------------------------------------------------------
    def migrate(self) -> int:
        """Brings the database to SCHEMA_VERSION under an advisory lock, so that hosts opening it at
        once migrate it once; returns the version it had."""
        def step() -> int:
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            self.conn.execute("CREATE TABLE IF NOT EXISTS versus_schema (version INTEGER NOT NULL)")
            row = self.conn.execute("SELECT version FROM versus_schema").fetchone()
            version = 0 if row is None else int(row[0])
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.name} has schema version {version}, newer than this versus ({SCHEMA_VERSION})",
                                 "upgrade versus on this host to the version that wrote it, or use another --db")
            for number in range(version, SCHEMA_VERSION):
                self.conn.execute(for_postgres(MIGRATIONS[number]))
            if row is None:
                self.conn.execute("INSERT INTO versus_schema VALUES (%s)", (SCHEMA_VERSION,))
            else:
                self.conn.execute("UPDATE versus_schema SET version = %s", (SCHEMA_VERSION,))
            return version

        try:
            return self.transact(step, "cannot be migrated")
        except StoreError as error:
            if "newer than this versus" in error.message:
                raise
            raise StoreError(f"cannot open {self.name}: {error.message.split(': ', 1)[-1]}", error.hint) from None

    def version(self) -> int:
        rows = self.query("SELECT version FROM versus_schema")
        return int(rows[0][0]) if rows else 0

    def read_only(self) -> None:
        """Every transaction of this connection read-only, now and after a reconnection (a reading
        command: `report`, `sessions`, `compare`, `export`, a dry run)."""
        self.on_connect(lambda: self.conn.execute("SET default_transaction_read_only = on"))

    # holding --------------------------------------------------------------------------------------
    def acquire(self) -> None:
        """A PostgreSQL database holds many sessions at once: a coordinator holds its session (`hold`)."""

    def release(self) -> None:
        """Nothing to release: see acquire."""

    def hold(self, kind: int, key: int) -> bool:
        """An advisory lock on (kind, key) for as long as this connection lives; False if another holds it."""
        return bool(self.query("SELECT pg_try_advisory_lock(?, ?)", (kind, key))[0][0])

    def let_go(self, kind: int, key: int) -> None:
        self.execute("SELECT pg_advisory_unlock(?, ?)", (kind, key))

    def held(self, kind: int) -> set[int]:
        """The keys of `kind` whose advisory lock some connection holds now."""
        rows = self.query("SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = ?::oid AND objsubid = 2"
                          " AND granted", (kind,))
        return {int(r[0]) for r in rows}

    def holder(self, kind: int, key: int) -> str:
        """Who holds the advisory lock on (kind, key): the application name its connection gave."""
        rows = self.query("SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                          " WHERE l.locktype = 'advisory' AND l.classid = ?::oid AND l.objid = ?::oid"
                          " AND l.objsubid = 2 AND l.granted", (kind, key))
        return str(rows[0][0]) if rows and rows[0][0] else "another connection"

    # notifications --------------------------------------------------------------------------------
    def listen(self, channel: str) -> None:
        self.on_connect(lambda: self.conn.execute(f"LISTEN {channel}"))

    def wait(self, timeout: float) -> list[str]:
        """Payloads of the notifications that arrive within `timeout` seconds (the first ends the wait)."""
        def receive() -> list[str]:
            return [n.payload for n in self.conn.notifies(timeout=timeout, stop_after=1)]

        return self._run(receive)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()


def _first_line(error: Exception) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
