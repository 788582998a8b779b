"""`versus lab contention DB…`: does what else the machine did while a process ran (contention.py:
the process's involuntary context switches, PSI's CPU waiting time, steal time) explain the stored
rounds' residuals? The decision rule adjusts for a covariate only if it does (docs/method.md,
"A contention covariate").

For every claim pair (a ratio of two arms), each round's unit is its log ratio as the rule judges it
(`stored.pair_rounds`), and its covariate the difference between the two arms' processes of that
round: a slow spell that hits both alike cancels in the ratio, as it does in the covariate. Within a
pair both are centred and scaled to unit spread; pooled over pairs, their correlation r says how much
of the per-round variance the covariate explains (r²), and so how much adjusting for it could cut the
per-round SD at most (1 − √(1 − r²)). The verdict is the pre-registered one: a covariate is worth
adjusting for when the program does not drive it itself (`Kind.exogenous`), its r² is at least USE_R2,
and the 95% interval of r excludes 0.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

from ..analyze import analyze
from ..contention import Contention
from ..errors import UsageError
from ..record import load_session
from ..store import Target
from .stored import open_store, pair_rounds, session_rule, start_of

USE_R2 = 0.1  # explains a tenth of the per-round variance: adjusting would cut the SD by ≥ 5%
MIN_ROUNDS = 4  # a pair's rounds with a covariate, at least, to enter the pooled correlation

Covariate = Callable[[Contention, int], float | None]  # a process's contention and wall time → a value


def _preempted(c: Contention, wall_ns: int) -> float | None:
    rate = c.preempted_per_cpu_s()
    return math.log1p(rate) if rate is not None else None


def _pressure(c: Contention, wall_ns: int) -> float | None:
    return c.pressure_share(wall_ns)


def _steal(c: Contention, wall_ns: int) -> float | None:
    return c.steal_ns / wall_ns if c.steal_ns >= 0 and wall_ns > 0 else None


@dataclass(frozen=True)
class Kind:
    meaning: str
    value: Covariate
    # Only a covariate the program does not drive itself may adjust its rounds: one it drives is partly a
    # consequence of what is measured (a thread handoff loop that runs faster switches more often), and
    # adjusting for it would take out some of the effect with the noise.
    exogenous: str  # '' when it is; otherwise why not


COVARIATES: dict[str, Kind] = {
    "preempted": Kind("log(1 + involuntary switches per CPU second), numerator's − denominator's", _preempted,
                      "the program's own threads preempt each other"),
    "pressure": Kind("share of the wall time some task waited for a CPU (PSI), numerator's − denominator's", _pressure,
                     "PSI counts the program's own runnable threads"),
    "steal": Kind("share of the wall time stolen by the hypervisor, numerator's − denominator's", _steal, ""),
}


@dataclass
class Pooled:
    """One covariate's standardized (residual, covariate) pairs over every claim pair."""

    pairs: int = 0
    rounds: int = 0
    products: list[float] = field(default_factory=list)

    @property
    def r(self) -> float | None:
        return statistics.fmean(self.products) if self.products else None

    def interval(self) -> tuple[float, float] | None:
        """r's 95% interval (Fisher's z; the degrees of freedom less one per pair's centring)."""
        r, n = self.r, self.rounds - self.pairs
        if r is None or n < 4:
            return None
        z, half = math.atanh(max(-0.999999, min(0.999999, r))), 1.96 / math.sqrt(n - 3)
        return math.tanh(z - half), math.tanh(z + half)

    def explains(self) -> bool:
        r, interval = self.r, self.interval()
        return r is not None and interval is not None and r * r >= USE_R2 and (interval[0] > 0 or interval[1] < 0)


def _standardized(values: list[float]) -> list[float] | None:
    mean = statistics.fmean(values)
    sd = statistics.pstdev(values)
    return [(v - mean) / sd for v in values] if sd > 0 else None


