"""The embedded backend: one SQLite file in WAL mode, held by one run at a time.

The guards that only a file needs live here and nowhere else: the lock that keeps a second run off
the database, and the hints for a full disk or a damaged file.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ..errors import StoreError
from .schema import MIGRATIONS, SCHEMA_VERSION, for_sqlite

T = TypeVar("T")


def hint_for(error: sqlite3.Error) -> str:
    text = str(error).lower()
    if "full" in text or "disk" in text:
        return "free some disk space; every process run committed so far is kept (continue with --resume)"
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return "move the file aside and start a new one with --db PATH (sqlite3's .recover may save the rest)"
    if "locked" in text or "busy" in text:
        return "another process is writing it; wait, or use another --db"
    return "give another file with --db PATH, or move this one aside"


class SQLiteBackend:
    dialect = "sqlite"

    def __init__(self, path: Path, create: bool = True) -> None:
        self.path = path
        self.name = str(path)
        self._lock: Any = None
        self._depth = 0  # open transactions: writes inside one join it
        if not create and not path.exists():
            raise StoreError(f"there is no results database at {path}",
                             "run `versus run EXPERIMENT` first, or point --db at an existing one")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot make the folder of {path}: {error}", "give another --db PATH") from None
        try:
            self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the results database {path}: {error}", hint_for(error)) from None

    # statements --------------------------------------------------------------------------------
    def _guard(self, call: Callable[[], T], what: str = "failed") -> T:
        try:
            return call()
        except sqlite3.Error as error:
            raise StoreError(f"the results database {self.path} {what}: {error}", hint_for(error)) from None

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._guard(lambda: self.db.execute(sql, params).fetchall())

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._guard(lambda: self.db.execute(sql, params).rowcount)

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        """An INSERT … RETURNING id: the new row's id, or None where ON CONFLICT DO NOTHING applied."""
        row = self._guard(lambda: self.db.execute(sql, params).fetchone())
        return None if row is None else int(row[0])

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._guard(lambda: self.db.executemany(sql, rows))

    def transact(self, work: Callable[[], T], what: str = "cannot be written", retry: bool = False) -> T:
        """`work` as one transaction, all or nothing; inside another, it joins that one. `retry` is
        PostgreSQL's (a file's connection is never lost)."""
        with self.transaction(what):
            return work()

    @contextlib.contextmanager
    def transaction(self, what: str = "cannot be written") -> Iterator[None]:
        if self._depth:
            yield
            return
        self._guard(lambda: self.db.execute("BEGIN IMMEDIATE"), what)
        self._depth += 1
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException as error:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise StoreError(f"the results database {self.path} {what}: {error}", hint_for(error)) from None
            raise
        finally:
            self._depth -= 1

    # schema -------------------------------------------------------------------------------------
    def migrate(self) -> int:
        """Brings the file to SCHEMA_VERSION; returns the version it had."""
        try:
            version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} has schema version {version}, newer than this versus ({SCHEMA_VERSION})",
                                 "upgrade versus, or use another --db")
            for number in range(version, SCHEMA_VERSION):
                # One script, one transaction: a migration applies whole or not at all.
                self.db.executescript(f"BEGIN IMMEDIATE;\n{for_sqlite(MIGRATIONS[number])}\n"
                                      f"PRAGMA user_version={number + 1};\nCOMMIT;")
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the results database {self.path}: {error}", hint_for(error)) from None
        return version

    def version(self) -> int:
        return int(self.query("PRAGMA user_version")[0][0])

    # one run at a time --------------------------------------------------------------------------
    def acquire(self) -> None:
        """Hold the database for a run; a second run gets an error that names the holder."""
        lock_path = self.path.with_name(self.path.name + ".lock")
        handle = open(lock_path, "a+")  # noqa: SIM115 (held until release)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise StoreError(f"{self.path} is in use by a running versus ({holder})",
                             "wait for it to finish, or give this run another --db") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        self._lock = handle

    def release(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def close(self) -> None:
        self.release()
        self.db.close()
