"""An arm's identity: (experiment, case, variant, runtime). The one place its label and key are spelled."""
from __future__ import annotations

from dataclasses import dataclass


def label(case: str, variant: str) -> str:
    """The case with its swept parameters: `read[dataset=monaco]`."""
    return f"{case}[{variant}]" if variant else case


def key(experiment: str, case: str, variant: str, runtime: str) -> str:
    """`strings/read[dataset=monaco]/rust@1.83.0`: unique within a session."""
    return f"{experiment}/{label(case, variant)}/{runtime}"


def variant_of(params: dict[str, str], swept: list[str]) -> str:
    """`dataset=monaco,mode=b19`: the values of the swept parameters, in the experiment's order."""
    return ",".join(f"{name}={params[name]}" for name in swept if name in params)


@dataclass(frozen=True)
class ArmId:
    experiment: str
    case: str
    variant: str
    runtime: str

    @property
    def label(self) -> str:
        return label(self.case, self.variant)

    @property
    def key(self) -> str:
        return key(self.experiment, self.case, self.variant, self.runtime)
