# The 2009 Jython synchronization benchmark (Tobias Ivarsson), for Jython 2.5.0 .. 2.7.4, CPython 2.7
# and 3.x, and PyPy: one file in Python 2.5 syntax that Python 3 also reads.  One sample = the original's measured phase for one function: a pool of THREADS
# threads runs TASKS tasks; a task times ROUNDS rounds of CALLS calls of f(5, 10) and keeps its fastest
# round; the sample is the sum of the TASKS minima for TASKS x CALLS calls.
from __future__ import with_statement

import sys
import threading
import traceback
import types

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


# synchronized_counting_adder is compiled once from this text and defined by exec: in this module's
# globals for the contended case (one lock and one counter for every task), and in a fresh module per
# task for the uncontended one (each task its own lock and counter). Both cases thus run the very same
# compiled code and differ only in whether the tasks share the lock.
SYNCHRONIZED_SOURCE = """from __future__ import with_statement
def synchronized_counting_adder(a, b):
    global counter
    with lock:
        counter += 1
    return a + b
"""
SYNCHRONIZED_CODE = compile(SYNCHRONIZED_SOURCE, "<synchronized_counting_adder>", "exec")
exec(SYNCHRONIZED_CODE, globals())  # defines synchronized_counting_adder here


def own_module(name):
    """A fresh module holding its own lock, counter and synchronized_counting_adder."""
    module = types.ModuleType(name)
    module.lock = threading.Lock()
    module.counter = 0
    exec(SYNCHRONIZED_CODE, module.__dict__)
    return module


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


def run_pool(make):
    """THREADS threads take task indexes from a shared list under a lock and run task(make(index)),
    make(index) giving the function that task calls; returns the task results."""
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
                results[index] = task(make(index))
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


def case(name, f, counted, warm=True):
    """A case whose tasks all call f. counted: which counter the check reads. warm=False: no warm-up
    at all (see cold_case)."""
    def measure(ctx):
        if warm and name not in warmed:
            # the original's warm-up, once per process: WARMUP_CALLS calls on the main thread
            for _ in xrange(WARMUP_CALLS):
                f(5, 10)
            warmed[name] = True
        reset()
        return pool_sample(ctx, run_pool(lambda index: f), counted, lambda: counter)
    return measure


def pool_sample(ctx, results, counted, locked_count):
    """The sample of one pool run: the sum of the tasks' fastest rounds, and the check."""
    ns = 0
    last_sum = 0
    for best, last in results:
        ns += best
        last_sum += last
    calls = TASKS * ROUNDS * CALLS
    if counted == "atomic":
        check = atomic_value()
    elif counted == "lock":
        check = locked_count()
    else:
        check = last_sum
        if counted == "unsynchronized":
            ctx.metric("lost_updates", calls - counter, "count")
    return vh.Sample(ns, TASKS * CALLS, check)


def uncontended(ctx):
    """synchronized_counting_adder with no contention at all: each task makes its own module, so its
    own lock and counter, and calls that module's synchronized_counting_adder (the same compiled code
    as the contended case). The check is the sum of the tasks' counters."""
    if "uncontended" not in warmed:
        # The module is kept: on Python 2 a module that is freed sets its globals to None.
        warmed["uncontended"] = own_module("warmup")
        f = warmed["uncontended"].synchronized_counting_adder
        for _ in xrange(WARMUP_CALLS):
            f(5, 10)
    modules = [None] * TASKS

    def make(index):
        # made by the pool thread that runs the task, before its timed rounds
        modules[index] = own_module("task%d" % index)
        return modules[index].synchronized_counting_adder

    results = run_pool(make)
    return pool_sample(ctx, results, "lock", lambda: sum([m.counter for m in modules]))


def cold_case(name, f, counted):
    """The benchmark with no warm-up at all, the post's "no warm up": no calls on the main thread, and
    the harness's warmup samples run nothing (one empty iteration, no check), so that the first
    measured sample is the first pool run of the process."""
    measured = case(name, f, counted, warm=False)

    def measure(ctx):
        if ctx.warmup:
            start = now_ns()
            return vh.Sample(now_ns() - start, 1, None)
        return measured(ctx)
    return measure


vh.run([
    ("adder", case("adder", adder, None)),
    ("counting_adder", case("counting_adder", counting_adder, "unsynchronized")),
    ("synchronized_counting_adder", case("synchronized_counting_adder", synchronized_counting_adder, "lock")),
    ("uncontended_synchronized_counting_adder", uncontended),
    ("synchronized_counting_adder_cold", cold_case("synchronized_counting_adder_cold", synchronized_counting_adder,
                                                   "lock")),
    ("atomic_counting_adder", case("atomic_counting_adder", atomic_counting_adder, "atomic")),
])
