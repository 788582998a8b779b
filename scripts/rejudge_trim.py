"""A stored session judged with other trims of Yuen's trimmed mean: today's (10% below 20 rounds, 20%
from 20 on, 40% from 80 on, `stats.trim_at`), the same without the 40% (the rule of 2026-11-26 until
the afternoon), 30% from 40 and 40% from 80, 10% at every size (the rule before 2026-11-26) and 20% at
every size.
The same rounds each time (they were chosen while the session ran, by the rule it ran with).

For a `make run` database it counts the claims decided and the comparisons ≥ 2× from 1 decided, and
lists each claim and comparison whose verdict differs from today's rule; for a
`versus selftest` database (one session per trial) the A/A and planted verdicts of every trial, and
how many of the trials' process runs were caught by a slow spell (a value ≥ 1.3× the median of its
arm's process values over all trials: on this VM the slow state is 1.8× the fast one), and in how many
of the A/A pair's rounds a spell caught both arms, one or neither; then each trial whose planted 3% was
not called slower, with its rounds and interval.

With --model instead of a database: the noise model with this VM's slow spells (1.8× on one arm of a
round at a time, tests/test_calibration.py), 2,000 A/A and 2,000 planted-3% trials of up to 60 rounds
and of up to 200 (the selftest's and `make run`'s cap) under each trim.

Usage: .venv/bin/python scripts/rejudge_trim.py DB [SESSION] | --model
"""
from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
from _stored import db_and_session, run

from versus import selftest, stats
from versus.analyze import analyze
from versus.errors import VersusError
from versus.store import Store

RULES: dict[str, Callable[[int], float]] = {
    "10% below 20 rounds, 20% from 20, 40% from 80 (today)": stats.trim_at,
    "10% below 20 rounds, 20% from 20 (until 2026-11-26 afternoon)":
        lambda n: stats.TRIM_LONG if n >= stats.LONG else stats.TRIM,
    "10% below 20, 20% from 20, 30% from 40, 40% from 80":
        lambda n: 0.3 if stats.LONG * 2 <= n < stats.HEAVY else stats.trim_at(n),
    "10% at every size (before 2026-11-26)": lambda n: stats.TRIM,
    "20% at every size": lambda n: stats.TRIM_LONG,
}


@contextmanager
def trimming(rule: Callable[[int], float]) -> Iterator[None]:
    today = stats.trimmed_location

    def located(values: Sequence[float], trim: float | None = None) -> stats.Location:
        return today(values, rule(len(values)) if trim is None else trim)
    stats.trimmed_location = located
    try:
        yield
    finally:
        stats.trimmed_location = today


def run_counts(store: Store, session: int) -> tuple[str, dict[str, str]]:
    """The counts, and every claim's and comparison's verdict (to list the ones another trim changes)."""
    analysis = analyze(store, session)
    measured = [c for c in analysis.claims if c.verdict != "not measured"]
    decided = sum(c.verdict in ("holds", "does not hold") for c in measured)
    large = [c for c in analysis.comparisons if c.decision.interval is not None
             and (c.decision.interval.value >= 2 or c.decision.interval.value <= 0.5)]
    verdicts = {f"claim {c.experiment}/{c.claim.id}": c.verdict for c in measured}
    verdicts.update({f"comparison {c.numerator.id} ÷ {c.denominator.id if c.denominator else '-'}": c.verdict
                     for c in analysis.comparisons})
    return (f"claims decided {decided} of {len(measured)}; comparisons ≥ 2× from 1 decided "
            f"{sum(c.decision.decided for c in large)} of {len(large)}"), verdicts


def selftest_counts(store: Store, sessions: list[int]) -> str:
    aa: Counter[str] = Counter()
    planted: Counter[str] = Counter()
    for session in sessions:
        by_case = {c.numerator.id.case: c for c in analyze(store, session).comparisons}
        if "spin_again" in by_case and "spin_planted" in by_case:
            aa[by_case["spin_again"].verdict] += 1
            planted[by_case["spin_planted"].verdict] += 1
    return f"{sum(aa.values())} trials; A/A {dict(aa)}; planted 3% {dict(planted)}"


