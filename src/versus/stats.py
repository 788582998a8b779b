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
    df: float = 1.0  # degrees of freedom of the tests (Welch–Satterthwaite over processes)


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


def constant(value: float, like: Estimate) -> Estimate:
    """A known value as an estimate without spread: the denominator of an absolute bound."""
    exact = Interval(value, value, value)
    return Estimate(exact, exact, exact, like.processes, like.samples, np.full(like.replicates.shape, value))


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _p_above(log_value: float, se: float, log_bound: float, df: float) -> float:
    """One-sided p for H0: the true log value ≤ bound (Student t on the bootstrap SE)."""
    if se <= 0:
        return 0.0 if log_value > log_bound else 1.0
    return 1.0 - t_cdf((log_value - log_bound) / se, df)


def _p_below(log_value: float, se: float, log_bound: float, df: float) -> float:
    """One-sided p for H0: the true log value ≥ bound."""
    if se <= 0:
        return 0.0 if log_value < log_bound else 1.0
    return t_cdf((log_value - log_bound) / se, df)


def _units(estimate: Estimate) -> int:
    """Independent units behind an estimate: its processes."""
    return estimate.processes


def _log_variance(estimate: Estimate) -> float:
    """Variance of log(median) over the bootstrap, corrected for the bootstrap's √((n−1)/n) shrinkage."""
    units = _units(estimate)
    if units < 2 or np.all(estimate.replicates == estimate.replicates[0]):
        return 0.0
    return float(np.var(np.log(estimate.replicates), ddof=1)) * units / (units - 1)


def degrees_of_freedom(a: Estimate, b: Estimate) -> float:
    """Welch–Satterthwaite: both arms' variances count, each with its own number of units."""
    var_a, var_b = _log_variance(a), _log_variance(b)
    terms = [v * v / (_units(e) - 1) for v, e in ((var_a, a), (var_b, b)) if v > 0]
    if not terms:
        return float(max(1, min(_units(a), _units(b)) - 1))
    return max(1.0, (var_a + var_b) ** 2 / sum(terms))


def compare(a: Estimate, b: Estimate, delta: float = DELTA) -> Comparison:
    """a relative to b: ratio > 1 means a takes longer (is slower).

    The bootstrap SE of a statistic over n units is biased low by √((n−1)/n), and a normal quantile
    is too narrow for few processes: both are corrected (each arm's variance scaled, Student t with
    Welch–Satterthwaite degrees of freedom), so that A/A runs keep their nominal rate.
    """
    point = a.median.value / b.median.value
    if a.processes < 2 or b.processes < 2:
        # One process says nothing about how processes differ (JIT, heap layout, warm-up): its samples
        # are not independent replicates of the arm, so no interval and no verdict can be drawn.
        nan = float("nan")
        return Comparison(Interval(point, nan, nan), nan, 1.0, 1.0, float("inf"), 0)
    df = degrees_of_freedom(a, b)
    log_point = math.log(point)
    se = math.sqrt(_log_variance(a) + _log_variance(b))
    up, down = math.log(1 + delta), math.log(1 - delta)
    p_differs = min(1.0, 2 * min(_p_above(log_point, se, up, df), _p_below(log_point, se, down, df)))
    p_same = max(_p_above(log_point, se, down, df), _p_below(log_point, se, up, df))
    half = t_quantile(1 - ALPHA / 2, df) * se
    mde = math.exp(up + (t_quantile(1 - ALPHA / 2, df) + POWER_Z) * se) - 1
    interval = Interval(point, math.exp(log_point - half), math.exp(log_point + half))
    return Comparison(interval, se, p_differs, p_same, mde, df)


def bound_pvalues(comparison: Comparison, low: float | None, high: float | None) -> tuple[float, float]:
    """(p that the ratio lies within [low, high], p that it lies outside), for claims."""
    log_point, se, df = math.log(comparison.ratio.value), comparison.se_log, comparison.df
    if math.isnan(se):
        return 1.0, 1.0
    inside, outside = [], []
    if low is not None:
        inside.append(_p_above(log_point, se, math.log(low), df))
        outside.append(_p_below(log_point, se, math.log(low), df))
    if high is not None:
        inside.append(_p_below(log_point, se, math.log(high), df))
        outside.append(_p_above(log_point, se, math.log(high), df))
    return max(inside), min(1.0, len(outside) * min(outside))


def t_cdf(t: float, df: float) -> float:
    """Student t CDF through the regularized incomplete beta function."""
    x = df / (df + t * t)
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(probability: float, df: float) -> float:
    low, high = -1e3, 1e3
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if t_cdf(middle, df) < probability else (low, middle)
    return (low + high) / 2


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b) by its continued fraction (modified Lentz), using the symmetry for fast convergence."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _incomplete_beta(b, a, 1.0 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)) / a
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-14:
            break
    return front * result


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
