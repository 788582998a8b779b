"""`versus lab schedule DB [SESSION]`: what a run's process time was spent on. The first rounds
(before the scheduler chooses) against the sequential rounds; for each claim the process time of the
rounds in which both arms of one of its pairs ran, and its verdict; each arm's time in its first
rounds, in the rounds its decided claim pairs took and beyond them; and, where the session stored
them (schema 7), the scheduler's choices in order: the item, why (its rank), the rounds its decision
had and the look expected to decide it, its estimated cost and the budget left; and the process time
of the sequential rounds each kind of choice ran (a run counts for the latest choice of its leg
before it started).

A process serves every claim one of whose pairs ran whole in its round, so a claim's minutes overlap
where claims share pairs (with-redesign and its server twin): they say where rounds went, not a
partition of the process time.
"""
from __future__ import annotations

import bisect
import datetime
from collections import defaultdict
from dataclasses import dataclass

from ..analyze import Analysis, analyze
from ..record import load_session
from ..rule import Rule
from ..store import Chosen, StoredRun, Target
from ..verdict import Verdict
from .stored import initial_of, open_store, session_rule

RANKS = {0: "comparison ≥ 2×", 1: "decides its claim", 2: "other", 3: "on its threshold"}
SHOWN = 40  # choices listed per leg at most: the first and the last half of them


@dataclass(frozen=True)
class Spend:
    claim: str
    seconds: float  # process time of the sequential rounds in which one of its pairs ran whole
    rounds: int  # such pair-rounds
    verdict: Verdict


@dataclass(frozen=True)
class Spent:
    """One arm's process seconds, a partition of them: its first rounds, the rounds up to the most any
    decided claim pair of it took, and those beyond (claims left open, comparisons, riding along)."""

    arm: str
    rounds: int  # process runs of the arm
    needed: int  # rounds the most demanding decided claim pair of it took (0: none decided)
    first: float
    decided: float
    beyond: float


@dataclass(frozen=True)
class Kind:
    """The scheduler's choices of one rank, and the process time of the sequential rounds they ran."""

    rank: int
    choices: int
    seconds: float


@dataclass(frozen=True)
class Schedule:
    session: int
    rule: Rule
    first: float  # process seconds before the scheduler chose
    sequential: float  # process seconds after
    alone: float  # of those, in rounds where no claim pair ran whole (comparisons, a lone arm)
    spends: list[Spend]
    choices: str  # the trace as text ("" where the session has none)
    arms: tuple[Spent, ...] = ()  # every arm's, most beyond first
    kinds: tuple[Kind, ...] = ()  # by rank (none where the session stored no choices)


def schedule(path: Target, session: int | None, changes: list[str]) -> Schedule:
    store = open_store(path)
    stored = load_session(store, session)
    rule = session_rule(stored.plan, changes)
    analysis = analyze(store, stored.id, rule)
    initial = {arm.row_id: initial_of(stored.plan, arm.id.experiment, rule) for arm in analysis.arms}
    experiment_of = {arm.row_id: arm.id.experiment for arm in analysis.arms}
    runs = store.runs(stored.id)
    walls: dict[tuple[str, int], dict[int, float]] = defaultdict(dict)
    for run in runs:
        walls[(experiment_of[run.arm_id], run.round)][run.arm_id] = run.wall_ns / 1e9
    first = sum(r.wall_ns / 1e9 for r in runs if r.round < initial[r.arm_id])
    sequential = sum(r.wall_ns / 1e9 for r in runs if r.round >= initial[r.arm_id])
    served: set[tuple[int, int]] = set()  # (arm row, round) of processes some claim pair used
    spends = []
    for claim in analysis.claims:
        seconds, rounds = 0.0, 0
        for judged in claim.instances:
            arms = [a.row_id for a in (judged.numerator, judged.denominator) if a is not None]
            for (_, round_), ran in walls.items():
                if all(a in ran and round_ >= initial[a] for a in arms):
                    seconds += sum(ran[a] for a in arms)
                    rounds += 1
                    served.update((a, round_) for a in arms)
        if claim.instances:
            spends.append(Spend(f"{claim.experiment} {claim.claim.id}", seconds, rounds, claim.verdict))
    alone = sum(r.wall_ns / 1e9 for r in runs if r.round >= initial[r.arm_id] and (r.arm_id, r.round) not in served)
    spends.sort(key=lambda s: -s.seconds)
    choices = store.choices(stored.id)
    return Schedule(stored.id, rule, first, sequential, alone, spends, _choices(choices),
                    _spent(analysis, runs, initial), _kinds(choices, runs, initial))


def _kinds(choices: list[tuple[int, Chosen]], runs: list[StoredRun], initial: dict[int, int]) -> tuple[Kind, ...]:
    """Each rank's choices and the process seconds of the sequential runs that began after one of them
    and before the next choice of the same leg."""
    times: dict[int, list[float]] = defaultdict(list)
    ranks: dict[int, list[int]] = defaultdict(list)
    count: dict[int, int] = defaultdict(int)
    for leg, chosen in sorted(choices, key=lambda c: (c[0], c[1].at)):
        times[leg].append(chosen.at)
        ranks[leg].append(chosen.rank)
        count[chosen.rank] += 1
    seconds: dict[int, float] = defaultdict(float)
    only = next(iter(times)) if len(times) == 1 else None  # a run stored without its leg (0) is this leg's
    for run in runs:
        chose = run.leg if run.leg in times else only
        if run.round < initial[run.arm_id] or chose is None:
            continue
        at = bisect.bisect_right(times[chose], run.started) - 1
        if at >= 0:
            seconds[ranks[chose][at]] += run.wall_ns / 1e9
    return tuple(Kind(rank, count[rank], seconds[rank]) for rank in sorted(count))


