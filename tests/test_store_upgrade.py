"""Old databases keep reading: a database written by an earlier versus (tests/fixtures/db-*) opens,
moves to today's schema, and reports exactly as that versus reported it."""
from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from conftest import FIXTURES
from versus.cli import main
from versus.store import SCHEMA_VERSION, Store

OLD = sorted(FIXTURES.glob("db-*"))


def _versus(capsys, *args: str) -> str:
    main(list(args))
    return capsys.readouterr().out


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
    assert expected
    for report in expected:
        number = report.stem.split("-")[1]
        assert _versus(capsys, "report", number, "--db", str(db), "--format", "json") == report.read_text(), \
            f"session {number}'s JSON report changed"
        assert _versus(capsys, "report", number, "--db", str(db), "--format", "markdown") == \
            (fixture / f"report-{number}.md").read_text(), f"session {number}'s Markdown report changed"
    assert _versus(capsys, "sessions", "--db", str(db)) == (fixture / "sessions.txt").read_text()
    monkeypatch.undo()
    time.tzset()
