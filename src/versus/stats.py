"""Estimates, ratios and verdicts, decided sequentially at planned looks under a `Rule` (rule.py).

- An arm's value is the geometric mean of its process runs' values, with a Student t interval over
  processes: a process is the independent unit, its samples are not.
- A comparison or a claim is estimated from per-round log ratios (the two arms ran close together in
  each round, so a slow spell of the machine cancels): Yuen's trimmed mean, so that one process whose
  JIT never settled does not decide for all the others.
- Sequential: the data is looked at only at planned looks. Each look's interval is at a nominal level
  from the rule's spending, such that the chance that any look of the design misleads is at most the
  item's α however the rounds were stopped (the design is fixed before any data is seen). The first look
  whose interval clears a threshold decides, and that interval, at its level, is the one reported.
  Each end misses by α/2 for comparisons and ranges (two tails can mislead) and by α for a claim with
  one bound (only one can: `Bound.tails`); for a claim over k pairs, the end that can only say "holds"
  misses by k·α (intersection–union).
- Below the rule's `floor_until` rounds, the per-round spread is taken as at least the rule's `floor`:
  a few rounds of an arm whose processes settle in one of two states can all fall in one of them, and
  their tiny spread would otherwise decide (docs/method.md, "Few rounds and two states").
- A pair whose earlier sessions in the store measured its per-round spread (`Rule.spreads`, history.py)
  has that spread as a floor at every look: a few lopsided rounds of processes in two states look less
  spread than the pair is, and the pair's history says how spread it is. Where its ratio moved between
  those sessions beyond what their rounds explain (`Rule.between`), that movement is added to every
  look's standard error: no session pins the ratio closer than the sessions differ.
- Multiplicity: an experiment's comparisons share α = 5%, and its claims' pairs another 5% (Bonferroni).
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Protocol

import numpy as np
from scipy import stats as distributions

from . import spending
from .rule import CURRENT, Rule
from .verdict import Verdict

ALPHA = CURRENT.alpha  # family-wise error rate of an experiment's comparisons, and of its claims
DELTA = CURRENT.delta  # practical threshold: changes within ±1% count as "the same"
ARM_LEVEL = 0.95  # per-arm intervals are descriptive, at 95%
POWER = 0.8  # of the minimal detectable effect
FIRST_LOOK = CURRENT.first_look  # fewer than 3 rounds cannot decide anything with an unknown variance
UNUSABLE = 10.0  # an interval whose high/low exceeds this is said in words, not printed
# Futility is judged from this many rounds on: a spread from fewer rounds is too uncertain to project
# from (at 10 rounds it is off by about a quarter either way; `REACH_TAIL` allows for that).
FUTILE_FROM = 10
REACH_TAIL = 0.1  # `Decision.reachable` takes the spread at the low end of its 80% interval
# rounds_needed found no look that decides: said of every such item, with or without an interval
TOO_CLOSE = "the estimate is too close to its threshold for its spread: no number of rounds is expected to decide it"


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float


def bonferroni(alpha: float, items: int) -> float:
    return alpha / max(1, items)


# --- locations ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Location:
    """A (trimmed) mean on the analysis scale with its standard error and degrees of freedom."""

    center: float
    se: float
    df: float
    n: int

    @property
    def unit_sd(self) -> float:
        """The spread of one unit, so that se at another n can be projected: se ≈ unit_sd/√n."""
        return self.se * math.sqrt(self.n)


def trimmed_df(n: int, rule: Rule = CURRENT) -> float:
    """Yuen's degrees of freedom at n rounds: n − 2g − 1, g rounds trimmed off each end."""
    return float(max(1, n - 2 * math.floor(rule.trim_at(n) * n) - 1))


def trimmed_location(values: Sequence[float], trim: float | None = None, rule: Rule = CURRENT) -> Location:
    """Yuen's trimmed mean: its SE from the winsorized variance, df = n − 2g − 1. `trim`: the share off
    each end (default: the rule's at this n)."""
    data = np.asarray(values, dtype=float)
    n = data.size
    if n < 2:
        raise ValueError("a location needs at least 2 values")
    trim = rule.trim_at(n) if trim is None else trim
    cut = int(math.floor(trim * n))
    ordered = np.sort(data)
    # the sums as np.mean and np.std(ddof=1) take them, without their overhead on a few dozen values
    kept = ordered[cut: n - cut]
    center = float(np.add.reduce(kept) / kept.size)
    if cut:
        ordered[:cut] = ordered[cut]
        ordered[-cut:] = ordered[-cut - 1]
    deviations = ordered - np.add.reduce(ordered) / n
    winsorized_sd = math.sqrt(float(np.add.reduce(deviations * deviations)) / (n - 1))
    se = winsorized_sd / ((1 - 2 * cut / n) * math.sqrt(n))
    return Location(center, se, float(n - 2 * cut - 1), n)


