"""The bounded spinning in wait() (README, Benchmark): it must not burn CPU
when nobody posts, must not strand a waiter whose notifier keeps running,
and must not make the main thread miss a SIGINT that arrives while it spins
(where no EINTR can reach it)."""
import resource
import threading
import time

import pytest

import fastcond
from test_timing_signals import run_script


def test_spin_config_roundtrip():
    saved = fastcond._spin_config()
    assert len(saved) == 3
    try:
        assert fastcond._spin_config(0, 0, 0) == (0, 0, 0)
        cond = fastcond.Condition()
        box = []

        def consumer():
            for _ in range(2000):
                with cond:
                    while not box:
                        cond.wait()
                    box.pop()
                    cond.notify()

        t = threading.Thread(target=consumer)
        t.start()
        for i in range(2000):
            with cond:
                while box:
                    cond.wait()
                box.append(i)
                cond.notify()
        t.join()
    finally:
        fastcond._spin_config(*saved)
    assert fastcond._spin_config() == saved


def thread_cpu():
    if hasattr(time, "thread_time"):    # 3.7+
        return time.thread_time()
    r = resource.getrusage(resource.RUSAGE_THREAD)
    return r.ru_utime + r.ru_stime


@pytest.mark.parametrize("in_main", [True, False])
def test_idle_wait_burns_no_cpu(in_main):
    """A wait nobody posts spins at most ~50 us, then sleeps."""
    cond = fastcond.Condition()
    used = []

    def waiter():
        c0 = thread_cpu()
        with cond:
            assert cond.wait(0.5) is False
        with cond:
            cond.wait_for(lambda: False, timeout=0.3)
        used.append(thread_cpu() - c0)

    if in_main:
        waiter()
    else:
        t = threading.Thread(target=waiter)
        t.start()
        t.join()
    assert used[0] < 0.05, used


def test_busy_notifier_does_not_strand_waiter():
    """The post is never deferred: a waiter notified by a thread that then
    computes without blocking (as after queue.Queue.put) wakes after about a
    GIL switch interval, not when the notifier next blocks."""
    cond = fastcond.Condition()
    woke = []
    ready = threading.Event()

    def waiter():
        with cond:
            ready.set()
            cond.wait(10)
        woke.append(time.monotonic())

    t = threading.Thread(target=waiter)
    t.start()
    ready.wait()
    while cond._nwaiters == 0:
        time.sleep(0.001)
    time.sleep(0.01)
    with cond:
        t0 = time.monotonic()
        cond.notify()
    while time.monotonic() - t0 < 0.5:   # busy, holding the GIL
        pass
    t.join()
    assert woke[0] - t0 < 0.2, woke[0] - t0


SPIN_SIGINT_SCRIPT = """
import os, signal, sys, threading, time
# A background job (`make test &`) starts with SIGINT ignored; Ctrl-C's default is what is tested.
signal.signal(signal.SIGINT, signal.default_int_handler)
import fastcond
fastcond._spin_config(400000000, 50000, 1)   # a 400 ms spin: SIGINT lands in it
cond = fastcond.Condition()
fired = []
def fire():
    while cond._nwaiters == 0:
        time.sleep(0.001)
    time.sleep(0.05)
    fired.append(time.monotonic())
    {send}
    time.sleep(5)
    with cond:
        cond.notify()        # only if the signal was missed
threading.Thread(target=fire, daemon=True).start()
try:
    with cond:
        cond.wait({timeout})
    print("NO-INTERRUPT")
except KeyboardInterrupt:
    print("KI %.3f" % (time.monotonic() - fired[0]))
"""


@pytest.mark.parametrize("send", [
    "os.kill(os.getpid(), signal.SIGINT)",
    "signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)",
])
@pytest.mark.parametrize("timeout", ["", "30"])
def test_sigint_while_main_thread_spins(send, timeout):
    p = run_script(SPIN_SIGINT_SCRIPT.format(send=send, timeout=timeout))
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("KI "), p.stdout + p.stderr
    delay = float(p.stdout.split()[1])
    assert 0 <= delay < 2.0, delay
