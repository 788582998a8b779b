"""From process runs to decisions: what each round contributes to an item, and the item's verdict.

The scheduler (while a session runs, to know what is still open) and the analysis (to report) both
judge items here, with the same data in the same order, so a report shows exactly the decision the
run stopped on.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from . import stats
from .items import Item
from .rule import CURRENT, Rule
from .verdict import Verdict


@dataclass(frozen=True)
class Facts:
    """What one successful process run says: its time per iteration and metric medians."""

    value: float | None  # ns per iteration (median of its measured samples, or their minimum); None without samples
    metrics: dict[str, float] = field(default_factory=dict)
    wall_ns: int = 0
    warmup: int = 0  # warmup samples the process ran before its measured ones


def facts_of(samples: Sequence[tuple[int, int, bool]], metrics: Sequence[tuple[str, float]], wall_ns: int,
             value: str = "median") -> Facts:
    """samples as (ns, inner, warmup); metrics as (name, value). `value` is the arm's method's: "median" of
    the measured samples, or "min". The minimum leaves out the samples a slow spell of the machine caught
    within the process (on this VM they switch within 0.13 s); metrics keep their median."""
    measured = [ns / inner for ns, inner, warm in samples if not warm and inner > 0]
    by_name: dict[str, list[float]] = {}
    for name, metric in metrics:
        by_name.setdefault(name, []).append(metric)
    pick = min if value == "min" else np.median
    return Facts(float(pick(measured)) if measured else None,
                 {name: float(np.median(values)) for name, values in by_name.items()}, wall_ns,
                 sum(1 for _, _, warm in samples if warm))


def stored_value(method_value: str, rule: Rule = CURRENT) -> str:
    """A process run's value for an arm: the rule's, where it names one for every arm, or the `value` of
    the arm's stored method (record.StoredMethod: the median for arms stored before `value` existed)."""
    return rule.value or method_value


Observations = dict[int, dict[int, Facts]]  # arm index → round → facts of its successful run
NOT_APPLICABLE = Verdict.NOT_APPLICABLE


def _value(facts: Facts, metric: str) -> float | None:
    return facts.metrics.get(metric) if metric else facts.value


@dataclass(frozen=True)
class Shares:
    """How an experiment's α is shared: each family (comparisons, claims) has α, split equally among
    its items (Bonferroni; a claim over k pairs of arms has k items, so a k·α share); and over how many
    pairs each claim is stated, for its intersection–union test (`stats.BoundRule.tails`)."""

    families: dict[tuple[str, str], int]
    claims: dict[tuple[str, str], int]

    alpha: float = stats.ALPHA

    @classmethod
    def of(cls, items: Sequence[Item], rule: Rule = CURRENT) -> Shares:
        """A rule without `intersection_union` (sessions stored before it) tests each of a claim's pairs
        as a claim of its own, so that their report shows what the run decided."""
        families: dict[tuple[str, str], int] = {}
        claims: dict[tuple[str, str], int] = {}
        for item in items:
            families[(item.experiment, item.family)] = families.get((item.experiment, item.family), 0) + 1
            if item.claim is not None and rule.intersection_union:
                claims[(item.experiment, item.claim.id)] = claims.get((item.experiment, item.claim.id), 0) + 1
        return cls(families, claims, rule.alpha)

    def alpha_of(self, item: Item) -> float:
        """The item's share of its experiment's family-wise α."""
        return stats.bonferroni(self.alpha, self.families.get((item.experiment, item.family), 1))

    def pairs(self, item: Item) -> int:
        """How many pairs of arms the item's claim is stated over (1 for a comparison)."""
        return self.claims.get((item.experiment, item.claim.id), 1) if item.claim is not None else 1


def criterion_of(item: Item, scale: str, pairs: int = 1, delta: float = stats.DELTA) -> stats.Criterion:
    if item.claim is None:
        return stats.Comparison(delta)
    low, high = item.claim.min, item.claim.max
    if scale == "log":
        return stats.Bound(math.log(low) if low else None, math.log(high) if high else None, pairs)
    return stats.Bound(low, high, pairs)


def log_ratios(numerator: dict[int, float], denominator: dict[int, float], rounds: Sequence[int]) -> list[float]:
    """The per-round log ratios of two arms' process values, in the order of `rounds`: the unit every
    paired comparison and claim is judged on."""
    return [math.log(numerator[r]) - math.log(denominator[r]) for r in rounds]


def settled(warmups: Sequence[dict[int, int]], start: int, rule: Rule = CURRENT) -> tuple[list[int], int]:
    """Of an item's rounds (each arm's round → the warmup samples its process ran), the ones to analyse,
    and how many looks the others took.

    When the runner raised an arm's warmup (its processes were still warming up), its rounds before
    measured a program whose JIT had not settled: their ratios are of another quantity (Jython 2.5.1's
    lock loop against 2.5.0: 7× after 2 warmup samples, 25× after 16), and pooled with later ones they
    make the rounds disagree. Only the rounds in which every arm ran its latest warmup are analysed. The
    rounds left out fall into segments, one per combination of the arms' warmups; the looks each
    segment reached (looked at from its own start, as the scheduler did while it was the latest) keep
    their share of α spent, so the error rate over every look still sums to at most α."""
    latest = [arm[max(arm)] for arm in warmups if arm]
    every = sorted(set().union(*warmups))
    kept = [r for r in every if all(arm[r] == top for arm, top in zip(warmups, latest) if r in arm)]
    segments: dict[tuple[int, ...], int] = {}
    for r in every:
        if r not in kept and all(r in arm for arm in warmups):
            key = tuple(arm[r] for arm in warmups)
            segments[key] = segments.get(key, 0) + 1
    return kept, sum(_looks_within(m, start, rule) for m in segments.values())


