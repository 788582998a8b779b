"""The embedded backend: one SQLite file in WAL mode, held by one run at a time.

The guards that only a file needs live here and nowhere else: the lock that keeps a second run off
the database (on the file itself), read-only opens for the commands that only read, and the hints
for a full disk or a damaged file.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from ..errors import StoreError, UsageError
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


def _kind(path: Path) -> str:
    if path.is_dir():
        return "folder"
    if path.is_char_device() or path.is_block_device():
        return "device"
    if path.is_fifo():
        return "FIFO"
    return "socket" if path.is_socket() else "special file"


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


class SQLiteBackend:
    dialect = "sqlite"

    def __init__(self, path: Path, create: bool = True, readonly: bool = False) -> None:
        """`readonly`: for the commands that only read (report, sessions, compare, export, a dry run):
        nothing is written, so a database on a read-only file system or a full disk can be reported.
        A file of an older schema is not upgraded here: the Store does that once, writable, first."""
        self.path = path
        self.name = str(path)
        self.readonly = readonly
        self._lock_fd: int | None = None
        self._held = False
        self._depth = 0  # open transactions: writes inside one join it
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
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the results database {path}: {error}", hint_for(error)) from None

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
                db.execute("PRAGMA user_version").fetchone()
            except sqlite3.Error as failed:
                error = failed
                continue
            return db
        raise StoreError(f"cannot open the results database {self.path} to read it: {error}",
                         hint_for(error) if error else "")

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
        """Brings the file to SCHEMA_VERSION; returns the version it had. A read-only one is only
        checked (the Store upgraded it before opening it so)."""
        try:
            version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} has schema version {version}, newer than this versus ({SCHEMA_VERSION})",
                                 "upgrade versus, or use another --db")
            if self.readonly:
                return version
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

    @property
    def held(self) -> bool:
        """Whether this backend holds the database for a run."""
        return self._held

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

    def release(self) -> None:
        if self._held and self._lock_fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
        self._held = False

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