def contention(paths: list[Target]) -> str:
    if not paths:
        raise UsageError("no database given", "give the versus.db of one or more runs")
    stores = [open_store(path) for path in paths]  # every database is there before any is analysed
    pooled = {name: Pooled() for name in COVARIATES}
    by_experiment: dict[tuple[str, str], Pooled] = {}
    recorded = total = 0
    for store in stores:
        stored = load_session(store)
        plan = stored.plan
        rule = session_rule(plan, [])
        analysis = analyze(store, stored.id, rule)
        runs = {(run.arm_id, run.round): run for run in store.runs(stored.id)}
        total += len(runs)
        recorded += sum(1 for run in runs.values() if run.contention is not None)
        for claim in analysis.claims:
            for judged in claim.instances:
                if judged.denominator is None:
                    continue
                found = pair_rounds(judged, start_of(plan, judged.item.experiment, rule), rule)
                if found is None or found.scale != "log" or found.exact:
                    continue
                top, bottom = judged.numerator.row_id, judged.denominator.row_id
                for name, kind in COVARIATES.items():
                    units, xs = [], []
                    for unit, round_ in zip(found.units, found.indices, strict=True):
                        a, b = runs.get((top, round_)), runs.get((bottom, round_))
                        if a is None or b is None or a.contention is None or b.contention is None:
                            continue
                        x_a, x_b = kind.value(a.contention, a.wall_ns), kind.value(b.contention, b.wall_ns)
                        if x_a is None or x_b is None:
                            continue
                        units.append(unit)
                        xs.append(x_a - x_b)
                    if len(units) < MIN_ROUNDS:
                        continue
                    z_units, z_xs = _standardized(units), _standardized(xs)
                    if z_units is None or z_xs is None:
                        continue
                    for entry in (pooled[name], by_experiment.setdefault((name, judged.item.experiment), Pooled())):
                        entry.pairs += 1
                        entry.rounds += len(units)
                        entry.products += [u * x for u, x in zip(z_units, z_xs, strict=True)]
    return render(pooled, by_experiment, recorded, total, len(paths))


def render(pooled: dict[str, Pooled], by_experiment: dict[tuple[str, str], Pooled], recorded: int, total: int,
           sessions: int) -> str:
    lines = [f"{sessions} session{'s' if sessions != 1 else ''}: {recorded} of {total} process runs have their "
             "contention recorded (versus records it from schema 6 on)", "",
             "covariate | claim pairs | rounds | r [95%] | r² | SD cut at most | adjust for it?"]
    for name, kind in COVARIATES.items():
        entry = pooled[name]
        if entry.r is None:
            lines.append(f"{name} | 0 | 0 | – | – | – | no: no claim pair has {MIN_ROUNDS} rounds with it")
            continue
        if not entry.explains():
            verdict = f"no: it does not explain them (needs r² ≥ {USE_R2:g} and an interval that excludes 0)"
        else:
            verdict = f"no: {kind.exogenous}" if kind.exogenous else "yes"
        lines.append(f"{name} | {_row(entry)} | {verdict}")
    lines += ["", "per experiment:", "covariate | experiment | claim pairs | rounds | r [95%] | r² | SD cut at most"]
    lines += [f"{name} | {experiment} | {_row(entry)}" for (name, experiment), entry in sorted(by_experiment.items())]
    lines += ["", "each covariate:"] + [f"  {name}: {kind.meaning}" + (f" (not exogenous: {kind.exogenous})"
                                                                          if kind.exogenous else "")
                                         for name, kind in COVARIATES.items()]
    return "\n".join(lines)


def _row(entry: Pooled) -> str:
    r, interval = entry.r or 0.0, entry.interval()
    shown = f"{r:+.3f} [{interval[0]:+.3f}, {interval[1]:+.3f}]" if interval else f"{r:+.3f}"
    cut = 1 - math.sqrt(max(0.0, 1 - r * r))
    return f"{entry.pairs} | {entry.rounds} | {shown} | {r * r:.3f} | {cut:.1%}"