def welch_location(a: Sequence[float], b: Sequence[float], rule: Rule = CURRENT) -> Location:
    """Difference of two trimmed means (Yuen–Welch): the unpaired fallback."""
    left, right = trimmed_location(a, rule=rule), trimmed_location(b, rule=rule)
    va, vb = left.se ** 2, right.se ** 2
    se = math.sqrt(va + vb)
    if se == 0:
        df = float(min(left.df, right.df))
    else:
        df = (va + vb) ** 2 / ((va ** 2 / left.df if va else 0) + (vb ** 2 / right.df if vb else 0))
    return Location(left.center - right.center, se, max(1.0, df), min(left.n, right.n))


def floored(location: Location, rule: Rule) -> Location:
    """The location with its standard error at least the rule's floor at its n, and with the spread of its
    pair's ratio between sessions added, where one was learned (docs/method.md)."""
    floor, shift = rule.floor_at(location.n), rule.shift_at(location.n)
    se = max(location.se, floor / math.sqrt(location.n)) if floor > 0 else location.se
    if shift > 0:
        se = math.hypot(se, shift)
    return location if se == location.se else Location(location.center, se, location.df, location.n)


@functools.lru_cache(maxsize=4096)
def t_quantile(probability: float, df: float) -> float:
    return float(distributions.t.ppf(probability, df))


@functools.lru_cache(maxsize=4096)
def chi2_quantile(probability: float, df: float) -> float:
    return float(distributions.chi2.ppf(probability, df))


def interval(location: Location, level: float) -> tuple[float, float]:
    """The two-sided interval at `level` on the analysis scale."""
    return bounds(location, (1 - level) / 2, (1 - level) / 2)


def bounds(location: Location, low_tail: float, high_tail: float) -> tuple[float, float]:
    """The interval whose low end misses by `low_tail` (one-sided) and high end by `high_tail`."""
    if location.se <= 0:
        return location.center, location.center
    return (location.center - t_quantile(1 - low_tail, location.df) * location.se,
            location.center + t_quantile(1 - high_tail, location.df) * location.se)


def pooled_spread(sessions: Sequence[Sequence[float]], rule: Rule) -> tuple[float, ...]:
    """The per-round spread of several sessions' rounds of one pair (history.py), at each of the rule's
    trims: each session's rounds about its own median (so that a ratio that moved between sessions is
    not spread), pooled into one sample and trimmed as one, and taken at the low end of its 80%
    interval (a floor above the pair's spread would cost decisions; one below it only protects less);
    () with fewer than `rule.history` rounds in all.

    Trimmed as one sample, the pool is what a long session's trimmed rounds would show. Averaging each
    session's own trimmed variance instead let a few sessions of ten rounds, three of them caught by a
    slow spell (more than a ten-round trim takes off), set the floor of every later one: the selftest of
    2026-12-06 16:30 learned a spread of 0.12–0.18 for an A/A pair whose typical round agreed within
    0.4%, and few later trials could decide (docs/results.md, "The selftest")."""
    if sum(len(s) for s in sessions) < max(1, rule.history):
        return ()
    pool: list[float] = []
    for rounds in sessions:
        if len(rounds) < 2:
            continue
        center = float(np.median(rounds))  # a trimmed mean would carry a spell into the session's other rounds
        scale = math.sqrt(len(rounds) / (len(rounds) - 1))  # its own center took about a degree of freedom
        pool.extend((value - center) * scale for value in rounds)
    if len(pool) < 2:
        return ()
    spreads = []
    for _, trim in rule.trims:
        location = trimmed_location(pool, trim, rule)
        if location.df <= 0:
            return ()
        spread = location.unit_sd
        spreads.append(spread * math.sqrt(location.df / chi2_quantile(1 - REACH_TAIL, location.df)))
    return tuple(spreads)


