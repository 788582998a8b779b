"""Analyze a stored session: per-arm estimates, comparisons against a baseline, claim verdicts."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import experiment as experiments
from . import selectors, stats
from .errors import VersusError
from .runtimes.model import Runtime
from .store import Store, StoredRun


@dataclass
class ArmResult:
    id: int
    key: str
    experiment: str
    case: str
    runtime: str
    info: dict[str, Any]
    params: dict[str, str]
    ok_runs: int
    failed_runs: int
    estimate: stats.Estimate | None  # of ns per iteration
    metrics: dict[str, tuple[stats.Estimate, str]] = field(default_factory=dict)
    warmup_curve: list[float] = field(default_factory=list)  # median ns/iteration per sample index
    variant: str = ""

    @property
    def label(self) -> str:
        """The case with its swept parameters: `read[dataset=monaco]`."""
        return f"{self.case}[{self.variant}]" if self.variant else self.case

    def as_runtime(self) -> Runtime:
        info = self.info
        return Runtime(info["family"], info["version"], Path(info.get("executable", "")), info.get("source", ""),
                       tuple(info.get("flags", [])), info.get("jdk_version", ""))


@dataclass
class ComparisonResult:
    experiment: str
    case: str
    arm: ArmResult
    baseline: ArmResult
    comparison: stats.Comparison
    verdict: str = "inconclusive"
    p_adjusted: float = 1.0


@dataclass
class ClaimInstance:
    numerator: ArmResult
    denominator: ArmResult | None  # None: an absolute bound on a metric
    comparison: stats.Comparison
    verdict: str = "inconclusive"


@dataclass
class ClaimResult:
    experiment: str
    claim: experiments.Claim
    instances: list[ClaimInstance]
    verdict: str  # holds / does not hold / inconclusive / not measured
    note: str = ""


@dataclass
class FailedRun:
    arm_key: str
    round: int
    reason: str
    log_tail: str


@dataclass
class Analysis:
    session: dict[str, Any]
    arms: list[ArmResult]
    comparisons: list[ComparisonResult]
    claims: list[ClaimResult]
    failed: list[FailedRun]
    delta: float


def _arm_results(store: Store, session_id: int, rng: np.random.Generator) -> tuple[list[ArmResult], list[FailedRun]]:
    runs_by_arm: dict[int, list[StoredRun]] = {}
    for run in store.runs(session_id):
        runs_by_arm.setdefault(run.arm_id, []).append(run)
    results, failed = [], []
    for row in store.arms(session_id):
        label = f"{row['case']}[{row['variant']}]" if row["variant"] else row["case"]
        key = f"{row['experiment']}/{label}/{row['runtime']}"
        runs = runs_by_arm.get(row["id"], [])
        good = [r for r in runs if r.status == "ok"]
        failed += [FailedRun(key, r.round, r.reason, r.log_tail) for r in runs if r.status != "ok"]
        groups = [[ns / inner for _, ns, inner, warm in r.samples if not warm] for r in good]
        groups = [g for g in groups if g]
        estimate = stats.estimate(groups, rng) if groups else None
        metrics: dict[str, tuple[stats.Estimate, str]] = {}
        for name in sorted({m[0] for r in good for m in r.metrics}):
            metric_groups = [[v for n, v, _ in r.metrics if n == name] for r in good]
            unit = next(u for r in good for n, _, u in r.metrics if n == name)
            metrics[name] = (stats.estimate([g for g in metric_groups if g], rng), unit)
        curve: list[float] = []
        if good:
            width = max(len(r.samples) for r in good)
            for index in range(width):
                values = [ns / inner for r in good for i, ns, inner, _ in r.samples if i == index]
                curve.append(float(np.median(values)))
        results.append(ArmResult(row["id"], key, row["experiment"], row["case"], row["runtime"], row["runtime_info"],
                                 row["params"], len(good), len(runs) - len(good), estimate, metrics, curve,
                                 row["variant"]))
    return results, failed


def _baseline(arms: list[ArmResult], selector: str) -> ArmResult | None:
    measured = [a for a in arms if a.estimate is not None]
    for arm in measured:
        try:
            if selector and selectors.matches(selector, arm.as_runtime()):
                return arm
        except VersusError:
            break
    return measured[0] if measured else None


def _measure(arm: ArmResult, metric: str) -> stats.Estimate | None:
    """What a claim compares: the arm's time, or one of its metrics."""
    if not metric:
        return arm.estimate
    found = arm.metrics.get(metric)
    return found[0] if found else None


