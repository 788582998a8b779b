"""Analyze a stored session: per-arm estimates, comparisons, claim verdicts, steady state.

It reads only the store: the experiment definitions kept with the session decide what is compared
and claimed, so a report of an old session never depends on today's files.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import byhost, judge, stats, steady
from .arms import ArmId
from .contention import Contention, Machine, machine
from .definitions import Baseline, Claim, Experiment, Method
from .errors import VersusError
from .items import Item, items_of
from .record import StoredMethod, StoredPlan, StoredRuntime, StoredSession, load_arms, load_session, stored_experiments
from .rule import Rule
from .store import Leg, Store, StoredRun
from .units import duration
from .verdict import Verdict


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
    host: str = ""  # the host that ran it
    leg: int = 0  # the leg of the session that ran it (0: stored before legs were)
    contention: Contention | None = None  # what else the machine did meanwhile (None: not recorded)

    @property
    def warmup(self) -> int:
        """Warmup samples it ran: fewer than a later process of its arm after a raise (judge.settled)."""
        return sum(1 for _, warm in self.samples if warm)


@dataclass
class ArmResult:
    index: int
    row_id: int
    id: ArmId
    runtime: StoredRuntime
    param_map: dict[str, str]
    method: StoredMethod
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
    hosts: byhost.OverHosts | None = None  # each host's decision, where more than one host measured it

    @property
    def verdict(self) -> Verdict:
        """The pooled verdict, unless the hosts disagree: then it is said so, never averaged into one."""
        return Verdict.HOSTS_DISAGREE if self.hosts is not None and self.hosts.disagree else self.decision.verdict


@dataclass(frozen=True)
class Alternative:
    """A claim judged on the same stored rounds under a choice a careful reader would ask about."""

    choice: str  # "value", "warmup" or "estimator"
    label: str  # what was chosen instead, in words: "the median of each process's samples"
    verdict: Verdict


@dataclass
class ClaimResult:
    experiment: str
    claim: Claim
    instances: list[Judged]
    verdict: Verdict  # holds / does not hold / inconclusive / not measured
    note: str = ""
    alternatives: list[Alternative] = field(default_factory=list)

    @property
    def depends_on(self) -> list[Alternative]:
        """The alternatives under which the verdict differs: the verdict hangs on those choices."""
        return [a for a in self.alternatives if a.verdict != self.verdict]


@dataclass
class FailedRun:
    arm_key: str
    round: int
    reason: str
    log_tail: str


@dataclass
class Analysis:
    session: StoredSession
    experiments: dict[str, Experiment]
    arms: list[ArmResult]
    comparisons: list[Judged]
    claims: list[ClaimResult]
    failed: list[FailedRun]
    rule: Rule
    stopped: str = ""
    lacks: str = ""
    notes: list[str] = field(default_factory=list)
    legs: list[Leg] = field(default_factory=list)  # each `versus run` that added rounds to the session
    hosts: dict[str, dict[str, object]] = field(default_factory=dict)  # host name → what it is, as recorded

    @property
    def contributors(self) -> list[str]:
        """The hosts whose successful process runs the verdicts stand on, in order of appearance."""
        return list(dict.fromkeys(p.host for a in self.arms for p in a.processes if p.status == "ok" and p.host))

    def machine(self, leg: int | None = None) -> dict[str, Machine]:
        """Per host that ran them, what else the machine did over the session's process runs (of one
        leg); hosts whose runs have no counters recorded are left out."""
        runs: dict[str, list[tuple[Contention | None, int]]] = {}
        for arm in self.arms:
            for p in arm.processes:
                if leg is None or p.leg == leg:
                    runs.setdefault(p.host, []).append((p.contention, p.wall_ns))
        found = {}
        for host, pairs in runs.items():
            cores = self.hosts.get(host, {}).get("cores") or self.session.host.get("cores")
            summary = machine(pairs, cores if isinstance(cores, int) and not isinstance(cores, bool) else 0)
            if summary is not None:
                found[host] = summary
        return found

    @property
    def delta(self) -> float:
        return self.rule.delta

    @property
    def sequential(self) -> bool:
        return self.rule.sequential


def synthetic(name: str, baseline_case: str = "") -> Experiment:
    """An experiment known only by its arms (an import, or a session from before stored definitions)."""
    return Experiment(name=name, path=Path(""), title="", driver="protocol", programs={}, cases=[], claims=[],
                      runtimes=[], jdks=[], params={}, method=Method(), quick=Method(), quick_params={},
                      quick_runtimes=[], baseline=Baseline(case=baseline_case))


def _experiments(session: StoredSession, names: list[str]) -> tuple[dict[str, Experiment], list[str]]:
    notes: list[str] = []
    loaded: dict[str, Experiment] = {}
    for name, definition in session.definitions.items():
        if not definition.real:
            continue
        try:  # one at a time: a definition that cannot be read costs only itself
            for experiment in stored_experiments(session, only=name):
                loaded[experiment.name] = experiment
        except (VersusError, ValueError, TypeError, RecursionError) as error:
            notes.append(error.message if isinstance(error, VersusError) else
                         f"the stored definition of {name} cannot be read ({type(error).__name__})")
    for name in names:
        if name not in loaded:
            found = session.definitions.get(name)
            loaded[name] = synthetic(name, found.baseline_case if found is not None else "")
    return loaded, notes


def _process(run: StoredRun, value: str, host: str) -> ProcessFacts:
    samples = [(ns / inner, warm) for _, ns, inner, warm in run.samples if inner > 0]
    facts = judge.facts_of([(ns, inner, warm) for _, ns, inner, warm in run.samples], [(n, v) for n, v, _ in run.metrics],
                           run.wall_ns, value)
    warm = sum(1 for _, w in samples if w)
    kind = steady.classify([v for v, _ in samples], warm) if run.status == "ok" else ""
    return ProcessFacts(run.round, run.status, facts.value, facts.metrics, samples, kind, run.wall_ns, run.host or host,
                        run.leg, run.contention)


def _arm_results(store: Store, session_id: int, rule: Rule,
                 host: str = "") -> tuple[list[ArmResult], list[FailedRun], dict[int, list[StoredRun]]]:
    """`host`: the session's own host, that ran the runs stored before runs named their host."""
    runs_by_arm: dict[int, list[StoredRun]] = {}
    for run in store.runs(session_id):
        runs_by_arm.setdefault(run.arm_id, []).append(run)
    results, failed = [], []
    for index, row in enumerate(load_arms(store, session_id)):
        identity = row.arm
        runs = sorted(runs_by_arm.get(row.id, []), key=lambda r: r.round)
        processes = [_process(r, judge.stored_value(row.method.value, rule), host) for r in runs]
        failed += [FailedRun(identity.key, r.round, r.reason, r.log_tail) for r in runs if r.status != "ok"]
        values = [p.value for p in processes if p.status == "ok" and p.value is not None]
        summary = stats.summarize_arm(values, describe=duration) if values else None
        metrics: dict[str, tuple[stats.ArmSummary, str]] = {}
        for name in dict.fromkeys(n for r in runs if r.status == "ok" for n, _, _ in r.metrics):
            per_process = [p.metrics[name] for p in processes if p.status == "ok" and name in p.metrics]
            unit = next(u for r in runs if r.status == "ok" for n, _, u in r.metrics if n == name)
            metrics[name] = (stats.summarize_arm(per_process), unit)
        results.append(ArmResult(index, row.id, identity, row.runtime, row.params, row.method, processes, summary,
                                 metrics))
    return results, failed, runs_by_arm


