"""experiments/rpc: every case runs once with its checks and its warmup by count, a server that crashes,
never opens its port or answers wrongly gives a failed process run, never a hung session or a leftover
process, every server binds to loopback only, and Spring's exporter refuses classes outside its allow-list."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import tomllib
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from versus.cli import main
from versus.drivers import server

RPC = Path(__file__).resolve().parents[1] / "experiments" / "rpc"
CASES = ["socket_2008", "socket_2008_nodelay", "socket_2008_quickack", "http_2008", "http_2008_nostale", "spring_2008",
         "socket", "http", "http2", "spring", "grpc", "grpc_direct"]
METRICS = {"latency_p50_us", "latency_p90_us", "latency_p99_us", "round_trips", "throughput_rps", "warmup_round_trips",
           "warmup_settled"}
WARMUP = 100  # round trips: the tests' stand-in for the method's 20,000 (with warmup_max_ms=3000)


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(argv + ["--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def left_over(marker: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    return found.stdout.split()


@pytest.mark.slow
def test_every_case_runs_once_with_its_checks(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(["run", "rpc", "--quick", "--cases", ",".join(CASES), "--runtimes", "java@17",
                          "--processes", "1", "--warmup", "1", "--samples", "2", "--param", "throughput_ms=200",
                          "--param", f"warmup_round_trips={WARMUP}", "--param", "warmup_max_ms=3000", "--db", str(db)],
                         capsys)
    assert doc["failed_runs"] == []
    assert code == 0
    arms = {a["case"]: a for a in doc["arms"]}
    assert sorted(arms) == sorted(CASES)
    for case, arm in arms.items():
        assert arm["processes_ok"] == 1, case
        assert set(arm["metrics"]) >= METRICS, case
        assert arm["metrics"]["throughput_rps"]["value"] > 0, case
        # The warmup is counted; only the 2008 socket on Linux's defaults (~89 ms a round trip) cannot make
        # the count within warmup_max_ms, and stops there once settled.
        trips = arm["metrics"]["warmup_round_trips"]["value"]
        assert trips < WARMUP if case == "socket_2008" else trips == WARMUP, (case, trips)
        assert arm["metrics"]["warmup_settled"]["value"] == 1, case
    assert {c["id"] for c in doc["claims"]} >= {"http-10x", "spring-rpc-cost", "grpc-vs-http", "grpc-vs-raw-socket"}
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


def built(project: str) -> Path:
    """The project's program.jar, built with Maven when missing or older than a source."""
    folder = RPC / project
    jar = folder / "target" / "program.jar"
    sources = [p for top in (folder / "src", RPC / "common" / "src", RPC.parent / "serialization" / "java")
               for p in top.rglob("*") if p.is_file()] + [folder / "pom.xml"]
    if not jar.exists() or any(p.stat().st_mtime > jar.stat().st_mtime for p in sources):
        done = subprocess.run(["mvn", "-q", "-B", "-f", str(folder / "pom.xml"), "package", "-DskipTests"],
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0 and jar.exists(), (done.stdout + done.stderr)[-3000:]
    return jar


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def started(case: dict[str, Any]) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    """The case's server as experiment.toml starts it, on a free port; stopped (its whole group) after."""
    jar = built(Path(case["programs"]["java"]).parent.name)
    port = free_port()
    argv = case["server"].format(runtime=shutil.which("java"), classpath=jar, case=case["name"]).split()
    env = dict(os.environ, VERSUS_PORT=str(port), VERSUS_CASE=case["name"])
    server = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, f"{case['name']}: the server exited with {server.returncode}"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"{case['name']}: the server never opened port {port}"
                time.sleep(0.2)
        yield server, port, jar
    finally:
        os.killpg(server.pid, 9)
        server.wait()


def listening(pid: int) -> list[str]:
    """The local addresses (hex, as /proc/net/tcp* write them) of the TCP sockets that process pid listens on."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(fields[1].split(":")[0])
    return found


# 127.0.0.1 in /proc/net/tcp; ::ffff:127.0.0.1 and ::1 in tcp6 (four 32-bit words, each in host byte order)
LOOPBACK = {"0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000"}


@pytest.mark.slow
def test_every_server_binds_to_loopback_only() -> None:
    """Spring's HttpInvoker exporter deserializes what it is sent: no server of this experiment may listen on
    anything but 127.0.0.1 (or ::1), whatever its stack's defaults."""
    cases = tomllib.loads((RPC / "experiment.toml").read_text())["cases"]
    assert sorted(c["name"] for c in cases) == sorted(CASES)
    for case in cases:
        with started(case) as (server, _port, _jar):
            addresses = listening(server.pid)
            assert addresses, f"{case['name']}: listens on nothing"
            assert set(addresses) <= LOOPBACK, f"{case['name']} listens on {addresses}"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["spring_2008", "spring"])
def test_spring_exporters_refuse_classes_outside_the_allow_list(name: str) -> None:
    """A request carrying java.util.HashMap (outside the serial filter's allow-list) is refused before an
    instance is made, and a real call still succeeds (SerialFilter's probe)."""
    case = next(c for c in tomllib.loads((RPC / "experiment.toml").read_text())["cases"] if c["name"] == name)
    with started(case) as (_server, port, jar):
        done = subprocess.run(["java", "-cp", str(jar), "versus.rpc.SerialFilter", "probe", str(port)],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "java.util.HashMap refused" in done.stdout and "call succeeded" in done.stdout, done.stdout
