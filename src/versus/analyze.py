"""Analyze a stored session: per-arm estimates, comparisons, claim verdicts, steady state.

It reads only the store: the experiment definitions kept with the session decide what is compared
and claimed, so a report of an old session never depends on today's files.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import judge, stats, steady
from .arms import ArmId
from .errors import VersusError
from .experiment import Baseline, Claim, Experiment, Method
from .items import Item, items_of
from .store import Store, StoredRun


@dataclass(frozen=True)
class RuntimeInfo:
    family: str
    version: str
    flags: tuple[str, ...]
    jdk_version: str


@dataclass
class ProcessFacts:
    """One process run as the reports show it."""

    round: int
    status: str
    value: float | None  # median ns per iteration
    metrics: dict[str, float]
    samples: list[tuple[float, bool]]  # ns per iteration, warmup? in order
    steady: str
    wall_ns: int

    @property
    def warmup(self) -> int:
        """Warmup samples it ran: fewer than a later process of its arm after a raise (judge.settled)."""
        return sum(1 for _, warm in self.samples if warm)


@dataclass
class ArmResult:
    index: int
    row_id: int
    id: ArmId
    runtime: RuntimeInfo
    info: dict[str, Any]
    param_map: dict[str, str]
    method: dict[str, Any]
    processes: list[ProcessFacts]
    summary: stats.ArmSummary | None  # of ns per iteration
    metrics: dict[str, tuple[stats.ArmSummary, str]] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.id.key

    @property
    def label(self) -> str:
        return self.id.label

    @property
    def ok_runs(self) -> int:
        return sum(1 for p in self.processes if p.status == "ok")

    @property
    def failed_runs(self) -> int:
        return len(self.processes) - self.ok_runs

    @property
    def pooled(self) -> list[float]:
        return [v for p in self.processes if p.status == "ok" for v, warm in p.samples if not warm]

    @property
    def steady_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for process in self.processes:
            if process.status == "ok":
                counts[process.steady] = counts.get(process.steady, 0) + 1
        return counts


@dataclass
class Judged:
    """An item with its decision: a comparison or one instance of a claim."""

    item: Item
    numerator: ArmResult
    denominator: ArmResult | None
    decision: stats.Decision
    seconds_needed: float | None = None  # undecided: about how much longer the rounds it needs would take

    @property
    def verdict(self) -> str:
        return self.decision.verdict


@dataclass
class ClaimResult:
    experiment: str
    claim: Claim
    instances: list[Judged]
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
    experiments: dict[str, Experiment]
    arms: list[ArmResult]
    comparisons: list[Judged]
    claims: list[ClaimResult]
    failed: list[FailedRun]
    delta: float
    sequential: bool
    stopped: str = ""
    lacks: str = ""
    notes: list[str] = field(default_factory=list)


def synthetic(name: str, baseline_case: str = "") -> Experiment:
    """An experiment known only by its arms (an import, or a session from before stored definitions)."""
    return Experiment(name=name, path=Path(""), title="", driver="protocol", programs={}, cases=[], claims=[],
                      runtimes=[], jdks=[], params={}, method=Method(), quick=Method(), quick_params={},
                      quick_runtimes=[], baseline=Baseline(case=baseline_case))


def _experiments(session: dict[str, Any], names: list[str]) -> tuple[dict[str, Experiment], list[str]]:
    from .session import stored_experiments

    notes: list[str] = []
    loaded: dict[str, Experiment] = {}
    definitions = session.get("definitions") or {}
    real = {k: v for k, v in definitions.items() if isinstance(v, dict) and "raw" in v}
    try:
        for experiment in stored_experiments({**session, "definitions": real}):
            loaded[experiment.name] = experiment
    except VersusError as error:
        notes.append(error.message)
    for name in names:
        if name not in loaded:
            found = definitions.get(name)
            spec: dict[str, Any] = found if isinstance(found, dict) else {}
            loaded[name] = synthetic(name, str(spec.get("baseline_case", "")))
    return loaded, notes


def _process(run: StoredRun, value: str) -> ProcessFacts:
    samples = [(ns / inner, warm) for _, ns, inner, warm in run.samples if inner > 0]
    facts = judge.facts_of([(ns, inner, warm) for _, ns, inner, warm in run.samples], [(n, v) for n, v, _ in run.metrics],
                           run.wall_ns, value)
    warm = sum(1 for _, w in samples if w)
    kind = steady.classify([v for v, _ in samples], warm) if run.status == "ok" else ""
    return ProcessFacts(run.round, run.status, facts.value, facts.metrics, samples, kind, run.wall_ns)


def _describe(ns: float) -> str:
    from .report.units import duration

    return duration(ns)


def _arm_results(store: Store, session_id: int) -> tuple[list[ArmResult], list[FailedRun], dict[int, list[StoredRun]]]:
    runs_by_arm: dict[int, list[StoredRun]] = {}
    for run in store.runs(session_id):
        runs_by_arm.setdefault(run.arm_id, []).append(run)
    results, failed = [], []
    for index, row in enumerate(store.arms(session_id)):
        identity = ArmId(row["experiment"], row["case"], row["variant"], row["runtime"])
        info = row["runtime_info"] if isinstance(row["runtime_info"], dict) else {}
        runtime = RuntimeInfo(str(info.get("family", "")), str(info.get("version", "")),
                              tuple(info.get("flags", []) or []), str(info.get("jdk_version", "")))
        runs = sorted(runs_by_arm.get(row["id"], []), key=lambda r: r.round)
        processes = [_process(r, judge.stored_value(row["method"])) for r in runs]
        failed += [FailedRun(identity.key, r.round, r.reason, r.log_tail) for r in runs if r.status != "ok"]
        values = [p.value for p in processes if p.status == "ok" and p.value is not None]
        summary = stats.summarize_arm(values, describe=_describe) if values else None
        metrics: dict[str, tuple[stats.ArmSummary, str]] = {}
        for name in dict.fromkeys(n for r in runs if r.status == "ok" for n, _, _ in r.metrics):
            per_process = [p.metrics[name] for p in processes if p.status == "ok" and name in p.metrics]
            unit = next(u for r in runs if r.status == "ok" for n, _, u in r.metrics if n == name)
            metrics[name] = (stats.summarize_arm(per_process), unit)
        results.append(ArmResult(index, row["id"], identity, runtime, info, row["params"], row["method"], processes,
                                 summary, metrics))
    return results, failed, runs_by_arm


def _observations(arms: list[ArmResult]) -> judge.Observations:
    observations: judge.Observations = {}
    for arm in arms:
        for process in arm.processes:
            if process.status == "ok":
                observations.setdefault(arm.index, {})[process.round] = judge.Facts(
                    process.value, process.metrics, process.wall_ns, process.warmup)
    return observations


def analyze(store: Store, session_id: int | None = None, delta: float = stats.DELTA) -> Analysis:
    session = store.session(session_id)
    arms, failed, _ = _arm_results(store, session["id"])
    experiments, notes = _experiments(session, list(dict.fromkeys(a.id.experiment for a in arms)))
    plan = session.get("plan") or {}
    methods = plan.get("methods") or {}
    sequential = bool(methods)  # sessions run by this versus were sequential; imports and old ones are judged once
    settle = bool(plan.get("settled"))  # sessions since rounds before a warmup raise are left out
    items = items_of(arms, experiments)
    shares = judge.Shares.of(items, bool(plan.get("intersection_union")))  # sessions since a claim's pairs share its α
    observations = _observations(arms)
    judged = []
    for item in items:
        start = int(methods.get(item.experiment, {}).get("processes", stats.FIRST_LOOK))
        decision = judge.judge(item, observations, shares.alpha(item), start, sequential=sequential,
                               settle=settle, pairs=shares.pairs(item))
        denominator = arms[item.denominator] if item.denominator is not None else None
        entry = Judged(item, arms[item.numerator], denominator, decision)
        if not decision.decided and decision.rounds_needed:
            per_round = _round_seconds([a for a in (entry.numerator, denominator) if a is not None])
            entry.seconds_needed = (decision.rounds_needed - decision.n) * per_round if per_round else None
        judged.append(entry)
    early = _before_raise(arms) if settle else 0
    if early:
        notes.append(f"{early} process runs ran before their arm's warmup was last raised: the verdicts leave out "
                     "the rounds they ran in (their programs had not settled; docs/method.md)")
    comparisons = [j for j in judged if j.item.claim is None]
    claims = _claims(experiments, [j for j in judged if j.item.claim is not None], arms)
    return Analysis(session, experiments, arms, comparisons, claims, failed, delta, sequential,
                    str(plan.get("stopped", "")), str(session.get("lacks", "")), notes)


def _before_raise(arms: list[ArmResult]) -> int:
    """Successful process runs with fewer warmup samples than their arm's last one."""
    count = 0
    for arm in arms:
        warmups = [p.warmup for p in arm.processes if p.status == "ok"]
        count += sum(1 for w in warmups if warmups and w != warmups[-1])
    return count


