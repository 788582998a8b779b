"""Claims taken cheapest-first within a budget of process time, as a scheduler that knew every pair's
cost would take them (`versus lab oracle`, `versus lab feasibility`).

A claim does not hold as soon as one of its pairs does not, so a claim with a pair whose estimate lies
outside its bound needs only that pair's rounds (the cheapest such pair); otherwise it holds only if
every pair holds, and needs every pair's rounds. Arms shared between pairs (and between claims) run
once: a round of an arm serves every pair it is in. What the run's design spends before it chooses
(`ran`: every arm's first round with a budget) is run anyway and counts for all.
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Need:
    """What deciding one pair takes: rounds of each of its arms (None: no number of rounds decides)."""

    arms: tuple[str, ...]
    rounds: int | None
    outside: bool  # its estimate lies outside the claim's bound: decided, the claim does not hold


def needs(pairs: Sequence[Need], ran: Mapping[str, float], seconds: Mapping[str, float]) -> dict[str, float] | None:
    """Arm → rounds the claim needs of it, given the rounds its arms have run (`ran`); None where no
    number of rounds decides it."""
    outside = [p for p in pairs if p.outside and p.rounds is not None]
    if outside:
        cheapest = min(outside, key=lambda p: added({a: float(p.rounds or 0) for a in p.arms}, ran, seconds))
        chosen: Sequence[Need] = [cheapest]
    else:
        chosen = pairs
    out: dict[str, float] = {}
    for pair in chosen:
        if pair.rounds is None:
            return None
        for arm in pair.arms:
            out[arm] = max(out.get(arm, 0.0), float(pair.rounds))
    return out


def added(need: Mapping[str, float] | None, ran: Mapping[str, float], seconds: Mapping[str, float]) -> float:
    """Process seconds that `need` adds beyond the rounds its arms ran already."""
    if need is None:
        return math.inf
    return sum(max(0.0, rounds - ran.get(arm, 0.0)) * seconds.get(arm, 0.0) for arm, rounds in need.items())


def cheapest_first(claims: Mapping[str, Sequence[Need]], ran: Mapping[str, float],
                   seconds: Mapping[str, float]) -> Iterator[tuple[str, float]]:
    """Every claim, in the order a scheduler that knew each pair's cost would decide them (the one that
    adds the least process time next), with the seconds it adds; a claim no number of rounds decides
    comes last, at infinite cost. Ties go by the claim's name, so the order is reproducible."""
    done = dict(ran)
    left = set(claims)
    while left:
        costs = {claim: added(needs(claims[claim], done, seconds), done, seconds) for claim in left}
        claim = min(sorted(left), key=lambda c: costs[c])
        left.discard(claim)
        need = needs(claims[claim], done, seconds)
        for arm, rounds in (need or {}).items():
            done[arm] = max(done.get(arm, 0.0), rounds)
        yield claim, costs[claim]