def planted_misses(store: Store, sessions: list[int]) -> str:
    """The trials (sessions) whose planted 3% was not called slower: rounds, estimate and interval."""
    lines = []
    for session in sessions:
        by_case = {c.numerator.id.case: c for c in analyze(store, session).comparisons}
        planted = by_case.get("spin_planted")
        if planted is not None and planted.verdict != "slower" and planted.decision.interval is not None:
            shown = planted.decision.interval
            lines.append(f"  session {session}: {planted.verdict} after {planted.decision.n} rounds, "
                         f"{shown.value:.4f}× [{shown.low:.4f}, {shown.high:.4f}]")
    return "planted 3% not called slower:\n" + "\n".join(lines) if lines else "planted 3% called slower in every trial"


def slow_share(store: Store, sessions: list[int]) -> str:
    values: dict[str, list[float]] = {}
    rounds: dict[str, dict[tuple[int, int], float]] = {}  # case → (session, round) → value
    for session in sessions:
        for arm in analyze(store, session).arms:
            for p in arm.processes:
                if p.status == "ok" and p.value:
                    values.setdefault(arm.id.case, []).append(p.value)
                    rounds.setdefault(arm.id.case, {})[(session, p.round)] = p.value
    slow, total = selftest.slow_spells(values)
    line = f"process runs at ≥ {selftest.SLOW}× their arm's median: {slow} of {total} ({slow / max(1, total):.0%})"
    return line + "\n" + _rounds_hit(values, rounds)


def _rounds_hit(values: dict[str, list[float]], rounds: dict[str, dict[tuple[int, int], float]]) -> str:
    """Of the rounds in which spin and spin_again both ran, how many had both, one or neither slow: a
    spell that catches both arms cancels in the round's ratio, one that catches one arm does not."""
    if "spin" not in rounds or "spin_again" not in rounds:
        return ""
    cut = {case: selftest.SLOW * float(np.median(values[case])) for case in ("spin", "spin_again")}
    hit: Counter[int] = Counter()
    for key in rounds["spin"].keys() & rounds["spin_again"].keys():
        hit[(rounds["spin"][key] >= cut["spin"]) + (rounds["spin_again"][key] >= cut["spin_again"])] += 1
    n = max(1, sum(hit.values()))
    share_a = sum(v >= cut["spin"] for v in rounds["spin"].values()) / max(1, len(rounds["spin"]))
    share_b = sum(v >= cut["spin_again"] for v in rounds["spin_again"].values()) / max(1, len(rounds["spin_again"]))
    independent = share_a * (1 - share_b) + share_b * (1 - share_a)
    return (f"rounds of spin and spin_again: both slow {hit[2] / n:.0%}, one slow {hit[1] / n:.0%}, neither "
            f"{hit[0] / n:.0%} of {sum(hit.values())} (one slow if spells struck processes independently: "
            f"{independent:.0%})")


def model() -> None:
    import math

    from versus import simulate
    noise = simulate.Noise(spell=math.log(1.8), spell_hit=0.5)
    for name, rule in RULES.items():
        for rounds in (60, 200):
            with trimming(rule):
                aa = simulate.calibrate(1.0, 3, 2000, rounds, seed=3, noise=noise)
                planted = simulate.calibrate(1.03, 3, 2000, rounds, seed=1003, noise=noise)
            print(f"{name}, up to {rounds} rounds: A/A faster or slower {aa.count('faster', 'slower') / 2000:.2%}; "
                  f"planted 3% slower {planted.rate('slower'):.1%}")


def main(argv: list[str]) -> int:
    if argv == ["--model"]:
        model()
        return 0
    parsed = db_and_session(argv, "rejudge_trim", __doc__ or "")
    if isinstance(parsed, int):
        return parsed
    db, session = parsed
    try:
        store = Store(db)
        sessions = [row[0] for row in store.db.execute("SELECT id FROM sessions ORDER BY id").fetchall()]
        selftest = all(c == "spin" or c.startswith("spin_") for (c,) in
                       store.db.execute("SELECT DISTINCT case_name FROM arms").fetchall())
        today: dict[str, str] | None = None
        for name, rule in RULES.items():
            with trimming(rule):
                if selftest:
                    print(f"{name}: {selftest_counts(store, sessions)}")
                    continue
                counts, verdicts = run_counts(store, session or sessions[-1])
            today = verdicts if today is None else today
            changed = [f"{key}: {today[key]} → {verdict}" for key, verdict in verdicts.items() if today.get(key) != verdict]
            print(f"{name}: {counts}; verdicts that differ from today's: {len(changed)}")
            for line in changed:
                print(f"  {line}")
        if selftest:
            print(slow_share(store, sessions))
            print(planted_misses(store, sessions))
    except VersusError as error:
        print(f"rejudge_trim: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(run(lambda: main(sys.argv[1:])))
