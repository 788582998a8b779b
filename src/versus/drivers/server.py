"""A server started for one process run: on a free loopback port, ready when the port accepts
connections, and always stopped with its whole process group. The load driver measures servers with
ab or wrk; any other driver's case can name `server = "…"` to run its client against one."""
from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..errors import ExperimentError
from ..executor import _die_with_parent

READY_SECONDS = 30.0


class ServerFailed(Exception):
    """The server exited or never opened its port: the reason of a failed process run."""


@dataclass
class Running:
    port: int
    log: str = ""  # the server's output, filled in when it stops


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(port: int, server: subprocess.Popen[bytes], seconds: float | None = None) -> str:
    """'' once the port accepts connections, else why not."""
    seconds = READY_SECONDS if seconds is None else seconds
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


def server_argv(template: str, fields: dict[str, str], where: str) -> list[str]:
    try:
        return [part.format(**fields) for part in shlex.split(template)]
    except (KeyError, IndexError, ValueError) as error:
        raise ExperimentError(f"{where}: server command {template!r}: {error}",
                              "use {runtime}, {program}, {classpath}, {port}, {case} or a [params] name") from None


@contextmanager
def serving(argv: list[str], env: dict[str, str], cwd: Path, running: Running,
            ready_seconds: float | None = None) -> Iterator[Running]:
    """Start the server, wait until its port accepts connections, yield, and stop it whatever happens;
    `running.log` holds its output afterwards, also when it failed (ServerFailed)."""
    port = running.port
    with tempfile.TemporaryFile() as log:
        try:
            server = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                      start_new_session=True, preexec_fn=_die_with_parent)
        except OSError as error:
            raise ServerFailed(f"cannot start the server {argv[0]}: {error}") from None
        try:
            reason = wait_ready(port, server, ready_seconds)
            if reason:
                raise ServerFailed(reason)
            yield running
        finally:
            stop(server)
            log.seek(0)
            running.log = log.read().decode(errors="replace")
