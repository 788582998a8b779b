"""Human units for times and ratios."""
from __future__ import annotations

from ..stats import Interval


def duration(ns: float) -> str:
    for limit, unit, scale in ((1e3, "ns", 1.0), (1e6, "µs", 1e3), (1e9, "ms", 1e6)):
        if abs(ns) < limit:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns / 1e9:.3g} s"


def duration_ci(interval: Interval) -> str:
    return f"{duration(interval.value)} [{duration(interval.low)}, {duration(interval.high)}]"


def ratio(interval: Interval) -> str:
    if interval.low != interval.low:  # NaN: a single value per side
        return f"{interval.value:.3g}× [no CI: one process]"
    return f"{interval.value:.3g}× [{interval.low:.3g}, {interval.high:.3g}]"


def number(value: float, unit: str) -> str:
    text = f"{value:.4g}"
    return f"{text} {unit}".strip()


def bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low:g}× to {high:g}×"
    return f"≥ {low:g}×" if low is not None else f"≤ {high:g}×"
