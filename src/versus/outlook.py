"""What a planned run can hope to decide, from the database's history: `versus run --dry-run`'s
claims that earlier rounds say no budget of this size settles.

The scheduler stops feeding an item that cannot be decided in the budget left, or (from 10 rounds on)
by any look within its cap of rounds (`stats.futile`; non-binding futility: it never changes a verdict,
so it cannot raise an error rate); this says so before the run starts, from the latest stored
session that measured the same claims, judged by today's rule.
"""
from __future__ import annotations

from .analyze import analyze
from .errors import VersusError
from .rule import CURRENT
from .store import Store


def beyond_budget(store: Store, experiments: list[str], budget: float) -> list[str]:
    """Lines for the claims of `experiments` that the latest stored session of each experiment says
    need more time than `budget` seconds (or that sit on their bound), in the words of the report."""
    latest: dict[str, int] = {}
    for row in store.sessions():
        for name in row.experiments.split(","):
            if name in experiments and row.status in ("complete", "interrupted"):
                latest[name] = row.id
    lines: list[str] = []
    for session_id in sorted(set(latest.values())):
        try:
            analysis = analyze(store, session_id, CURRENT.replace(sequential=True))
        except VersusError:
            continue  # a session that cannot be judged here says nothing of the next run
        for claim in analysis.claims:
            if claim.experiment not in experiments or latest.get(claim.experiment) != session_id:
                continue
            if claim.verdict.decided or not claim.instances:
                continue
            needs = [j for j in claim.instances if not j.decision.decided]
            on_bound = [j for j in needs if j.decision.rounds_needed is None and j.decision.interval is not None]
            seconds = [j.seconds_needed for j in needs if j.seconds_needed is not None]
            if on_bound:
                lines.append(f"  {claim.experiment}/{claim.claim.id}: its estimate sits on its bound in session "
                             f"{session_id}: no budget is expected to decide it")
            elif seconds and max(seconds) > budget:
                rounds = max(j.decision.rounds_needed or 0 for j in needs)
                lines.append(f"  {claim.experiment}/{claim.claim.id}: needs about {rounds} rounds, about "
                             f"{max(seconds) / 60:.0f} min, by session {session_id}'s rounds: more than the budget")
    if lines:
        lines.insert(0, f"claims the budget is not expected to decide ({len(lines)}; the run will not spend rounds "
                        "on them once it sees the same):")
    return lines