def _observations(arms: list[ArmResult], value: str = "", host: str | None = None) -> judge.Observations:
    """What each successful process run says, by arm and round; `value` ("median" or "min"): each
    process's value taken that way instead of as its arm's method says; only `host`'s runs, if given."""
    observations: judge.Observations = {}
    for arm in arms:
        for process in arm.processes:
            if process.status == "ok" and (host is None or process.host == host):
                facts_value = process.value
                if value:
                    measured = [v for v, warm in process.samples if not warm]
                    facts_value = (min(measured) if value == "min" else float(np.median(measured))) if measured else None
                observations.setdefault(arm.index, {})[process.round] = judge.Facts(
                    facts_value, process.metrics, process.wall_ns, process.warmup)
    return observations


def _decisions(items: list[Item], observations: judge.Observations, rule: Rule,
               plan: StoredPlan) -> list[stats.Decision]:
    shares = judge.Shares.of(items, rule)
    decisions = []
    for item in items:
        decisions.append(judge.judge(item, observations, shares.alpha_of(item), plan.first_look(item.experiment, rule),
                                     rule, pairs=shares.pairs(item)))
    return decisions


def analyze(store: Store, session_id: int | None = None, rule: Rule | None = None) -> Analysis:
    """The session judged by its own stored rule, or by `rule` (`versus report N --rule …`)."""
    session = load_session(store, session_id)
    plan = session.plan
    rule = rule or plan.rule
    arms, failed, _ = _arm_results(store, session.id, rule, session.hostname)
    experiments, notes = _experiments(session, list(dict.fromkeys(a.id.experiment for a in arms)))
    items = items_of(arms, experiments)
    observations = _observations(arms)
    hosts = list(dict.fromkeys(p.host for a in arms for p in a.processes if p.status == "ok"))
    by_host = {host: _observations(arms, host=host) for host in hosts} if len(hosts) > 1 else {}
    shares = judge.Shares.of(items, rule)
    judged = []
    for item, decision in zip(items, _decisions(items, observations, rule, plan), strict=True):
        denominator = arms[item.denominator] if item.denominator is not None else None
        entry = Judged(item, arms[item.numerator], denominator, decision)
        if by_host:
            entry.hosts = byhost.over_hosts(item, by_host, shares.alpha_of(item), plan.first_look(item.experiment, rule),
                                            rule, pairs=shares.pairs(item), pooled=decision.verdict)
        if not decision.decided and decision.rounds_needed:
            per_round = _round_seconds([a for a in (entry.numerator, denominator) if a is not None])
            entry.seconds_needed = (decision.rounds_needed - decision.n) * per_round if per_round else None
        judged.append(entry)
    early = _before_raise(arms) if rule.settle and rule.sequential else 0
    if early:
        notes.append(f"{early} process runs ran before their arm's warmup was last raised: the verdicts leave out "
                     "the rounds they ran in (their programs had not settled; docs/method.md)")
    comparisons = [j for j in judged if j.item.claim is None]
    claims = _claims(experiments, [j for j in judged if j.item.claim is not None], arms)
    _alternatives(claims, items, arms, rule, plan)
    return Analysis(session, experiments, arms, comparisons, claims, failed, rule, plan.stopped, session.lacks, notes,
                    store.legs(session.id), store.hosts(session.id))


