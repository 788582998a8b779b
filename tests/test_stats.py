"""Property-based tests of the statistics (Hypothesis), and a few exact cases."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from versus import stats

positive = st.floats(min_value=1.0, max_value=1e6, allow_nan=False, allow_infinity=False)
groups_strategy = st.lists(st.lists(positive, min_size=1, max_size=8), min_size=1, max_size=6)


def rng() -> np.random.Generator:
    return np.random.default_rng(1)


@settings(max_examples=60, deadline=None)
@given(groups_strategy)
def test_intervals_contain_their_estimates_and_stay_within_the_data(groups):
    estimate = stats.estimate(groups, rng(), replicates=300)
    low, high = min(map(min, groups)), max(map(max, groups))
    for interval in (estimate.median, estimate.mean, estimate.min):
        assert low - 1e-9 <= interval.low <= interval.high <= high + 1e-9
    assert estimate.median.low <= estimate.median.value <= estimate.median.high + 1e-9 or len(groups) == 1
    assert estimate.min.value == low


@settings(max_examples=40, deadline=None)
@given(groups_strategy, st.floats(min_value=0.01, max_value=100))
def test_ratio_scales_with_the_data(groups, factor):
    a = stats.estimate([[v * factor for v in g] for g in groups], rng(), replicates=300)
    b = stats.estimate(groups, rng(), replicates=300)
    comparison = stats.compare(a, b)
    assert math.isclose(comparison.ratio.value, factor, rel_tol=1e-9)
    same = stats.compare(b, b)  # the spread of a log ratio does not depend on the scale of either arm
    assert math.isnan(comparison.se_log) and math.isnan(same.se_log) or \
        math.isclose(comparison.se_log, same.se_log, rel_tol=1e-6, abs_tol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=30))
def test_holm_is_at_least_the_raw_p_and_keeps_the_order(pvalues):
    adjusted = stats.holm(pvalues)
    assert all(a >= p - 1e-12 and a <= 1.0 for a, p in zip(adjusted, pvalues))
    ranked = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    assert all(adjusted[i] <= adjusted[j] + 1e-12 for i, j in zip(ranked, ranked[1:]))


def test_holm_exact():
    assert stats.holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]


def test_process_level_resampling_widens_the_interval():
    """Two processes that disagree: pooling iterations would give a tight, false interval."""
    groups = [[100.0 + i * 0.01 for i in range(50)], [200.0 + i * 0.01 for i in range(50)]]
    estimate = stats.estimate(groups, rng())
    assert estimate.median.low < 110 and estimate.median.high > 190


def test_verdicts_from_clear_cases():
    generator = np.random.default_rng(3)

    def arm(center: float) -> stats.Estimate:
        return stats.estimate([list(center * (1 + generator.normal(0, 0.002, 20))) for _ in range(10)], rng())

    base = arm(1000)
    for center, expected in ((1100, "slower"), (900, "faster"), (1000, "same")):
        comparison = stats.compare(arm(center), base)
        assert stats.verdict(comparison.p_differs, comparison.p_same, comparison.ratio.value) == expected


def test_noisy_small_difference_is_inconclusive_with_a_detectable_effect_reported():
    generator = np.random.default_rng(4)
    a = stats.estimate([list(1000 * (1 + generator.normal(0, 0.2, 5))) for _ in range(2)], rng())
    b = stats.estimate([list(1020 * (1 + generator.normal(0, 0.2, 5))) for _ in range(2)], rng())
    comparison = stats.compare(b, a)
    assert stats.verdict(comparison.p_differs, comparison.p_same, comparison.ratio.value) == "inconclusive"
    assert comparison.mde > 0.05


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=0.5, max_value=20), st.floats(min_value=0.5, max_value=20))
def test_claim_bounds_agree_with_a_certain_ratio(true_ratio, bound):
    """With no noise the p-values are 0 or 1: a ratio above a lower bound holds, below it fails."""
    assume(abs(math.log(true_ratio) - math.log(bound)) > 1e-9)  # equal in floating point: either answer
    interval = stats.Interval(true_ratio, true_ratio, true_ratio)
    comparison = stats.Comparison(interval, 0.0, 0.0, 1.0, 0.0, 5)
    inside, outside = stats.bound_pvalues(comparison, bound, None)
    if true_ratio > bound:
        assert (inside, outside) == (0.0, 1.0)
    elif true_ratio < bound:
        assert (inside, outside) == (1.0, 0.0)


def test_welch_degrees_of_freedom_lie_between_the_smaller_arm_and_the_sum():
    generator = np.random.default_rng(5)
    a = stats.estimate([list(generator.normal(100, 5, 10)) for _ in range(4)], rng())
    b = stats.estimate([list(generator.normal(100, 5, 10)) for _ in range(9)], rng())
    assert 3 <= stats.degrees_of_freedom(a, b) <= 4 + 9 - 2


def test_t_distribution_against_known_quantiles():
    assert math.isclose(stats.t_quantile(0.975, 1), 12.706, rel_tol=1e-3)
    assert math.isclose(stats.t_quantile(0.975, 5), 2.571, rel_tol=1e-3)
    assert math.isclose(stats.t_quantile(0.975, 1000), 1.962, rel_tol=1e-3)
    assert math.isclose(stats.t_cdf(0.0, 3), 0.5)


def test_one_process_per_side_gives_no_verdict_and_no_interval():
    """Regression: one unwarmed process's samples, taken as independent, "disproved" a claim that six
    processes supported (with-redesign in a --quick run)."""
    a = stats.estimate([[100.0, 101.0, 99.0, 100.5]], rng())
    b = stats.estimate([[300.0, 301.0, 299.0, 300.5]], rng())
    comparison = stats.compare(b, a)
    assert math.isclose(comparison.ratio.value, 3.0, rel_tol=0.01) and math.isnan(comparison.ratio.low)
    assert stats.verdict(comparison.p_differs, comparison.p_same, 3.0) == "inconclusive"
    assert stats.bound_pvalues(comparison, 2.0, None) == (1.0, 1.0)
