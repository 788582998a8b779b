"""How noisy a stored session was (`versus lab noise`), and which per-process value spreads less
(`versus lab values`), in the terms of the simulation's noise model (docs/method.md).

`noise`: per arm, its successful processes, the spread between them (SD of the log process values) and
the spread within one (median SD of the log measured samples); per case against a baseline case on
the same runtime and variant (`--baseline CASE`), the spread of the per-round log ratio (SD, and
MAD × 1.4826, which heavy tails leave alone); and where the time went: process time in the rounds of
the experiments' own `processes` against the sequential rounds after them. `--samples TEXT`: every
process of the arms whose key contains TEXT, its round, wall time, samples (warmup marked w) and value.
`--claims`: per claim pair, the SD of its per-round log ratio over the experiment's own first
`processes` rounds, and the median of those per experiment and in all (one figure for how noisy the
machine was). `--raises`: per experiment, the processes of rounds 0–1 that `steady.still_warming`
flags, and how many a rule without its warmup condition would.

`values`: per stored session and experiment, the median over its claim pairs (on time, not a metric)
and over its comparisons of the SD of the per-round log ratio over the experiment's own first
`processes` rounds, with each process's value taken both ways (the median of its measured samples,
their minimum); "(all)" takes every claim pair of the run. Then in how many sessions the minimum gave
the smaller spread. `--model`: the noise model with spells within a process instead.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

import numpy as np

from .. import judge, simulate, steady
from ..analyze import Analysis, ArmResult, analyze
from ..rule import CURRENT, Rule
from ..store import Target
from .stored import name_of, open_store


def _values(arm: ArmResult, metric: str = "", before: float = math.inf) -> dict[int, float]:
    """Round → each successful process's value (or its metric), for the rounds before `before`."""
    out = {}
    for process in arm.processes:
        value = process.metrics.get(metric) if metric else process.value
        if process.status == "ok" and process.round < before and value and value > 0:
            out[process.round] = value
    return out


def _ratios(top: dict[int, float], bottom: dict[int, float]) -> list[float]:
    return judge.log_ratios(top, bottom, sorted(set(top) & set(bottom)))


def _within(arm: ArmResult) -> float:
    spreads = [statistics.stdev(math.log(v) for v, warm in p.samples if not warm)
               for p in arm.processes if p.status == "ok" and sum(1 for _, warm in p.samples if not warm) > 1]
    return statistics.median(spreads) if spreads else math.nan


def mad_sd(values: Sequence[float]) -> float:
    """The median absolute deviation × 1.4826: the SD of normal data, unmoved by heavy tails."""
    center = statistics.median(values)
    return 1.4826 * statistics.median(abs(v - center) for v in values)


def noise(path: Target, session: int | None, baseline: str | None = None, samples: str | None = None,
          claims: bool = False, raises: bool = False) -> str:
    analysis = analyze(open_store(path), session)
    if claims:
        return _claims(analysis)
    if raises:
        return _raises(analysis)
    if samples is not None:
        return _samples([arm for arm in analysis.arms if samples in arm.key])
    lines = ["arm | processes | spread between processes | spread within a process"]
    for arm in analysis.arms:
        logs = [math.log(v) for v in _values(arm).values()]
        between = f"{statistics.stdev(logs):.2%}" if len(logs) > 1 else "–"
        within = _within(arm)
        lines.append(f"{arm.key} | {len(logs)} | {between} | {within:.2%}" if math.isfinite(within) else
                     f"{arm.key} | {len(logs)} | {between} | –")
    if baseline:
        lines += ["", "case ÷ baseline | rounds | per-round log ratio: SD | MAD × 1.4826 | mean"]
        bases = {(a.id.runtime, a.id.variant): a for a in analysis.arms if a.id.case == baseline}
        if not bases:
            lines.append(f"no arm runs the case {baseline!r}; the cases are "
                         + ", ".join(dict.fromkeys(a.id.case for a in analysis.arms)))
        for arm in analysis.arms:
            base = bases.get((arm.id.runtime, arm.id.variant))
            if base is None or base is arm:
                continue
            ratios = _ratios(_values(arm), _values(base))
            if len(ratios) > 1:
                lines.append(f"{arm.key} ÷ {baseline} | {len(ratios)} | {statistics.stdev(ratios):.2%} | "
                             f"{mad_sd(ratios):.2%} | {statistics.fmean(ratios):+.2%}")
    first: dict[str, float] = {}
    later: dict[str, float] = {}
    for arm in analysis.arms:
        own = (arm.method.processes or 0)
        for process in arm.processes:
            spent = first if process.round < own else later
            spent[arm.id.experiment] = spent.get(arm.id.experiment, 0.0) + process.wall_ns / 1e9
    lines += ["", f"process time: {sum(first.values()) / 60:.1f} min in the experiments' own processes, "
              f"{sum(later.values()) / 60:.1f} min in sequential rounds"]
    for experiment in sorted(set(first) | set(later)):
        lines.append(f"  {experiment}: {first.get(experiment, 0.0):.0f} s own, {later.get(experiment, 0.0):.0f} s sequential")
    return "\n".join(lines)


