"""The level at which a design's looks jointly spend α (spending.py), against a simulation of the
Gaussian path it assumes."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special

from versus import spending
from versus.rule import CURRENT

LOOKS = CURRENT.looks


def _simulated_crossing(looks, boundary, paths=200_000, seed=7):
    rng = np.random.default_rng(seed)
    total = np.zeros(paths)
    highest = np.full(paths, -np.inf)
    before = 0
    for n in looks:
        total += rng.standard_normal(paths) * math.sqrt(n - before)
        before = n
        np.maximum(highest, total / math.sqrt(n), out=highest)
    return float(np.mean(highest >= boundary))


@pytest.mark.parametrize("looks", [LOOKS, LOOKS[:16], (3, 5, 9, 17, 33)])
@pytest.mark.parametrize("boundary", [2.5, 3.0])
def test_the_chance_of_crossing_is_what_a_simulated_path_gives(looks, boundary):
    simulated = _simulated_crossing(looks, boundary)
    error = math.sqrt(simulated * (1 - simulated) / 200_000)
    assert abs(spending.crossing(looks, boundary) - simulated) <= 4 * error


@pytest.mark.parametrize("alpha", [0.0005, 0.0025, 0.0125, 0.05])
def test_the_looks_at_the_joint_level_cross_with_probability_alpha(alpha):
    level = spending.joint_level(LOOKS, alpha)
    boundary = float(special.ndtri(1 - level))
    assert spending.crossing(LOOKS, boundary) == pytest.approx(alpha, rel=1e-4)
    assert spending.crossing(LOOKS, boundary) <= alpha
    # correlated looks spend α more cheaply than the union bound, and never more than one look would
    assert alpha / len(LOOKS) < level < alpha


def test_one_look_has_the_whole_of_alpha_and_none_has_none():
    assert spending.joint_level((20,), 0.01) == pytest.approx(0.01)
    assert spending.joint_level((), 0.01) == 0.0


def test_more_looks_never_raise_the_level():
    levels = [spending.joint_level(LOOKS[:k], 0.0025) for k in range(1, len(LOOKS) + 1)]
    assert all(later <= earlier + 1e-12 for earlier, later in zip(levels, levels[1:]))


def test_looks_taken_on_rounds_left_out_are_paid_for_before_the_design_s_looks():
    from versus import stats
    rule = CURRENT.replace(spending="joint")
    criterion = stats.Bound(math.log(2.0), None)
    fresh = stats.Design(rule, criterion, 0.005, 3).tails(1)[0]
    after = stats.Design(rule, criterion, 0.005, 3, spent=2).tails(1)[0]
    design = rule.design(3)
    assert after < fresh
    assert 2 * fresh + spending.crossing(design, float(special.ndtri(1 - after))) <= 0.005 * (1 + 1e-6)
