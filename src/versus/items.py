"""What a session compares: each arm against its baseline (a runtime or a case), and each claim's
pairs of arms. Both the scheduler (which arms must run close together, and which still need rounds)
and the analysis (what to report) read this one list."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from . import selectors
from .arms import ArmId
from .definitions import Claim, Experiment, Side
from .errors import VersusError
from .runtimes.families import FAMILIES
from .selectors import RuntimeLike

COMPARISONS, CLAIMS = "comparisons", "claims"


class ArmRef(Protocol):
    @property
    def id(self) -> ArmId: ...

    @property
    def runtime(self) -> RuntimeLike: ...

    @property
    def param_map(self) -> dict[str, str]: ...


@dataclass(frozen=True)
class Item:
    """One ratio to judge: numerator ÷ denominator (time per iteration, or a metric)."""

    experiment: str
    numerator: int  # index into the session's arms
    denominator: int | None  # None: an absolute bound on the numerator's metric
    claim: Claim | None = None  # None: a comparison with a baseline
    by: str = "runtime"  # comparisons: "runtime" (same case) or "case" (same runtime)
    pair: str = ""  # the arms' keys and the metric: the same pair in every session (`items_of`)

    @property
    def family(self) -> str:
        """Which multiplicity family of its experiment the item belongs to."""
        return CLAIMS if self.claim else COMPARISONS

    @property
    def metric(self) -> str:
        return self.claim.metric if self.claim else ""

    @property
    def arms(self) -> tuple[int, ...]:
        return (self.numerator,) if self.denominator is None else (self.numerator, self.denominator)


def items_of(arms: Sequence[ArmRef], experiments: dict[str, Experiment]) -> list[Item]:
    items: list[Item] = []
    for name, experiment in experiments.items():
        mine = [i for i, a in enumerate(arms) if a.id.experiment == name]
        items += _runtime_comparisons(arms, mine, experiment)
        items += _case_comparisons(arms, mine, experiment)
        for claim in experiment.claims:
            items += claim_items(arms, mine, experiment, claim)
    return [dataclasses.replace(item, pair=pair_key(arms, item)) for item in items]


def pair_key(arms: Sequence[ArmRef], item: Item) -> str:
    """What names an item's pair of arms across sessions: a session's earlier rounds of the same pair
    (history.py) are found by it. Empty for an item of one arm (a bound on a metric)."""
    if item.denominator is None:
        return ""
    return f"{arms[item.numerator].id.key} ÷ {arms[item.denominator].id.key}" + (f" [{item.metric}]" if item.metric else "")


def _matches(selector: str, runtime: RuntimeLike) -> bool:
    try:
        return selectors.matches(selector, runtime)
    except VersusError:
        return False


def _runtime_comparisons(arms: Sequence[ArmRef], mine: list[int], experiment: Experiment) -> list[Item]:
    """Within each case (and variant), every runtime against the baseline runtime."""
    if not experiment.baseline.runtime and experiment.baseline.case:
        return []
    items = []
    by_label: dict[str, list[int]] = {}  # one pass: a scan of every arm per label was quadratic in arms
    for i in mine:
        by_label.setdefault(arms[i].id.label, []).append(i)
    for in_case in by_label.values():
        chosen = [i for i in in_case if _matches(experiment.baseline.runtime, arms[i].runtime)] if \
            experiment.baseline.runtime else []
        base = chosen[0] if chosen else in_case[0]
        items += [Item(experiment.name, i, base) for i in in_case if i != base]
    return items


def _case_comparisons(arms: Sequence[ArmRef], mine: list[int], experiment: Experiment) -> list[Item]:
    """Within each runtime (and variant), every case against the baseline case."""
    if not experiment.baseline.case:
        return []
    items = []
    by_runtime: dict[tuple[str, str], list[int]] = {}
    for i in mine:
        by_runtime.setdefault((arms[i].id.runtime, arms[i].id.variant), []).append(i)
    for same in by_runtime.values():
        base = next((i for i in same if arms[i].id.case == experiment.baseline.case), None)
        if base is not None:
            items += [Item(experiment.name, i, base, by="case") for i in same if i != base]
    return items


def claim_items(arms: Sequence[ArmRef], mine: list[int], experiment: Experiment, claim: Claim) -> list[Item]:
    def side(side: Side) -> list[int]:
        return [i for i in mine if arms[i].id.case == side.case and _matches(side.runtime, arms[i].runtime)
                and all(arms[i].param_map.get(k) == v for k, v in side.pinned)]

    if claim.denominator is None:
        return [Item(experiment.name, top, None, claim) for top in side(claim.numerator)]
    return [Item(experiment.name, top, bottom, claim) for top in side(claim.numerator)
            for bottom in side(claim.denominator) if top != bottom and paired(arms[top], arms[bottom], claim)]


def paired(top: ArmRef, bottom: ArmRef, claim: Claim) -> bool:
    """Which arms a claim's two sides pair up: equal parameters but those a side pins; two cases of
    one family compare within one runtime; one version in two modes stays one version; JVM-hosted
    runtimes compare on the same JDK."""
    assert claim.denominator is not None
    pinned = {k for k, _ in claim.numerator.pinned} | {k for k, _ in claim.denominator.pinned}
    if {k: v for k, v in top.param_map.items() if k not in pinned} != \
            {k: v for k, v in bottom.param_map.items() if k not in pinned}:
        return False
    a, b = top.runtime, bottom.runtime
    same_family = a.family == b.family
    if top.id.case != bottom.id.case and same_family:
        return top.id.runtime == bottom.id.runtime
    if same_family and _unflagged(claim.numerator.runtime) == _unflagged(claim.denominator.runtime):
        # jruby+int ÷ jruby+jit: one version in two modes, never one version against another
        return a.version == b.version and _major(a.jdk_version) == _major(b.jdk_version)
    hosted = {name for name, f in FAMILIES.items() if f.jvm_hosted}
    if a.family in hosted and b.family in hosted:
        return _major(a.jdk_version) == _major(b.jdk_version)
    return True


def _major(version: str) -> str:
    return version.split(".")[0]


def _unflagged(selector: str) -> str:
    """The selector without its +flags: `jruby@1+int` → `jruby@1`."""
    head, _, jdk = selector.partition("/")
    return head.split("+")[0] + (f"/{jdk}" if jdk else "")


def groups_of(count: int, items: list[Item], experiments: list[str]) -> list[list[int]]:
    """Arms that some item compares end up in one group (connected components); a group's arms run
    in the same rounds, so that each round's ratio sees the machine in one state."""
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for item in items:
        for other in item.arms[1:]:
            parent[root(other)] = root(item.numerator)
    groups: dict[int, list[int]] = {}
    for index in range(count):
        groups.setdefault(root(index), []).append(index)
    return sorted(groups.values(), key=lambda g: (experiments[g[0]], g[0]))
