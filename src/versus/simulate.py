"""A seeded simulation of this project's VM noise, to calibrate the decision rule offline.

The model (`docs/method.md`, "Calibration"), on the log scale:
- each process of an arm is off by N(0, 1.5%) (JIT decisions, heap layout), and a few are far off
  (heavy tails: with probability `tail_rate` a further N(0, 30%));
- its median of 5 samples adds N(0, 0.5%)·1.25/√5;
- (a variant) slow spells within a process that catch some of its samples and not others, its value
  then the median or the minimum of its samples (`[method] value`);
- the machine drifts by a random walk of 2% per round, and enters slow spells of +10% (probability
  0.15 per round, kept with probability 0.6) that hit each arm of the round with probability
  `spell_hit` (1: both arms alike), or with a probability of each arm's own (`spell_arms`: spells
  that meet one arm only);
- per arm (`Arm`): a second state that a process settles in with some probability (a JVM that settles
  in one of two states: two modes, drawn per process), and noise of its own (one arm noisier);
- regimes: the ratio itself shifts by ±`regime` for a stretch of rounds (entered and left with
  probability 1 − `regime_stay` per round), as a thread handoff does while the other core is busy.

`arm_rounds` returns the arms' per-round log values; `calibrate` runs `stats.sequential` (the rule
every report uses) over many trials and counts verdicts; `estimand` is the quantity a scenario's rule
estimates (its truth, where a scenario's per-round ratios are skewed).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import stats
from .rule import CURRENT, Rule


@dataclass(frozen=True)
class Arm:
    """What is particular to one arm of a pair."""

    state: float = 0.0  # log distance of a second state its processes may settle in
    state_weight: float = 0.0  # the chance that a process settles in it
    state_sd: float = 0.03  # a process's spread around its state (replaces process_sd when state_weight > 0)
    sd: float = 0.0  # noise of its own, beyond the shared model's (one arm noisier than the other)
    spell: float | None = None  # the chance that a spell of the machine hits this arm (None: `spell_hit`)


@dataclass(frozen=True)
class Noise:
    process_sd: float = 0.015
    sample_sd: float = 0.005
    samples: int = 5
    drift_sd: float = 0.02
    spell: float = 0.10
    spell_enter: float = 0.15
    spell_stay: float = 0.6
    spell_hit: float = 1.0
    tail_rate: float = 0.02
    tail_sd: float = 0.3
    # Spells within a process (0: none): each measured sample enters a spell of `spell` with this
    # probability and stays in it with `sample_spell_stay`, as this VM's spells switch within 0.13 s;
    # the process's value is then the `value` ("median" or "min") of its samples.
    sample_spell_enter: float = 0.0
    sample_spell_stay: float = 0.6
    value: str = "median"
    arms: tuple[Arm, ...] = ()  # per arm, in order; arms beyond the tuple are plain
    regime: float = 0.0  # the log ratio of the arms shifts by ±regime (half the rounds each way)
    regime_stay: float = 0.95

    def arm(self, index: int) -> Arm:
        return self.arms[index] if index < len(self.arms) else Arm()


def _process_noise(rng: np.random.Generator, noise: Noise, shape: tuple[int, ...], arm: Arm) -> np.ndarray:
    tails = (rng.random(shape) < noise.tail_rate) * rng.normal(0, noise.tail_sd, shape)
    if arm.state_weight > 0:
        between = arm.state * (rng.random(shape) < arm.state_weight) + rng.normal(0, arm.state_sd, shape)
    else:
        between = rng.normal(0, noise.process_sd, shape)
    if arm.sd:
        between = between + rng.normal(0, arm.sd, shape)
    if noise.sample_spell_enter > 0:
        return between + _sampled_value(rng, noise, shape) + tails
    within = noise.sample_sd * 1.25 / math.sqrt(noise.samples)
    return between + rng.normal(0, within, shape) + tails


def _sampled_value(rng: np.random.Generator, noise: Noise, shape: tuple[int, ...]) -> np.ndarray:
    """Each process's samples drawn one by one, spells switching between them, then its value."""
    state = np.zeros(shape, dtype=bool)
    samples = np.empty(shape + (noise.samples,))
    for i in range(noise.samples):
        draw = rng.random(shape)
        state = np.where(state, draw < noise.sample_spell_stay, draw < noise.sample_spell_enter)
        samples[..., i] = rng.normal(0, noise.sample_sd, shape) + noise.spell * state
    return samples.min(axis=-1) if noise.value == "min" else np.median(samples, axis=-1)


