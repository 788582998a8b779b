"""Steady state: a changepoint test over a process's samples, classified as Barrett et al. do."""
from __future__ import annotations

import numpy as np
import pytest

from versus import steady


@pytest.mark.parametrize("values,warmup,kind", [
    ([100, 101, 99, 100, 100, 101], 2, steady.FLAT),
    ([300, 280, 100, 101, 99, 100], 2, steady.WARMUP),
    ([100, 100, 150, 151, 149, 150], 2, steady.SLOWDOWN),
    ([300, 200, 100, 100, 50, 50], 2, steady.UNSTEADY),  # Jython 2.5.1's processes: 281, 130, 69 ns
    ([100, 99, 101, 100, 60, 61, 60, 59], 2, steady.UNSTEADY),
    ([100, 100], 1, steady.TOO_FEW),
])
def test_classes(values, warmup, kind):
    assert steady.classify(values, warmup) == kind


def test_noise_alone_is_not_a_changepoint():
    rng = np.random.default_rng(4)
    kinds = [steady.classify(list(100 * np.exp(rng.normal(0, 0.01, 8))), 2) for _ in range(500)]
    assert kinds.count(steady.FLAT) / 500 > 0.95