VALUE_WORDS = {"median": "the median of each process's samples", "min": "the fastest sample of each process"}


def _alternatives(claims: list[ClaimResult], items: list[Item], arms: list[ArmResult], rule: Rule,
                  plan: StoredPlan) -> None:
    """Judge every claim again on the same rounds under the choices a careful reader would ask about:
    the other per-process value (the median or the fastest sample), the rounds before a warmup raise
    kept in, and the plain mean of the rounds instead of their trimmed mean (an arm whose processes
    fall in two states is where the two part). Each claim keeps the verdicts that differ from its own."""
    measured = [c for c in claims if c.instances]
    if not measured:
        return
    index_of = {id(item): i for i, item in enumerate(items)}
    values = {judge.stored_value(a.method.value, rule) for a in arms}
    variants: list[tuple[str, str, judge.Observations, Rule, bool]] = []
    for value in ("median", "min"):
        if values != {value}:  # some arm took the other value: judge every arm with this one
            variants.append(("value", VALUE_WORDS[value], _observations(arms, value), rule, True))
    observations = _observations(arms)
    if rule.settle:
        variants.append(("warmup", "the rounds before a warmup raise kept in", observations,
                         rule.replace(settle=False), False))
    variants.append(("estimator", "the plain mean of the rounds", observations, rule.replace(trims=((0, 0.0),)), False))
    for choice, label, seen, variant, times_only in variants:
        decisions = _decisions(items, seen, variant, plan)
        for claim in measured:
            if times_only and claim.claim.metric:
                continue  # a metric is the median of its samples whatever the value
            if choice == "warmup" and not any(j.decision.left_out for j in claim.instances):
                continue  # no round was left out: nothing to put back
            verdicts = {decisions[index_of[id(j.item)]].verdict for j in claim.instances} - {Verdict.NOT_APPLICABLE}
            if verdicts:
                claim.alternatives.append(Alternative(choice, label, judge.claim_verdict(verdicts)))


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
                    and j.verdict != Verdict.NOT_APPLICABLE]
            verdicts = {j.verdict for j in mine}
            if not mine:
                what = f"metric {claim.metric}" if claim.metric else "time"
                wanted = f"{claim.numerator.runtime} on {claim.numerator.case}" + (
                    f" and {claim.denominator.runtime} on {claim.denominator.case}" if claim.denominator else "")
                results.append(ClaimResult(name, claim, [], Verdict.NOT_MEASURED, f"no measured {what} for {wanted}"))
                continue
            split = [j for j in mine if j.hosts is not None and j.hosts.disagree]
            if split:  # never averaged into one verdict
                results.append(ClaimResult(name, claim, mine, Verdict.HOSTS_DISAGREE,
                                           "; ".join(j.hosts.why for j in split if j.hosts is not None)))
                continue
            results.append(ClaimResult(name, claim, mine, judge.claim_verdict(verdicts)))
    return results