def _markov(rng: np.random.Generator, trials: int, rounds: int, enter: float, stay: float,
            start: np.ndarray | None = None) -> np.ndarray:
    state = np.zeros(trials, dtype=bool) if start is None else start
    states = np.zeros((trials, rounds), dtype=bool)
    for round_ in range(rounds):
        draw = rng.random(trials)
        state = np.where(state, draw < stay, draw < enter)
        states[:, round_] = state
    return states


def arm_rounds(rng: np.random.Generator, noise: Noise, trials: int, rounds: int, arms: int) -> np.ndarray:
    """Log values of `arms` arms measured in the same rounds: shape (arms, trials, rounds)."""
    drift = np.cumsum(rng.normal(0, noise.drift_sd, (trials, rounds)), axis=1)
    spells = _markov(rng, trials, rounds, noise.spell_enter, noise.spell_stay)
    values = []
    for index in range(arms):
        arm = noise.arm(index)
        hit_rate = noise.spell_hit if arm.spell is None else arm.spell
        hit = spells & (rng.random((trials, rounds)) < hit_rate)
        values.append(drift + noise.spell * hit + _process_noise(rng, noise, (trials, rounds), arm))
    if noise.regime and arms > 1:
        # half the trials start in each regime, and a regime is left with probability 1 − regime_stay
        shifted = _markov(rng, trials, rounds, 1 - noise.regime_stay, noise.regime_stay, rng.random(trials) < 0.5)
        values[1] = values[1] + np.where(shifted, noise.regime, -noise.regime)
    return np.stack(values)


def ratios(rng: np.random.Generator, noise: Noise, trials: int, rounds: int, effect: float = 1.0) -> np.ndarray:
    """Per-round log ratios of arm 1 ÷ arm 0 with a planted true ratio `effect`: (trials, rounds)."""
    a, b = arm_rounds(rng, noise, trials, rounds, 2)
    return b - a + math.log(effect)


def estimand(noise: Noise, rule: Rule = CURRENT, rounds: int = 200, trials: int = 2000, seed: int = 1) -> float:
    """The ratio (log scale) that the rule's estimate settles on under this noise: the trimmed mean, at
    the rule's trim for `rounds` rounds, of the per-round log ratios of many trials pooled. Where the
    rounds are symmetric about 0 (A/A, or noise that hits both arms alike) it is 0; where one arm has a
    second state or meets spells alone, it is what a claim on these arms is about."""
    pooled = ratios(np.random.default_rng(seed), noise, trials, rounds).ravel()
    return stats.trimmed_location(list(pooled), rule.trim_at(rounds)).center


def model_spread(noise: Noise | None = None, rounds: int = 40, trials: int = 500, seed: int = 0,
                 rule: Rule = CURRENT) -> float:
    """The per-round spread of an A/A log ratio under the model, as the rule sees it (the unit SD of
    the trimmed mean, `stats.trimmed_location`), median over trials of `rounds` rounds."""
    rows = ratios(np.random.default_rng(seed), noise or Noise(), trials, rounds)
    return float(np.median([stats.trimmed_location(list(row), rule=rule).unit_sd for row in rows]))


@dataclass
class Counts:
    """Verdicts of many trials of one item, and the rounds each decision took."""

    trials: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    covered: int = 0  # trials whose final interval contains the true ratio
    rounds: list[int] = field(default_factory=list)  # of decided trials
    # decided claims whose verdict the plain mean of the same rounds does not give (analyze._alternatives:
    # the report flags them "depends on an analysis choice"), by verdict
    depends: dict[str, int] = field(default_factory=dict)

    def rate(self, *verdicts: str) -> float:
        return sum(self.verdicts.get(v, 0) for v in verdicts) / max(1, self.trials)

    def count(self, *verdicts: str) -> int:
        return sum(self.verdicts.get(v, 0) for v in verdicts)

    def flagged(self, *verdicts: str) -> int:
        return sum(self.depends.get(v, 0) for v in verdicts)

    def add(self, decision: stats.Decision, truth: float | None = None, depends: bool = False) -> None:
        self.trials += 1
        self.verdicts[decision.verdict] = self.verdicts.get(decision.verdict, 0) + 1
        if depends:
            self.depends[decision.verdict] = self.depends.get(decision.verdict, 0) + 1
        if decision.decided:
            self.rounds.append(decision.n)
        shown = decision.interval
        if truth is not None and shown is not None and shown.low <= truth <= shown.high:
            self.covered += 1


