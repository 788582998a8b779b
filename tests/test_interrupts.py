"""A stop the user asked for is recorded as well as raised, so that no callback can drop it."""
from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from versus import interrupts
from versus.runner import run_one


@pytest.fixture(autouse=True)
def _no_stop_left():
    yield
    interrupts.clear()


def test_a_recorded_stop_is_raised_at_the_next_check_as_what_was_sent():
    interrupts.check()  # nothing asked: nothing raised
    with pytest.raises(interrupts.Terminated, match="SIGTERM"):
        interrupts.stop(signal.SIGTERM, None)
    with pytest.raises(interrupts.Terminated, match="SIGTERM"):  # raised again though the first was dropped
        interrupts.check()
    interrupts.clear()
    with pytest.raises(KeyboardInterrupt) as raised:
        interrupts.stop(signal.SIGINT, None)
    assert type(raised.value) is KeyboardInterrupt


def test_no_process_run_starts_once_a_stop_was_asked_for():
    class Untouchable:
        def __getattr__(self, name: str) -> object:
            raise AssertionError(f"the run went on to use {name} after the stop")

    with pytest.raises(interrupts.Terminated):
        interrupts.stop(signal.SIGHUP, None)
    with pytest.raises(interrupts.Terminated):
        run_one(Untouchable(), Untouchable(), {}, Untouchable())  # type: ignore[arg-type]


def test_a_ctrl_c_ignored_by_the_caller_stays_ignored():
    """A shell's background job inherits SIGINT ignored; versus must not start taking it."""
    program = ("import signal; from versus import interrupts\n"
               "interrupts.install()\n"
               "print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN, signal.getsignal(signal.SIGTERM) is interrupts.stop)")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert done.stdout.split() == ["True", "True"], done.stderr
