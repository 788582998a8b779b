"""How noisy a stored session was, in the terms of the simulation's noise model (docs/method.md).

Per arm: its successful processes, the spread between them (SD of the log process medians) and the
spread within one (median SD of the log measured samples). Per case of an experiment against a
baseline case on the same runtime and variant: the spread of the per-round log ratio (SD, and
MAD × 1.4826, which heavy tails leave alone). And where the time went: process time in the rounds of
the experiments' own `processes` against the sequential rounds after them. With `--samples TEXT`,
every process of the arms whose key contains TEXT: its round, its samples in time per iteration
(warmup samples marked w) and its value, which shows a process that measured a program still warming up.

Usage: .venv/bin/python scripts/session_noise.py DB [SESSION] [--baseline CASE] [--samples TEXT]
"""
from __future__ import annotations

import argparse
import math
import statistics
from pathlib import Path

from versus.analyze import ArmResult, analyze
from versus.store import Store


def _logs(arm: ArmResult) -> dict[int, float]:
    return {p.round: math.log(p.value) for p in arm.processes if p.status == "ok" and p.value and p.value > 0}


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
            print(f"  round {p.round}: {shown} → {value}")
    if not arms:
        print("no arm's key contains that text; the arms are listed without --samples")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("session", type=int, nargs="?")
    parser.add_argument("--baseline", help="a case to set every other case of its runtime against")
    parser.add_argument("--samples", metavar="TEXT", help="print the samples of every process of these arms")
    args = parser.parse_args()
    analysis = analyze(Store(args.db), args.session)
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
    first = later = 0.0
    for arm in analysis.arms:
        for process in arm.processes:
            if process.round < int(arm.method.get("processes", 0)):
                first += process.wall_ns / 6e10
            else:
                later += process.wall_ns / 6e10
    print(f"\nprocess time: {first:.1f} min in the experiments' own processes, {later:.1f} min in sequential rounds")


if __name__ == "__main__":
    main()
