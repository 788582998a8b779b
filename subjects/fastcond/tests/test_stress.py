"""No lost and no stolen wakeups.

The default run moves 10^5 items per case; `make stress` moves 10^6:
    FASTCOND_STRESS_ITEMS=1000000 FASTCOND_STRESS_BUFSIZES=64 \
        python -m pytest tests/test_stress.py
(about 20 s per lock type here; FASTCOND_STRESS_BUFSIZES=8 takes ~4x longer).
"""
import os
import random
import threading
import time

import pytest

import fastcond

ITEMS = int(os.environ.get("FASTCOND_STRESS_ITEMS", "100000"))
# buffer sizes: small ones make threads wait often, big ones move items fast
BUFSIZES = [int(b) for b in os.environ.get("FASTCOND_STRESS_BUFSIZES", "8,64").split(",")]
TIMEOUTS = (0, 0.00002, 0.0001, 0.0005, 0.002)


class BoundedBuffer:
    """Two conditions on one lock, notify(1) only: a lost wakeup shows up as
    a consumer or producer asleep while it could proceed, i.e. a hang."""

    def __init__(self, size, lock):
        self.items = []
        self.size = size
        self.not_empty = fastcond.Condition(lock)
        self.not_full = fastcond.Condition(lock)
        self.timeouts = 0

    def put(self, x, timeout):
        with self.not_full:
            while len(self.items) >= self.size:
                if not self.not_full.wait(timeout) and timeout is not None:
                    self.timeouts += 1
            self.items.append(x)
            self.not_empty.notify()

    def get(self, timeout):
        with self.not_empty:
            while not self.items:
                if not self.not_empty.wait(timeout) and timeout is not None:
                    self.timeouts += 1
            x = self.items.pop(0)
            self.not_full.notify()
            return x


@pytest.mark.parametrize("bufsize", BUFSIZES)
@pytest.mark.parametrize("lockname", ["Lock", "RLock"])
def test_producers_consumers_exactly_once(lockname, bufsize):
    lock = getattr(threading, lockname)()
    nprod, ncons = 4, 5
    buf = BoundedBuffer(bufsize, lock)
    per_prod = ITEMS // nprod
    total = per_prod * nprod
    got = [[] for _ in range(ncons)]
    STOP = -1

    def producer(k):
        rnd = random.Random(k)
        for i in range(k * per_prod, (k + 1) * per_prod):
            # some waits have short timeouts (some expire), others none
            buf.put(i, rnd.choice(TIMEOUTS) if rnd.random() < 0.3 else None)

    def consumer(k):
        rnd = random.Random(100 + k)
        out = got[k]
        while True:
            x = buf.get(rnd.choice(TIMEOUTS)
                        if (k % 2 == 0 and rnd.random() < 0.5) else None)
            if x == STOP:
                return
            out.append(x)

    threads = [threading.Thread(target=producer, args=(k,), daemon=True)
               for k in range(nprod)]
    threads += [threading.Thread(target=consumer, args=(k,), daemon=True)
                for k in range(ncons)]
    deadline = time.monotonic() + max(120, ITEMS / 2000)
    for t in threads:
        t.start()
    for t in threads[:nprod]:
        t.join(max(0, deadline - time.monotonic()))
        assert not t.is_alive(), "producer hung: lost wakeup?"
    for _ in range(ncons):
        buf.put(STOP, None)
    for t in threads[nprod:]:
        t.join(max(0, deadline - time.monotonic()))
        assert not t.is_alive(), "consumer hung: lost wakeup?"

    counts = bytearray(total)
    n = 0
    for lst in got:
        for x in lst:
            counts[x] += 1
            n += 1
    assert n == total
    assert counts.count(1) == total, "an item was lost or consumed twice"
    assert buf.timeouts > 0, "the timeout paths were not exercised"


def test_timeout_racing_notify_is_not_lost():
    """Waiter T (timed, first in line) and U (untimed) wait; notify(1) lands
    near T's deadline.  Either T reports True (it took the wakeup) or U must
    be woken: a wakeup must never vanish into a timed-out waiter."""
    cond = fastcond.Condition(threading.Lock())
    rounds = 300
    t_true = t_false = 0
    for i in range(rounds):
        res = {}
        in_wait = threading.Event()

        def waiter_t():
            with cond:
                in_wait.set()
                res["t"] = cond.wait(0.002)

        def waiter_u():
            with cond:
                res["u"] = cond.wait(5.0)

        tt = threading.Thread(target=waiter_t)
        tu = threading.Thread(target=waiter_u)
        tt.start()
        in_wait.wait()
        tu.start()
        while cond._nwaiters < 2 and tt.is_alive():
            time.sleep(0.0001)
        time.sleep(random.uniform(0.0, 0.004))   # around T's deadline
        with cond:
            cond.notify(1)
        tt.join()
        if res["t"]:
            t_true += 1
            # U was not notified: release it now
            with cond:
                cond.notify(1)
            tu.join()
        else:
            t_false += 1
            tu.join(1.0)
            assert not tu.is_alive(), "notify lost in a timed-out waiter"
            assert res["u"] is True, "U timed out: the notify was lost"
        tu.join()
    print("timed waiter took the wakeup %d times, timed out %d times" % (t_true, t_false))
    assert t_true + t_false == rounds


def test_no_stolen_wakeup_fifo():
    """notify(k) wakes the k oldest waiters; a thread re-entering wait()
    right after cannot take one of those wakeups."""
    cond = fastcond.Condition()
    order = []
    n = 6
    ready = [0]

    def w(k):
        with cond:
            ready[0] += 1
            cond.wait()
            order.append(k)

    threads = []
    for k in range(n):
        t = threading.Thread(target=w, args=(k,))
        t.start()
        threads.append(t)
        while cond._nwaiters < k + 1:
            time.sleep(0.001)
    with cond:
        cond.notify(3)
        # a late waiter with a timeout must not consume any of the 3 posts
        assert cond.wait(0.05) is False
    for t in threads[:3]:
        t.join(5)
    assert sorted(order) == [0, 1, 2]
    with cond:
        cond.notify_all()
    for t in threads:
        t.join(5)
    assert sorted(order) == list(range(n))
    assert cond._nwaiters == 0
