"""How noisy a stored session was, in the terms of the simulation's noise model (docs/method.md).

Per arm: its successful processes, the spread between them (SD of the log process medians) and the
spread within one (median SD of the log measured samples). Per case of an experiment against a
baseline case on the same runtime and variant: the spread of the per-round log ratio (SD, and
MAD × 1.4826, which heavy tails leave alone). And where the time went: process time in the rounds of
the experiments' own `processes` against the sequential rounds after them, in all and per
experiment. With `--samples TEXT`,
every process of the arms whose key contains TEXT: its round, its wall time, its samples in time per iteration
(warmup samples marked w) and its value, which shows a process that measured a program still warming up.
With `--claims`, per claim pair: the SD of its per-round log ratio (of the claim's metric, else time
per iteration) over the experiment's own first `processes` rounds, what its first look decides from,
and the median of those per experiment and in all (one figure for how noisy the machine was).
With `--raises`, per experiment: how many processes of the
first two rounds (the ones that may raise an arm's warmup) `steady.still_warming` flags, and how many
a rule without its warmup condition (every measured shift downward, whatever the warmup samples) would.

Usage: .venv/bin/python scripts/session_noise.py DB [SESSION] [--baseline CASE] [--samples TEXT] [--claims] [--raises]
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

import numpy as np
from _stored import run

from versus import steady
from versus.analyze import Analysis, ArmResult, analyze
from versus.errors import VersusError
from versus.store import Store


def _logs(arm: ArmResult, metric: str = "", before: float = math.inf) -> dict[int, float]:
    """Round → log of each successful process's value (or its metric), for the rounds before `before`."""
    units = {}
    for p in arm.processes:
        value = p.metrics.get(metric) if metric else p.value
        if p.status == "ok" and p.round < before and value and value > 0:
            units[p.round] = math.log(value)
    return units


def _within(arm: ArmResult) -> float:
    spreads = [statistics.stdev(math.log(v) for v, warm in p.samples if not warm)
               for p in arm.processes if p.status == "ok" and sum(1 for _, warm in p.samples if not warm) > 1]
    return statistics.median(spreads) if spreads else float("nan")


def _mad_sd(values: list[float]) -> float:
    center = statistics.median(values)
    return 1.4826 * statistics.median(abs(v - center) for v in values)


def _print_samples(arms: list[ArmResult]) -> None:
    for arm in arms:
        print(arm.key)
        for p in sorted(arm.processes, key=lambda p: p.round):
            shown = " ".join(("w" if warm else "") + f"{v:.4g}" for v, warm in p.samples)
            value = f"{p.value:.4g}" if p.status == "ok" and p.value else p.status
            print(f"  round {p.round} ({p.wall_ns / 1e9:.2f} s): {shown} → {value}")
    if not arms:
        print("no arm's key contains that text; the arms are listed without --samples")


def _print_claims(analysis: Analysis) -> None:
    print("experiment | claim | pair | rounds | SD of the per-round log ratio over the first rounds")
    by_experiment: dict[str, list[float]] = {}
    for claim in analysis.claims:
        for judged in claim.instances:
            if judged.denominator is None:
                continue
            first = int(judged.numerator.method.get("processes", 0))
            top = _logs(judged.numerator, judged.item.metric, first)
            bottom = _logs(judged.denominator, judged.item.metric, first)
            ratios = [top[r] - bottom[r] for r in sorted(set(top) & set(bottom))]
            if len(ratios) < 2:
                continue
            sd = statistics.stdev(ratios)
            by_experiment.setdefault(claim.experiment, []).append(sd)
            print(f"{claim.experiment} | {claim.claim.id} | {judged.numerator.key} ÷ {judged.denominator.key} | "
                  f"{len(ratios)} | {sd:.3f}")
    for experiment, sds in by_experiment.items():
        print(f"{experiment}: median SD {statistics.median(sds):.3f} over {len(sds)} claim pairs")
    every = sorted(sd for sds in by_experiment.values() for sd in sds)
    if every:  # one figure for the machine's state during a run, to set runs side by side
        print(f"all: median SD {statistics.median(every):.3f}, 75th percentile "
              f"{every[min(len(every) - 1, int(len(every) * 0.75))]:.3f} over {len(every)} claim pairs")