BETWEEN_FROM = 10  # rounds of an earlier session from which its ratio's standard error is worth weighing
# The spread between sessions is taken at the low end of its 98% interval: added to every look's standard
# error (not a floor under it), a spurious one costs each decision of a pair whose sessions agree.
BETWEEN_TAIL = 0.01


def pooled_between(sessions: Sequence[Sequence[float]], rule: Rule) -> tuple[float, ...]:
    """How far a pair's ratio moves from one session to the next beyond what each session's rounds
    explain (history.py), at each of the rule's trims: the spread between sessions of a random-effects
    model, each session's trimmed mean with its standard error, taken at the low end of its 98%
    interval (the Q-profile: the least τ at which the generalized homogeneity statistic falls to its
    chi-square quantile at 1 − BETWEEN_TAIL; a spread above the truth would cost decisions, one below it
    only protects less). So it is 0 unless the sessions disagree beyond what chance gives one time in a
    hundred. () where fewer than 3 sessions have BETWEEN_FROM rounds, where they hold fewer than
    `rule.history` rounds in all, or where the sessions agree."""
    long = [s for s in sessions if len(s) >= BETWEEN_FROM]
    if len(long) < 3 or sum(len(s) for s in long) < max(1, rule.history):
        return ()
    shifts = []
    for _, trim in rule.trims:
        located = [loc for loc in (trimmed_location(rounds, trim, rule) for rounds in long) if loc.se > 0]
        if len(located) < 3:
            return ()
        centers = np.array([loc.center for loc in located])
        # each session's standard error from the per-round spread pooled over all of them: one session's
        # own, from a dozen degrees of freedom, is off by a third either way, and the homogeneity statistic
        # would read that as sessions that disagree
        unit = sum(loc.df * loc.unit_sd ** 2 for loc in located) / sum(loc.df for loc in located)
        variances = np.array([unit / loc.n for loc in located])
        quantile = chi2_quantile(1 - BETWEEN_TAIL, len(located) - 1)
        if _homogeneity(centers, variances, 0.0) <= quantile:
            shifts.append(0.0)
            continue
        low, high = 0.0, float(np.var(centers, ddof=1) * 10 + variances.max())
        for _ in range(60):  # the statistic falls as τ² grows: bisect to where it meets the quantile
            middle = (low + high) / 2
            low, high = (middle, high) if _homogeneity(centers, variances, middle) > quantile else (low, middle)
        shifts.append(math.sqrt(low))
    return tuple(shifts) if any(shifts) else ()


def _homogeneity(centers: np.ndarray, variances: np.ndarray, tau2: float) -> float:
    """The generalized Q statistic of sessions' estimates with these variances, at a spread τ² between them."""
    weights = 1 / (variances + tau2)
    mean = float(np.sum(weights * centers) / np.sum(weights))
    return float(np.sum(weights * (centers - mean) ** 2))


# --- criteria: what a verdict is ------------------------------------------------------------

class Criterion(Protocol):
    """Turns an interval (on the analysis scale) into a verdict, or None while it decides nothing."""

    def verdict(self, low: float, high: float) -> Verdict | None: ...

    def tails(self, alpha: float) -> tuple[float, float]:
        """What each end of the interval may miss by over the whole design (one-sided error of its low
        end, of its high end), so that a wrong verdict has probability ≤ `alpha`."""

    def margin(self, center: float) -> float:
        """How far `center` lies inside a deciding region: the half-width that would decide; ≤ 0: none."""

    def middle(self) -> float | None:
        """The middle of the region between two edges ("the same", a claim's range), where an interval
        of a given width decides soonest; None where no verdict lies between two edges."""


@dataclass(frozen=True)
class Comparison:
    """faster / slower beyond ±δ, or the same within ±δ; log scale."""

    delta: float = DELTA

    @property
    def edges(self) -> tuple[float, float]:
        return math.log1p(-self.delta), math.log1p(self.delta)

    def verdict(self, low: float, high: float) -> Verdict | None:
        down, up = self.edges
        if low > up:
            return Verdict.SLOWER
        if high < down:
            return Verdict.FASTER
        if low >= down and high <= up:
            return Verdict.SAME
        return None

    def margin(self, center: float) -> float:
        down, up = self.edges
        return max(center - up, down - center, min(up - center, center - down))

    def middle(self) -> float | None:
        return sum(self.edges) / 2

    def tails(self, alpha: float) -> tuple[float, float]:
        # a true ratio inside ±δ can be called faster (upper end too low) or slower (lower end too
        # high): both tails can mislead, so each gets half
        return alpha / 2, alpha / 2


