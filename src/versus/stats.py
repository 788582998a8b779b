"""Hierarchical bootstrap estimates, ratio CIs, verdicts with a practical threshold, Holm correction.

Samples of one process are not independent of each other (same JIT decisions, same heap layout), so
every bootstrap replicate resamples process runs first, then samples within each chosen run.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

ALPHA = 0.05
DELTA = 0.01  # practical threshold: changes within ±1% count as "the same"
BOOTSTRAP = 2000
POWER_Z = 0.8416  # z for 80% power, used by the minimal detectable effect

Groups = Sequence[Sequence[float]]  # one sequence of values per process run


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class Estimate:
    median: Interval
    mean: Interval
    min: Interval
    processes: int
    samples: int
    replicates: np.ndarray  # bootstrap replicates of the median, for ratios


@dataclass(frozen=True)
class Comparison:
    ratio: Interval  # estimate of a / b (of medians)
    se_log: float  # bootstrap standard error of log(ratio)
    p_differs: float  # evidence that |ratio − 1| > δ
    p_same: float  # evidence (two one-sided tests) that the ratio lies within ±δ
    mde: float  # smallest relative change this data could detect (80% power)


def _padded(groups: Groups) -> tuple[np.ndarray, np.ndarray]:
    sizes = np.array([len(g) for g in groups])
    matrix = np.full((len(groups), int(sizes.max())), np.nan)
    for row, group in enumerate(groups):
        matrix[row, : len(group)] = group
    return matrix, sizes


def resample(groups: Groups, statistic: Callable[..., np.ndarray], rng: np.random.Generator,
             replicates: int = BOOTSTRAP) -> np.ndarray:
    """`replicates` values of `statistic` over hierarchical resamples (statistic reduces axis 1, NaN-aware)."""
    matrix, sizes = _padded(groups)
    count, width = matrix.shape
    runs = rng.integers(0, count, size=(replicates, count))
    run_sizes = sizes[runs]
    picks = (rng.random((replicates, count, width)) * run_sizes[..., None]).astype(np.int64)
    values = matrix[runs[..., None], picks]
    values[np.arange(width)[None, None, :] >= run_sizes[..., None]] = np.nan
    return statistic(values.reshape(replicates, count * width), axis=1)


def _interval(point: float, replicates: np.ndarray) -> Interval:
    low, high = np.percentile(replicates, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)])
    return Interval(point, float(low), float(high))


def estimate(groups: Groups, rng: np.random.Generator, replicates: int = BOOTSTRAP) -> Estimate:
    groups = [g for g in groups if len(g)]
    if not groups:
        raise ValueError("no samples to estimate from")
    pooled = np.concatenate([np.asarray(g, dtype=float) for g in groups])
    medians = resample(groups, np.nanmedian, rng, replicates)
    return Estimate(
        median=_interval(float(np.median(pooled)), medians),
        mean=_interval(float(pooled.mean()), resample(groups, np.nanmean, rng, replicates)),
        min=_interval(float(pooled.min()), resample(groups, np.nanmin, rng, replicates)),
        processes=len(groups), samples=int(pooled.size), replicates=medians)


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _p_above(log_value: float, se: float, log_bound: float) -> float:
    """One-sided p for H0: true log value ≤ bound (normal approximation on the bootstrap SE)."""
    if se <= 0:
        return 0.0 if log_value > log_bound else 1.0
    return 1.0 - _phi((log_value - log_bound) / se)


def compare(a: Estimate, b: Estimate, delta: float = DELTA) -> Comparison:
    """a relative to b: ratio > 1 means a takes longer (is slower)."""
    ratios = a.replicates / b.replicates
    logs = np.log(ratios)
    point = a.median.value / b.median.value
    log_point, se = math.log(point), float(np.std(logs, ddof=1)) if len(logs) > 1 else 0.0
    up, down = math.log(1 + delta), math.log(1 - delta)
    p_slower = _p_above(log_point, se, up)
    p_faster = 1.0 - _p_above(log_point, se, down) if se > 0 else (0.0 if log_point < down else 1.0)
    p_same = max(_p_above(log_point, se, down), 1.0 - _p_above(log_point, se, up) if se > 0 else
                 (0.0 if log_point < up else 1.0))
    mde = math.exp(up + (_z(1 - ALPHA / 2) + POWER_Z) * se) - 1
    return Comparison(_interval(point, ratios), se, min(1.0, 2 * min(p_slower, p_faster)), p_same, mde)


def bound_pvalues(comparison: Comparison, low: float | None, high: float | None) -> tuple[float, float]:
    """(p that the ratio lies within [low, high], p that it lies outside), for claims."""
    log_point, se = math.log(comparison.ratio.value), comparison.se_log
    inside, outside = [], []
    if low is not None:
        inside.append(_p_above(log_point, se, math.log(low)))
        outside.append(1.0 - _p_above(log_point, se, math.log(low)) if se > 0 else float(log_point >= math.log(low)))
    if high is not None:
        inside.append(1.0 - _p_above(log_point, se, math.log(high)) if se > 0 else float(log_point >= math.log(high)))
        outside.append(_p_above(log_point, se, math.log(high)))
    return max(inside), min(1.0, len(outside) * min(outside))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order."""
    count = len(pvalues)
    order = sorted(range(count), key=lambda i: pvalues[i])
    adjusted = [0.0] * count
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (count - rank) * pvalues[index]))
        adjusted[index] = running
    return adjusted


def verdict(p_differs: float, p_same: float, ratio: float, alpha: float = ALPHA) -> str:
    """faster / slower / same / inconclusive, from (already corrected) p-values."""
    if p_differs < alpha:
        return "slower" if ratio > 1 else "faster"
    if p_same < alpha:
        return "same"
    return "inconclusive"


def _z(probability: float) -> float:
    """Inverse of the standard normal CDF by bisection (no SciPy needed)."""
    low, high = -10.0, 10.0
    for _ in range(80):
        middle = (low + high) / 2
        low, high = (middle, high) if _phi(middle) < probability else (low, middle)
    return (low + high) / 2
