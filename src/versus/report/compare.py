"""`versus compare A B`: each arm in both sessions, both estimates, the ratio B ÷ A with its CI, the verdict."""
from __future__ import annotations

import io

from .. import stats
from ..analyze import analyze
from ..store import Store
from . import units
from .tables import Table
from .terminal import render_tables


def compare_table(store: Store, session_a: int, session_b: int) -> Table:
    first, second = analyze(store, session_a), analyze(store, session_b)
    before = {a.key: a for a in first.arms if a.estimate}
    pairs = [(before[b.key], b) for b in second.arms if b.estimate and b.key in before]
    comparisons = [stats.compare(b.estimate, a.estimate) for a, b in pairs if a.estimate and b.estimate]
    differs = stats.holm([c.p_differs for c in comparisons])
    same = stats.holm([c.p_same for c in comparisons])
    table = Table(f"session {session_b} vs session {session_a}",
                  ["arm", f"session {session_a}", f"session {session_b}", "ratio B ÷ A [95% CI]", "verdict"],
                  note=f"ratio > 1: session {session_b} is slower; threshold ±{stats.DELTA:.0%}, Holm-corrected")
    for (a, b), comparison, p_diff, p_same in zip(pairs, comparisons, differs, same):
        assert a.estimate and b.estimate
        table.rows.append([a.key, units.duration(a.estimate.median.value), units.duration(b.estimate.median.value),
                           units.ratio(comparison.ratio), stats.verdict(p_diff, p_same, comparison.ratio.value)])
    only = sorted(set(before) ^ {b.key for b in second.arms if b.estimate})
    if only:
        table.note += f"; {len(only)} arms are in only one session"
    return table


def render_compare(store: Store, session_a: int, session_b: int) -> str:
    out = io.StringIO()
    render_tables([], [compare_table(store, session_a, session_b)], out)
    return out.getvalue()
