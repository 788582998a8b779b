"""The load driver: a server the experiment starts on loopback, measured by ab or wrk.

A case says `load = "ab -q -c 10 -n 2000 {url}"` (or a wrk command line). Each process run starts the
experiment's program for the runtime as the server, with VERSUS_PORT and VERSUS_CASE set, waits until the port
accepts connections, runs the load generator warmup + samples times, and always stops the server's
whole process group. A sample is the time per request (1e9 / requests per second); requests/s and
latency percentiles are metrics. The check is the number of failed requests, which must be 0.
"""
from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import tempfile
import time

from ..errors import ExperimentError
from ..executor import Completed, Executor, _die_with_parent
from ..experiment import Method
from ..plan import Arm
from ..protocol import SampleRecord
from .base import FAILED, OK, ProcessRun, base_env, failure_of, finish, judge_checks
from .loadgen import parse

READY_SECONDS = 30.0
TOOLS = ("ab", "wrk")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(port: int, server: subprocess.Popen[bytes], seconds: float = READY_SECONDS) -> str:
    """'' once the port accepts connections, else why not."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return f"the server exited with code {server.returncode} before it was ready"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return ""
        except OSError:
            time.sleep(0.05)
    return f"the server did not accept connections on port {port} within {seconds:g} s"


def stop(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the group, then SIGKILL: nothing is left behind."""
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            return
        try:
            server.wait(timeout=wait)
            os.killpg(server.pid, signal.SIGKILL)  # stray children of a server that exited
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


class LoadDriver:
    name = "load"

    def prepare(self, arm: Arm) -> None:
        tool = self._tool_argv(arm, 0)[0]
        if tool not in TOOLS:
            raise ExperimentError(f"{arm.key}: load generator {tool!r} is not one of {', '.join(TOOLS)}",
                                  'write load = "ab -q -c 10 -n 2000 {url}" or "wrk -c 10 -d 5s --latency {url}"')
        if arm.program is None or not arm.program.is_file():
            raise ExperimentError(f"{arm.key}: no server program for {arm.runtime.program_family}",
                                  "add it under [programs]")

    def _tool_argv(self, arm: Arm, port: int) -> list[str]:
        if not arm.case.command:
            raise ExperimentError(f"{arm.key}: a load case needs `command = \"ab … {{url}}\"`", "see docs/method.md")
        fields = {**dict(arm.params), "url": f"http://127.0.0.1:{port}/", "port": str(port)}
        return [part.format(**fields) for part in shlex.split(arm.case.command)]

    def run(self, arm: Arm, method: Method, inner: int, executor: Executor) -> ProcessRun:
        assert arm.program is not None
        port = free_port()
        argv, extra = arm.runtime.launch(arm.program)
        env = {**base_env(arm), **extra, "VERSUS_PORT": str(port), "VERSUS_CASE": arm.case.name}
        run = ProcessRun(FAILED)
        with tempfile.TemporaryFile() as log:
            server = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=arm.experiment.path,
                                      start_new_session=True, preexec_fn=_die_with_parent)
            try:
                run.reason = wait_ready(port, server) or self._measure(arm, method, executor, port, run)
            finally:
                stop(server)
                log.seek(0)
                server_log = log.read().decode(errors="replace")
        run.status = FAILED if run.reason else OK
        run.log_tail = "\n".join((server_log.splitlines() + run.log_tail.splitlines())[-40:])
        return run

    def _measure(self, arm: Arm, method: Method, executor: Executor, port: int, run: ProcessRun) -> str:
        tool_argv = self._tool_argv(arm, port)
        failed_counts: list[str] = []
        for index in range(method.warmup + method.samples):
            completed: Completed = executor.execute(tool_argv, base_env(arm), method.timeout)
            finish(run, completed)
            reason = failure_of(completed, method)
            if reason:
                return f"{tool_argv[0]}: {reason}"
            try:
                report = parse(tool_argv[0], completed.stdout)
            except ValueError as error:
                return f"{tool_argv[0]}: {error}"
            warm = index < method.warmup
            run.samples.append(SampleRecord(round(1e9 / report.requests_per_s), 1, warm))
            failed_counts.append(str(report.failed))
            if not warm:
                run.metrics.append(("requests_per_s", report.requests_per_s, "requests/s"))
                run.metrics += [(f"latency_{name}", value, "ms") for name, value in sorted(report.latency_ms.items())]
        run.hello = {"runtime": arm.runtime.family, "version": arm.runtime.version, "clock": tool_argv[0]}
        run.checks, reason = judge_checks(failed_counts, arm, 1)
        return reason



