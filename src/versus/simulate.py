"""A seeded simulation of this project's VM noise, to calibrate the decision rule offline.

The model (`docs/method.md`, after the statistics review of 2026-11-23), on the log scale:
- each process of an arm is off by N(0, 1.5%) (JIT decisions, heap layout), and a few are far off
  (heavy tails: with probability `tail_rate` a further N(0, 30%));
- its median of 5 samples adds N(0, 0.5%)·1.25/√5;
- (a variant) slow spells within a process that catch some of its samples and not others, its value
  then the median or the minimum of its samples (`[method] value`);
- the machine drifts by a random walk of 2% per round, and enters slow spells of +10% (probability
  0.15 per round, kept with probability 0.6) that hit each arm of the round with probability
  `spell_hit` (1: both arms alike).

`trial_rounds` returns per-round log ratios B ÷ A; `calibrate` runs the rule of `stats.sequential`
(the one every report uses) over many trials and counts verdicts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import stats


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
    # Spells within a process (0: none, the model of 2026-11-23): each measured sample enters a spell of
    # `spell` with this probability and stays in it with `sample_spell_stay`, as this VM's spells switch
    # within 0.13 s; the process's value is then the `value` ("median" or "min") of its samples.
    sample_spell_enter: float = 0.0
    sample_spell_stay: float = 0.6
    value: str = "median"


def _process_noise(rng: np.random.Generator, noise: Noise, shape: tuple[int, ...]) -> np.ndarray:
    if noise.sample_spell_enter > 0:
        return _sampled_noise(rng, noise, shape)
    within = noise.sample_sd * 1.25 / math.sqrt(noise.samples)
    tails = (rng.random(shape) < noise.tail_rate) * rng.normal(0, noise.tail_sd, shape)
    return rng.normal(0, noise.process_sd, shape) + rng.normal(0, within, shape) + tails


def _sampled_noise(rng: np.random.Generator, noise: Noise, shape: tuple[int, ...]) -> np.ndarray:
    """Each process's samples drawn one by one, spells switching between them, then its value."""
    state = np.zeros(shape, dtype=bool)
    samples = np.empty(shape + (noise.samples,))
    for i in range(noise.samples):
        draw = rng.random(shape)
        state = np.where(state, draw < noise.sample_spell_stay, draw < noise.sample_spell_enter)
        samples[..., i] = rng.normal(0, noise.sample_sd, shape) + noise.spell * state
    value = samples.min(axis=-1) if noise.value == "min" else np.median(samples, axis=-1)
    tails = (rng.random(shape) < noise.tail_rate) * rng.normal(0, noise.tail_sd, shape)
    return rng.normal(0, noise.process_sd, shape) + value + tails


def _spells(rng: np.random.Generator, noise: Noise, trials: int, rounds: int) -> np.ndarray:
    state = np.zeros(trials, dtype=bool)
    spells = np.zeros((trials, rounds), dtype=bool)
    for round_ in range(rounds):
        draw = rng.random(trials)
        state = np.where(state, draw < noise.spell_stay, draw < noise.spell_enter)
        spells[:, round_] = state
    return spells


def arm_rounds(rng: np.random.Generator, noise: Noise, trials: int, rounds: int, arms: int) -> np.ndarray:
    """Log values of `arms` arms measured in the same rounds: shape (arms, trials, rounds)."""
    drift = np.cumsum(rng.normal(0, noise.drift_sd, (trials, rounds)), axis=1)
    spells = _spells(rng, noise, trials, rounds)
    values = []
    for _ in range(arms):
        hit = spells & (rng.random((trials, rounds)) < noise.spell_hit)
        values.append(drift + noise.spell * hit + _process_noise(rng, noise, (trials, rounds)))
    return np.stack(values)


def model_spread(noise: Noise | None = None, rounds: int = 40, trials: int = 500, seed: int = 0) -> float:
    """The per-round spread of an A/A log ratio under the model, as the rule sees it (the unit SD of
    Yuen's trimmed mean, `stats.trimmed_location`), median over trials of `rounds` rounds."""
    a, b = arm_rounds(np.random.default_rng(seed), noise or Noise(), trials, rounds, 2)
    return float(np.median([stats.trimmed_location(list(row)).unit_sd for row in b - a]))


@dataclass
class Counts:
    """Verdicts of many trials of one comparison, and the rounds each decision took."""

    trials: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    covered: int = 0  # trials whose final interval contains the true ratio
    rounds: list[int] = field(default_factory=list)  # of decided trials

    def rate(self, *verdicts: str) -> float:
        return sum(self.verdicts.get(v, 0) for v in verdicts) / max(1, self.trials)

    def count(self, *verdicts: str) -> int:
        return sum(self.verdicts.get(v, 0) for v in verdicts)


def calibrate(effect: float, start: int, trials: int, max_rounds: int, seed: int, noise: Noise | None = None,
              items: int = 2, rule: stats.Rule | None = None) -> Counts:
    """`trials` sequential comparisons of B (true ratio `effect`) against A, each starting with
    `start` rounds and stopping when decided or at `max_rounds`, in a family of `items` comparisons
    (or of claims, with a claim's `rule`)."""
    rng = np.random.default_rng(seed)
    noise = noise or Noise()
    a, b = arm_rounds(rng, noise, trials, max_rounds, 2)
    ratios = b - a + math.log(effect)
    alpha = stats.bonferroni(stats.ALPHA, items)
    counts = Counts()
    for row in ratios:
        decision = stats.sequential(list(row), rule or stats.ComparisonRule(), alpha, start=start)
        counts.trials += 1
        counts.verdicts[decision.verdict] = counts.verdicts.get(decision.verdict, 0) + 1
        if decision.decided:
            counts.rounds.append(decision.n)
        shown = decision.interval
        if shown is not None and shown.low <= effect <= shown.high:
            counts.covered += 1
    return counts