def _samples(arms: list[ArmResult]) -> str:
    if not arms:
        return "no arm's key contains that text; `versus lab noise DB` lists the arms"
    lines = []
    for arm in arms:
        lines.append(arm.key)
        for p in sorted(arm.processes, key=lambda p: p.round):
            shown = " ".join(("w" if warm else "") + f"{v:.4g}" for v, warm in p.samples)
            value = f"{p.value:.4g}" if p.status == "ok" and p.value else p.status
            lines.append(f"  round {p.round} ({p.wall_ns / 1e9:.2f} s): {shown} → {value}")
    return "\n".join(lines)


def claim_spreads(analysis: Analysis) -> list[tuple[str, str, str, int, float]]:
    """(experiment, claim, pair, rounds, SD of the per-round log ratio) over each experiment's own
    first `processes` rounds, for every claim pair with a denominator and 2 such rounds or more."""
    out = []
    for claim in analysis.claims:
        for judged in claim.instances:
            if judged.denominator is None:
                continue
            first = (judged.numerator.method.processes or 0)
            ratios = _ratios(_values(judged.numerator, judged.item.metric, first),
                             _values(judged.denominator, judged.item.metric, first))
            if len(ratios) >= 2:
                out.append((claim.experiment, claim.claim.id, f"{judged.numerator.key} ÷ {judged.denominator.key}",
                            len(ratios), statistics.stdev(ratios)))
    return out


def _claims(analysis: Analysis) -> str:
    lines = ["experiment | claim | pair | rounds | SD of the per-round log ratio over the first rounds"]
    by_experiment: dict[str, list[float]] = {}
    for experiment, claim, pair, rounds, sd in claim_spreads(analysis):
        by_experiment.setdefault(experiment, []).append(sd)
        lines.append(f"{experiment} | {claim} | {pair} | {rounds} | {sd:.3f}")
    for experiment, sds in by_experiment.items():
        lines.append(f"{experiment}: median SD {statistics.median(sds):.3f} over {len(sds)} claim pairs")
    every = sorted(sd for sds in by_experiment.values() for sd in sds)
    if every:  # one figure for the machine's state during a run, to set runs side by side
        lines.append(f"all: median SD {statistics.median(every):.3f}, 75th percentile "
                     f"{every[min(len(every) - 1, int(len(every) * 0.75))]:.3f} over {len(every)} claim pairs")
    else:
        lines.append("no claim pair has 2 rounds of its experiment's own processes")
    return "\n".join(lines)


def _raises(analysis: Analysis) -> str:
    lines = ["experiment | processes of rounds 0–1 | still warming (steady.still_warming) | every measured shift downward"]
    counts: dict[str, list[int]] = {}
    for arm in analysis.arms:
        for process in arm.processes:
            if process.status != "ok" or process.round > 1:
                continue
            values = [v for v, _ in process.samples]
            warm = sum(1 for _, w in process.samples if w)
            tally = counts.setdefault(arm.id.experiment, [0, 0, 0])
            tally[0] += 1
            tally[1] += steady.still_warming(values, warm)
            tally[2] += downward(values, warm)
    for experiment, (runs, warming, down) in sorted(counts.items()):
        lines.append(f"{experiment} | {runs} | {warming} | {down}")
    return "\n".join(lines)


def downward(values: Sequence[float], warm: int) -> bool:
    """still_warming without its warmup condition: no steady state, every measured shift downward."""
    if steady.classify(values, warm) != steady.UNSTEADY:
        return False
    measured = [math.log(v) for v in values[warm:]]
    shifts = [steady.shift(np.asarray(measured[:cut]), np.asarray(measured[cut:])) for cut in range(1, len(measured))]
    return any(s < 0 for s in shifts) and not any(s > 0 for s in shifts)


# --- the per-process value ------------------------------------------------------------------------

WAYS: dict[str, Callable[[Sequence[float]], float]] = {"median": statistics.median, "min": min}


def _taken(arm: ArmResult, way: Callable[[Sequence[float]], float], before: int) -> dict[int, float]:
    """Round → the process's value taken `way` from its measured samples."""
    out = {}
    for process in arm.processes:
        measured = [v for v, warm in process.samples if not warm]
        if process.status == "ok" and process.round < before and measured and way(measured) > 0:
            out[process.round] = way(measured)
    return out


