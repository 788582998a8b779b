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
earlier rounds learn nothing.

A pair's ratio may also move from one session to the next (a regime of the machine, a state its
threads settled in for the whole session), which no session's own rounds can show: where the earlier
sessions' ratios differ beyond what their rounds explain, that spread between sessions is added to
each look's standard error (`stats.pooled_between`). The session stores what it learned with its rule
(`Rule.spreads`, `Rule.between`), so a report judges it the same whatever the store holds later
(docs/method.md, "A pair's history").
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from . import judge, stats
from .items import ArmRef, Item
from .record import load_arms
from .rule import Rule, SpreadTable
from .store import Store

FEWEST = 3  # a session's rounds of a pair count from this many (fewer have no spread to speak of)

# (store, session, the process value) → (arm key → round → facts, arm key → its method): a finished
# session's runs do not change, and `versus selftest` learns from every earlier trial before each new one
_read: dict[tuple[str, int, str], tuple[dict[str, dict[int, judge.Facts]], dict[str, str]]] = {}


def learn(store: Store, arms: Sequence[ArmRef], items: Sequence[Item], rule: Rule,
          methods: Mapping[str, Mapping[str, object]]) -> Rule:
    """The rule with what the store's sessions (all of them: call it before the new session is stored) say
    of each paired item, where they hold at least `rule.history` rounds: its per-round spread at each of
    the rule's trims (`spreads`), and how far its ratio moved between them beyond what their rounds
    explain (`between`, `stats.pooled_between`). `methods`: each experiment's method as the new session
    will store it; only sessions that measured a pair's arms with the same method (`measuring`) say how
    far its ratio moves, since another warmup or per-process value moves it by design."""
    pairs = {item.pair: item for item in items if item.pair and item.denominator is not None}
    if not rule.history or not pairs:
        return rule
    units: dict[str, list[list[float]]] = {key: [] for key in pairs}
    alike: dict[str, list[list[float]]] = {key: [] for key in pairs}
    for entry in store.sessions():
        observed, stored = _observed(store, entry.id, rule, finished=entry.finished is not None)
        for key, item in pairs.items():
            assert item.denominator is not None
            top, bottom = arms[item.numerator].id.key, arms[item.denominator].id.key
            found = _units(observed, top, bottom, item.metric, rule)
            if len(found) >= FEWEST and not all(u == found[0] for u in found):
                units[key].append(found)
                mine = measuring(methods.get(item.experiment, {}))
                if stored.get(top) == stored.get(bottom) == mine:
                    alike[key].append(found)
    spreads: SpreadTable = tuple((key, spread) for key, sessions in units.items()
                                 if (spread := stats.pooled_spread(sessions, rule)))
    between: SpreadTable = tuple((key, shift) for key, sessions in alike.items()
                                 if (shift := stats.pooled_between(sessions, rule)))
    return rule.replace(spreads=spreads, between=between)


def measuring(method: Mapping[str, object]) -> str:
    """What of a method sets what a process measures: all of it but how many processes run and how long
    one may take."""
    return json.dumps({k: v for k, v in method.items() if k not in ("processes", "timeout")}, sort_keys=True, default=str)


def _observed(store: Store, session_id: int, rule: Rule,
              finished: bool) -> tuple[dict[str, dict[int, judge.Facts]], dict[str, str]]:
    """A session's facts per arm key and round, and each arm key's method as `measuring` gives it."""
    key = (str(store.name), session_id, rule.value)
    if key in _read:
        return _read[key]
    rows = {row.id: row for row in load_arms(store, session_id)}
    methods = {row.arm.key: measuring(row.method.stored) for row in rows.values()}
    observed: dict[str, dict[int, judge.Facts]] = {}
    for run in store.runs(session_id):
        row = rows.get(run.arm_id)
        if row is None or run.status != "ok":
            continue
        observed.setdefault(row.arm.key, {})[run.round] = judge.facts_of(
            [(ns, inner, warm) for _, ns, inner, warm in run.samples], [(n, v) for n, v, _ in run.metrics], run.wall_ns,
            judge.stored_value(row.method.value, rule))
    if finished:
        _read[key] = (observed, methods)
    return observed, methods


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
