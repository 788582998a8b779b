"""How long deciding the claims would take on this machine, from the rounds of several stored
`make run`s pooled: could any scheduler decide 90% of the claims within `make run`'s budget?

For each claim pair (the two arms of one instance of a claim) the per-round log ratios of every given
session are pooled. Their 20%-trimmed mean is taken as the pair's truth, and the winsorized spread of
each session's rounds about that session's own mean as its per-round spread (a shift between sessions
is not noise a session sees; the pooled spread, which includes it, is printed too).
`stats.rounds_needed` then gives the look at which the design (its looks, its α spending, the pair's
share of its experiment's α) decides the pair if estimate and spread are what the pooled rounds say:
the median case, so half the time it takes longer.

A claim does not hold as soon as one pair does not, so a claim with a pair whose pooled estimate lies
outside its bound needs that pair's rounds (the cheapest such pair); otherwise it needs every pair's.
The claims are then taken in the order a scheduler that knew all this would take them, the cheapest
next first, each adding the rounds its arms need beyond what they ran already (every arm's first
`processes` rounds, which every comparison needs, and the rounds earlier claims took of them; a
round of an arm costs the median wall time of its processes). The cumulative process minutes at 90%
of the claims, plus the first rounds of every arm, is the least process time `make run` would need
to decide 90% of them in the median case.

With `--alpha-times F` each pair's α is F times its share, and with `--uncorrected` every pair is
tested alone at 5%: what-if figures, to see how much of the cost is the correction for multiplicity
(the second no longer bounds an experiment's error rate).

Usage: .venv/bin/python scripts/claim_feasibility.py [--alpha-times F | --uncorrected] DB [DB ...]
       (session 1 of each, as make run stores)
"""
from __future__ import annotations

import math
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from _stored import run

from versus import judge, stats
from versus.analyze import ArmResult, Judged, analyze
from versus.errors import VersusError
from versus.items import Item, items_of
from versus.rule import CURRENT
from versus.store import Store

SHARE = 0.9  # the target: 90% of the claims decided


@dataclass
class Pair:
    item: Item
    label: str
    units: list[float] = field(default_factory=list)
    residuals: list[float] = field(default_factory=list)  # each session's units less their session's mean
    arms: tuple[str, ...] = ()
    alpha: float = 0.0
    pairs: int = 1
    start: int = CURRENT.first_look


def _values(arm: ArmResult, metric: str) -> dict[int, float]:
    """Round → value of each successful process at the arm's last warmup (rounds before a raise are left
    out, as the verdicts leave them out)."""
    ok = [p for p in arm.processes if p.status == "ok"]
    last = ok[-1].warmup if ok else 0
    out = {}
    for p in ok:
        value = p.metrics.get(metric) if metric else p.value
        if p.warmup == last and value and value > 0:
            out[p.round] = value
    return out


def _units(judged: Judged) -> list[float]:
    item = judged.item
    top = _values(judged.numerator, item.metric)
    if judged.denominator is None:
        return [math.log(v) for v in top.values()]
    bottom = _values(judged.denominator, item.metric)
    return [math.log(top[r]) - math.log(bottom[r]) for r in sorted(set(top) & set(bottom))]


def _residuals(units: list[float]) -> list[float]:
    """The units less their mean, scaled by √(n/(n−1)) so that their spread estimates the per-round SD
    within a session (a session's own mean takes one degree of freedom out of its few rounds)."""
    if len(units) < 2:
        return []
    mean = statistics.fmean(units)
    scale = math.sqrt(len(units) / (len(units) - 1))
    return [(u - mean) * scale for u in units]


def _arm_walls(judged: Judged, walls: dict[str, list[float]]) -> None:
    for arm in (judged.numerator, judged.denominator):
        if arm is not None:
            walls.setdefault(arm.key, []).extend(p.wall_ns / 1e9 for p in arm.processes)