@dataclass(frozen=True)
class Bound:
    """A claim: holds when the interval lies within [low, high], does not hold when wholly outside."""

    low: float | None  # on the analysis scale
    high: float | None
    pairs: int = 1  # pairs of arms the claim is stated over: it holds only if every pair holds

    def verdict(self, low: float, high: float) -> Verdict | None:
        floor = -math.inf if self.low is None else self.low
        ceiling = math.inf if self.high is None else self.high
        if low >= floor and high <= ceiling:
            return Verdict.HOLDS
        if high < floor or low > ceiling:
            return Verdict.DOES_NOT_HOLD
        return None

    def margin(self, center: float) -> float:
        floor = -math.inf if self.low is None else self.low
        ceiling = math.inf if self.high is None else self.high
        inside = min(center - floor, ceiling - center)
        outside = max(floor - center, center - ceiling)
        return max(inside, outside)

    def middle(self) -> float | None:
        return None if self.low is None or self.high is None else (self.low + self.high) / 2

    def tails(self, alpha: float) -> tuple[float, float]:
        """One bound (≥ min or ≤ max): whatever the truth, only one tail can mislead (a true ratio
        ≥ min is wrongly "does not hold" only when the upper end falls below it; one below min is
        wrongly "holds" only when the lower end rises above it), so each end is a one-sided test at
        `alpha`. A range [min, max] gives each end alpha/2: a truth inside it can be missed on either
        side.

        A claim over k pairs (one bound) is an intersection–union test (Berger 1982): it holds only
        if every pair holds, so it is wrongly "holds" only if a pair whose truth is outside its
        bound is wrongly "holds", which its own deciding end allows with probability k·α at most; it
        is wrongly "does not hold" if any of its k pairs is, each at α, k·α at most. Either way the
        claim errs with probability ≤ k·α, the share of its k pairs in the experiment's α
        (`judge.Shares`): the end that can only say "holds" may miss by k·α."""
        if (self.low is None) == (self.high is None):
            return alpha / 2, alpha / 2
        holds = min(0.5, self.pairs * alpha)
        return (holds, alpha) if self.low is not None else (alpha, holds)


# --- the design: looks and their levels -------------------------------------------------------

@dataclass(frozen=True)
class Design:
    """The looks of one item from `start` rounds on, and each look's nominal tails."""

    rule: Rule
    criterion: Criterion
    alpha: float
    start: int
    spent: int = 0  # looks already taken on rounds left out (judge.settled): their error is spent

    def looks(self) -> Iterator[int]:
        return self.rule.looks_from(self.start)

    def planned(self) -> Iterator[tuple[int, tuple[float, float]]]:
        """Each look with its tails, in order."""
        table = _planned(self)
        yield from table
        if self.rule.version < 2:  # the legacy design has no end: its looks past the table, one by one
            for index, n in enumerate(self.looks(), 1):
                if index > len(table):
                    yield n, self.tails(index)

    def tails(self, index: int) -> tuple[float, float]:
        """The nominal one-sided tails of the look number `index` (1-based) of this design. The chance
        that any look misleads is at most the tail: by the union bound over the looks' levels
        (uniform, harmonic), or by the looks' joint distribution (joint: spending.py)."""
        low, high = self.criterion.tails(self.alpha)
        if self.rule.spending == "harmonic":
            share = 1.0 / ((index + self.spent) * (index + self.spent + 1))
        elif self.rule.spending == "joint":
            return self._joint(low), self._joint(high)
        else:  # uniform: the design's looks, and those already taken on rounds left out, share α equally
            share = self._share(index)
        return min(0.5, low * share), min(0.5, high * share)

    def _share(self, index: int) -> float:
        """Uniform spending: look `index`'s share of α, equal or in proportion to the rule's `weights`;
        each look already taken on rounds left out is charged as much as the design's largest."""
        shares = _uniform_shares(self.rule, self.start, self.spent)
        if not self.rule.weights:  # equal shares: every look's, however far the legacy design's looks go
            return shares[0] if shares else 1.0 / self.spent
        return shares[index - 1] if index <= len(shares) else 0.0

    def _joint(self, tail: float) -> float:
        """One tail's level at every look. Looks already taken on rounds left out were at most at the
        whole design's level each; by the union bound over those disjoint rounds, what they may have
        spent is taken from the tail before the design's looks share the rest jointly."""
        design = self.rule.design(self.start)
        whole = spending.joint_level(design, tail)
        rest = tail - self.spent * whole
        return min(0.5, whole if not self.spent else spending.joint_level(design, rest) if rest > 0 else 0.0)

    def single(self) -> tuple[float, float]:
        """One look at the size measured, with the whole of α."""
        return self.criterion.tails(self.alpha)


