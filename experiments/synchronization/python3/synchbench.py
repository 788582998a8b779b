# The 2009 Jython synchronization benchmark (Tobias Ivarsson), for CPython 3.6+ and PyPy.
# One sample = the original's measured phase for one function: a pool of THREADS threads runs TASKS
# tasks; a task times ROUNDS rounds of CALLS calls of f(5, 10) and keeps its fastest round; the sample
# is the sum of the TASKS minima for TASKS x CALLS calls.
# atomic_counting_adder: there is no AtomicInteger here; next() on an itertools.count() is the closest
# equivalent (one C-level call that is atomic under the GIL).
import itertools
import threading

import versus_helper as vh

THREADS = int(vh.param("threads", "3"))
TASKS = int(vh.param("tasks", "40"))
ROUNDS = int(vh.param("rounds", "5"))
CALLS = int(vh.param("calls", "10000"))
WARMUP_CALLS = int(vh.param("warmup_calls", "20000"))

now_ns = vh.now_ns  # the runtime's nanosecond clock (time.perf_counter_ns where it exists)

counter = 0
lock = threading.Lock()
atomic = itertools.count()


def reset():
    global counter, atomic
    counter = 0
    atomic = itertools.count()


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


def atomic_counting_adder(a, b):
    next(atomic)
    return a + b


def task(f):
    """Time ROUNDS rounds of CALLS calls; return (fastest round in ns, the last result)."""
    best = None
    result = None
    for _ in range(ROUNDS):
        start = now_ns()
        for _ in range(CALLS):
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
            with take:
                if not pending or errors:
                    return
                index = pending.pop()
            try:
                results[index] = task(f)
            except BaseException as error:
                errors.append(error)
                return

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


warmed = set()


def case(f, counted):
    def measure(ctx):
        if f not in warmed:
            # the original's warm-up, once per process: WARMUP_CALLS calls on the main thread
            for _ in range(WARMUP_CALLS):
                f(5, 10)
            warmed.add(f)
        reset()
        results = run_pool(f)
        ns = sum(best for best, _ in results)
        last_sum = sum(last for _, last in results)
        calls = TASKS * ROUNDS * CALLS
        if counted == "atomic":
            check = next(atomic)  # the number of next() calls before this one
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
