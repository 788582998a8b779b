"""Claims decided per experiment on a stored session, under the current rule and with each pair of a
claim over several pairs tested as a claim of its own (the rule before 2026-11-26; now the claim is an
intersection–union test whose "holds" end has its pairs' summed share of α, docs/method.md). The same
rounds, judged both ways: what the change alone decides. (The rounds a session ran were chosen while it
ran, by the rule it ran with.)

Usage: .venv/bin/python scripts/rejudge_claims.py DB [SESSION]
"""
from __future__ import annotations

import sys
from pathlib import Path

from _stored import db_and_session, run

from versus import judge
from versus.analyze import analyze
from versus.errors import VersusError
from versus.store import Store


def decided(db: Path, session: int) -> dict[str, tuple[int, int]]:
    """Experiment → (claims decided, claims measured)."""
    counts: dict[str, tuple[int, int]] = {}
    for claim in analyze(Store(db), session).claims:
        if claim.verdict == "not measured":
            continue
        done, measured = counts.get(claim.experiment, (0, 0))
        counts[claim.experiment] = (done + (claim.verdict in ("holds", "does not hold")), measured + 1)
    return counts


def main(argv: list[str]) -> int:
    parsed = db_and_session(argv, "rejudge_claims", __doc__ or "")
    if isinstance(parsed, int):
        return parsed
    db, session = parsed[0], parsed[1] or 1
    try:
        shares = judge.Shares.of
        try:
            judge.Shares.of = lambda items, _=True: shares(items, True)  # type: ignore[method-assign]
            now = decided(db, session)
            judge.Shares.of = lambda items, _=True: shares(items, False)  # type: ignore[method-assign]
            before = decided(db, session)
        finally:
            judge.Shares.of = shares  # type: ignore[method-assign]
    except VersusError as error:
        print(f"rejudge_claims: {error}", file=sys.stderr)
        return 2
    print("experiment | claims | decided now (intersection–union) | decided pair by pair (before 2026-11-26)")
    for name, (done, measured) in now.items():
        print(f"{name} | {measured} | {done} | {before[name][0]}")
    print(f"all | {sum(m for _, m in now.values())} | {sum(d for d, _ in now.values())} | "
          f"{sum(d for d, _ in before.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(run(lambda: main(sys.argv[1:])))