def _spent(analysis: Analysis, runs: list[StoredRun], initial: dict[int, int]) -> tuple[Spent, ...]:
    needed: dict[int, int] = {}
    for claim in analysis.claims:
        for judged in claim.instances:
            if judged.decision.decided:
                for arm in (judged.numerator, judged.denominator):
                    if arm is not None:
                        needed[arm.row_id] = max(needed.get(arm.row_id, 0), judged.decision.n)
    by_arm: dict[int, list[StoredRun]] = defaultdict(list)
    for run in runs:
        by_arm[run.arm_id].append(run)
    out = []
    for arm in analysis.arms:
        own = by_arm[arm.row_id]
        start, need = initial[arm.row_id], needed.get(arm.row_id, 0)
        out.append(Spent(arm.key, len(own), need,
                         sum(r.wall_ns for r in own if r.round < start) / 1e9,
                         sum(r.wall_ns for r in own if start <= r.round < need) / 1e9,
                         sum(r.wall_ns for r in own if r.round >= max(need, start)) / 1e9))
    return tuple(sorted(out, key=lambda s: -s.beyond))


def _choices(choices: list[tuple[int, Chosen]]) -> str:
    if not choices:
        return ""
    lines = []
    count: dict[int, int] = defaultdict(int)
    for leg, _ in choices:
        count[leg] += 1
    seen: dict[int, int] = defaultdict(int)
    for leg, chosen in choices:
        seen[leg] += 1
        # the first and the last choices of each leg: how it began, and what the budget went to at the end
        if SHOWN // 2 < seen[leg] <= count[leg] - SHOWN // 2:
            if seen[leg] == SHOWN // 2 + 1:
                lines.append(f"leg {leg}: … {count[leg] - 2 * (SHOWN // 2)} choices not listed ({count[leg]} in all) …")
            continue
        at = datetime.datetime.fromtimestamp(chosen.at, datetime.UTC).strftime("%H:%M:%S")
        target = "–" if chosen.target is None else str(chosen.target)
        ride = f" (+{len(chosen.partners)} riding along)" if chosen.partners else ""
        lines.append(f"leg {leg} {at} | {chosen.budget_left / 60:5.1f} min left | {chosen.open_items:3d} open | "
                     f"{RANKS.get(chosen.rank, str(chosen.rank))} | {chosen.item} | {chosen.have} → {target} rounds, "
                     f"{chosen.rounds} now, about {chosen.seconds:.0f} s{ride}")
    return "\n".join(lines)


def render(result: Schedule) -> str:
    total = result.first + result.sequential
    lines = [f"session {result.session}, {result.rule.describe()}",
             f"process time {total / 60:.1f} min: first rounds {result.first / 60:.1f} min, sequential rounds "
             f"{result.sequential / 60:.1f} min (of which {result.alone / 60:.1f} min in rounds where no claim "
             "pair ran whole)", "",
             "claim | minutes of sequential rounds its pairs ran in | pair-rounds | verdict"]
    lines += [f"{s.claim} | {s.seconds / 60:.2f} | {s.rounds} | {s.verdict}" for s in result.spends]
    if not result.spends:
        lines[-1] = "no claim was measured in this session: no claim's minutes to show"
    decided = sum(s.seconds for s in result.spends if s.verdict.decided)
    spent = sum(s.seconds for s in result.spends)
    if spent:
        lines.append(f"{decided / spent:.0%} of those minutes went to claims the run decided "
                     "(minutes overlap where claims share a pair)")
    total = sum(s.first + s.decided + s.beyond for s in result.arms)
    if total and result.spends:  # a session without claims has no decided claim pair to split at
        extra = sum(s.beyond for s in result.arms)
        lines += ["", f"each arm's process time: its first rounds {sum(s.first for s in result.arms) / 60:.1f} min, "
                  f"the rounds up to the most its decided claim pairs took {sum(s.decided for s in result.arms) / 60:.1f} "
                  f"min, the rounds beyond those (claims left open, comparisons, arms riding along) {extra / 60:.1f} min "
                  f"({extra / total:.0%}); the most beyond:"]
        lines += [f"  {s.arm}: {s.beyond / 60:.2f} min, {s.rounds} rounds run, "
                  + (f"its decided claim pairs took {s.needed}" if s.needed else "no claim pair of it decided")
                  for s in result.arms[:5] if s.beyond > 0]
    lines += ["", "the scheduler's choices, in order:" if result.choices else
              "the scheduler's choices: not stored in this session (stored from schema 7 on)"]
    if result.kinds:
        lines.append("by kind (the process time of the sequential rounds each ran): " + "; ".join(
            f"{RANKS.get(k.rank, str(k.rank))}: {k.choices} choices, {k.seconds / 60:.1f} min" for k in result.kinds))
    if result.choices:
        lines.append(result.choices)
    return "\n".join(lines)