def _round_seconds(arms: list[ArmResult]) -> float | None:
    total = 0.0
    for arm in arms:
        walls = sorted(p.wall_ns for p in arm.processes)
        if not walls:
            return None
        total += walls[len(walls) // 2] / 1e9
    return total


def _claims(experiments: dict[str, Experiment], instances: list[Judged], arms: list[ArmResult]) -> list[ClaimResult]:
    results = []
    for name, experiment in experiments.items():
        if not any(a.id.experiment == name for a in arms):
            continue
        for claim in experiment.claims:
            mine = [j for j in instances if j.item.claim is claim and j.item.experiment == name
                    and j.verdict != judge.NOT_APPLICABLE]
            verdicts = {j.verdict for j in mine}
            if not mine:
                what = f"metric {claim.metric}" if claim.metric else "time"
                wanted = f"{claim.numerator.runtime} on {claim.numerator.case}" + (
                    f" and {claim.denominator.runtime} on {claim.denominator.case}" if claim.denominator else "")
                results.append(ClaimResult(name, claim, [], "not measured", f"no measured {what} for {wanted}"))
                continue
            results.append(ClaimResult(name, claim, mine, judge.claim_verdict(verdicts)))
    return results


def warmup_curve(arm: ArmResult) -> list[float]:
    """Median ns per iteration at each sample index across the arm's successful processes."""
    width = max((len(p.samples) for p in arm.processes if p.status == "ok"), default=0)
    curve = []
    for index in range(width):
        values = [p.samples[index][0] for p in arm.processes if p.status == "ok" and index < len(p.samples)]
        curve.append(float(np.median(values)) if values else float("nan"))
    return curve
