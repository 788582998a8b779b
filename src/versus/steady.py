"""Did a process run reach a steady state? A changepoint test over its warmup and measured samples.

In the spirit of Barrett et al. ("Virtual machine warmup blows hot and cold", OOPSLA 2017): the
series of a process's samples (log time per iteration) is split where its mean shifts (binary
segmentation), and the process is classified by where the shifts fall:
- flat: no shift at all;
- warmup: shifts only before the first measured sample, ending faster (a JIT that settled in time);
- slowdown: shifts only before the measured samples, ending slower;
- no steady state: a shift among the measured samples (the measurement caught the JIT moving).
A shift counts when it is both clear (|Δ| > 4 noise units, the noise estimated robustly from
successive differences) and material (|Δ| ≥ 2%), so that a 0.5% wobble in a quiet series is not a
changepoint. With fewer than 4 samples there is nothing to test: "too few samples".
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

FLAT, WARMUP, SLOWDOWN, UNSTEADY, TOO_FEW = "flat", "warmup", "slowdown", "no steady state", "too few samples"
MATERIAL = math.log(1.02)
CLEAR = 4.0
NOISE_FLOOR = 0.005  # log units: below this a series is as quiet as this machine's clocks allow


def _noise(values: np.ndarray) -> float:
    diffs = np.diff(values)
    if diffs.size == 0:
        return NOISE_FLOOR
    mad = float(np.median(np.abs(diffs - np.median(diffs))))
    return max(NOISE_FLOOR, 1.4826 * mad / math.sqrt(2))


def changepoints(values: Sequence[float]) -> list[int]:
    """Indices i where a new segment starts (values[i] is the first of it)."""
    data = np.log(np.asarray(values, dtype=float))
    sigma = _noise(data)
    found: list[int] = []

    def split(low: int, high: int) -> None:
        if high - low < 2:
            return
        best, where = 0.0, -1
        for cut in range(low + 1, high):
            left, right = data[low:cut], data[cut:high]
            shift = abs(float(right.mean() - left.mean()))
            score = shift / (sigma * math.sqrt(1 / left.size + 1 / right.size))
            if shift >= MATERIAL and score > CLEAR and score > best:
                best, where = score, cut
        if where > 0:
            found.append(where)
            split(low, where)
            split(where, high)

    split(0, data.size)
    return sorted(found)


def classify(values: Sequence[float], warmup: int) -> str:
    """`values` in order, the first `warmup` of them warmup samples."""
    positive = [v for v in values if v > 0]
    if len(positive) < 4 or len(positive) != len(values):
        return TOO_FEW
    cuts = changepoints(values)
    if not cuts:
        return FLAT
    if any(cut > warmup for cut in cuts):
        return UNSTEADY
    data = np.log(np.asarray(values, dtype=float))
    last, before = data[cuts[-1]:].mean(), data[max(0, cuts[-2] if len(cuts) > 1 else 0):cuts[-1]].mean()
    return WARMUP if last < before else SLOWDOWN


def steady(kind: str) -> bool:
    return kind in (FLAT, WARMUP, TOO_FEW)
