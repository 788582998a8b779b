"""Claims decided per experiment on a stored session, under the current rule and under the rule before
2026-11-24, when a claim with one bound was judged by a two-sided interval at 1 − α_k (now 1 − 2α_k:
a one-sided test, docs/method.md). The same rounds, judged both ways: what the change alone decides.

Usage: .venv/bin/python scripts/rejudge_claims.py DB [SESSION]
"""
from __future__ import annotations

import sys
from pathlib import Path

from versus import stats
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
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    db = Path(argv[0])
    if not db.is_file():
        print(f"rejudge_claims: no database at {db}; give the versus.db of a session (versus-results/versus.db)",
              file=sys.stderr)
        return 2
    if len(argv) > 1 and not argv[1].isdigit():
        print(f"rejudge_claims: the session is a number (versus sessions lists them), not {argv[1]!r}", file=sys.stderr)
        return 2
    session = int(argv[1]) if len(argv) > 1 else 1
    try:
        now = decided(db, session)
        current = stats.BoundRule.level
        stats.BoundRule.level = lambda self, spend: 1 - spend  # the old rule
        try:
            before = decided(db, session)
        finally:
            stats.BoundRule.level = current
    except VersusError as error:
        print(f"rejudge_claims: {error}", file=sys.stderr)
        return 2
    print("experiment | claims | decided now (one-sided for one bound) | decided two-sided (before 2026-11-24)")
    for name, (done, measured) in now.items():
        print(f"{name} | {measured} | {done} | {before[name][0]}")
    print(f"all | {sum(m for _, m in now.values())} | {sum(d for d, _ in now.values())} | "
          f"{sum(d for d, _ in before.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
