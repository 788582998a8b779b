"""The load driver: server on loopback, ab and wrk as samples, no process left behind."""
from __future__ import annotations

import json
import shutil

import pytest

from conftest import FIXTURES, processes_left
from versus.cli import main
from versus.drivers.loadgen import parse_ab, parse_wrk

needs_tools = pytest.mark.skipif(not (shutil.which("ab") and shutil.which("wrk")),
                                 reason="ab and wrk come from apache2-utils and wrk (make setup installs them)")


def servers_left() -> list[int]:
    return processes_left(str(FIXTURES / "load" / "server.py"))


@needs_tools
def test_requests_per_second_become_samples_and_metrics(db, capsys):
    assert main(["run", str(FIXTURES / "load"), "--db", str(db), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["failed_runs"] == []
    for arm in doc["arms"]:
        assert arm["processes_ok"] == 2
        assert arm["metrics"]["requests_per_s"]["value"] > 10
        assert "latency_p50" in arm["metrics"]
    assert servers_left() == []


@needs_tools
@pytest.mark.parametrize("mode,reason", [("crash", "exited with code 1 before it was ready"),
                                         ("error", "wrong check: got 300, expected 0")])
def test_a_failing_server_is_a_failed_run_and_is_stopped(mode, reason, db, capsys):
    assert main(["run", str(FIXTURES / "load"), "--cases", "ab_c4", "--param", f"mode={mode}", "--db", str(db),
                 "--format", "json"]) == 4
    doc = json.loads(capsys.readouterr().out)
    reasons = [f["reason"] for f in doc["failed_runs"]]
    assert len(reasons) == 2 and all(reason in r for r in reasons)
    assert servers_left() == []


@needs_tools
def test_a_process_run_costs_its_server_s_start_and_every_client_run(tmp_path, capsys):
    """Regression: a load process run was stored with the wall time of its last client run alone
    (about a third of threaded-server's), so the scheduler took its rounds for cheap and the report's
    process time left out the server's start and the warmup's client run; the machine's counters
    were the last client's too."""
    db = tmp_path / "load.db"
    assert main(["run", str(FIXTURES / "load"), "--cases", "ab_c4", "--param", "mode=slow_start", "--db", str(db),
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    runs = [run for arm in doc["arms"] for run in arm["runs"]]
    assert len(runs) == 2
    for run in runs:
        assert run["wall_ns"] >= 1e9  # the server listened only after a second
        assert run["contention"]["cpu_ns"] > 0.05e9  # its Python's start at least, with the clients'


def test_parsers_read_real_outputs():
    ab = parse_ab("Failed requests:        2\nNon-2xx responses:      3\nRequests per second:    1234.56 [#/sec] (mean)\n"
                  "  50%     12\n  90%     20\n  99%     31\n 100%     40 (longest request)\n")
    assert (ab.requests_per_s, ab.failed, ab.latency_ms) == (1234.56, 5, {"p50": 12.0, "p90": 20.0, "p99": 31.0})
    wrk = parse_wrk("  Latency Distribution\n     50%  512.00us\n     90%    1.50ms\n     99%    2.00s\n"
                    "  Socket errors: connect 0, read 1, write 0, timeout 2\nRequests/sec:   9876.50\n")
    assert (wrk.requests_per_s, wrk.failed) == (9876.5, 3)
    assert wrk.latency_ms == {"p50": 0.512, "p90": 1.5, "p99": 2000.0}
