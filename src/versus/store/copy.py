"""`versus db copy SRC DST`: a whole lab from one store to another, SQLite or PostgreSQL either way.

Row for row and id for id, so every session keeps its number and reports exactly as before: both
stores are at the same schema version once opened, their columns are the same, and a value keeps its
type (64-bit integers, doubles, text). The copy is one transaction on DST: all of it or nothing.
The one thing PostgreSQL's text cannot hold, a NUL character, becomes U+FFFD (as every store has
written it since); the copy says how many it changed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import StoreError
from . import Store
from .postgres import PostgresBackend
from .schema import TABLES
from .sqlite import SQLiteBackend

BATCH = 5000  # rows per statement batch

_ORDER = {"samples": "process_run_id, idx", "metrics": "process_run_id, idx", "checks": "process_run_id, idx",
          "enlisted": "worker_id, session_id"}


@dataclass
class Copied:
    rows: dict[str, int] = field(default_factory=dict)
    nul: int = 0  # text values whose NUL characters became U+FFFD


def columns(store: Store, table: str) -> list[str]:
    backend = store.backend
    if isinstance(backend, SQLiteBackend):
        return [str(row[1]) for row in backend.query(f"PRAGMA table_info({table})")]
    return [str(row[0]) for row in backend.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?"
        " ORDER BY ordinal_position", (table,))]


def _quoted(name: str) -> str:
    return f'"{name}"'


def copy_lab(source: Store, target: Store) -> Copied:
    filled = [table for table in TABLES if target.backend.query(f"SELECT COUNT(*) FROM {table}")[0][0]]
    if filled:
        raise StoreError(f"{target.name} already holds a lab ({', '.join(filled)} not empty)",
                         "copy into a new, empty database: session numbers are kept, and would clash")
    copied = Copied()
    to_postgres = isinstance(target.backend, PostgresBackend)

    def clean(value: Any) -> Any:
        if to_postgres and isinstance(value, str) and "\x00" in value:
            copied.nul += 1
            return value.replace("\x00", "\ufffd")
        return value

    def write() -> None:
        for table in TABLES:
            names = columns(source, table)
            if set(names) != set(columns(target, table)):
                raise StoreError(f"the {table} tables of {source.name} and {target.name} differ",
                                 "open both with this versus first, so that both are at its schema version")
            listed = ", ".join(_quoted(n) for n in names)
            order = _ORDER.get(table, "id")
            rows = source.backend.query(f"SELECT {listed} FROM {table} ORDER BY {order}")
            insert = f"INSERT INTO {table} ({listed}) VALUES ({', '.join('?' for _ in names)})"
            for start in range(0, len(rows), BATCH):
                target.backend.executemany(insert, [tuple(clean(v) for v in row) for row in rows[start:start + BATCH]])
            copied.rows[table] = len(rows)
            if to_postgres and "id" in names and rows:
                # identity columns go on from the highest id copied, as SQLite's rowids do
                target.backend.query(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")

    target.backend.transact(write, "cannot take the copy")
    return copied