@functools.lru_cache(maxsize=1024)
def _planned(design: Design) -> tuple[tuple[int, tuple[float, float]], ...]:
    """The design's looks (the legacy design's up to 5000 rounds) with their tails. Cached: a replay asks
    for them at every look, and the simulation replays thousands of trials."""
    return tuple((n, design.tails(index)) for index, n in enumerate(design.rule.design(design.start), 1))


@functools.lru_cache(maxsize=1024)
def _uniform_shares(rule: Rule, start: int, spent: int) -> tuple[float, ...]:
    """Each look's share of α in the design from `start` under uniform spending, in proportion to the
    rule's `weights` (equal without them). Cached: a replay asks for every look's share at every look,
    and the simulation replays thousands of trials."""
    design = rule.design(start)
    if not rule.weights:
        return tuple(1.0 / (len(design) + spent) for _ in design)
    weight = dict(zip(rule.looks, rule.weights))
    weights = [weight.get(n, 0.0) for n in design]
    if not weights:
        return ()
    total = sum(weights) + spent * max(weights)
    return tuple(w / total for w in weights)


# --- decisions ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    interval: Interval | None  # the one that decided it, or the latest look's; None: see note
    level: float  # the interval's confidence level (after the look's and the family's share)
    n: int  # rounds (or processes) behind the interval
    paired: bool
    note: str = ""  # in words, when there is no usable interval
    rounds_needed: int | None = None  # undecided: the look that would decide at today's estimate
    mde: float | None = None  # undecided comparisons: relative change detectable at the next look
    left_out: int = 0  # rounds before the warmup was last raised (judge.settled): not analysed
    sides: tuple[float, float] | None = None  # one-sided level of the low end, of the high end
    # undecided: the first look at which a verdict is within reach: rounds_needed, or where the spread
    # allows a verdict between two edges ("the same", a range) at their middle, that look (`futile`)
    reachable: int | None = None
    # undecided, paired: the per-round spread of its rounds (log scale), before the rule's floor
    spread: float | None = None
    # before the first look, paired, on the log scale: the mean of the rounds so far, too few for an
    # interval; what the scheduler prices a pair's first look by (scheduler.Scheduler._outlook)
    early: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "verdict", Verdict(self.verdict))  # a word ("holds") becomes its Verdict

    @property
    def asymmetric(self) -> bool:
        """Whether the ends were tested at different levels (a claim over several pairs)."""
        return self.sides is not None and abs(self.sides[0] - self.sides[1]) > 1e-12

    @property
    def decided(self) -> bool:
        return self.verdict.decided


Scale = str  # "log" (ratios, positive values) or "linear"


def _back(value: float, scale: Scale) -> float:
    if scale != "log":
        return value
    return math.exp(min(value, 700.0)) if value > -745 else 0.0


def _to_interval(location: Location, low: float, high: float, scale: Scale) -> Interval:
    return Interval(_back(location.center, scale), _back(low, scale), _back(high, scale))


