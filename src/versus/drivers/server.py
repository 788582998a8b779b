"""A server started for one process run: on a free loopback port, ready when the port accepts
connections, and always stopped with everything it started. The load driver measures servers with
ab or wrk; any other driver's case can name `server = "…"` to run its client against one
(`with_server`)."""
from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..contention import Contention, read_counters
from ..definitions import Arm, Method
from ..executor import Executor, Spawned
from .base import FAILED, Driver, ProcessRun, base_env, fill_template

READY_SECONDS = 30.0
SERVER_FIELDS = ("runtime", "program", "classpath", "port", "case")  # what a case's `server` template gets


class ServerFailed(Exception):
    """The server could not start, exited, or never opened its port: the reason of a failed process run."""


@dataclass
class Running:
    port: int
    log: str = ""  # the server's output, filled in when it stops
    leftovers: list[str] = field(default_factory=list)
    # From the server's start to its stop, its clients included: what the process run cost the machine
    # and the session's budget (the clients' own walls leave out the server's start and stop).
    wall_ns: int = 0
    contention: Contention | None = None

    def onto(self, run: ProcessRun) -> ProcessRun:
        """The run, with the wall time and counters of the whole of it, the server's included."""
        run.wall_ns = max(run.wall_ns, self.wall_ns)
        run.contention = self.contention or run.contention
        return run


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(port: int, server: Spawned, seconds: float | None = None) -> str:
    """'' once the port accepts connections, else why not."""
    seconds = READY_SECONDS if seconds is None else seconds
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        code = server.poll()
        if code is not None:
            return f"the server exited with code {code} before it was ready"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return ""
        except OSError:
            time.sleep(0.05)
    return f"the server did not accept connections on port {port} within {seconds:g} s"


@contextmanager
def serving(executor: Executor, argv: list[str], env: dict[str, str], cwd: Path, running: Running,
            ready_seconds: float | None = None) -> Iterator[Running]:
    """Start the server, wait until its port accepts connections, yield, and stop it whatever happens;
    `running.log` holds its output afterwards, also when it failed (ServerFailed)."""
    began, counters = time.perf_counter_ns(), read_counters()
    try:
        server = executor.spawn(argv, env, cwd)
    except (OSError, ValueError) as error:
        raise ServerFailed(f"cannot start the server {argv[0] if argv else '(nothing)'}: {error}") from None
    try:
        reason = wait_ready(running.port, server, ready_seconds)
        if reason:
            raise ServerFailed(reason)
        yield running
    finally:
        running.leftovers = server.stop()
        running.log = server.output()
        running.wall_ns = time.perf_counter_ns() - began
        running.contention = read_counters().since(counters)


def with_server(driver: Driver, arm: Arm, method: Method, inner: int, executor: Executor) -> ProcessRun:
    """The case's server on a free loopback port for the length of one process run of its client."""
    running = Running(free_port())
    fields = {**dict(arm.params), "runtime": str(arm.runtime.executable), "program": str(arm.program or ""),
              "classpath": str(driver.built(arm) or ""), "port": str(running.port), "case": arm.case.name}
    port_env = {"VERSUS_PORT": str(running.port)}
    env = {**base_env(arm), **port_env, "VERSUS_CASE": arm.case.name}
    argv = fill_template(arm.case.server, fields, arm.key, "server")
    try:
        with serving(executor, argv, env, arm.experiment.path, running):
            run = driver.run(arm, method, inner, executor, port_env)
    except ServerFailed as failed:
        run = ProcessRun(FAILED, reason=f"server: {failed}")
    running.onto(run)
    if running.leftovers and run.status != FAILED:
        run.status, run.reason = FAILED, f"server: left {', '.join(running.leftovers[:3])} behind; versus stopped them"
    server_log = [f"[server] {line}" for line in running.log.split("\n")[-20:] if line]
    run.log_tail = "\n".join(server_log + run.log_tail.split("\n")[-20:])
    return run