def _claim_result(name: str, claim: experiments.Claim, arms: list[ArmResult]) -> ClaimResult:
    def side(side: experiments.Side) -> list[ArmResult]:
        return [a for a in arms if a.case == side.case and _measure(a, claim.metric) is not None
                and all(a.params.get(k) == v for k, v in side.params)
                and selectors.matches(side.runtime, a.as_runtime())]

    instances = []
    for top in side(claim.numerator):
        top_value = _measure(top, claim.metric)
        assert top_value is not None
        if claim.denominator is None:
            instances.append(ClaimInstance(top, None, stats.compare(top_value, stats.constant(1.0, top_value))))
            continue
        for bottom in side(claim.denominator):
            bottom_value = _measure(bottom, claim.metric)
            if bottom_value is None or top.id == bottom.id or not _paired(top, bottom, claim):
                continue
            instances.append(ClaimInstance(top, bottom, stats.compare(top_value, bottom_value)))
    what = f"metric {claim.metric}" if claim.metric else "time"
    wanted = f"{claim.numerator.runtime} on {claim.numerator.case}" + (
        f" and {claim.denominator.runtime} on {claim.denominator.case}" if claim.denominator else "")
    note = "" if instances else f"no measured {what} for {wanted}"
    return ClaimResult(name, claim, instances, "not measured" if not instances else "inconclusive", note)


def _paired(top: ArmResult, bottom: ArmResult, claim: experiments.Claim) -> bool:
    """Equal parameters but those a side pins; different cases of one family compare within one runtime;
    JVM-hosted runtimes compare on the same JDK."""
    pinned = {k for k, _ in claim.numerator.params} | {k for k, _ in (claim.denominator.params if claim.denominator else ())}
    if {k: v for k, v in top.params.items() if k not in pinned} != {k: v for k, v in bottom.params.items() if k not in pinned}:
        return False
    same_family = top.info["family"] == bottom.info["family"]
    if top.case != bottom.case and same_family:
        return top.runtime == bottom.runtime
    if same_family and claim.denominator and _unflagged(claim.numerator.runtime) == _unflagged(claim.denominator.runtime):
        # jruby+int ÷ jruby+jit: one version in two modes, never one version against another
        return top.info["version"] == bottom.info["version"] and \
            top.info.get("jdk_version", "").split(".")[0] == bottom.info.get("jdk_version", "").split(".")[0]
    jdk_a, jdk_b = top.info.get("jdk_version", ""), bottom.info.get("jdk_version", "")
    hosted = {"jython", "jruby"}
    if top.info["family"] in hosted and bottom.info["family"] in hosted:
        return jdk_a.split(".")[0] == jdk_b.split(".")[0]
    return True


def _unflagged(selector: str) -> str:
    """The selector without its +flags: `jruby@1+int` → `jruby@1`."""
    head, _, jdk = selector.partition("/")
    return head.split("+")[0] + (f"/{jdk}" if jdk else "")


def analyze(store: Store, session_id: int | None = None, delta: float = stats.DELTA) -> Analysis:
    session = store.session(session_id)
    rng = np.random.default_rng(session["seed"])
    arms, failed = _arm_results(store, session["id"], rng)
    comparisons: list[ComparisonResult] = []
    claims: list[ClaimResult] = []
    for name in dict.fromkeys(a.experiment for a in arms):
        mine = [a for a in arms if a.experiment == name]
        loaded = _load_experiment(mine)
        for case in dict.fromkeys(a.label for a in mine):
            in_case = [a for a in mine if a.label == case]
            base = _baseline(in_case, loaded.baseline if loaded else "")
            for arm in in_case:
                if base is not None and arm is not base and arm.estimate is not None and base.estimate is not None:
                    comparisons.append(ComparisonResult(name, case, arm, base, stats.compare(arm.estimate, base.estimate, delta)))
        if loaded:
            claims += [_claim_result(name, claim, mine) for claim in loaded.claims]
    _decide(comparisons, claims)
    return Analysis(session, arms, comparisons, claims, failed, delta)


def _load_experiment(arms: list[ArmResult]) -> experiments.Experiment | None:
    if not arms:
        return None
    path = Path(arms[0].info.get("experiment_path", ""))
    try:
        return experiments.load(path) if (path / "experiment.toml").exists() else None
    except VersusError:
        return None


def _decide(comparisons: list[ComparisonResult], claims: list[ClaimResult]) -> None:
    """Holm across the session: one family for comparisons, one for claim instances."""
    p_diff = stats.holm([c.comparison.p_differs for c in comparisons])
    p_same = stats.holm([c.comparison.p_same for c in comparisons])
    for result, differs, same in zip(comparisons, p_diff, p_same):
        result.p_adjusted = differs
        result.verdict = stats.verdict(differs, same, result.comparison.ratio.value)
    instances = [(claim, i) for claim in claims for i in claim.instances]
    pairs = [stats.bound_pvalues(i.comparison, claim.claim.min, claim.claim.max) for claim, i in instances]
    holds = stats.holm([p for p, _ in pairs])
    fails = stats.holm([p for _, p in pairs])
    for (_, instance), p_hold, p_fail in zip(instances, holds, fails):
        instance.verdict = ("holds" if p_hold < stats.ALPHA else
                            "does not hold" if p_fail < stats.ALPHA else "inconclusive")
    for claim in claims:
        verdicts = {i.verdict for i in claim.instances}
        if not verdicts:
            continue
        claim.verdict = ("does not hold" if "does not hold" in verdicts else
                         "holds" if verdicts == {"holds"} else "inconclusive")