def sequential(units: Sequence[float], criterion: Criterion, alpha: float, start: int = FIRST_LOOK,
               unpaired: tuple[Sequence[float], Sequence[float]] | None = None, scale: Scale = "log",
               rule: Rule = CURRENT, spent: int = 0) -> Decision:
    """Replay the sequential design over `units` (per-round values in round order) and decide.

    With `unpaired` = (a, b) instead, each look n uses the first n processes of each side (Welch).
    With a rule that is not sequential the data is judged once, at its size, with the whole of `alpha`.
    `spent` looks were already taken on rounds left out (judge.settled): their error is spent.
    """
    paired = unpaired is None
    available = len(units) if paired else min(len(unpaired[0]), len(unpaired[1]))  # type: ignore[index]
    exact = paired and _exact(units)

    def locate(n: int) -> Location:
        if paired:
            location = trimmed_location(units[:n], rule=rule)
        else:
            a, b = unpaired  # type: ignore[misc]
            location = welch_location(a[:n], b[:n], rule)
        # identical rounds (a size in bytes) are a measurement without noise: no floor on their spread
        return floored(location, rule) if scale == "log" and not (paired and _exact(units[:n])) else location

    if available < 2 or (available < rule.first_look and rule.sequential and not exact):
        return Decision(Verdict.INCONCLUSIVE, None, 0.0, available, paired, note=_too_few(available, rule),
                        early=_early(units) if paired and scale == "log" else None)
    design = Design(rule, criterion, alpha, start, spent)
    schedule: list[tuple[int, tuple[float, float]]]
    if not rule.sequential:
        schedule = [(available, design.single())]
    else:
        schedule = []
        for n, tails in design.planned():
            if n > available:
                break
            schedule.append((n, tails))
        head = rule.exact_rounds
        if paired and head and available >= head and _exact(units[:head]):
            # identical rounds are a measurement without noise: a third tells nothing the second did not.
            # Judged on the first rounds alone, so the verdict does not change with rounds that came after.
            schedule = [(head, design.tails(1))] + [(n, tails) for n, tails in schedule if n > head]
        elif exact and not schedule:
            schedule = [(available, design.tails(1))]
        if not schedule:
            first = next(design.looks(), rule.first_look)
            return Decision(Verdict.INCONCLUSIVE, None, 0.0, available, paired,
                            note=f"{available} rounds measured; the first look is at {first}",
                            early=_early(units) if paired and scale == "log" else None)
    def mean(n: int) -> float:
        if paired:
            return float(np.mean(units[:n]))
        a, b = unpaired  # type: ignore[misc]
        return float(np.mean(a[:n]) - np.mean(b[:n]))

    latest: Decision | None = None
    for n, tails in schedule:
        location = locate(n)
        low, high = bounds(location, *tails)
        verdict = criterion.verdict(low, high)
        if verdict and rule.mean_agrees and criterion.verdict(mean(n), mean(n)) != verdict:
            verdict = None  # the trimmed rounds decide, but the plain mean of them says otherwise
        shown = _to_interval(location, low, high, scale)
        level, sides = 1 - sum(tails), (1 - tails[0], 1 - tails[1])
        if verdict:
            return Decision(verdict, shown, level, n, paired, sides=sides)
        latest = Decision(Verdict.INCONCLUSIVE, shown, level, n, paired, sides=sides)
    assert latest is not None  # available ≥ the first look guarantees one look
    raw = trimmed_location(units[:available], rule=rule) if paired else locate(available)
    needed = rounds_needed(raw, criterion, alpha, start, rule=rule, spent=spent, scale=scale) \
        if rule.sequential else None
    reachable = needed
    middle = criterion.middle()
    if rule.sequential and middle is not None:
        # the spread as the later looks that could decide it will see it, at their trim (one heavy-tailed
        # round among the first ten, untrimmed, would make "the same" look out of reach), and at the low
        # end of its 80% interval (a spread from ten rounds is off by about a quarter either way, and
        # futility must not stop an item because its spread happened to come out high)
        late = trimmed_location(units[:available], rule.trim_at(rule.looks[-1]), rule) if paired else raw
        low_sd = math.sqrt(late.df / chi2_quantile(1 - REACH_TAIL, late.df)) if late.df > 0 else 1.0
        inside = rounds_needed(Location(middle, late.se * low_sd, raw.df, raw.n), criterion, alpha, start,
                               rule=rule, spent=spent, scale=scale)
        reachable = min((n for n in (needed, inside) if n is not None), default=None)
    mde = detectable(raw, alpha, start, latest.n, rule=rule, spent=spent) if isinstance(criterion, Comparison) else None
    floor = rule.floor_at(latest.n) if scale == "log" and paired else 0.0
    if floor and trimmed_location(units[:latest.n], rule=rule).se >= floor / math.sqrt(latest.n):
        floor = 0.0  # the rounds' own spread is wider than the floor: the floor is not why it is wide
    note = _unusable(latest.interval, scale, needed is not None or not rule.sequential, floor=floor,
                     learned=latest.n >= rule.floor_until)
    return Decision(Verdict.INCONCLUSIVE, latest.interval, latest.level, latest.n, paired, note, needed, mde,
                    sides=latest.sides, reachable=reachable, spread=raw.unit_sd if paired else None)


def _early(units: Sequence[float]) -> float | None:
    return float(np.mean(units)) if len(units) else None


