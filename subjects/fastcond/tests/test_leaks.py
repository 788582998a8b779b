"""No reference or memory leaks.

Without a debug build (sys.gettotalrefcount) we count: sys.getallocatedblocks()
and tracemalloc over many iterations of every path (wait with and without
timeout, notify, wait_for, the error paths), after a warm-up, must stay
within a small bound; and the refcounts of the objects handed in must return
to where they started.
"""
import gc
import sys
import threading

import pytest

import fastcond

if sys.implementation.name != "cpython":
    pytest.skip("refcount checks need CPython", allow_module_level=True)

import tracemalloc  # noqa: E402  (PyPy has no _tracemalloc)

N = 20000


def exercise(cond, pred_false, pred_true):
    with cond:
        cond.wait(0)
        cond.wait(timeout=0.0)
        cond.wait_for(pred_true)
        cond.wait_for(pred_false, 0)
        cond.notify()
        cond.notify(3)
        cond.notify_all()
        cond._is_owned()
        repr(cond)
    try:
        cond.wait()
    except RuntimeError:
        pass
    try:
        cond.notify()
    except RuntimeError:
        pass
    try:
        cond.wait("x")
    except TypeError:
        pass
    with cond:
        try:
            cond.wait_for(lambda: 1 / 0)
        except ZeroDivisionError:
            pass


def pingpong(cond, n):
    box = [0]

    def other():
        for _ in range(n):
            with cond:
                while box[0] == 0:
                    cond.wait(1.0)
                box[0] = 0
                cond.notify()

    t = threading.Thread(target=other)
    t.start()
    for _ in range(n):
        with cond:
            while box[0] == 1:
                cond.wait()
            box[0] = 1
            cond.notify()
    t.join()


def blocks():
    gc.collect()
    return sys.getallocatedblocks()


@pytest.mark.parametrize("locktype", [None, threading.Lock, threading.RLock])
def test_no_leak_single_thread(locktype):
    lock = locktype() if locktype else None
    cond = fastcond.Condition(lock)
    pf = lambda: False
    pt = lambda: True
    for _ in range(1000):
        exercise(cond, pf, pt)
    rc = (sys.getrefcount(cond), sys.getrefcount(pf), sys.getrefcount(pt),
          sys.getrefcount(lock) if lock is not None else 0)
    before = blocks()
    tracemalloc.start()
    snap0 = tracemalloc.take_snapshot()
    for _ in range(N):
        exercise(cond, pf, pt)
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    after = blocks()
    grown = sum(s.size_diff for s in snap1.compare_to(snap0, "filename")
                if s.size_diff > 0 and "fastcond" not in (s.traceback[0].filename or "")
                and "tracemalloc" not in (s.traceback[0].filename or ""))
    rc2 = (sys.getrefcount(cond), sys.getrefcount(pf), sys.getrefcount(pt),
           sys.getrefcount(lock) if lock is not None else 0)
    assert rc2 == rc
    # a leak of one object per iteration would be >= N blocks
    assert after - before < 200, after - before
    assert grown < 64 * 1024, grown


def test_no_leak_create_destroy():
    lock = threading.Lock()

    def churn(n):
        for _ in range(n):
            c = fastcond.Condition()
            c2 = fastcond.Condition(lock)
            c.x = c            # a cycle through __dict__: the GC must free it
            del c, c2

    churn(N)
    before = blocks()
    rc = sys.getrefcount(lock)
    churn(N)
    # allocator and GC-generation noise is a few hundred blocks, not O(N)
    assert blocks() - before < N // 20
    assert sys.getrefcount(lock) == rc


def test_no_leak_threads():
    cond = fastcond.Condition()
    pingpong(cond, 2000)
    before = blocks()
    pingpong(cond, 20000)
    assert blocks() - before < 200
    assert cond._nwaiters == 0


@pytest.mark.skipif(not hasattr(sys, "gettotalrefcount"), reason="needs a debug build")
def test_total_refcount_debug_build():
    cond = fastcond.Condition()
    pf = lambda: False
    for _ in range(1000):
        exercise(cond, pf, lambda: True)
    gc.collect()
    before = sys.gettotalrefcount()
    for _ in range(N):
        exercise(cond, pf, lambda: True)
    gc.collect()
    assert sys.gettotalrefcount() - before < 100
