"""`server = "…"` in a case: a server per process run on a free loopback port, always stopped."""
from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, processes_left
from versus.cli import main
from versus.drivers import server


def servers_left() -> list[int]:
    return processes_left("server.py (ok|crash|silent)")


def test_the_client_runs_against_its_server(db, capsys):
    assert main(["run", str(FIXTURES / "server"), "--db", str(db), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["failed_runs"] == []
    assert [a["processes_ok"] for a in doc["arms"]] == [2]
    assert servers_left() == []


@pytest.mark.parametrize("mode,reason", [("crash", "exited with code 4 before it was ready"),
                                         ("silent", "did not accept connections")])
def test_a_server_that_fails_gives_a_failed_run_and_is_stopped(mode, reason, db, capsys, monkeypatch):
    monkeypatch.setattr(server, "READY_SECONDS", 2.0)
    assert main(["run", str(FIXTURES / "server"), "--param", f"mode={mode}", "--db", str(db), "--format", "json"]) == 4
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["failed_runs"]) == 2
    assert all(reason in f["reason"] and f["reason"].startswith("server:") for f in doc["failed_runs"])
    assert all(f"server starting in mode {mode}" in f["log_tail"] for f in doc["failed_runs"])
    assert servers_left() == []
