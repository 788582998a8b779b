"""What a comparison or a claim is found to be: one type, whose values are the words the reports print."""
from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    FASTER = "faster"
    SLOWER = "slower"
    SAME = "same"  # within ±δ: equivalence, not the absence of evidence
    HOLDS = "holds"
    DOES_NOT_HOLD = "does not hold"
    INCONCLUSIVE = "inconclusive"
    NOT_APPLICABLE = "not applicable"  # a claim pair whose arm never reports the claim's metric
    NOT_MEASURED = "not measured"  # a claim whose arms did not run in the session
    HOSTS_DISAGREE = "hosts disagree"  # hosts of one session reach different verdicts (byhost.py): none pooled

    @property
    def decided(self) -> bool:
        return self in DECIDED


DECIDED = frozenset({Verdict.FASTER, Verdict.SLOWER, Verdict.SAME, Verdict.HOLDS, Verdict.DOES_NOT_HOLD})