def _spread(top: ArmResult, bottom: ArmResult, way: Callable[[Sequence[float]], float]) -> float | None:
    first = (top.method.processes or 0)
    ratios = _ratios(_taken(top, way, first), _taken(bottom, way, first))
    return statistics.stdev(ratios) if len(ratios) >= 2 else None


def _first(k: int) -> Callable[[Sequence[float]], float]:
    return lambda measured: min(measured[:k])


# "more samples per process" where the value is the fastest sample: the minimum of the first k of the
# stored samples is what a process measuring k samples would have given
FIRST = 5


def first_ways(first: int = FIRST) -> dict[str, Callable[[Sequence[float]], float]]:
    """The minimum of the first 1 … `first` measured samples of each process."""
    return {f"min of {k}": _first(k) for k in range(1, first + 1)}


def spreads(path: Target, ways: dict[str, Callable[[Sequence[float]], float]] | None = None
            ) -> dict[tuple[str, str], dict[str, float]]:
    """(experiment, "claims" or "comparisons") → way → median SD over the pairs, of the latest session."""
    ways = WAYS if ways is None else ways
    analysis = analyze(open_store(path), None)
    pairs: dict[tuple[str, str], list[tuple[ArmResult, ArmResult]]] = {}
    for claim in analysis.claims:
        for judged in claim.instances:
            if judged.denominator is not None and not judged.item.metric:
                pairs.setdefault((claim.experiment, "claims"), []).append((judged.numerator, judged.denominator))
                # every claim pair of the run, whatever its experiment's value: the machine's noise
                pairs.setdefault(("(all)", "claims"), []).append((judged.numerator, judged.denominator))
    for comparison in analysis.comparisons:
        if comparison.denominator is not None:
            key = (comparison.numerator.id.experiment, "comparisons")
            pairs.setdefault(key, []).append((comparison.numerator, comparison.denominator))
    out: dict[tuple[str, str], dict[str, float]] = {}
    for key, found in pairs.items():
        by_way = {}
        for name, way in ways.items():
            sds = [sd for top, bottom in found if (sd := _spread(top, bottom, way)) is not None]
            if sds:
                by_way[name] = statistics.median(sds)
        if len(by_way) == len(ways):
            out[key] = by_way
    return out


def values(paths: list[Target], first: int = FIRST) -> str:
    table: dict[tuple[str, str], list[dict[str, float]]] = {}
    lines = ["database | experiment | pairs | median SD of the per-round log ratio: median value → min value"]
    for path in paths:
        for (experiment, kind), by_way in sorted(spreads(path).items()):
            table.setdefault((experiment, kind), []).append(by_way)
            lines.append(f"{name_of(path)} | {experiment} | {kind} | {by_way['median']:.3f} → {by_way['min']:.3f}")
    lines += ["", "experiment | pairs | sessions in which the minimum spread less"]
    for (experiment, kind), rows in sorted(table.items()):
        smaller = sum(row["min"] < row["median"] for row in rows)
        lines.append(f"{experiment} | {kind} | {smaller} of {len(rows)}")
    lines += ["", "database | experiment | pairs | median SD of the per-round log ratio with the minimum of the "
              f"first 1 … {first} measured samples per process (processes with fewer give their minimum)"]
    for path in paths:
        for (experiment, kind), by_way in sorted(spreads(path, first_ways(first)).items()):
            lines.append(f"{name_of(path)} | {experiment} | {kind} | " + " → ".join(f"{v:.3f}" for v in by_way.values()))
    return "\n".join(lines)


def model(rule: Rule = CURRENT, trials: int = 2000) -> str:
    """Spells within a process (1.8×, entered per sample with 0.10, 0.15 or 0.25, kept with 0.6; no spells
    of whole rounds): A/A false positives, a planted 3% found and its median rounds, median against min."""
    lines = [f"{rule.describe()}; {trials} trials per row from 3 rounds up to 200",
             "spell entered per sample | value | per-round spread | A/A faster or slower | planted 3% slower | median rounds"]
    for enter in (0.10, 0.15, 0.25):
        for value in WAYS:
            noise_ = simulate.Noise(spell=math.log(1.8), spell_enter=0.0, sample_spell_enter=enter, value=value)
            aa = simulate.calibrate(1.0, 3, trials, 200, seed=5, noise=noise_, rule=rule)
            planted = simulate.calibrate(1.03, 3, trials, 200, seed=1005, noise=noise_, rule=rule)
            rounds = f"{statistics.median(planted.rounds):.0f}" if planted.rounds else "-"
            lines.append(f"{enter:.2f} | {value} | {simulate.model_spread(noise_, rule=rule):.4f} | "
                         f"{aa.count('faster', 'slower')} of {trials} | {planted.rate('slower'):.1%} | {rounds}")
    return "\n".join(lines)