def _collect(paths: list[Path]) -> tuple[dict[tuple[str, str, str], Pair], dict[str, list[float]], float, float]:
    pairs: dict[tuple[str, str, str], Pair] = {}
    walls: dict[str, list[float]] = {}  # arm → wall seconds of its processes, every session
    initial, spent = [], []
    for path in paths:
        analysis = analyze(Store(path), 1)
        plan = analysis.session.get("plan") or {}
        methods = plan.get("methods") or {}
        spent.append(sum(p.wall_ns / 1e9 for a in analysis.arms for p in a.processes))
        shares = judge.Shares.of(items_of(analysis.arms, analysis.experiments), CURRENT)
        initial.append(sum(int(methods.get(a.id.experiment, {}).get("processes", CURRENT.first_look))
                           * statistics.median(p.wall_ns / 1e9 for p in a.processes)
                           for a in analysis.arms if a.processes))
        for claim in analysis.claims:
            for judged in claim.instances:
                item = judged.item
                denominator = judged.denominator.key if judged.denominator else "-"
                key = (f"{item.experiment} {claim.claim.id}", judged.numerator.key, denominator)
                pair = pairs.setdefault(key, Pair(item, f"{judged.numerator.key} ÷ {denominator}"))
                units = _units(judged)
                pair.units += units
                pair.residuals += _residuals(units)
                pair.arms = (judged.numerator.key, judged.denominator.key) if judged.denominator else (judged.numerator.key,)
                _arm_walls(judged, walls)
                pair.alpha, pair.pairs = shares.alpha_of(item), shares.pairs(item)
                pair.start = int(methods.get(item.experiment, {}).get("processes", CURRENT.first_look))
    return pairs, walls, statistics.median(initial), statistics.median(spent)


@dataclass
class Cost:
    rounds: int | None  # None: on its bound (no number of rounds is expected to decide)
    estimate: float
    spread: float  # per round, within a session
    pooled: float  # per round, the sessions' rounds pooled (differences between sessions included)
    outside: bool


