"""One exception tree; the CLI maps each to an exit code and a `versus: error:` line."""
from __future__ import annotations

import difflib


class VersusError(Exception):
    """Base of every error versus reports to a user. `hint` says how to fix it."""

    exit_code = 3

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  hint: {self.hint}" if self.hint else self.message


class UsageError(VersusError):
    """Bad command line or bad input file: exit code 2."""

    exit_code = 2


class ExperimentError(UsageError):
    """An experiment folder or experiment.toml that cannot be used."""


class FetchError(VersusError):
    """Fetching or verifying a runtime or library failed."""


class StoreError(VersusError):
    """The results database cannot be opened or is of an unknown schema."""


class ClaimsFailed(VersusError):
    """`--fail-on-claims` and at least one claim did not hold: exit code 1."""

    exit_code = 1


def did_you_mean(word: str, choices: list[str]) -> str:
    """`; did you mean 'x'?` for a hint, when one of `choices` is close to `word`; else ''."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""
