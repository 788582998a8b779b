"""What else the machine did while a process ran: a per-process contention covariate.

The harness reads counters just before it starts a process and just after it reaps it, never while
the process runs (a probe on the measured cores would be contention itself):

- `cpu_ns` and `preempted`: the process's CPU time (user + system) and its involuntary context
  switches, from the rusage of reaped children (`getrusage(RUSAGE_CHILDREN)`; a process's reaped
  descendants count with it);
- `pressure_us`: the time some runnable task waited for a CPU, machine-wide (PSI, the "some" line of
  `/proc/pressure/cpu`), a neighbour's load seen from inside a VM;
- `steal_ns`: the time the hypervisor gave this VM's CPUs to someone else (`/proc/stat`).

`versus lab contention` asks whether these explain the stored rounds' residuals; docs/method.md says
what became of it. A counter the kernel does not offer is left out (-1), never guessed.
"""
from __future__ import annotations

import json
import os
import resource
from dataclasses import asdict, dataclass, fields
from pathlib import Path

PRESSURE = Path("/proc/pressure/cpu")
STAT = Path("/proc/stat")
_TICK_NS = 1_000_000_000 // (os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100)


@dataclass(frozen=True)
class Contention:
    """Counters over one process's life (deltas from `since`); -1 where the machine does not offer one."""

    cpu_ns: int
    preempted: int
    pressure_us: int
    steal_ns: int

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Contention | None:
        """A stored value; None for runs stored before it was recorded, or a value that is not one."""
        try:
            raw = json.loads(text) if text else None
        except ValueError:
            return None
        if not isinstance(raw, dict):
            return None
        values = {f.name: raw.get(f.name) for f in fields(cls)}
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
            return None
        return cls(**values)  # type: ignore[arg-type]

    def pressure_share(self, wall_ns: int) -> float | None:
        """The share of the process's wall time that some task waited for a CPU."""
        return self.pressure_us * 1000 / wall_ns if self.pressure_us >= 0 and wall_ns > 0 else None

    def preempted_per_cpu_s(self) -> float | None:
        return self.preempted / (self.cpu_ns / 1e9) if self.preempted >= 0 and self.cpu_ns > 0 else None

    def plus(self, other: Contention | None) -> Contention:
        """Both processes' counters together (a process run of several processes); -1 stays unknown."""
        if other is None:
            return self

        def total(a: int, b: int) -> int:
            return a + b if a >= 0 and b >= 0 else -1
        return Contention(total(self.cpu_ns, other.cpu_ns), total(self.preempted, other.preempted),
                          total(self.pressure_us, other.pressure_us), total(self.steal_ns, other.steal_ns))

    def since(self, before: Contention) -> Contention:
        """The deltas from `before` to these counters (both read by `read_counters`)."""
        def delta(now: int, then: int) -> int:
            return now - then if now >= 0 and then >= 0 else -1
        return Contention(delta(self.cpu_ns, before.cpu_ns), delta(self.preempted, before.preempted),
                          delta(self.pressure_us, before.pressure_us), delta(self.steal_ns, before.steal_ns))


def read_counters() -> Contention:
    """The counters as they stand (not deltas): reaped children's CPU time and involuntary switches,
    PSI's waiting time, steal time."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Contention(round((usage.ru_utime + usage.ru_stime) * 1e9), int(usage.ru_nivcsw), _pressure_us(), _steal_ns())


def _pressure_us() -> int:
    try:
        for line in PRESSURE.read_text().splitlines():
            if line.startswith("some "):
                total = dict(part.split("=", 1) for part in line.split()[1:] if "=" in part).get("total", "")
                return int(total) if total.isdigit() else -1
    except (OSError, ValueError):
        pass
    return -1


def _steal_ns() -> int:
    try:
        with STAT.open() as stat:
            first = stat.readline().split()
    except OSError:
        return -1
    # cpu user nice system idle iowait irq softirq steal ...
    if len(first) > 8 and first[0] == "cpu" and first[8].isdigit():
        return int(first[8]) * _TICK_NS
    return -1


# A share of the CPUs' time the hypervisor gave away, over a session's process runs, above which the
# report calls the host busy. The project's VM gave away 0.03–0.4% in the make runs of quiet hours and
# 15% in one whose first rounds took 1.6 times as long (docs/results.md).
BUSY_STEAL = 0.05


@dataclass(frozen=True)
class Machine:
    """What else the machine did over a set of process runs, as shares of their wall time: what a
    reader needs to know before wondering why a session decided little."""

    runs: int  # process runs with counters recorded
    steal: float | None  # of the CPUs' time, given by the hypervisor to other guests
    pressure: float | None  # of the wall time, some task waited for a CPU

    @property
    def busy(self) -> bool:
        return self.steal is not None and self.steal >= BUSY_STEAL


def machine(runs: list[tuple[Contention | None, int]], cores: int) -> Machine | None:
    """Over (counters, wall ns) of process runs on one host of `cores` CPUs; None where no run has them.
    Steal is counted over all the host's CPUs (`/proc/stat`'s "cpu" line), so it is shared out by them:
    with `cores` unknown (0) it is left out, not guessed."""
    recorded = [(c, wall) for c, wall in runs if c is not None and wall > 0]
    if not recorded:
        return None
    stolen = [(c.steal_ns, wall) for c, wall in recorded if c.steal_ns >= 0]
    waited = [(c.pressure_us * 1000, wall) for c, wall in recorded if c.pressure_us >= 0]

    def share(pairs: list[tuple[int, int]], per: int) -> float | None:
        total = sum(wall for _, wall in pairs) * per
        return min(1.0, sum(v for v, _ in pairs) / total) if pairs and total > 0 else None
    return Machine(len(recorded), share(stolen, cores) if cores > 0 else None, share(waited, 1))