def judge(item: Item, observations: Observations, alpha: float, start: int, rule: Rule = CURRENT,
          pairs: int = 1) -> stats.Decision:
    """Replay the rule's sequential design over this item's rounds, in round order: where the rule
    settles, only those at the latest warmup (`settled`; sessions stored before it analyse every
    round). `pairs`: how many pairs the item's claim is stated over (`Shares.pairs`). A pair whose spread
    the session learned from earlier ones (`Rule.spreads`) is judged with it as a floor."""
    rule = rule.for_pair(item.pair)
    settle = rule.settle and rule.sequential
    top = observations.get(item.numerator, {})
    for arm in item.arms:
        facts = observations.get(arm, {})
        if item.metric and facts and all(item.metric not in f.metrics for f in facts.values()):
            # this arm ran, but never reports the metric (a mode without short strings): not a pair for it
            return stats.Decision(Verdict.NOT_APPLICABLE, None, 0.0, 0, True, note=f"an arm does not report {_what(item)}")
    if item.denominator is None:
        rounds = [r for r in sorted(top) if _value(top[r], item.metric) is not None]
        if not rounds:
            return stats.Decision(Verdict.INCONCLUSIVE, None, 0.0, 0, True, note=f"no process reported {_what(item)}")
        kept, spent = settled([{r: top[r].warmup for r in rounds}], start, rule) if settle else (rounds, 0)
        values = [v for r in kept if (v := _value(top[r], item.metric)) is not None]
        scale = "log" if all(v > 0 for v in values) else "linear"
        units = [math.log(v) for v in values] if scale == "log" else values
        decision = stats.sequential(units, criterion_of(item, scale, pairs, rule.delta), alpha, start, scale=scale,
                                    rule=rule, spent=spent)
        return _left_out(decision, len(rounds) - len(kept))
    bottom = observations.get(item.denominator, {})
    a = {r: v for r in top if (v := _value(top[r], item.metric)) is not None}
    b = {r: v for r in bottom if (v := _value(bottom[r], item.metric)) is not None}
    if any(v <= 0 for v in [*a.values(), *b.values()]):
        return stats.Decision(Verdict.INCONCLUSIVE, None, 0.0, 0, True,
                              note=f"{_what(item)} is 0 or negative in some process: no ratio")
    criterion = criterion_of(item, "log", pairs, rule.delta)
    every = sorted(set(a) | set(b))
    kept, spent = settled([{r: top[r].warmup for r in a}, {r: bottom[r].warmup for r in b}], start, rule) \
        if settle else (every, 0)
    left_out = len(set(a) & set(b)) - len(set(a) & set(b) & set(kept))
    a = {r: a[r] for r in kept if r in a}
    b = {r: b[r] for r in kept if r in b}
    matched = sorted(set(a) & set(b))
    if len(matched) >= rule.first_look or min(len(a), len(b)) < rule.first_look:
        units = log_ratios(a, b, matched)
        if len(matched) < 2 and a and b and not left_out:
            note = (f"{len(a)} and {len(b)} processes, {len(matched)} of them in the same rounds; "
                    f"a verdict needs {rule.first_look}")
            return stats.Decision(Verdict.INCONCLUSIVE, None, 0.0, len(matched), True, note=note,
                                  early=sum(units) / len(units) if units else None)
        decision = stats.sequential(units, criterion, alpha, start, rule=rule, spent=spent)
        return _left_out(decision, left_out)
    # Rounds do not match (a failed process on one side): compare the arms unpaired.
    left = [math.log(a[r]) for r in sorted(a)]
    right = [math.log(b[r]) for r in sorted(b)]
    decision = stats.sequential([], criterion, alpha, start, unpaired=(left, right), rule=rule, spent=spent)
    return _left_out(decision, left_out)


def _left_out(decision: stats.Decision, rounds: int) -> stats.Decision:
    """The decision, saying how many rounds it left out where it has no interval to show."""
    note = decision.note
    if rounds and decision.interval is None and note:
        note += f" ({rounds} earlier round{'s' if rounds != 1 else ''}, before a warmup raise, left out)"
    return dataclasses.replace(decision, left_out=rounds, note=note)


def _looks_within(rounds: int, start: int, rule: Rule) -> int:
    """How many planned looks `rounds` rounds reach."""
    return sum(1 for _ in itertools.takewhile(lambda n: n <= rounds, rule.looks_from(start)))


def claim_verdict(verdicts: set[Verdict]) -> Verdict:
    """A claim stated over several pairs of arms (each JRuby version against itself…) holds when every
    pair holds, and does not hold as soon as one pair does not."""
    if Verdict.DOES_NOT_HOLD in verdicts:
        return Verdict.DOES_NOT_HOLD
    return Verdict.HOLDS if verdicts == {Verdict.HOLDS} else Verdict.INCONCLUSIVE


def heads_outside(item: Item, decision: stats.Decision) -> bool:
    """Whether an undecided claim pair's estimate lies outside its claim's bounds: one such pair,
    once decided, settles its claim as not holding, so it alone is worth the rounds."""
    return decision.interval is not None and outside(item, decision.interval.value)


def outside(item: Item, value: float) -> bool:
    """Whether a value of a claim pair's ratio lies outside its claim's bounds (False for a comparison)."""
    if item.claim is None:
        return False
    low, high = item.claim.min, item.claim.max
    return (low is not None and value < low) or (high is not None and value > high)


def _what(item: Item) -> str:
    return f"metric {item.metric}" if item.metric else "a time"
