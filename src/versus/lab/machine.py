"""The machine and the harness measured directly, not through a session.

`versus lab spells [SECONDS]`: the machine's slow spells. One CPU loop pinned to each CPU at once,
timed in chunks of about 2 ms for SECONDS (default 20), each quarter second marked fast (.) or slow
(S: its fastest chunk ≥ 1.25× the fastest chunk of the whole probe on that CPU). It prints each CPU's
timeline, the share of quarter seconds slow, how long the slow spells lasted, and how often both CPUs
were slow at once against what independent spells would give. It loads every CPU: run it on an
otherwise idle machine.

`versus lab overhead [N]`: what the harness adds to a process run beyond the program's own work. N
runs of an empty protocol program (`scripts/overhead`) started bare (`subprocess.run` of the same argv
and environment), interleaved with N process runs through the harness (protocol driver: spawn,
parse, validate, then an atomic store commit); the median of each and their difference.
"""
from __future__ import annotations

import multiprocessing
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from ..drivers.protocol import ProtocolDriver
from ..errors import UsageError
from ..executor import SubprocessExecutor
from ..experiment import load
from ..plan import make_plan
from ..store import Store

SLOW = 1.25  # a quarter second whose fastest chunk is this many times the CPU's fastest is slow
CHUNK = 100_000  # loop iterations per timed chunk: about 2 ms of CPython 3.11 here
Chunks = list[tuple[float, float]]  # (seconds since the probe's start, the chunk's duration)


def _probe(cpu: int, seconds: float, start: float, out: multiprocessing.Queue) -> None:
    os.sched_setaffinity(0, {cpu})
    while time.time() < start:
        pass
    chunks: Chunks = []
    while time.time() < start + seconds:
        began = time.perf_counter()
        total = 0
        for i in range(CHUNK):
            total += i
        chunks.append((time.time() - start, time.perf_counter() - began))
    out.put((cpu, chunks))


def timeline(chunks: Chunks, seconds: float) -> list[bool]:
    """Per whole quarter second of the probe: slow? (The last, cut short, is left out.)"""
    if not chunks:
        return []
    fastest = min(d for _, d in chunks)
    buckets: dict[int, float] = {}
    for at, d in chunks:
        if at < int(seconds * 4) / 4:
            buckets[int(at * 4)] = min(d, buckets.get(int(at * 4), d))
    return [buckets[k] >= SLOW * fastest for k in sorted(buckets)]


def spell_lengths(slow: Sequence[bool]) -> list[int]:
    """The lengths of the runs of slow quarter seconds."""
    runs, length = [], 0
    for s in [*slow, False]:
        if s:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


def describe(timelines: dict[int, list[bool]], fastest: dict[int, float]) -> str:
    """The report of `spells`, from each CPU's timeline and fastest chunk (seconds)."""
    lines = []
    for cpu, slow in timelines.items():
        spells = spell_lengths(slow)
        share = sum(slow) / len(slow) if slow else 0.0
        lines.append(f"cpu {cpu}: {''.join('S' if s else '.' for s in slow)}")
        lines.append(f"  slow {share:.0%} of {len(slow)} quarter seconds; fastest chunk {fastest[cpu] * 1e3:.2f} ms; "
                     f"spells: {len(spells)}, median {statistics.median(spells) / 4 if spells else 0:.2f} s, "
                     f"longest {max(spells, default=0) / 4:.2f} s")
    if len(timelines) >= 2:
        a, b = list(timelines.values())[:2]
        n = min(len(a), len(b))
        if n:
            both = sum(a[i] and b[i] for i in range(n)) / n
            expected = (sum(a[:n]) / n) * (sum(b[:n]) / n)
            lines.append(f"both CPUs slow at once: {both:.1%} of quarter seconds (independent spells: {expected:.1%})")
    return "\n".join(lines)


def spells(seconds: float) -> str:
    if not 0.25 <= seconds <= 3600:
        raise UsageError(f"SECONDS {seconds:g} is out of range", "give 0.25 to 3600 seconds, e.g. 20")
    cpus = sorted(os.sched_getaffinity(0))
    out: multiprocessing.Queue = multiprocessing.Queue()
    start = time.time() + 0.5
    workers = [multiprocessing.Process(target=_probe, args=(cpu, seconds, start, out)) for cpu in cpus]
    for worker in workers:
        worker.start()
    found = dict(out.get() for _ in workers)
    for worker in workers:
        worker.join()
    timelines = {cpu: timeline(chunks, seconds) for cpu, chunks in sorted(found.items())}
    return describe(timelines, {cpu: min(d for _, d in chunks) for cpu, chunks in found.items()})


def overhead(count: int, folder: Path | None = None) -> str:
    if not 1 <= count <= 100_000:
        raise UsageError(f"N {count} is out of range", "give 1 to 100000 pairs, e.g. 40")
    folder = folder or Path("scripts/overhead")
    if not (folder / "experiment.toml").is_file():
        raise UsageError(f"no overhead experiment at {folder}",
                         "run it from the versus checkout (scripts/overhead), or give --experiment PATH")
    experiment = load(folder.resolve())
    plan = make_plan([experiment], None, None, False, {})
    arm, method = plan.arms[0], plan.methods[experiment.name]
    driver = ProtocolDriver()
    executor = SubprocessExecutor()
    driver.prepare(arm, executor)
    argv, env = driver.command(arm, method, 1)
    bare, harness = [], []
    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch) / "overhead.db")
        session = store.new_session(0, [], {}, {})
        arm_id = store.add_arm(session, 0, {"experiment": experiment.name, "experiment_path": "", "case": arm.case.name,
                                            "runtime": arm.runtime.name, "runtime_info": {}, "params": {}, "method": {}})
        for index in range(count):
            began = time.perf_counter_ns()
            subprocess.run(argv, env=env, capture_output=True, cwd=experiment.path, check=True)
            bare.append(time.perf_counter_ns() - began)
            began = time.perf_counter_ns()
            run = driver.run(arm, method, 1, executor)
            store.save_run(arm_id, index, run)
            harness.append(time.perf_counter_ns() - began)
            if run.status != "ok":
                raise UsageError(f"the empty program failed through the harness: {run.reason}",
                                 f"run `versus run {folder}` to see its log")
        store.close()
    b, h = statistics.median(bare), statistics.median(harness)
    return (f"{arm.runtime.name}, {count} interleaved pairs: bare process {b / 1e6:.2f} ms, "
            f"through the harness {h / 1e6:.2f} ms, added {(h - b) / 1e6:.2f} ms per process run "
            f"(median of pairwise differences {statistics.median(x - y for x, y in zip(harness, bare)) / 1e6:.2f} ms)")
