"""Old databases keep reading: a database written by an earlier versus (tests/fixtures/db-*) opens,
moves to today's schema, and reports as that versus reported it: every figure, verdict and line it
printed is still there, unchanged (today's versus may add, as the rule's line and JSON keys, never change)."""
from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from conftest import FIXTURES
from test_rule import _subset_diff
from versus.cli import main
from versus.store import SCHEMA_VERSION, Store

OLD = sorted(FIXTURES.glob("db-*"))


def _versus(capsys, *args: str) -> str:
    main(list(args))
    return capsys.readouterr().out


def _kept(then: list[str], now: list[str]) -> bool:
    """Whether every line of `then` is in `now`, in the same order (lines may have been added between)."""
    lines = iter(now)
    return all(any(line == later for later in lines) for line in then)


@pytest.mark.parametrize("fixture", OLD, ids=[f.name for f in OLD])
def test_an_old_database_opens_upgrades_and_reports_as_before(fixture: Path, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")  # the reports print local times; the fixture's were written in UTC
    time.tzset()
    db = tmp_path / "versus.db"
    shutil.copy(fixture / "versus.db", db)
    before = sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0]
    assert before < SCHEMA_VERSION
    Store(db).close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    expected = sorted(fixture.glob("report-*.json"))
    assert len(expected) == 3  # a run with claims, a run with failed arms, an import
    for report in expected:
        number = report.stem.split("-")[1]
        now = json.loads(_versus(capsys, "report", number, "--db", str(db), "--format", "json"))
        assert _subset_diff(json.loads(report.read_text()), now) == [], f"session {number}'s JSON report changed"
        markdown = _versus(capsys, "report", number, "--db", str(db), "--format", "markdown")
        assert _kept((fixture / f"report-{number}.md").read_text().splitlines(), markdown.splitlines()), \
            f"session {number}'s Markdown report changed"
    listed = _versus(capsys, "sessions", "--db", str(db)).splitlines()
    # today's list marks an imported session (schema 4 knows the import by its options), nothing else
    assert [line.removesuffix(" (imported)") for line in listed] == (fixture / "sessions.txt").read_text().splitlines()
    assert [line.endswith(" (imported)") for line in listed] == [False, False, True]
    monkeypatch.undo()
    time.tzset()
