"""Handoffs per second of a producer/consumer pair, three ways, in one run.

Arms (a one-slot mailbox passed between two threads):
  fastcond       fastcond.Condition() (its default lock: RLock, as the stdlib)
  fastcond_lock  fastcond.Condition(threading.Lock())
  fastcond_nospin  fastcond.Condition() with its bounded spinning turned off
                 (fastcond._spin_config(0, 0, 0)): the design before spinning
  threading      threading.Condition()
  threading_lock threading.Condition(threading.Lock())
  lock           two threading.Lock objects used as binary semaphores
                 (the "prod/con" column of PythonPlus's giltest.py)

Also shown: voluntary context switches per handoff (getrusage, all threads),
i.e. how often a thread went to sleep in the kernel.

Every round runs each arm once in a fresh random order, so drift on a shared
machine hits all arms alike.  Reported: median handoffs/s per arm and the
ratios fastcond/threading and fastcond/lock, both as the ratio of the medians
and as the median of the ratios within each round.

    python bench/handoff.py [--rounds 15] [--seconds 0.3] [--json]
"""
import argparse
import json
import platform
import random
import resource
import statistics
import sys
import threading
import time

import fastcond


def cond_pair(cond, n):
    slot = [None]
    out = [0]

    def consumer():
        total = 0
        for _ in range(n):
            with cond:
                while slot[0] is None:
                    cond.wait()
                total += slot[0]
                slot[0] = None
                cond.notify()
        out[0] = total

    t = threading.Thread(target=consumer)
    t.start()
    t0 = time.perf_counter()
    for i in range(n):
        with cond:
            while slot[0] is not None:
                cond.wait()
            slot[0] = i
            cond.notify()
    t.join()
    dt = time.perf_counter() - t0
    if out[0] != n * (n - 1) // 2:
        raise AssertionError("lost or duplicated items")
    return dt


def lock_pair(n):
    full = threading.Lock()
    empty = threading.Lock()
    full.acquire()
    slot = [None]
    out = [0]

    def consumer():
        total = 0
        for _ in range(n):
            full.acquire()
            total += slot[0]
            empty.release()
        out[0] = total

    empty.acquire()
    t = threading.Thread(target=consumer)
    t.start()
    t0 = time.perf_counter()
    for i in range(n):
        slot[0] = i
        full.release()
        empty.acquire()
    t.join()
    dt = time.perf_counter() - t0
    if out[0] != n * (n - 1) // 2:
        raise AssertionError("lost or duplicated items")
    return dt


def nospin_pair(n):
    saved = fastcond._spin_config()
    fastcond._spin_config(0, 0, 0)
    try:
        return cond_pair(fastcond.Condition(), n)
    finally:
        fastcond._spin_config(*saved)


ARMS = {
    "fastcond": lambda n: cond_pair(fastcond.Condition(), n),
    "fastcond_lock": lambda n: cond_pair(fastcond.Condition(threading.Lock()), n),
    "fastcond_nospin": nospin_pair,
    "threading": lambda n: cond_pair(threading.Condition(), n),
    "threading_lock": lambda n: cond_pair(threading.Condition(threading.Lock()), n),
    "lock": lock_pair,
}


def calibrate(fn, seconds):
    n = 1000
    while True:
        dt = fn(n)
        if dt >= seconds / 4:
            return max(1000, int(n * seconds / dt))
        n *= 4


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=0.3,
                    help="target duration of one arm in one round")
    ap.add_argument("--arms", default=",".join(ARMS))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if fastcond.is_patched():
        sys.exit("handoff.py: run without fastcond.patch()")

    arms = args.arms.split(",")
    sizes = {a: calibrate(ARMS[a], args.seconds) for a in arms}
    rates = {a: [] for a in arms}
    csw = {a: [] for a in arms}   # voluntary context switches (all threads)
    for _ in range(args.rounds):
        order = arms[:]
        random.shuffle(order)
        for a in order:
            c0 = resource.getrusage(resource.RUSAGE_SELF).ru_nvcsw
            dt = ARMS[a](sizes[a])
            c1 = resource.getrusage(resource.RUSAGE_SELF).ru_nvcsw
            rates[a].append(sizes[a] / dt)
            csw[a].append((c1 - c0) / sizes[a])

    med = {a: statistics.median(rates[a]) for a in arms}
    pairs = [("fastcond", "threading"), ("fastcond_lock", "threading_lock"),
             ("fastcond", "lock"), ("fastcond_lock", "lock"),
             ("fastcond_nospin", "threading"), ("fastcond", "fastcond_nospin")]
    ratios = {}      # ratio of the medians
    paired = {}      # median of the ratios within each round (robust to drift)
    for a, b in pairs:
        if a in med and b in med:
            ratios["%s/%s" % (a, b)] = med[a] / med[b]
            paired["%s/%s" % (a, b)] = statistics.median(
                x / y for x, y in zip(rates[a], rates[b]))

    if args.json:
        print(json.dumps({"python": platform.python_version(),
                          "implementation": platform.python_implementation(),
                          "rounds": args.rounds, "median_handoffs_per_s": med,
                          "median_voluntary_switches_per_handoff":
                              {a: statistics.median(csw[a]) for a in arms},
                          "samples": rates, "ratios": ratios,
                          "paired_ratios": paired}, indent=1))
        return
    print("%s %s, %d rounds, interleaved" % (platform.python_implementation(),
                                             platform.python_version(), args.rounds))
    for a in arms:
        srt = sorted(rates[a])
        print("  %-16s median %9.0f handoffs/s  (min %9.0f, max %9.0f)"
              "  %.2f sleeps/handoff"
              % (a, med[a], srt[0], srt[-1], statistics.median(csw[a])))
    print("  ratio                           of medians   median of per-round ratios")
    for k, v in ratios.items():
        print("  %-31s %6.2fx      %6.2fx" % (k, v, paired[k]))


if __name__ == "__main__":
    main()