def _exact(values: Sequence[float]) -> bool:
    return len(values) > 0 and all(v == values[0] for v in values)


def _too_few(n: int, rule: Rule) -> str:
    return f"{n} round{'s' if n != 1 else ''} measured; a verdict needs at least {rule.first_look}"


def _unusable(shown: Interval | None, scale: Scale, more_would_decide: bool = True, floor: float = 0.0,
              learned: bool = False) -> str:
    """Why an interval is not shown. "Needs more rounds" only where more rounds are expected to decide
    (rounds_needed: an estimate on a threshold, or so close to one for its spread that more than 5000
    rounds would be needed, is not). Below the rule's floor of rounds, the interval is wide because few
    rounds cannot show whether processes settle in two states, not because they disagree."""
    if shown is None or scale != "log":
        return ""
    if shown.low <= 0 or shown.high / shown.low > UNUSABLE:
        if floor and learned:
            return (f"too few rounds for a usable interval: the rule takes each round's spread to be at least "
                    f"{math.expm1(floor):.0%}, as this pair's earlier sessions measured it; needs more rounds")
        if floor:
            return (f"too few rounds for a usable interval: until it has more, the rule takes each round's spread to "
                    f"be at least {math.expm1(floor):.0%} (a few processes may all have settled in one of two states); "
                    "needs more rounds")
        if more_would_decide:
            return "the rounds disagree too much for a usable interval; needs more rounds"
        return (f"the rounds disagree too much for a usable interval, and {TOO_CLOSE}")
    return ""


def _schedule_after(design: Design, after: int) -> Iterator[tuple[int, tuple[float, float]]]:
    for n, tails in design.planned():
        if n > after:
            yield n, tails


def rounds_needed(location: Location, criterion: Criterion, alpha: float, start: int, limit: int = 5000,
                  rule: Rule = CURRENT, spent: int = 0, scale: Scale = "log") -> int | None:
    """The first look after today's whose interval would decide, if the estimate and spread stay as
    they are; None when the estimate sits on a threshold (no amount of rounds is expected to decide) or
    past the design's last look."""
    margin = criterion.margin(location.center)
    if margin <= 0:
        return None
    spread = location.unit_sd
    for n, tails in _schedule_after(Design(rule, criterion, alpha, start, spent), location.n):
        if n > limit:
            return None
        projected = Location(location.center, spread / math.sqrt(n), trimmed_df(n, rule), n)
        if scale == "log":
            projected = floored(projected, rule)
        if projected.se == 0 or criterion.verdict(*bounds(projected, *tails)):
            return n
    return None


_GRID = 32  # points of the normal distribution `chances_by_look` weighs a truth's uncertainty by


@functools.lru_cache(maxsize=1)
def _normal_grid() -> tuple[float, ...]:
    """Equally likely points of a standard normal: the midpoints of _GRID equal slices of its probability."""
    normal = NormalDist()
    return tuple(normal.inv_cdf((i + 0.5) / _GRID) for i in range(_GRID))


def chances_by_look(location: Location, criterion: Criterion, alpha: float, start: int, rule: Rule = CURRENT,
                    uncertainty: float | None = None, limit: int | None = None,
                    spent: int = 0) -> list[tuple[int, float]]:
    """For each look after today's (up to `limit` rounds), the chance that it decides, where the truth is as
    uncertain as today's rounds leave it: with a flat prior and normal rounds of per-round spread
    `uncertainty` (default: the rounds' own), the estimate at look L is normal about today's with variance
    uncertainty²·(L − n)/(n·L), and the look decides where the interval the rule draws about that estimate
    (today's per-round spread projected to L, the rule's floor at L) is a verdict. `rounds_needed` asks the
    same of today's estimate taken as the truth, which prices a pair near its bound as if more rounds could
    not move its estimate: after 3 rounds of per-round spread 0.07, 0.94 against a bound of 0.95 needs 200
    rounds there, where the truth is as likely 0.99, decided at 20 (docs/method.md, "Runs")."""
    n = location.n
    spread = location.unit_sd if uncertainty is None else uncertainty
    if n < 1 or spread < 0:
        return []
    grid = _normal_grid()
    chances = []
    for look, tails in _schedule_after(Design(rule, criterion, alpha, start, spent), n):
        if limit is not None and look > limit:
            break
        projected = floored(Location(0.0, location.unit_sd / math.sqrt(look), trimmed_df(look, rule), look), rule)
        low, high = bounds(projected, *tails)  # about a center of 0: the interval's ends as offsets
        sigma = spread * math.sqrt((look - n) / (n * look))
        hits = sum(criterion.verdict(m + low, m + high) is not None
                   for m in (location.center + sigma * z for z in grid))
        chances.append((look, hits / len(grid)))
    return chances


