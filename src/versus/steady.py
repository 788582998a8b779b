"""Did a process run reach a steady state? A shift test over its warmup and measured samples.

In the spirit of Barrett et al. ("Virtual machine warmup blows hot and cold", OOPSLA 2017) and of
pyperf's warmup check, with the few samples a process run has (often 1–5 warmup, 3–10 measured):
- no steady state: the measured samples themselves shift (their best split into a before and an
  after differs clearly): the measurement caught the JIT, the GC or the machine moving;
- warmup: the measured samples are flat and faster than the warmup ones (a JIT that settled in time);
- slowdown: flat, and slower than the warmup ones;
- flat: no shift anywhere.
A shift counts when it is material (≥ 2%) and clear (> 4 standard errors, from the spread within the
two sides, at least 0.5%), so that a 0.5% wobble in a quiet series is not a shift.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

FLAT, WARMUP, SLOWDOWN, UNSTEADY, TOO_FEW = "flat", "warmup", "slowdown", "no steady state", "too few samples"
MATERIAL = math.log(1.02)
CLEAR = 4.0
NOISE_FLOOR = 0.005  # log units: below this a series is as quiet as this machine's clocks allow


def _within(left: np.ndarray, right: np.ndarray) -> float:
    """The pooled spread inside two sides, never below the floor."""
    squares = float(((left - left.mean()) ** 2).sum() + ((right - right.mean()) ** 2).sum())
    free = left.size + right.size - 2
    return max(NOISE_FLOOR, math.sqrt(squares / free) if free > 0 else 0.0)


def shift(left: np.ndarray, right: np.ndarray) -> float:
    """right's mean minus left's (log scale) when the difference is material and clear, else 0."""
    difference = float(right.mean() - left.mean())
    score = abs(difference) / (_within(left, right) * math.sqrt(1 / left.size + 1 / right.size))
    return difference if abs(difference) >= MATERIAL and score > CLEAR else 0.0


_SLACK = 1e-6  # relative: the screen's thresholds are this much looser than the exact test's


def _candidates(measured: np.ndarray) -> np.ndarray:
    """The cuts (1 … n-1) at which `shift` may find a shift, from running sums in one pass: every cut
    tested one by one was quadratic in the samples (3 processes of 100,000 samples took 4 minutes to
    report). The screen's thresholds are looser by _SLACK, and `shift` itself judges each candidate,
    so the verdicts are those of the test cut by cut, to the last bit."""
    n = measured.size
    if n < 2:
        return np.zeros(0, dtype=int)
    x = measured - measured.mean()  # centred: the sums of squares below keep their precision
    sums, squares = np.cumsum(x), np.cumsum(x * x)
    left = np.arange(1, n, dtype=float)
    right = n - left
    left_mean, right_mean = sums[:-1] / left, (sums[-1] - sums[:-1]) / right
    within_squares = (squares[:-1] - left * left_mean ** 2) + (squares[-1] - squares[:-1] - right * right_mean ** 2)
    free = n - 2
    spread = np.sqrt(np.maximum(within_squares, 0.0) / free) if free > 0 else np.zeros(n - 1)
    within = np.maximum(NOISE_FLOOR, spread)
    difference = np.abs(right_mean - left_mean)
    score = difference / (within * np.sqrt(1 / left + 1 / right))
    possible = (difference >= MATERIAL * (1 - _SLACK)) & (score > CLEAR * (1 - _SLACK))
    return np.flatnonzero(possible) + 1


def _shifts(measured: np.ndarray) -> list[float]:
    """`shift` at every cut that the screen leaves possible; 0 at every other (in cut order)."""
    return [shift(measured[:cut], measured[cut:]) for cut in _candidates(measured)]


def classify(values: Sequence[float], warmup: int) -> str:
    """`values` in order (time per iteration), the first `warmup` of them warmup samples."""
    if len(values) < 3 or any(v <= 0 for v in values):
        return TOO_FEW
    data = np.log(np.asarray(values, dtype=float))
    measured = data[warmup:]
    for cut in _candidates(measured):
        if shift(measured[:cut], measured[cut:]):
            return UNSTEADY
    if warmup == 0 or measured.size == 0:
        return FLAT
    moved = shift(data[:warmup], measured)
    if moved < 0:
        return WARMUP
    return SLOWDOWN if moved > 0 else FLAT


def steady(kind: str) -> bool:
    return kind in (FLAT, WARMUP, TOO_FEW)


def still_warming(values: Sequence[float], warmup: int) -> bool:
    """No steady state, every shift in the measured samples downward (later samples faster), and the
    warmup samples slower than the measured ones by ≥ 2%, both all of them and the last ones (as many
    as the measured ones): a JIT still compiling when the measurement began, which more warmup fixes.
    A slow spell in the middle of a process (this VM's neighbours take the core for a few samples)
    also breaks the steady state, but shifts both ways; a last sample that happens to be faster than
    the one before, after warmup samples no slower than the measured ones, is noise (with 2 measured
    samples it is half of all processes); so is a first measured sample caught by a spike, after
    warmup samples that had reached the measured level. More warmup helps none of them: the runner
    raises the warmup only for a JIT at work.

    The end of the warmup must be slower too: its first samples are slower for every JIT (a JMH fork's
    first iteration at 5-20× its last), so the mean of all of them alone is always ≥ 2% slower. Without
    this condition 3 to 8 processes of each make run's rounds 0–1 asked for a raise that the end of
    their warmup does not support, mostly for a spike in a JMH fork's measured iterations (a 16 → 32
    iteration fork costs 60% more, and the rounds before the raise are left out)."""
    if classify(values, warmup) != UNSTEADY:
        return False
    data = np.log(np.asarray(values, dtype=float))
    measured = data[warmup:]
    shifts = _shifts(measured)
    if not any(s < 0 for s in shifts) or any(s > 0 for s in shifts):
        return False
    if warmup == 0:
        return True
    tail = data[max(0, warmup - max(2, measured.size)):warmup]
    return min(float(data[:warmup].mean()), float(tail.mean())) - float(measured.mean()) >= MATERIAL