def _print_raises(analysis: Analysis) -> None:
    print("experiment | processes of rounds 0–1 | still warming (steady.still_warming) | every measured shift downward")
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
            tally[2] += _downward(values, warm)
    for experiment, (runs, warming, downward) in sorted(counts.items()):
        print(f"{experiment} | {runs} | {warming} | {downward}")


def _downward(values: list[float], warm: int) -> bool:
    """still_warming without its warmup condition: no steady state, every measured shift downward."""
    if steady.classify(values, warm) != steady.UNSTEADY:
        return False
    measured = [math.log(v) for v in values[warm:]]
    shifts = [steady.shift(np.asarray(measured[:cut]), np.asarray(measured[cut:])) for cut in range(1, len(measured))]
    return any(s < 0 for s in shifts) and not any(s > 0 for s in shifts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("session", type=int, nargs="?")
    parser.add_argument("--baseline", help="a case to set every other case of its runtime against")
    parser.add_argument("--samples", metavar="TEXT", help="print the samples of every process of these arms")
    parser.add_argument("--claims", action="store_true", help="the per-round spread of each claim pair's ratio")
    parser.add_argument("--raises", action="store_true", help="processes of rounds 0–1 flagged as still warming up")
    args = parser.parse_args()
    if not args.db.is_file():
        sys.exit(f"session_noise: no database at {args.db} (a `versus run` writes versus-results/versus.db)")
    try:
        analysis = analyze(Store(args.db), args.session)
    except VersusError as error:
        sys.exit(f"session_noise: {error.message}" + (f"\n  hint: {error.hint}" if error.hint else ""))
    if args.claims:
        _print_claims(analysis)
        return
    if args.raises:
        _print_raises(analysis)
        return
    if args.samples:
        _print_samples([arm for arm in analysis.arms if args.samples in arm.key])
        return
    print("arm | processes | spread between processes | spread within a process")
    for arm in analysis.arms:
        logs = list(_logs(arm).values())
        between = f"{statistics.stdev(logs):.2%}" if len(logs) > 1 else "–"
        print(f"{arm.key} | {len(logs)} | {between} | {_within(arm):.2%}")
    if args.baseline:
        print("\ncase ÷ baseline | rounds | per-round log ratio: SD | MAD × 1.4826 | mean")
        bases = {(a.id.runtime, a.id.variant): a for a in analysis.arms if a.id.case == args.baseline}
        for arm in analysis.arms:
            base = bases.get((arm.id.runtime, arm.id.variant))
            if base is None or base is arm:
                continue
            top, bottom = _logs(arm), _logs(base)
            ratios = [top[r] - bottom[r] for r in sorted(set(top) & set(bottom))]
            if len(ratios) > 1:
                print(f"{arm.key} ÷ {args.baseline} | {len(ratios)} | {statistics.stdev(ratios):.2%} | "
                      f"{_mad_sd(ratios):.2%} | {statistics.fmean(ratios):+.2%}")
    first: dict[str, float] = {}
    later: dict[str, float] = {}
    for arm in analysis.arms:
        for process in arm.processes:
            own = process.round < int(arm.method.get("processes", 0))
            spent = first if own else later
            spent[arm.id.experiment] = spent.get(arm.id.experiment, 0.0) + process.wall_ns / 1e9
    print(f"\nprocess time: {sum(first.values()) / 60:.1f} min in the experiments' own processes, "
          f"{sum(later.values()) / 60:.1f} min in sequential rounds")
    for experiment in sorted(set(first) | set(later)):
        print(f"  {experiment}: {first.get(experiment, 0.0):.0f} s own, {later.get(experiment, 0.0):.0f} s sequential")

if __name__ == "__main__":
    sys.exit(run(main))
