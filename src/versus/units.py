"""Human units for times, ratios, levels and verdicts."""
from __future__ import annotations

import math

from .stats import TOO_CLOSE, Decision, Interval


def duration(ns: float) -> str:
    if not math.isfinite(ns):
        return "–"
    for limit, unit, scale in ((1e3, "ns", 1.0), (1e6, "µs", 1e3), (1e9, "ms", 1e6)):
        if abs(ns) < limit:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns / 1e9:.3g} s"


def seconds(value: float) -> str:
    if value < 90:
        return f"{value:.0f} s"
    if value < 5400:
        return f"{value / 60:.0f} min"
    return f"{value / 3600:.1f} h"


def number(value: float, unit: str = "") -> str:
    return f"{value:.4g} {unit}".strip()


def interval(value: Interval, fmt: str = "{:.3g}") -> str:
    return f"{fmt.format(value.value)} [{fmt.format(value.low)}, {fmt.format(value.high)}]"


def level(value: float) -> str:
    """0.9987 → '99.87%': as many digits as it takes to show how far from 100% it is."""
    if value <= 0:
        return ""
    miss = 1 - value
    digits = max(0, -math.floor(math.log10(miss)) - 1) if miss > 0 else 0
    return f"{100 * value:.{min(digits, 6)}f}%"


def confidence(decision: Decision) -> str:
    """'at 99.69%', or where the ends were tested at different levels (a claim over several pairs:
    the end that can only say "holds" at k times the α), each end's one-sided level."""
    if decision.asymmetric and decision.sides is not None:
        return f"at {level(decision.sides[0])} / {level(decision.sides[1])} one-sided"
    return f"at {level(decision.level)}"


def ratio(decision: Decision) -> str:
    """The ratio with the interval that decided it (and its level), or the words saying why there is none."""
    shown = decision.interval
    if shown is None:
        return decision.note or "no interval"
    if decision.note:
        return f"{shown.value:.3g}× ({decision.note})"
    return f"{shown.value:.3g}× [{shown.low:.3g}, {shown.high:.3g}] {confidence(decision)}"


def bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low:g}× to {high:g}×"
    return f"≥ {low:g}×" if low is not None else f"≤ {high:g}×"


def metric_bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low:g} to {high:g}"
    return f"≥ {low:g}" if low is not None else f"≤ {high:g}"


def undecided(decision: Decision, seconds_needed: float | None, comparison: bool) -> str:
    """What it would take: the MDE, or the rounds (and time) the next decision needs."""
    parts = []
    # An MDE past 100% says nothing a reader can use: the rounds it needs say it better.
    if comparison and decision.mde is not None and decision.mde < 1 and not decision.note:
        parts.append(f"could detect ≥ {decision.mde:.1%}")
    if decision.rounds_needed is not None:
        more = decision.rounds_needed - decision.n
        when = f" (about {seconds(seconds_needed)})" if seconds_needed else ""
        parts.append(f"needs ~{more} more rounds{when}")
    elif decision.interval is not None and not decision.note:
        parts.append(TOO_CLOSE)
    return "; ".join(parts)