def calibrate(effect: float, start: int, trials: int, max_rounds: int, seed: int, noise: Noise | None = None,
              items: int = 2, criterion: stats.Criterion | None = None, rule: Rule = CURRENT,
              futility: bool = False, history: int = 0, history_rounds: int = 0) -> Counts:
    """`trials` sequential comparisons of B (true ratio `effect`) against A, each starting with
    `start` rounds and stopping when decided or at `max_rounds`, in a family of `items` comparisons
    (or of claims, with a claim's `criterion`). With `futility`, also stopping at the first look where
    the scheduler would stop feeding the item (`stats.futile`), as `versus run` does. With `history`,
    each trial's pair first learns its spread from that many earlier sessions (`learned`), as a
    session learns it from the store's (history.py), each of `history_rounds` rounds (0: HISTORY_ROUNDS)."""
    noise = noise or Noise()
    rows = ratios(np.random.default_rng(seed), noise, trials, max_rounds, effect)
    earlier = np.random.default_rng(seed + 1)
    alpha = stats.bonferroni(rule.alpha, items)
    judged = criterion or stats.Comparison(rule.delta)
    counts = Counts()
    for row in rows:
        units = list(row)
        mine = learned(earlier, noise, rule, history, history_rounds or HISTORY_ROUNDS) if history and rule.history else rule
        decision = stats.sequential(units, judged, alpha, start=start, rule=mine)
        if futility:  # the looks up to the one that ended the trial, any of which may have stopped it first
            decision = until_futile(units[:decision.n], judged, alpha, start, mine, max_rounds) or decision
        depends = False
        if decision.decided and isinstance(judged, stats.Bound):  # a claim: judged again as the report does
            plain = stats.sequential(units[:decision.n], judged, alpha, start=start, rule=mine.replace(trims=((0, 0.0),)))
            depends = plain.verdict != decision.verdict
        counts.add(decision, effect, depends)
    return counts


HISTORY_ROUNDS = 20  # rounds of each earlier session `learned` draws: about a selftest trial's (12–40)


def learned(rng: np.random.Generator, noise: Noise, rule: Rule, sessions: int,
            rounds: int = HISTORY_ROUNDS) -> Rule:
    """The rule as it judges a pair that learned from `sessions` earlier sessions of `rounds` rounds under
    this noise, as history.py learns from a store: their per-round spread (`stats.pooled_spread`) and
    how far the ratio moved between them (`stats.pooled_between`), at each of the rule's trims; nothing
    where they hold fewer rounds than the rule's `history`."""
    rows = [list(row) for row in ratios(rng, noise, sessions, rounds)]
    return rule.replace(learned=stats.pooled_spread(rows, rule), shift=stats.pooled_between(rows, rule))


def until_futile(units: list[float], criterion: stats.Criterion, alpha: float, start: int, rule: Rule,
                  last: int) -> stats.Decision | None:
    """The decision at the first look where the item is futile, if one comes before its rounds end."""
    for n in rule.design(start, len(units)):
        decision = stats.sequential(units[:n], criterion, alpha, start=start, rule=rule)
        if decision.decided:
            return None
        if stats.futile(decision, last):
            return decision
    return None



@dataclass(frozen=True)
class Scenario:
    """A kind of noise, and the item judged under it: an A/A comparison, or a claim whose truth lies
    exactly on its bound (one bound, "≥"), where "does not hold" is the wrong verdict."""

    name: str
    about: str
    noise: Noise
    kind: str  # "a/a" or "bound"
    limit: bool = False  # a documented limit of the rule (docs/method.md), not a calibrated case
    # one arm's processes settle in a second state about as often as the trim cuts off: a sample with fewer
    # of them than it cuts is trimmed to one state, whose spread then decides; its wrong verdicts are
    # calibrated as the report gives them, flagged where the plain mean disagrees (`confidently_wrong`)
    trim_edge: bool = False

    def truth(self, rule: Rule = CURRENT) -> float:
        return 0.0 if self.kind == "a/a" else estimand(self.noise, rule) + math.log(BOUND_EFFECT)

    def counts(self, trials: int, seed: int, items: int = 2, rule: Rule = CURRENT, start: int = 3,
               rounds: int = 200, futility: bool = False, history: int = 0, history_rounds: int = 0) -> Counts:
        if self.kind == "a/a":
            return calibrate(1.0, start, trials, rounds, seed, self.noise, items, rule=rule, futility=futility,
                             history=history, history_rounds=history_rounds)
        truth = self.truth(rule)
        return calibrate(BOUND_EFFECT, start, trials, rounds, seed, self.noise, items,
                         stats.Bound(truth, None), rule=rule, futility=futility, history=history,
                         history_rounds=history_rounds)

    def wrong(self, counts: Counts) -> int:
        return counts.count("faster", "slower") if self.kind == "a/a" else counts.count("does not hold")

    def confidently_wrong(self, counts: Counts) -> int:
        """Wrong verdicts that the report gives without a flag: a claim's wrong verdict that the plain mean
        of its rounds gives too (an A/A comparison's are all unflagged: the report flags claims)."""
        return self.wrong(counts) - (0 if self.kind == "a/a" else counts.flagged("does not hold"))


