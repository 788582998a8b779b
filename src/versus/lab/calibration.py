"""`versus lab calibration`: the noise model's scenarios (`simulate.SCENARIOS`) under a rule, each
scenario's wrong verdicts with their Clopper–Pearson 95% interval against the item's α.

A/A scenarios: a comparison of an arm with itself called faster or slower. Bound scenarios: a claim
whose truth lies exactly on its bound (≥) called "does not hold". Each trial is one item in a family
of `items` (α/items each, as `tests/test_calibration.py` takes 2), from `start` rounds up to `rounds`,
seeded by the scenario's name as the test seeds it, so that `--trials 3000` prints the test's counts.
Scenarios marked "limit" are the rule's documented limits (docs/method.md), not calibrated cases; at
"the trim's edge" (a second state about as common as the trim cuts off) the wrong verdicts the report
gives unflagged are the calibrated ones.
"decided": the share of trials with any verdict but inconclusive (an A/A pair called the same, mostly).
"unflagged": the wrong verdicts a report gives without saying they depend on an analysis choice (a
claim's wrong verdict that the plain mean of the same rounds does not give is flagged; comparisons
are never flagged), with its own "≤ α".
`--futility`: each trial also stops where `versus run`'s scheduler would stop feeding it (`stats.futile`).
`--history N`: each trial's pair first learns its spread from N earlier sessions of 20 rounds (or
`--history-rounds`), as a session learns it from the store's earlier ones (history.py, `Rule.history`).
"""
from __future__ import annotations

import statistics

from .. import simulate, stats
from ..errors import UsageError
from ..rule import CURRENT, with_overrides


def seed_of(name: str) -> int:
    """The seed tests/test_calibration.py gives a scenario."""
    return sum(map(ord, name))


def calibration(trials: int, items: int, start: int, rounds: int, names: list[str], changes: list[str],
                futility: bool = False, history: int = 0, history_rounds: int = 0) -> str:
    if history < 0:
        raise UsageError(f"--history {history}: a number of earlier sessions, 0 or more", "e.g. --history 20")
    if history_rounds and (history_rounds < 2 or not history):
        raise UsageError(f"--history-rounds {history_rounds}: rounds of each earlier session, 2 or more, with --history",
                         "e.g. --history 10 --history-rounds 5")
    history_rounds = history_rounds or simulate.HISTORY_ROUNDS
    if trials < 1 or items < 1 or not 2 <= start <= rounds:
        raise UsageError("--trials and --items must be at least 1, and --start from 2 to --rounds",
                         "e.g. --trials 1000 --items 2 --start 3 --rounds 200")
    unknown = [n for n in names if n not in simulate.SCENARIOS]
    if unknown:
        raise UsageError(f"no scenario {', '.join(repr(n) for n in unknown)}",
                         "the scenarios are: " + "; ".join(simulate.SCENARIOS))
    rule = with_overrides(CURRENT, changes)
    alpha = stats.bonferroni(rule.alpha, items)
    lines = [f"{rule.describe()}", f"{trials} trials per scenario, each an item of a family of {items} (α = {alpha:.2%} "
             f"each), from {start} rounds up to {rounds}; wrong: A/A called faster or slower, a truth on its bound "
             "called \"does not hold\"" + ("; each trial also stopped where `versus run` stops feeding an item that no "
                                          "look within its rounds is expected to decide (futility)" if futility else "")
             + (f"; each trial's pair with the spread it learned from {history} earlier sessions of "
                f"{history_rounds} rounds" if history else ""),
             "scenario | kind | wrong | rate [95% interval] | ≤ α | unflagged | ≤ α | decided | median rounds of decisions"]
    for scenario in (simulate.SCENARIOS[n] for n in names) if names else simulate.SCENARIOS.values():
        counts = scenario.counts(trials, seed=seed_of(scenario.name), items=items, rule=rule, start=start, rounds=rounds,
                                  futility=futility, history=history, history_rounds=history_rounds)
        wrong = scenario.wrong(counts)
        low, high = stats.clopper_pearson(wrong, trials)
        unflagged = scenario.confidently_wrong(counts)
        verdicts = ["yes" if count / trials <= alpha else "NO" for count in (wrong, unflagged)]
        if scenario.limit:
            verdicts = [f"{v} (a limit)" for v in verdicts]
        elif scenario.trim_edge and verdicts[0] == "NO":
            verdicts[0] = "NO (the trim's edge: flagged)"
        median = f"{statistics.median(counts.rounds):.0f}" if counts.rounds else "–"
        lines.append(f"{scenario.name} | {scenario.kind} | {wrong} | {wrong / trials:.2%} [{low:.2%}, {high:.2%}] | "
                     f"{verdicts[0]} | {unflagged} ({unflagged / trials:.2%}) | {verdicts[1]} | "
                     f"{len(counts.rounds) / trials:.0%} | {median}")
    return "\n".join(lines)
