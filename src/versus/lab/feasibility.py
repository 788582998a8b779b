"""`versus lab feasibility DB…`: how long deciding the claims would take on this machine, from the
rounds of several stored `make run`s pooled: could any scheduler decide 90% of the claims within
`make run`'s budget?

For each claim pair (the two arms of one instance of a claim) the rounds the rule analyses of every
given session are pooled (`stored.pair_rounds`). Their 20%-trimmed mean is taken as the pair's truth,
and the winsorized spread of each session's rounds about that session's own mean as its per-round
spread (a shift between sessions is not noise a session sees; the pooled spread, which includes it,
is printed too). `stats.rounds_needed` then gives the look at which
the rule's sequential design (its looks, its α spending, the pair's share of its experiment's α)
decides the pair if estimate and spread are what the pooled rounds say: the median case, so half the
time it takes longer. The rule is the first session's own (`--rule KEY=VALUE` changes it, `--rule
today` is today's). The claims are then taken cheapest-first (`claimset`), each adding the rounds
its arms need beyond what they ran already (every arm's first `processes` rounds, and the rounds
earlier claims took of them; a round of an arm costs the median wall time of its processes).

With `--alpha-times F` each pair's α is F times its share, and with `--uncorrected` every pair is
tested alone at the rule's α: what-if figures, to see how much of the cost is the correction for
multiplicity (the second no longer bounds an experiment's error rate).
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from .. import judge, stats
from ..analyze import analyze
from ..errors import UsageError
from ..items import Item, items_of
from ..record import load_session
from ..rule import CURRENT, Rule, with_overrides
from ..store import Target
from ..verdict import Verdict
from . import claimset
from .stored import initial_of, open_store, pair_rounds, start_of

SHARE = 0.9  # the target: 90% of the claims decided
# The pooled truth and spread: Wilcox's usual 20% trim whatever the rule's (its trims are those of its
# test at each look; the pooled rounds are many, and the figures of docs/results.md were taken so).
TRUTH_TRIM = 0.2


@dataclass
class Pooled:
    item: Item
    label: str
    arms: tuple[str, ...]
    units: list[float] = field(default_factory=list)
    residuals: list[float] = field(default_factory=list)  # each session's units less their session's mean
    alpha: float = 0.0
    pairs: int = 1
    start: int = CURRENT.first_look
    scale: str = "log"


@dataclass(frozen=True)
class Cost:
    rounds: int | None  # None: on its bound (no number of rounds is expected to decide)
    estimate: float
    spread: float  # per round, within a session
    pooled: float  # per round, the sessions' rounds pooled (differences between sessions included)
    outside: bool


def residuals(units: list[float]) -> list[float]:
    """The units less their mean, scaled by √(n/(n−1)) so that their spread estimates the per-round SD
    within a session (a session's own mean takes one degree of freedom out of its few rounds)."""
    if len(units) < 2:
        return []
    mean = statistics.fmean(units)
    scale = math.sqrt(len(units) / (len(units) - 1))
    return [(u - mean) * scale for u in units]


def collect(paths: list[Target], rule: Rule) -> tuple[dict[tuple[str, str], Pooled], dict[str, list[float]], float, float]:
    """Claim pairs pooled over the sessions (the latest of each database), each arm's wall seconds, and
    the median over sessions of the first rounds' process time and of all process time."""
    pooled: dict[tuple[str, str], Pooled] = {}
    walls: dict[str, list[float]] = {}
    initial, spent = [], []
    for path in paths:
        analysis = analyze(open_store(path), None, rule)
        plan = analysis.session.plan
        spent.append(sum(p.wall_ns / 1e9 for a in analysis.arms for p in a.processes))
        initial.append(sum(initial_of(plan, a.id.experiment, rule) * statistics.median(p.wall_ns / 1e9 for p in a.processes)
                           for a in analysis.arms if a.processes))
        shares = judge.Shares.of(items_of(analysis.arms, analysis.experiments), rule)
        for claim in analysis.claims:
            for judged in claim.instances:
                item = judged.item
                arms = tuple(a.key for a in (judged.numerator, judged.denominator) if a is not None)
                key = (f"{item.experiment} {claim.claim.id}", " ÷ ".join(arms))
                entry = pooled.setdefault(key, Pooled(item, key[1], arms))
                start = start_of(plan, item.experiment, rule)
                found = pair_rounds(judged, start, rule)
                if found is not None:
                    entry.units += found.units
                    entry.residuals += residuals(list(found.units))
                    entry.scale = found.scale
                for arm in (judged.numerator, judged.denominator):
                    if arm is not None:
                        walls.setdefault(arm.key, []).extend(p.wall_ns / 1e9 for p in arm.processes)
                entry.alpha, entry.pairs, entry.start = shares.alpha_of(item), shares.pairs(item), start
    return pooled, walls, statistics.median(initial) if initial else 0.0, statistics.median(spent) if spent else 0.0


def cost(pair: Pooled, rule: Rule, alpha_times: float | None) -> Cost | None:
    """alpha_times: each pair's α that many times its share; None: every pair alone at the rule's α, with
    no correction for multiplicity (what-if figures only: that rule no longer bounds an experiment's
    error rate)."""
    if len(pair.units) < rule.first_look:
        return None
    location = stats.trimmed_location(pair.units, TRUTH_TRIM)
    spread = stats.trimmed_location(pair.residuals, TRUTH_TRIM).unit_sd if len(pair.residuals) > 2 else 0.0
    criterion = judge.criterion_of(pair.item, pair.scale, pair.pairs if alpha_times is not None else 1, rule.delta)
    alpha = pair.alpha * alpha_times if alpha_times is not None else rule.alpha
    # the same per-round spread, seen at 2 rounds, so that rounds_needed starts from the first look
    projected = stats.Location(location.center, spread / math.sqrt(2), 1.0, 2)
    rounds = stats.rounds_needed(projected, criterion, alpha, pair.start, rule=rule, scale=pair.scale)
    outside = criterion.verdict(location.center, location.center) == Verdict.DOES_NOT_HOLD
    estimate = math.exp(location.center) if pair.scale == "log" else location.center
    return Cost(rounds, estimate, spread, location.unit_sd, outside)


def feasibility(paths: list[Target], changes: list[str], alpha_times: float | None) -> str:
    if alpha_times is not None and not (alpha_times > 0 and math.isfinite(alpha_times)):
        raise UsageError(f"--alpha-times {alpha_times:g} must be a positive number", "2 doubles each pair's α")
    if not paths:
        raise UsageError("no database given", "give the versus.db of one or more make runs")
    for path in paths:  # every database is there before any is analysed
        open_store(path)
    # the rule the sessions were judged by (the first one's: a legacy session's own), or another with --rule
    rule = with_overrides(load_session(open_store(paths[0])).plan.rule, changes)
    pooled, walls, initial, spent = collect(paths, rule)
    claims: dict[str, list[tuple[Pooled, Cost]]] = {}
    for (claim, _), pair in pooled.items():
        found = cost(pair, rule, alpha_times)
        if found is not None:
            claims.setdefault(claim, []).append((pair, found))
    if not claims:
        raise UsageError(f"no claim in these sessions has {rule.first_look} rounds",
                         "give the databases of make runs (versus-results/versus.db), not a selftest's")
    lines = [f"{len(paths)} sessions pooled, {rule.describe()}",
             "claim | pair | pooled rounds | estimate | per-round SD within a session | pooled | rounds to decide"]
    for claim, members in claims.items():
        for pair, found in members:
            rounds = found.rounds if found.rounds is not None else "on its bound"
            lines.append(f"{claim} | {pair.label} | {len(pair.units)} | {found.estimate:.3g} | {found.spread:.3f} | "
                         f"{found.pooled:.3f} | {rounds}")
    wall = {arm: statistics.median(seconds) for arm, seconds in walls.items() if seconds}
    lines += ["", "claims, cheapest next first: process minutes each adds beyond every arm's first rounds (arms shared",
              "with claims already counted run once), and the cumulative minutes"]
    needs = {claim: [claimset.Need(p.arms, c.rounds, c.outside) for p, c in members] for claim, members in claims.items()}
    ran = {arm: float(p.start) for members in claims.values() for p, _ in members for arm in p.arms}
    target = math.ceil(SHARE * len(claims))
    running, at_target = 0.0, math.inf
    for rank, (claim, added) in enumerate(claimset.cheapest_first(needs, ran, wall), 1):
        running += added
        mark = "  ← 90%" if rank == target else ""
        at_target = running if rank == target else at_target
        lines.append(f"{rank:3d} {claim}: {added / 60:.1f} min, cumulative {running / 60:.1f} min{mark}")
    lines += ["", f"every arm's first rounds (the experiments' own processes): {initial / 60:.1f} min of process time "
              "(median over the sessions)",
              f"{target} of {len(claims)} claims decided in the median case: {(initial + at_target) / 60:.1f} min of "
              f"process time; the sessions ran {spent / 60:.1f} min of processes (median)"]
    return "\n".join(lines)
