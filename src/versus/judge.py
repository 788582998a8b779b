"""From process runs to decisions: what each round contributes to an item, and the item's verdict.

The scheduler (while a session runs, to know what is still open) and the analysis (to report) both
judge items here, with the same data in the same order, so a report shows exactly the decision the
run stopped on.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from . import stats
from .items import CLAIMS, Item


@dataclass(frozen=True)
class Facts:
    """What one successful process run says: its median time per iteration and metric medians."""

    value: float | None  # ns per iteration (median of its measured samples); None without samples
    metrics: dict[str, float] = field(default_factory=dict)
    wall_ns: int = 0


def facts_of(samples: Sequence[tuple[int, int, bool]], metrics: Sequence[tuple[str, float]], wall_ns: int) -> Facts:
    """samples as (ns, inner, warmup); metrics as (name, value)."""
    measured = [ns / inner for ns, inner, warm in samples if not warm and inner > 0]
    by_name: dict[str, list[float]] = {}
    for name, value in metrics:
        by_name.setdefault(name, []).append(value)
    return Facts(float(np.median(measured)) if measured else None,
                 {name: float(np.median(values)) for name, values in by_name.items()}, wall_ns)


Observations = dict[int, dict[int, Facts]]
NOT_APPLICABLE = "not applicable"  # arm index → round → facts of its successful run


def _value(facts: Facts, metric: str) -> float | None:
    return facts.metrics.get(metric) if metric else facts.value


def family_sizes(items: Sequence[Item]) -> dict[tuple[str, str], int]:
    sizes: dict[tuple[str, str], int] = {}
    for item in items:
        sizes[(item.experiment, item.family)] = sizes.get((item.experiment, item.family), 0) + 1
    return sizes


def alpha_of(item: Item, sizes: dict[tuple[str, str], int]) -> float:
    """The item's share of its experiment's family-wise α (Bonferroni)."""
    return stats.bonferroni(stats.ALPHA, sizes.get((item.experiment, item.family), 1))


def rule_of(item: Item, scale: str) -> stats.Rule:
    if item.claim is None:
        return stats.ComparisonRule()
    low, high = item.claim.min, item.claim.max
    if scale == "log":
        return stats.BoundRule(math.log(low) if low else None, math.log(high) if high else None)
    return stats.BoundRule(low, high)


def judge(item: Item, observations: Observations, alpha: float, start: int, sequential: bool = True) -> stats.Decision:
    """Replay the sequential design over this item's rounds, in round order."""
    top = observations.get(item.numerator, {})
    for arm in item.arms:
        facts = observations.get(arm, {})
        if item.metric and facts and all(item.metric not in f.metrics for f in facts.values()):
            # this arm ran, but never reports the metric (a mode without short strings): not a pair for it
            return stats.Decision(NOT_APPLICABLE, None, 0.0, 0, True, note=f"an arm does not report {_what(item)}")
    if item.denominator is None:
        values = [v for r in sorted(top) if (v := _value(top[r], item.metric)) is not None]
        if not values:
            return stats.Decision("inconclusive", None, 0.0, 0, True, note=f"no process reported {_what(item)}")
        scale = "log" if all(v > 0 for v in values) else "linear"
        units = [math.log(v) for v in values] if scale == "log" else values
        return stats.sequential(units, rule_of(item, scale), alpha, start, scale=scale, sequential_looks=sequential)
    bottom = observations.get(item.denominator, {})
    a = {r: v for r in top if (v := _value(top[r], item.metric)) is not None}
    b = {r: v for r in bottom if (v := _value(bottom[r], item.metric)) is not None}
    if any(v <= 0 for v in [*a.values(), *b.values()]):
        return stats.Decision("inconclusive", None, 0.0, 0, True,
                              note=f"{_what(item)} is 0 or negative in some process: no ratio")
    rule = rule_of(item, "log")
    matched = sorted(set(a) & set(b))
    if len(matched) >= stats.FIRST_LOOK or min(len(a), len(b)) < stats.FIRST_LOOK:
        units = [math.log(a[r]) - math.log(b[r]) for r in matched]
        if len(matched) < 2 and a and b:
            note = f"{len(a)} and {len(b)} processes, {len(matched)} of them in the same rounds; a verdict needs 3"
            return stats.Decision("inconclusive", None, 0.0, len(matched), True, note=note)
        return stats.sequential(units, rule, alpha, start, sequential_looks=sequential)
    # Rounds do not match (a failed process on one side): compare the arms unpaired.
    left = [math.log(a[r]) for r in sorted(a)]
    right = [math.log(b[r]) for r in sorted(b)]
    return stats.sequential([], rule, alpha, start, unpaired=(left, right), sequential_looks=sequential)


def claim_verdict(verdicts: set[str]) -> str:
    """A claim stated over several pairs of arms (each JRuby version against itself…) holds when every
    pair holds, and does not hold as soon as one pair does not."""
    if "does not hold" in verdicts:
        return "does not hold"
    return "holds" if verdicts == {"holds"} else "inconclusive"


def heads_outside(item: Item, decision: stats.Decision) -> bool:
    """Whether an undecided claim pair's estimate lies outside its claim's bounds: one such pair,
    once decided, settles its claim as not holding, so it alone is worth the rounds."""
    if item.claim is None or decision.interval is None:
        return False
    value, low, high = decision.interval.value, item.claim.min, item.claim.max
    return (low is not None and value < low) or (high is not None and value > high)


def _what(item: Item) -> str:
    return f"metric {item.metric}" if item.metric else "a time"


def is_claim(item: Item) -> bool:
    return item.family == CLAIMS