BOUND_EFFECT = 1.05
_TWO = math.log(2.0)
_SPELLS_ONE_ARM = Noise(spell=math.log(1.8), spell_hit=0.5)
SCENARIOS = {s.name: s for s in (
    Scenario("base", "the model of this VM: process spread, drift, slow spells on both arms, heavy tails", Noise(), "a/a"),
    Scenario("spells one arm at a time", "slow spells of 1.8× that catch each arm of a round alone half the time",
             _SPELLS_ONE_ARM, "a/a"),
    Scenario("two states, both arms", "every process settles in one of two states 2× apart, half the time each",
             Noise(arms=(Arm(_TWO, 0.5), Arm(_TWO, 0.5))), "a/a"),
    Scenario("two states, sharp", "the same, each state 0.6% wide, as the selftest's two_states program measures: "
             "per-round ratios of nearly ½, 1 or 2", Noise(arms=(Arm(_TWO, 0.5, 0.006), Arm(_TWO, 0.5, 0.006))), "a/a"),
    Scenario("two states, unequal", "every process settles in a second state 2× away one time in five",
             Noise(arms=(Arm(_TWO, 0.2), Arm(_TWO, 0.2))), "a/a"),
    Scenario("two states, one in three", "every process settles in a second state 2× away one time in three",
             Noise(arms=(Arm(_TWO, 1 / 3), Arm(_TWO, 1 / 3))), "a/a"),
    Scenario("one arm noisier", "one arm's processes spread 6% more than the other's", Noise(arms=(Arm(), Arm(sd=0.06))),
             "a/a"),
    Scenario("bound: base", "the model of this VM, the claim's truth on its bound", Noise(), "bound"),
    Scenario("bound: two states", "one arm's processes settle in one of two states 2× apart (spread 3% within)",
             Noise(arms=(Arm(), Arm(_TWO, 0.5))), "bound"),
    Scenario("bound: two states, wide", "the same, with a spread of 10% within each state",
             Noise(arms=(Arm(), Arm(_TWO, 0.5, 0.1))), "bound"),
    Scenario("bound: second state one in five", "one arm's processes settle in a second state 2× away one time in five",
             Noise(arms=(Arm(), Arm(_TWO, 0.2))), "bound"),
    Scenario("bound: second state one in four", "one arm's processes settle in a second state 2× away one time in "
             "four: the trim's edge, where a sample's share of it decides whether the trimmed mean holds it",
             Noise(arms=(Arm(), Arm(_TWO, 0.25))), "bound", trim_edge=True),
    Scenario("bound: second state one in three", "one arm's processes settle in a second state 2× away one time in three",
             Noise(arms=(Arm(), Arm(_TWO, 1 / 3))), "bound", trim_edge=True),
    Scenario("bound: second state 3× away, one in four", "one arm's processes settle in a second state 3× away "
             "one time in four", Noise(arms=(Arm(), Arm(math.log(3.0), 0.25))), "bound", trim_edge=True),
    Scenario("bound: faster second state one in three", "one arm's processes settle in a second state 2× faster "
             "one time in three", Noise(arms=(Arm(), Arm(-_TWO, 1 / 3))), "bound"),
    Scenario("bound: one arm noisier", "one arm's processes spread 6% more than the other's",
             Noise(arms=(Arm(), Arm(sd=0.06))), "bound"),
    Scenario("bound: spells on one arm", "slow spells of 1.8× that meet one arm only, half the time",
             Noise(spell=math.log(1.8), arms=(Arm(spell=0.0), Arm(spell=0.5))), "bound"),
    Scenario("limit: regimes", "the ratio shifts by ±20% for about 20 rounds at a time",
             Noise(regime=0.2, regime_stay=0.95), "a/a", limit=True),
)}
