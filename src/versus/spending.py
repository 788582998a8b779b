"""The level of each look of a sequential design whose looks, taken together, mislead with probability α.

Sharing α equally by the design's K looks (α/K each, the union bound) is valid whatever the looks'
statistics have to do with each other, but they have much to do: the look at 25 rounds sees the 20
rounds of the look before it. A path of standardized estimates, Z_k = S(n_k)/√n_k with S a sum of
independent rounds, is Gaussian with corr(Z_j, Z_k) = √(n_j/n_k), so the chance that any of the
looks crosses a constant boundary c can be computed exactly, and c chosen so that it is α
(a constant boundary over all looks: Pocock's design, for looks at unequal round counts). Each
look is then tested at the one-sided level 1 − Φ(c), which is larger than α/K: on the looks of
`Rule.looks` and an item's α of 0.0025, about α/9 instead of α/16.

How: the density of Z_k on the paths that have not crossed yet is carried from look to look on a
grid (Armitage, McPherson and Rowe's recursive integration), Z_{k+1} = r Z_k + √(1 − r²) ε with
r = √(n_k/n_{k+1}); the chance of crossing at each look is integrated from it. Rounds are the
unit: t statistics at small n are tested at this level as Jennison and Turnbull's "significance
level" approach does, and `test_calibration` checks the error rates it gives under the noise model.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from scipy import optimize, special

_LOW = -9.0  # z below which a path is as good as never crossing: Φ(−9) ≈ 1e-19
_STEP = 0.05  # grid step (z), at most: Simpson's rule on it agrees with a step of 0.0125 to 1e-6 (relative)


def crossing(looks: Sequence[int], boundary: float) -> float:
    """The chance that a Gaussian path observed at `looks` (increasing round counts) crosses
    `boundary` (on the z scale) at any of them."""
    if not looks:
        return 0.0
    ratios = [math.sqrt(a / b) for a, b in zip(looks, looks[1:])]
    narrowest = min((math.sqrt(1 - r * r) for r in ratios), default=1.0)
    points = max(41, int(math.ceil((boundary - _LOW) / min(_STEP, narrowest / 4))) | 1)
    grid = np.linspace(_LOW, boundary, points)
    step = grid[1] - grid[0]
    weights = np.full(points, 2.0)
    weights[1::2] = 4.0
    weights[0] = weights[-1] = 1.0
    weights *= step / 3  # Simpson's rule on the grid
    density = np.exp(-grid * grid / 2) / math.sqrt(2 * math.pi)
    crossed = 0.5 * special.erfc(boundary / math.sqrt(2))
    for r in ratios:
        s = math.sqrt(1 - r * r)
        mass = density * weights
        crossed += float(mass @ (0.5 * special.erfc((boundary - r * grid) / (s * math.sqrt(2)))))
        shifted = (grid[:, None] - r * grid[None, :]) / s
        density = (np.exp(-shifted * shifted / 2) / (s * math.sqrt(2 * math.pi))) @ mass
    return crossed


@functools.lru_cache(maxsize=4096)
def _joint(looks: tuple[int, ...], alpha: float) -> float:
    upper = float(special.ndtri(1 - alpha / len(looks)))  # the union bound's boundary: crosses ≤ α
    lower = float(special.ndtri(1 - alpha))  # one look's: crosses ≥ α with more looks
    if crossing(looks, upper) >= alpha or len(looks) == 1:
        return alpha / len(looks)
    boundary = optimize.brentq(lambda c: crossing(looks, c) - alpha, lower, upper, xtol=1e-7)
    boundary += 1e-6  # on the side that crosses less
    return float(0.5 * special.erfc(boundary / math.sqrt(2)))


def joint_level(looks: Sequence[int], alpha: float) -> float:
    """The one-sided level of each look, such that a Gaussian path observed at `looks` crosses the
    boundary at that level at any of them with probability at most `alpha` (never below α/K)."""
    if not looks or alpha <= 0:
        return 0.0
    if alpha >= 0.5:
        return alpha / len(looks)
    return _joint(tuple(looks), round(alpha, 15))
