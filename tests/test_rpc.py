"""experiments/rpc: every case runs once with its checks, and a server that crashes, never opens its port or
answers wrongly gives a failed process run, never a hung session or a leftover process."""
from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest

from versus.cli import main
from versus.drivers import server

RPC = Path(__file__).resolve().parents[1] / "experiments" / "rpc"
CASES = ["socket_2008", "socket_2008_nodelay", "http_2008", "http_2008_nostale", "spring_2008",
         "socket", "http", "http2", "spring", "grpc", "grpc_direct"]
METRICS = {"latency_p50_us", "latency_p90_us", "latency_p99_us", "round_trips", "throughput_rps"}


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(argv + ["--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def left_over(marker: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    return found.stdout.split()


@pytest.mark.slow
def test_every_case_runs_once_with_its_checks(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(["run", "rpc", "--quick", "--cases", ",".join(CASES), "--runtimes", "java@17",
                          "--processes", "1", "--warmup", "1",
                          "--samples", "2", "--param", "throughput_ms=200", "--db", str(db)], capsys)
    assert doc["failed_runs"] == []
    assert code == 0
    arms = {a["case"]: a for a in doc["arms"]}
    assert sorted(arms) == sorted(CASES)
    for case, arm in arms.items():
        assert arm["processes_ok"] == 1, case
        assert set(arm["metrics"]) >= METRICS, case
        assert arm["metrics"]["throughput_rps"]["value"] > 0, case
    assert {c["id"] for c in doc["claims"]} >= {"http-10x", "spring-rpc-cost", "grpc-vs-http"}
    assert all(c["instances"] for c in doc["claims"]), "every claim has a measured ratio"


def faults(folder: Path, marker: str) -> Path:
    """The 2008 project's real servers, started so that they fail: one exits at once (an unknown case), one is
    a JVM suspended before main (waiting for a debugger, so its port never opens), one expects another value
    than the client sends (so it refuses the request)."""
    jvm = f"{{runtime}} -Dversus.test={marker} -cp {{classpath}}"
    folder.mkdir()
    (folder / "experiment.toml").write_text(f"""
[experiment]
name = "rpc-faults"
title = "rpc servers that fail"
runtimes = ["java@17"]

[method]
processes = 1
warmup = 1
samples = 1
timeout = 60

[params]
throughput_ms = 100

[programs]
java = "{RPC / 'jvm-2008' / 'pom.xml'}"

[[cases]]
name = "socket_2008"
check = "0"
server = "{jvm} versus.rpc.Server2008 no_such_case"

[[cases]]
name = "http_2008"
check = "0"
server = "{jvm} -agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0 versus.rpc.Server2008 {{case}}"

[[cases]]
name = "socket_2008_nodelay"
check = "0"
server = "env VERSUS_PARAM_DATASET=standard {jvm} versus.rpc.Server2008 {{case}}"
""")
    return folder


@pytest.mark.slow
def test_failing_servers_give_failed_runs_and_are_stopped(tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "READY_SECONDS", 8.0)
    marker = f"rpc-fault-{uuid.uuid4().hex[:8]}"
    code, doc = run_json(["run", str(faults(tmp_path / "faults", marker)), "--db", str(db)], capsys)
    assert code != 0, "a session whose arms have no successful run exits non-zero"
    reasons = {f["arm"].split("/")[1]: f for f in doc["failed_runs"]}
    assert sorted(reasons) == ["http_2008", "socket_2008", "socket_2008_nodelay"]
    crash, silent, wrong = reasons["socket_2008"], reasons["http_2008"], reasons["socket_2008_nodelay"]
    assert crash["reason"].startswith("server:") and "exited with code 2" in crash["reason"]
    assert "no server for case no_such_case" in crash["log_tail"]
    assert silent["reason"].startswith("server:") and "did not accept connections" in silent["reason"]
    assert "Listening for transport dt_socket" in silent["log_tail"]
    assert wrong["reason"].startswith("exit code 1"), wrong["reason"] + wrong["log_tail"]
    assert "differed from the expected MediaContent" in wrong["log_tail"]
    assert left_over(marker) == []
