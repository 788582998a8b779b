"""A stop the user asked for (Ctrl-C, SIGTERM, SIGHUP) is never lost.

Python runs a signal's handler in the main thread at the next bytecode it executes, wherever that
is. When that bytecode belongs to a callback whose exceptions CPython prints and drops (the at-fork
callbacks it runs in the parent after `subprocess.Popen` forks, logging's among them; a `__del__`;
a weakref callback), the handler's KeyboardInterrupt ends as "Exception ignored in: …" on stderr and
the harness goes on as if nothing had been asked. A signal that arrives while the harness forks is
held until the fork returns, so it lands in exactly those callbacks: the Ctrl-C and kill -9 tests
of test_store.py found a completed session in about one run in ten under load, for this reason.

So the handler also records the stop, and the harness checks the record where it starts new work
(before a process run, once a process has started) and each time its wait for a process wakes.
"""
from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any

_pending: signal.Signals | None = None


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: handled as Ctrl-C is (every finished process run stored, the session marked
    interrupted, each program's process group killed, exit 130), not by dying with the session
    left `running` and a forked benchmark process left to init."""


def _error(number: signal.Signals) -> KeyboardInterrupt:
    return KeyboardInterrupt() if number == signal.SIGINT else Terminated(number.name)


def stop(number: int, _frame: object) -> None:
    """The handler: record the stop, then raise it here (which interrupts a wait in progress)."""
    global _pending
    _pending = signal.Signals(number)
    raise _error(_pending)


def check() -> None:
    """Raise the stop asked for, if any, whether or not its handler's exception reached the harness."""
    if _pending is not None:
        raise _error(_pending)


def requested() -> bool:
    return _pending is not None


def clear() -> None:
    """The stop was handled (the command ended): a library caller may go on."""
    global _pending
    _pending = None


def install() -> dict[int, Any]:
    """Handle SIGTERM, SIGHUP and Ctrl-C with `stop`, in the main thread only; returns the handlers
    it replaced, for `restore`. A Ctrl-C ignored by the caller (a shell's background job) stays so."""
    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    for number in (signal.SIGTERM, signal.SIGHUP):
        previous[number] = signal.signal(number, stop)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, stop)
    return previous


def restore(previous: dict[int, Callable[..., Any] | int | None]) -> None:
    for number, handler in previous.items():
        signal.signal(number, handler)
    clear()
