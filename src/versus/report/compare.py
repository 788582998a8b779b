"""`versus compare A B`: each arm in both sessions, the ratio B ÷ A with its interval, the verdict.

Two sessions ran at different times, so nothing pairs their rounds: each arm is compared unpaired
(Welch on the processes' log medians), judged once at the size measured, Bonferroni across the arms.
"""
from __future__ import annotations

import io
import math

from .. import stats, units
from ..analyze import ArmResult, analyze
from ..rule import CURRENT
from ..store import Store
from .tables import Table
from .terminal import render_tables


def _logs(arm: ArmResult) -> list[float]:
    return [math.log(p.value) for p in arm.processes if p.status == "ok" and p.value and p.value > 0]


def compare_table(store: Store, session_a: int, session_b: int) -> Table:
    first, second = analyze(store, session_a), analyze(store, session_b)
    before = {a.key: a for a in first.arms if a.summary}
    pairs = [(before[b.key], b) for b in second.arms if b.summary and b.key in before]
    rule = CURRENT.replace(sequential=False)  # nothing pairs two sessions' rounds: one look, at the size measured
    alpha = stats.bonferroni(rule.alpha, len(pairs))
    table = Table(f"session {session_b} against session {session_a}",
                  ["arm", f"session {session_a}", f"session {session_b}", "ratio B ÷ A [interval at its level]",
                   "verdict"],
                  note=f"ratio > 1: session {session_b} is slower; threshold ±{rule.delta:.0%}; unpaired, "
                       f"error rate {rule.alpha:.0%} across the {len(pairs)} arms")
    for a, b in pairs:
        assert a.summary and b.summary
        decision = stats.sequential([], stats.Comparison(rule.delta), alpha, unpaired=(_logs(b), _logs(a)), rule=rule)
        table.rows.append([a.key, units.duration(a.summary.value), units.duration(b.summary.value),
                           units.ratio(decision), decision.verdict])
    only = sorted(set(before) ^ {b.key for b in second.arms if b.summary})
    if only:
        table.note += f"; {len(only)} arms are in only one session"
    return table


def render_compare(store: Store, session_a: int, session_b: int) -> str:
    out = io.StringIO()
    render_tables([], [compare_table(store, session_a, session_b)], out)
    return out.getvalue()
