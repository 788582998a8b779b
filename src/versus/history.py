"""A pair's per-round spread, learned from the store's earlier sessions: a floor under its own.

A few rounds of arms whose processes settle in one of two states can be lopsided (nine of ten processes
of one arm in its fast state): their spread then comes out smaller than the pair's, and a t interval
trusts it. Where the store already holds rounds of the same pair (the same arms and metric, by
`items.pair_key`), their spread is evidence about this session's that the rule can use without
spending any of its α: a floor only ever widens an interval, so it cannot add a wrong verdict, and it
is fixed before the session's first round, so it cannot be tuned on the rounds it judges.

The spread is pooled over the earlier sessions at each of the rule's trims (the per-round spread as
`stats.trimmed_location` sees it at that trim, each session about its own mean, so that a ratio that
moved between sessions does not count as spread), from the rounds `judge` would analyse (those at
each arm's latest warmup), and taken at the low end of its 80% interval: a floor above the pair's
spread would cost decisions, one below it only protects less. Pairs with fewer than `Rule.history`
earlier rounds learn nothing. The session stores what it learned with its rule (`Rule.spreads`), so
a report judges it the same whatever the store holds later (docs/method.md, "A pair's history").
"""
from __future__ import annotations

from collections.abc import Sequence

from . import judge, stats
from .items import ArmRef, Item
from .record import load_arms
from .rule import Rule, SpreadTable
from .store import Store

FEWEST = 3  # a session's rounds of a pair count from this many (fewer have no spread to speak of)

# (store, session, the process value) → arm key → round → facts: a finished session's runs do not change,
# and `versus selftest` learns from every earlier trial before each new one
_read: dict[tuple[str, int, str], dict[str, dict[int, judge.Facts]]] = {}


def learned_spreads(store: Store, arms: Sequence[ArmRef], items: Sequence[Item], rule: Rule) -> SpreadTable:
    """Each paired item's spread at each of the rule's trims, learned from the store's sessions (all of
    them: call it before the new session is stored), where they hold at least `rule.history` rounds."""
    pairs = {item.pair: item for item in items if item.pair and item.denominator is not None}
    if not rule.history or not pairs:
        return ()
    units: dict[str, list[list[float]]] = {key: [] for key in pairs}
    for entry in store.sessions():
        observed = _observed(store, entry.id, rule, finished=entry.finished is not None)
        for key, item in pairs.items():
            assert item.denominator is not None
            found = _units(observed, arms[item.numerator].id.key, arms[item.denominator].id.key, item.metric, rule)
            if len(found) >= FEWEST and not all(u == found[0] for u in found):
                units[key].append(found)
    return tuple((key, spread) for key, sessions in units.items() if (spread := stats.pooled_spread(sessions, rule)))


def _observed(store: Store, session_id: int, rule: Rule, finished: bool) -> dict[str, dict[int, judge.Facts]]:
    key = (str(store.name), session_id, rule.value)
    if key in _read:
        return _read[key]
    rows = {row.id: row for row in load_arms(store, session_id)}
    observed: dict[str, dict[int, judge.Facts]] = {}
    for run in store.runs(session_id):
        row = rows.get(run.arm_id)
        if row is None or run.status != "ok":
            continue
        observed.setdefault(row.arm.key, {})[run.round] = judge.facts_of(
            [(ns, inner, warm) for _, ns, inner, warm in run.samples], [(n, v) for n, v, _ in run.metrics], run.wall_ns,
            judge.stored_value(row.method.value, rule))
    if finished:
        _read[key] = observed
    return observed


def _units(observed: dict[str, dict[int, judge.Facts]], numerator: str, denominator: str, metric: str,
           rule: Rule) -> list[float]:
    """One session's per-round log ratios of a pair, at each arm's latest warmup (as `judge.judge` reads them)."""
    def values(arm: str) -> dict[int, tuple[float, int]]:
        found = {}
        for round_, facts in observed.get(arm, {}).items():
            value = facts.metrics.get(metric) if metric else facts.value
            if value is not None and value > 0:
                found[round_] = (value, facts.warmup)
        return found
    top, bottom = values(numerator), values(denominator)
    if not top or not bottom:
        return []
    if rule.settle:
        kept, _ = judge.settled([{r: w for r, (_, w) in top.items()}, {r: w for r, (_, w) in bottom.items()}], 0, rule)
    else:
        kept = sorted(set(top) | set(bottom))
    matched = [r for r in kept if r in top and r in bottom]
    return judge.log_ratios({r: top[r][0] for r in matched}, {r: bottom[r][0] for r in matched}, matched)
