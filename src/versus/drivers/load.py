"""The load driver: a server the experiment starts on loopback, measured by ab or wrk.

A case says `command = "ab -q -c 10 -n 2000 {url}"` (or a wrk command line). Each process run starts the
experiment's program for the runtime as the server, with VERSUS_PORT and VERSUS_CASE set, waits until the port
accepts connections, runs the load generator warmup + samples times, and always stops the server's
whole process group. A sample is the time per request (1e9 / requests per second); requests/s and
latency percentiles are metrics. The check is the number of failed requests, which must be 0.
"""
from __future__ import annotations

from typing import ClassVar

from ..definitions import Arm, Method
from ..errors import ExperimentError
from ..executor import Completed, Executor
from ..paths import helpers
from ..protocol import SampleRecord
from ..runtimes import family
from .base import FAILED, OK, Driver, ProcessRun, base_env, failure_of, fill_template, finish, judge_checks
from .loadgen import parse
from .server import Running, ServerFailed, free_port, serving

TOOLS = ("ab", "wrk")
FIELDS = ("url", "port")


class LoadDriver(Driver):
    name: ClassVar[str] = "load"
    command_fields: ClassVar[tuple[str, ...] | None] = FIELDS
    runs_own_server: ClassVar[bool] = True  # the program is the server; the case's command is its client

    def prepare(self, arm: Arm, executor: Executor) -> None:
        tool = self._tool_argv(arm, 0)[0]
        if tool not in TOOLS:
            raise ExperimentError(f"{arm.key}: load generator {tool!r} is not one of {', '.join(TOOLS)}",
                                  'write command = "ab -q -c 10 -n 2000 {url}" or "wrk -c 10 -d 5s --latency {url}"')
        if arm.program is None or not arm.program.is_file():
            raise ExperimentError(f"{arm.key}: no server program for {arm.runtime.program_family}",
                                  "add it under [programs]")

    def _tool_argv(self, arm: Arm, port: int) -> list[str]:
        if not arm.case.command:
            raise ExperimentError(f"{arm.key}: a load case needs `command = \"ab … {{url}}\"`", "see docs/method.md")
        fields = {**dict(arm.params), "url": f"http://127.0.0.1:{port}/", "port": str(port)}
        assert set(FIELDS) <= set(fields)
        return fill_template(arm.case.command, fields, arm.key)

    def run(self, arm: Arm, method: Method, inner: int, executor: Executor,
            extra_env: dict[str, str] | None = None) -> ProcessRun:
        assert arm.program is not None
        running = Running(free_port())
        argv, extra = family(arm.runtime.family).launch(arm.runtime, arm.program, None, helpers())
        server_env = {**base_env(arm), **extra, "VERSUS_PORT": str(running.port), "VERSUS_CASE": arm.case.name}
        run = ProcessRun(FAILED)
        try:
            with serving(executor, argv, server_env, arm.experiment.path, running):
                run.reason = self._measure(arm, method, executor, running.port, run)
        except ServerFailed as failed:
            run.reason = str(failed)
        running.onto(run)
        run.status = FAILED if run.reason else OK
        run.log_tail = "\n".join((running.log.splitlines() + run.log_tail.splitlines())[-40:])
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
            if not 0 < report.requests_per_s < 1e12:
                return f"{tool_argv[0]} reported {report.requests_per_s:g} requests per second"
            warm = index < method.warmup
            run.samples.append(SampleRecord(round(1e9 / report.requests_per_s), 1, warm))
            failed_counts.append(str(report.failed))
            if not warm:
                run.metrics.append(("requests_per_s", report.requests_per_s, "requests/s"))
                run.metrics += [(f"latency_{name}", value, "ms") for name, value in sorted(report.latency_ms.items())]
        run.hello = {"runtime": arm.runtime.family, "version": arm.runtime.version, "clock": tool_argv[0]}
        run.checks, reason = judge_checks(failed_counts, arm, 1)
        return reason