def futile(decision: Decision, last: int) -> bool:
    """Whether an open item is not worth more rounds: from FUTILE_FROM rounds on, no look up to `last`
    rounds is expected to decide it at today's estimate and spread (`rounds_needed` past `last`, or none:
    the estimate sits on a threshold, or too near one for its spread), nor could its spread allow a
    verdict between two edges ("the same") wherever its estimate went (`Decision.reachable`).

    Non-binding futility: an item stopped without a verdict can only make fewer wrong verdicts than
    one run to its last look, never more, since a look that is not taken cannot mislead; what it costs
    is the verdicts that a drifting estimate would have brought at later looks. The second condition
    keeps that cost off the common case, an A/A pair whose estimate at 10 rounds is off 0 by chance
    and would be called "the same" later (docs/method.md, "Runs")."""
    if decision.decided or decision.n < FUTILE_FROM or decision.interval is None:
        return False
    reachable = decision.reachable or decision.rounds_needed
    return reachable is None or reachable > last


def detectable(location: Location, alpha: float, start: int, latest: int, delta: float = DELTA,
               rule: Rule = CURRENT, spent: int = 0) -> float | None:
    """The relative change the next look would detect with 80% power, given today's spread (and the
    rule's floor at that look), with the rule's own degrees of freedom at that look."""
    design = Design(rule, Comparison(delta), alpha, start, spent)
    upcoming = next(_schedule_after(design, latest), None)
    if upcoming is None:
        return None
    n, (tail, _) = upcoming
    df = trimmed_df(n, rule) if rule.version >= 2 else max(1.0, n - 1.0)  # the legacy rule's MDE used n − 1
    spread = max(location.unit_sd, rule.floor_at(n))
    half = (t_quantile(1 - tail, df) + t_quantile(POWER, df)) * math.hypot(spread / math.sqrt(n), rule.shift_at(n))
    return math.expm1(math.log1p(delta) + half)


# --- arms ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ArmSummary:
    """An arm from its processes' medians (ns per iteration, or a metric's values)."""

    value: float  # geometric mean of the process values (arithmetic where a value is ≤ 0)
    interval: Interval | None  # 95% Student t over processes; None: see note
    processes: int
    note: str = ""


def summarize_arm(process_values: Sequence[float], describe: Callable[[float], str] = "{:.4g}".format) -> ArmSummary:
    values = np.asarray(process_values, dtype=float)
    n = values.size
    if n == 0:
        raise ValueError("an arm summary needs at least one process")
    if bool(np.all(values == values[0])):  # identical processes (a size in bytes): the value, exactly
        exact = float(values[0])
        return ArmSummary(exact, Interval(exact, exact, exact) if n > 1 else None, n,
                          "" if n > 1 else "one process: no interval (processes differ; measure ≥ 2)")
    positive = bool(np.all(values > 0))
    data = np.log(values) if positive else values
    center = float(data.mean())
    scale: Scale = "log" if positive else "linear"
    if n == 1:
        return ArmSummary(_back(center, scale), None, 1, "one process: no interval (processes differ; measure ≥ 2)")
    location = Location(center, float(np.std(data, ddof=1)) / math.sqrt(n), n - 1.0, n)
    low, high = interval(location, ARM_LEVEL)
    shown = _to_interval(location, low, high, scale)
    if positive and (shown.low <= 0 or shown.high / shown.low > UNUSABLE):
        listed = ", ".join(describe(float(v)) for v in sorted(values)[:6])
        return ArmSummary(shown.value, None, n, f"{n} processes disagree: {listed}; needs more processes")
    return ArmSummary(shown.value, shown, n)


# --- rates ---------------------------------------------------------------------------------------

def clopper_pearson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Exact binomial interval of a rate."""
    if trials == 0:
        return 0.0, 1.0
    tail = (1 - level) / 2
    low = 0.0 if successes == 0 else float(distributions.beta.ppf(tail, successes, trials - successes + 1))
    high = 1.0 if successes == trials else float(distributions.beta.ppf(1 - tail, successes + 1, trials - successes))
    return low, high