def _cost(pair: Pair, alpha_times: float | None) -> Cost | None:
    """alpha_times: each pair's α that many times its share; None: every pair alone at stats.ALPHA, with
    no correction for multiplicity (what-if figures only: that rule no longer bounds an experiment's
    error rate)."""
    if len(pair.units) < 3:
        return None
    location = stats.trimmed_location(pair.units, 0.2)
    spread = stats.trimmed_location(pair.residuals, 0.2).unit_sd if len(pair.residuals) > 2 else 0.0
    rule = judge.criterion_of(pair.item, "log", pair.pairs if alpha_times is not None else 1)
    alpha = pair.alpha * alpha_times if alpha_times is not None else CURRENT.alpha
    # the same per-round spread, seen at 2 rounds, so that rounds_needed starts from the first look
    projected = stats.Location(location.center, spread / math.sqrt(2), 1.0, 2)
    rounds = stats.rounds_needed(projected, rule, alpha, pair.start, rule=CURRENT)
    assert isinstance(rule, stats.Bound)
    outside = rule.verdict(location.center, location.center) == "does not hold"
    return Cost(rounds, math.exp(location.center), spread, location.unit_sd, outside)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    alpha_times: float | None = 1.0
    if argv[0] == "--uncorrected":
        alpha_times, argv = None, argv[1:]
    elif argv[0] == "--alpha-times":
        try:
            alpha_times, argv = float(argv[1]), argv[2:]
        except (IndexError, ValueError):
            print("claim_feasibility.py: --alpha-times takes a number (2 doubles each pair's α), then the databases",
                  file=sys.stderr)
            return 2
        if not alpha_times > 0:
            print("claim_feasibility.py: --alpha-times must be positive", file=sys.stderr)
            return 2
    paths = [Path(a) for a in argv]
    if not paths:
        print("claim_feasibility.py: give one or more make run databases (versus-results/versus.db)", file=sys.stderr)
        return 2
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"claim_feasibility.py: no database at {', '.join(missing)}; give make run's versus-results/versus.db",
              file=sys.stderr)
        return 2
    try:
        pairs, walls, initial, spent = _collect(paths)
    except VersusError as error:
        print(f"claim_feasibility.py: {error}", file=sys.stderr)
        return 1
    claims: dict[str, list[tuple[Pair, Cost]]] = {}
    for (claim, _, _), pair in pairs.items():
        cost = _cost(pair, alpha_times)
        if cost is not None:
            claims.setdefault(claim, []).append((pair, cost))
    if not claims:
        print("claim_feasibility.py: no claim in these sessions has 3 rounds; give the database of a make run "
              "(versus-results/versus.db), not a selftest's", file=sys.stderr)
        return 2
    print(f"{len(paths)} sessions pooled; claim | pair | pooled rounds | estimate | "
          "per-round SD within a session | pooled | rounds to decide")
    for claim, members in claims.items():
        for pair, cost in members:
            rounds = cost.rounds if cost.rounds is not None else "on its bound"
            print(f"{claim} | {pair.label} | {len(pair.units)} | {cost.estimate:.3g} | {cost.spread:.3f} | "
                  f"{cost.pooled:.3f} | {rounds}")
    wall = {arm: statistics.median(seconds) for arm, seconds in walls.items() if seconds}
    print("\nclaims, cheapest next first: process minutes each adds beyond every arm's first rounds (arms shared")
    print("with claims already counted run once), and the cumulative minutes")
    target = math.ceil(SHARE * len(claims))
    running, at_target = 0.0, math.inf
    for rank, (claim, added) in enumerate(_greedy(claims, wall), 1):
        running += added
        mark = "  ← 90%" if rank == target else ""
        at_target = running if rank == target else at_target
        print(f"{rank:3d} {claim}: {added / 60:.1f} min, cumulative {running / 60:.1f} min{mark}")
    print(f"\nevery arm's first rounds (the experiments' own processes): {initial / 60:.1f} min of process time "
          f"(median over the sessions)")
    print(f"{target} of {len(claims)} claims decided in the median case: {(initial + at_target) / 60:.1f} min of "
          f"process time; the sessions ran {spent / 60:.1f} min of processes (median)")
    return 0


def _needs(members: list[tuple[Pair, Cost]]) -> dict[str, float] | None:
    """Arm → rounds the claim needs of it: the cheapest pair outside its bound alone (it does not hold as
    soon as one pair does not), else every pair (it holds when all do); None if no number of rounds would do."""
    outside = [(p, c) for p, c in members if c.outside and c.rounds is not None]
    chosen = [min(outside, key=lambda pc: pc[1].rounds or 0)] if outside else members
    needs: dict[str, float] = {}
    for pair, cost in chosen:
        if cost.rounds is None:
            return None
        for arm in pair.arms:
            needs[arm] = max(needs.get(arm, 0.0), float(cost.rounds))
    return needs


def _greedy(claims: dict[str, list[tuple[Pair, Cost]]], wall: dict[str, float]) -> Iterator[tuple[str, float]]:
    """Claims in the order a perfect scheduler would decide them (the cheapest next), with the seconds each
    adds: rounds beyond what the arms already ran (every arm's first rounds, and the rounds earlier claims
    took of it)."""
    ran = {arm: float(pair.start) for members in claims.values() for pair, _ in members for arm in pair.arms}
    needs = {claim: _needs(members) for claim, members in claims.items()}

    def added(need: dict[str, float] | None) -> float:
        if need is None:
            return math.inf
        return sum(max(0.0, rounds - ran[arm]) * wall.get(arm, 0.0) for arm, rounds in need.items())
    left = set(claims)
    while left:
        claim = min(sorted(left), key=lambda c: added(needs[c]))
        cost = added(needs[claim])
        left.discard(claim)
        for arm, rounds in (needs[claim] or {}).items():
            ran[arm] = max(ran[arm], rounds)
        yield claim, cost


if __name__ == "__main__":
    sys.exit(run(lambda: main(sys.argv[1:])))
