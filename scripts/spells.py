"""The machine's slow spells, seen directly: one CPU loop pinned to each CPU at once, timed in chunks
of about 2 ms for SECONDS (default 20), each quarter second marked fast (.) or slow (S: its fastest
chunk ≥ 1.25× the fastest chunk of the whole probe on that CPU).

It prints each CPU's timeline, the share of quarter seconds slow, how long the slow spells lasted
(in quarter seconds), and how often both CPUs were slow at once against what independent spells
would give. On this VM (docs/results.md) the spells are per CPU and switch within a second: a process
of 0.1 s is either wholly in one or wholly out, and the two arms of a round, run one after the
other, are often in different states, which the pairing by round cannot cancel.

Run it on an otherwise idle machine (it loads every CPU).

Usage: python3 scripts/spells.py [SECONDS]
"""
from __future__ import annotations

import multiprocessing
import os
import statistics
import sys
import time

from _stored import run

SLOW = 1.25  # a quarter second whose fastest chunk is this many times the CPU's fastest is slow
CHUNK = 100_000  # loop iterations per timed chunk: about 2 ms of CPython 3.11 here


def _probe(cpu: int, seconds: float, start: float, out: multiprocessing.Queue) -> None:
    os.sched_setaffinity(0, {cpu})
    while time.time() < start:
        pass
    chunks: list[tuple[float, float]] = []
    while time.time() < start + seconds:
        began = time.perf_counter()
        total = 0
        for i in range(CHUNK):
            total += i
        chunks.append((time.time() - start, time.perf_counter() - began))
    out.put((cpu, chunks))


def _timeline(chunks: list[tuple[float, float]], seconds: float) -> list[bool]:
    """Per whole quarter second of the probe: slow? (The last, cut short, is left out.)"""
    fastest = min(d for _, d in chunks)
    buckets: dict[int, float] = {}
    for at, d in chunks:
        if at < int(seconds * 4) / 4:
            buckets[int(at * 4)] = min(d, buckets.get(int(at * 4), d))
    return [buckets[k] >= SLOW * fastest for k in sorted(buckets)]


def _spells(slow: list[bool]) -> list[int]:
    runs, length = [], 0
    for s in slow + [False]:
        if s:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


def main(argv: list[str]) -> int:
    try:
        seconds = float(argv[0]) if argv else 20.0
    except ValueError:
        print(f"spells: SECONDS must be a number, like 20 (got {argv[0]!r})", file=sys.stderr)
        return 2
    cpus = sorted(os.sched_getaffinity(0))
    out: multiprocessing.Queue = multiprocessing.Queue()
    start = time.time() + 0.5
    workers = [multiprocessing.Process(target=_probe, args=(cpu, seconds, start, out)) for cpu in cpus]
    for w in workers:
        w.start()
    lines = dict(out.get() for _ in workers)
    for w in workers:
        w.join()
    timelines = {cpu: _timeline(chunks, seconds) for cpu, chunks in sorted(lines.items())}
    for cpu, slow in timelines.items():
        spells = _spells(slow)
        fastest = min(d for _, d in lines[cpu]) * 1e3
        print(f"cpu {cpu}: {''.join('S' if s else '.' for s in slow)}")
        print(f"  slow {sum(slow) / len(slow):.0%} of {len(slow)} quarter seconds; fastest chunk {fastest:.2f} ms; "
              f"spells: {len(spells)}, median {statistics.median(spells) / 4 if spells else 0:.2f} s, "
              f"longest {max(spells, default=0) / 4:.2f} s")
    if len(timelines) >= 2:
        a, b = list(timelines.values())[:2]
        n = min(len(a), len(b))
        both = sum(a[i] and b[i] for i in range(n)) / n
        expected = (sum(a[:n]) / n) * (sum(b[:n]) / n)
        print(f"both CPUs slow at once: {both:.1%} of quarter seconds (independent spells: {expected:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(run(lambda: main(sys.argv[1:])))
