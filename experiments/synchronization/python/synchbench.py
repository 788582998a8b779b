# The 2009 Jython synchronization benchmark (Tobias Ivarsson), for Jython 2.5.0 .. 2.7.4, CPython 2.7
# and 3.x, and PyPy: one file in Python 2.5 syntax that Python 3 also reads.  One sample = the original's measured phase for one function: a pool of THREADS
# threads runs TASKS tasks; a task times ROUNDS rounds of CALLS calls of f(5, 10) and keeps its fastest
# round; the sample is the sum of the TASKS minima for TASKS x CALLS calls.
from __future__ import with_statement

import sys
import threading
import traceback

import versus_helper as vh

JYTHON = sys.platform.startswith("java")
if JYTHON:
    from java.util.concurrent.atomic import AtomicInteger
else:
    # No AtomicInteger here: next() on an itertools.count() is the closest equivalent (one C-level
    # call that is atomic under the GIL).
    import itertools

try:
    xrange
except NameError:  # Python 3
    xrange = range

THREADS = int(vh.param("threads", "3"))
TASKS = int(vh.param("tasks", "40"))
ROUNDS = int(vh.param("rounds", "5"))
CALLS = int(vh.param("calls", "10000"))
WARMUP_CALLS = int(vh.param("warmup_calls", "20000"))

now_ns = vh.now_ns  # the runtime's nanosecond clock (System.nanoTime on Jython)

counter = 0
lock = threading.Lock()
atomic = None


def reset():
    global counter, atomic
    counter = 0
    if JYTHON:
        atomic = AtomicInteger()
    else:
        atomic = itertools.count()  # next() on it is atomic under the GIL


def atomic_value():
    if JYTHON:
        return atomic.get()
    return next(atomic)  # the number of next() calls before this one


reset()


def adder(a, b):
    return a + b


def counting_adder(a, b):
    global counter
    counter += 1
    return a + b


def synchronized_counting_adder(a, b):
    global counter
    with lock:
        counter += 1
    return a + b


if JYTHON:
    def atomic_counting_adder(a, b):
        atomic.incrementAndGet()
        return a + b
else:
    def atomic_counting_adder(a, b):
        next(atomic)
        return a + b


def task(f):
    """Time ROUNDS rounds of CALLS calls; return (fastest round in ns, the last result)."""
    best = None
    result = None
    for _ in xrange(ROUNDS):
        start = now_ns()
        for _ in xrange(CALLS):
            result = f(5, 10)
        elapsed = now_ns() - start
        if best is None or elapsed < best:
            best = elapsed
    return best, result


def run_pool(f):
    """THREADS threads take task indexes from a shared list under a lock; returns the task results."""
    pending = list(range(TASKS))
    results = [None] * TASKS
    errors = []
    take = threading.Lock()

    def worker():
        while True:
            take.acquire()
            try:
                if not pending or errors:
                    return
                index = pending.pop()
            finally:
                take.release()
            try:
                results[index] = task(f)
            except:
                # The worker's traceback as text: `raise kind, value, trace` is not Python 3.
                errors.append("".join(traceback.format_exception(*sys.exc_info())))
                return

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError("a task failed in a pool thread:\n" + errors[0])
    return results


warmed = {}


def case(f, counted):
    def measure(ctx):
        if f not in warmed:
            # the original's warm-up, once per process: WARMUP_CALLS calls on the main thread
            for _ in xrange(WARMUP_CALLS):
                f(5, 10)
            warmed[f] = True
        reset()
        results = run_pool(f)
        ns = 0
        last_sum = 0
        for best, last in results:
            ns += best
            last_sum += last
        calls = TASKS * ROUNDS * CALLS
        if counted == "atomic":
            check = atomic_value()
        elif counted == "lock":
            check = counter
        else:
            check = last_sum
            if counted == "unsynchronized":
                ctx.metric("lost_updates", calls - counter, "count")
        return vh.Sample(ns, TASKS * CALLS, check)
    return measure


vh.run([
    ("adder", case(adder, None)),
    ("counting_adder", case(counting_adder, "unsynchronized")),
    ("synchronized_counting_adder", case(synchronized_counting_adder, "lock")),
    ("atomic_counting_adder", case(atomic_counting_adder, "atomic")),
])
