"""The `versus` command's first process: it forks the harness and outlives it, so that nothing a
benchmark started outlives the harness however it dies.

- The supervisor and the harness are both child subreapers (Linux). A benchmark's process that
  detaches (setsid, double fork) is re-parented to the harness, which stops it after its process run
  (executor.py); should the harness die (SIGKILL, the OOM killer), its orphans, the detached ones
  among them, are re-parented to the supervisor, which kills them all before it exits.
- SIGTERM, SIGHUP and a SIGINT sent with kill to the supervisor (the pid a shell or a CI runner
  knows) are passed to the harness, which handles them as Ctrl-C: every finished process run
  stored, the session marked interrupted, each program's process group killed, exit 130. A Ctrl-C
  at the terminal reaches the harness itself, and is not passed twice.
- Should the supervisor be killed (SIGKILL), the harness gets SIGTERM (PR_SET_PDEATHSIG) and stops
  the same way, its own subreaper's stops included.

This module is small on purpose: the supervisor forks before the harness imports its libraries.
Library use of `versus.cli.main` (the tests) runs without it.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time

_PR_SET_PDEATHSIG, _PR_SET_CHILD_SUBREAPER = 1, 36
PASSED = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)
_SI_USER = 0  # si_code of a signal sent with kill(2); the terminal's Ctrl-C comes from the kernel


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return False
    return libc.prctl(option, value, 0, 0, 0) == 0


def entry() -> int:
    """The console script: supervise the harness where Linux allows it, else run it in this process."""
    if not sys.platform.startswith("linux") or not _prctl(_PR_SET_CHILD_SUBREAPER, 1):
        return _harness()
    supervisor = os.getpid()
    try:
        child = os.fork()
    except OSError:
        return _harness()
    if child == 0:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != supervisor:  # the supervisor died before the line above
            os.kill(os.getpid(), signal.SIGTERM)
        return _harness()
    return _supervise(child)


def _harness() -> int:
    from .quiet import single_threaded

    single_threaded()  # before numpy and scipy load, and their thread pools with them
    from .cli import main  # only now, in the harness: the supervisor forks before the libraries load

    return main()


def _supervise(harness: int) -> int:
    """Wait for the harness, passing it the signals meant for versus; then stop its orphans."""
    watched = {signal.SIGCHLD, signal.SIGINT, *PASSED}
    signal.pthread_sigmask(signal.SIG_BLOCK, watched)  # only after the fork: the harness keeps its own mask
    status = 0
    while True:
        done, status = os.waitpid(harness, os.WNOHANG)
        if done == harness:
            break
        info = signal.sigwaitinfo(watched)
        if info.si_signo == signal.SIGCHLD:
            continue
        if info.si_signo == signal.SIGINT and info.si_code != _SI_USER:
            continue  # Ctrl-C at the terminal: it reached the harness's process group already
        with contextlib.suppress(ProcessLookupError):
            os.kill(harness, info.si_signo)
    _stop_orphans()
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


def _children() -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        if fields[1].decode() == me:
            found.append(int(entry))
    return found


def _stop_orphans() -> None:
    """Kill whatever was re-parented here (the harness's orphans, and theirs in turn) until none is left."""
    for _ in range(200):
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        orphans = _children()
        if not orphans:
            return
        for pid in orphans:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)
