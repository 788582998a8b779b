"""Claims decided on a stored session under other α-spending sequences than the one `stats` uses, and
the noise model's planted-3% detection under each: does moving α between the looks pay?

Usage: .venv/bin/python scripts/spending_alternatives.py DB [SESSION]

The same rounds are judged under each sequence (the rounds a session ran were chosen while it ran,
by its own rule). Every sequence here sums to at most α, so each is as valid as the current one.
"""
from __future__ import annotations

import math
import sys
from collections.abc import Callable

import numpy as np
from _stored import db_and_session, run

from versus import simulate, stats
from versus.analyze import analyze
from versus.errors import VersusError
from versus.store import Store


def _quarter_first(alpha: float, index: int) -> float:
    return alpha * 0.25 if index == 1 else alpha * 0.75 / ((index - 1) * index)


def _forty_first(alpha: float, index: int) -> float:
    return alpha * 0.4 if index == 1 else alpha * 0.6 / ((index - 1) * index)


def _inverse_square(alpha: float, index: int) -> float:
    return alpha * 6 / (math.pi ** 2 * index ** 2)


SEQUENCES: dict[str, Callable[[float, int], float]] = {
    "α/(k(k+1)) (stats.look_alpha)": stats.look_alpha,
    "α/4 first, then ¾·α/(k(k+1))": _quarter_first,
    "0.4·α first, then 0.6·α/(k(k+1))": _forty_first,
    "6α/(π²k²)": _inverse_square,
}


def main(argv: list[str]) -> int:
    parsed = db_and_session(argv, "spending_alternatives", __doc__ or "")
    if isinstance(parsed, int):
        return parsed
    db, session = parsed[0], parsed[1] or 1
    current = stats.look_alpha
    print("spending | claims decided | comparisons ≥ 2× decided | model: planted 3% slower | median rounds | A/A wrong")
    try:
        for name, sequence in SEQUENCES.items():
            stats.look_alpha = sequence
            analysis = analyze(Store(db), session)
            decided = sum(c.verdict in ("holds", "does not hold") for c in analysis.claims)
            large = [j for j in analysis.comparisons if j.decision.interval is not None
                     and (j.decision.interval.value >= 2 or j.decision.interval.value <= 0.5)]
            planted = simulate.calibrate(1.03, 3, 2000, 200, seed=103)
            same = simulate.calibrate(1.0, 3, 2000, 200, seed=3)
            print(f"{name} | {decided} | {sum(j.decision.decided for j in large)} of {len(large)} | "
                  f"{planted.rate('slower'):.2%} | {float(np.median(planted.rounds)):.0f} | "
                  f"{same.rate('faster', 'slower'):.2%}")
    except VersusError as error:
        print(f"spending_alternatives: {error}", file=sys.stderr)
        return 2
    finally:
        stats.look_alpha = current
    return 0


if __name__ == "__main__":
    sys.exit(run(lambda: main(sys.argv[1:])))
