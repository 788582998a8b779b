"""Running a process: the real executor, with timeouts and clean kills. Tests use a fake one."""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

LOG_TAIL_LINES = 40


@dataclass
class Completed:
    exit_code: int | None  # None when killed on timeout
    stdout: str
    stderr: str
    wall_ns: int
    timed_out: bool = False


class Executor(Protocol):
    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        ...


def _die_with_parent() -> None:
    # A harness killed with -9 must not leave its benchmark running: PR_SET_PDEATHSIG = 1.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except OSError:
        pass


def _kill_group(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


class SubprocessExecutor:
    """Each process in its own session, so a timeout or Ctrl-C kills it and all its children."""

    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        start = time.perf_counter_ns()
        try:
            process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                       errors="replace", env=env, cwd=cwd, start_new_session=True,
                                       preexec_fn=_die_with_parent)
        except OSError as error:
            return Completed(None, "", f"cannot start {argv[0]}: {error}", 0)
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            stdout, stderr = process.communicate()
            return Completed(None, stdout, stderr, time.perf_counter_ns() - start, timed_out=True)
        except BaseException:
            _kill_group(process)
            process.wait()
            raise
        _kill_group(process)  # stray children of a finished program
        return Completed(process.returncode, stdout, stderr, time.perf_counter_ns() - start)


def log_tail(completed: Completed, lines: int = LOG_TAIL_LINES) -> str:
    text = [line for line in completed.stdout.splitlines() if not line.startswith("@versus ")]
    text += [line for line in completed.stderr.splitlines()]
    return "\n".join(text[-lines:])
