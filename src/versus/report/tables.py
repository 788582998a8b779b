"""The report's tables as plain data; terminal.py, markdown.py and html.py only render them."""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from .. import steady, units
from ..analyze import Analysis, ArmResult, ClaimResult, Judged
from ..contention import BUSY_STEAL
from ..verdict import Verdict

UNDECIDED = "inconclusive"


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""


def when(timestamp: object) -> str:
    """A stored time as a local date and minute; "?" for anything that is not one."""
    if isinstance(timestamp, bool) or not isinstance(timestamp, (int, float)) or not timestamp:
        return "?"
    try:
        return datetime.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, ValueError, OSError):
        return "?"


_when = when


def header_lines(analysis: Analysis) -> list[str]:
    session, host = analysis.session, analysis.session.host
    lines = [f"session {session.id} ({session.status}), seed {session.seed}, "
             f"{_when(session.created)} to {_when(session.finished)}"]
    facts = [str(host[k]) for k in ("cpu",) if host.get(k)]
    if host.get("cores"):
        facts.append(f"{host['cores']} cores")
    if host.get("load"):
        load = host["load"]
        facts.append("load " + (" ".join(str(x) for x in load) if isinstance(load, list) else str(load)))
    if host.get("governor") and host["governor"] != "unknown":
        facts.append(f"governor {host['governor']}")
    if host.get("kernel"):
        facts.append(f"kernel {host['kernel']}")
    if facts:
        lines.append("host: " + ", ".join(facts))
    lines += machine_lines(analysis)
    budget = budget_text(analysis)
    if budget:
        lines.append(f"budget: {budget}; stopped because {analysis.stopped or 'it finished'}")
    how = ("sequential, paired by round" if analysis.sequential else "judged once, at the size measured")
    lines.append(f"verdicts: {how}; practical threshold ±{analysis.delta:.0%}; error rate {analysis.rule.alpha:.0%} per "
                 "experiment for its comparisons and for its claims; each interval at the level that decided it")
    lines.append(f"the rule: {analysis.rule.describe()}")
    if analysis.lacks:
        lines.append(f"this session lacks {analysis.lacks}")
    lines += contributor_lines(analysis)
    lines += [f"note: {note}" for note in analysis.notes]
    return lines


def budget_text(analysis: Analysis) -> str:
    """The session's budget: each leg's where it ran in several (`--more`, `--resume`), since the plan
    keeps only the first's; '' without one."""
    budgets = [leg.budget for leg in analysis.legs if leg.budget]
    if len(budgets) > 1:
        return " + ".join(units.seconds(float(b)) for b in budgets) + f" over {len(budgets)} legs"
    budget = analysis.session.plan.budget
    return units.seconds(float(budget)) if budget else ""


def machine_lines(analysis: Analysis) -> list[str]:
    """What else each host did while the processes ran (contention.py), and a note where the hypervisor
    took enough of its CPUs to explain a session that decided little."""
    found = analysis.machine()
    parts = []
    for host, state in found.items():
        said = []
        if state.steal is not None:
            said.append(f"the hypervisor took {state.steal:.1%} of the CPUs' time (steal)")
        if state.pressure is not None:
            said.append(f"some task waited for a CPU {state.pressure:.1%} of the time")
        if said:
            parts.append((f"{host}: " if len(found) > 1 and host else "") + ", ".join(said)
                         + f" ({state.runs} process runs)")
    if not parts:
        return []
    lines = ["machine while the processes ran: " + "; ".join(parts)]
    busy = [host if len(found) > 1 and host else "this host" for host, state in found.items() if state.busy]
    if busy:
        lines.append(f"busy: {', '.join(busy)} lost at least {BUSY_STEAL:.0%} of its CPUs' time to other guests: its "
                     "rounds spread more and take longer, so fewer claims are decided in the same time; run "
                     "again at a quieter time, or add a host")
    return lines


def contributor_lines(analysis: Analysis) -> list[str]:
    """Which legs (each `versus run` that added rounds) and hosts the verdicts stand on: said where
    there was more than one of either."""
    hosts = analysis.contributors
    if len(analysis.legs) < 2 and len(hosts) < 2:
        return []
    processes = [p for a in analysis.arms for p in a.processes]
    lines = []
    if analysis.legs:
        parts = []
        for leg in analysis.legs:
            mine = [p for p in processes if p.leg == leg.number]
            ran = sorted({p.host for p in mine if p.host})
            stolen = [m.steal for m in analysis.machine(leg.number).values() if m.steal is not None]
            parts.append(f"#{leg.number} {leg.kind} {_when(leg.started)} to {_when(leg.finished)}, {len(mine)} process runs"
                         + (f" on {', '.join(ran)}" if ran else "")
                         + (f", steal {max(stolen):.1%}" if stolen else ""))
        lines.append(f"legs: {len(analysis.legs)} ({'; '.join(parts)})")
    if hosts:
        parts = []
        for host in hosts:
            details = analysis.hosts.get(host, {})
            facts = [str(details[k]) for k in ("cpu",) if details.get(k)]
            if details.get("cores"):
                facts.append(f"{details['cores']} cores")
            if details.get("kernel"):
                facts.append(f"kernel {details['kernel']}")
            count = sum(1 for p in processes if p.host == host)
            parts.append(f"{host} ({', '.join(facts + [f'{count} process runs'])})")
        lines.append(f"hosts: {len(hosts)}, each a block of the paired rounds ({'; '.join(parts)})")
    return lines


def _short(arm: ArmResult) -> str:
    return f"{arm.id.runtime} {arm.label}"


def instance_what(judged: Judged) -> str:
    claim = judged.item.claim
    if judged.denominator is None:
        return f"{(claim.metric if claim else '') or 'time per iteration'} of {_short(judged.numerator)}"
    return f"{_short(judged.numerator)} ÷ {_short(judged.denominator)}"


def expected(result: ClaimResult) -> str:
    claim = result.claim
    if claim.denominator is None and not claim.metric:
        return units.metric_bounds(claim.min, claim.max) + " ns per iteration"
    if claim.denominator is None:
        return units.metric_bounds(claim.min, claim.max)
    return units.bounds(claim.min, claim.max)


def verdict_text(judged: Judged) -> str:
    decision = judged.decision
    if judged.hosts is not None and judged.hosts.disagree:
        return f"{Verdict.HOSTS_DISAGREE} ({judged.hosts.summary()})"
    if decision.decided:
        return decision.verdict
    more = units.undecided(decision, judged.seconds_needed, judged.item.claim is None)
    return f"{UNDECIDED} ({more})" if more else UNDECIDED


def measured(judged: Judged) -> str:
    """The measured ratio (or metric, or time) with the interval that decided it."""
    text = units.ratio(judged.decision)
    if judged.denominator is None:
        text = text.replace("×", "", 1)
        if not judged.item.metric and judged.decision.interval is not None:
            shown = judged.decision.interval
            text = (f"{units.duration(shown.value)} [{units.duration(shown.low)}, {units.duration(shown.high)}] "
                    f"{units.confidence(judged.decision)}") if not judged.decision.note else text
    return text


def claim_counts(analysis: Analysis) -> str:
    """How many claims are decided, and apart from them those whose verdict depends on an analysis choice
    (the per-process value, the rounds before a warmup raise): never counted as one confident answer."""
    measured_claims = [c for c in analysis.claims if c.verdict != Verdict.NOT_MEASURED]
    decided = [c for c in measured_claims if c.verdict.decided]
    firm = [c for c in decided if not c.depends_on]
    holds = sum(1 for c in firm if c.verdict == Verdict.HOLDS)
    text = (f"{len(firm)} of {len(measured_claims)} measured claims decided: {holds} hold, "
            f"{len(firm) - holds} do not hold")
    split = sum(1 for c in measured_claims if c.verdict == Verdict.HOSTS_DISAGREE)
    if split:
        text += f"; on {split} the hosts disagree"
    hanging = len(decided) - len(firm)
    if hanging:
        text += f"; {hanging} more {'depend' if hanging > 1 else 'depends'} on an analysis choice"
    return text


def depends_text(claim: ClaimResult) -> str:
    """What a claim's verdict depends on, in words: "depends on the per-process value: inconclusive with
    the median of each process's samples" (empty when no alternative changes it)."""
    if not claim.depends_on:
        return ""
    parts = [f"{alternative.verdict} with {alternative.label}" for alternative in claim.depends_on]
    choices = sorted({CHOICES[a.choice] for a in claim.depends_on})
    return f"depends on {' and '.join(choices)}: {'; '.join(parts)}"


CHOICES = {"value": "the per-process value", "warmup": "the warmup", "estimator": "the estimator"}


def claim_table(analysis: Analysis) -> Table | None:
    if not analysis.claims:
        return None
    table = Table("claims", ["claim", "statement", "expected", "verdict", "measured [interval at its level]", "arms"],
                  note=claim_counts(analysis) + "; ratio = the first arm ÷ the second")
    for claim in analysis.claims:
        head = [claim.claim.id, claim.claim.statement, expected(claim)]
        if not claim.instances:
            table.rows.append(head + [claim.verdict, claim.note, ""])
            continue
        held = sum(1 for i in claim.instances if i.verdict == "holds")
        summary = f"{claim.verdict} ({held}/{len(claim.instances)} hold)" if len(claim.instances) > 1 else str(claim.verdict)
        if claim.depends_on:
            summary += f" — {depends_text(claim)}"
        for index, instance in enumerate(claim.instances):
            row = head + [summary] if index == 0 else ["", "", "", ""]
            table.rows.append(row + [f"{measured(instance)}: {verdict_text(instance)}", instance_what(instance)])
    return table


def _estimate(arm: ArmResult) -> str:
    summary = arm.summary
    if summary is None:
        return "no valid runs"
    if summary.interval is None:
        return f"{units.duration(summary.value)} ({summary.note})"
    return (f"{units.duration(summary.value)} [{units.duration(summary.interval.low)}, "
            f"{units.duration(summary.interval.high)}]")


def _runs(arm: ArmResult) -> str:
    text = f"{arm.ok_runs}" + (f" ({arm.failed_runs} failed)" if arm.failed_runs else "")
    unsteady = arm.steady_counts.get(steady.UNSTEADY, 0)
    return text + (f", {unsteady} unsteady" if unsteady else "")


def case_tables(analysis: Analysis) -> list[Table]:
    by_arm = {c.numerator.index: c for c in analysis.comparisons if c.item.by == "runtime"}
    tables = []
    for experiment in dict.fromkeys(a.id.experiment for a in analysis.arms):
        mine = [a for a in analysis.arms if a.id.experiment == experiment]
        labels = list(dict.fromkeys(a.label for a in mine))
        single = [a for a in mine if sum(1 for b in mine if b.label == a.label) == 1]
        for label in labels:
            arms = [a for a in mine if a.label == label]
            if len(arms) == 1:
                continue
            arms.sort(key=lambda a: a.summary.value if a.summary else float("inf"))
            baseline = next((c.denominator.id.runtime for c in analysis.comparisons if c.denominator is not None
                             and c.item.by == "runtime" and c.numerator.id.experiment == experiment
                             and c.numerator.label == label), "baseline")
            table = Table(f"{experiment} · {label}", ["runtime", "per iteration [95% CI]", "processes",
                                                      f"time ÷ {baseline} [interval at its level]", "verdict"])
            for arm in arms:
                comparison = by_arm.get(arm.index)
                table.rows.append([arm.id.runtime, _estimate(arm), _runs(arm),
                                   units.ratio(comparison.decision) if comparison else "baseline",
                                   verdict_text(comparison) if comparison else ""])
            tables.append(table)
        if single:
            table = Table(f"{experiment} · cases with one arm", ["case", "runtime", "per iteration [95% CI]", "processes"])
            table.rows = [[a.label, a.id.runtime, _estimate(a), _runs(a)] for a in single]
            tables.append(table)
        tables += _case_baseline_tables(analysis, experiment)
    return tables


def _case_baseline_tables(analysis: Analysis, experiment: str) -> list[Table]:
    mine = [c for c in analysis.comparisons if c.item.by == "case" and c.item.experiment == experiment]
    if not mine:
        return []
    base_case = mine[0].denominator.id.case if mine[0].denominator else ""
    table = Table(f"{experiment} · each case against {base_case}",
                  ["runtime", "case", "per iteration", f"time ÷ {base_case} [interval at its level]", "verdict"])
    for comparison in mine:
        arm = comparison.numerator
        table.rows.append([arm.id.runtime + (f" [{arm.id.variant}]" if arm.id.variant else ""), arm.id.case,
                           _estimate(arm), units.ratio(comparison.decision), verdict_text(comparison)])
    return [table]


def metric_table(analysis: Analysis) -> Table | None:
    table = Table("metrics", ["experiment · case", "runtime", "metric", "median of processes [95% CI]"])
    for arm in analysis.arms:
        for name, (summary, unit) in arm.metrics.items():
            shown = summary.interval
            value = units.number(summary.value, unit)
            text = f"{value} [{shown.low:.4g}, {shown.high:.4g}]" if shown else f"{value} ({summary.note})"
            table.rows.append([f"{arm.id.experiment} · {arm.label}", arm.id.runtime, name, text])
    return table if table.rows else None


def steady_table(analysis: Analysis) -> Table | None:
    table = Table("processes that did not settle", ["arm", "processes", "classes"],
                  note="a shift of ≥ 2% among the measured samples (docs/method.md, steady state)")
    for arm in analysis.arms:
        counts = arm.steady_counts
        if counts.get(steady.UNSTEADY) or counts.get(steady.SLOWDOWN):
            table.rows.append([arm.key, str(arm.ok_runs), ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))])
    return table if table.rows else None


def failed_table(analysis: Analysis) -> Table | None:
    table = Table("failed process runs", ["arm", "round", "reason", "last log line"])
    for failed in analysis.failed:
        last = (failed.log_tail.strip().split("\n") or [""])[-1][:100]
        table.rows.append([failed.arm_key, str(failed.round), failed.reason, last])
    return table if table.rows else None


def _placement(arms: list[ArmResult]) -> str:
    """Where the method pinned its process runs (`[method] cpus`): part of what the experiment measured."""
    cpus = sorted({n if isinstance(n := a.method.stored.get("cpus", 0), int) else 0 for a in arms})
    if cpus == [0]:
        return ""
    return "; each process run on " + " or ".join(f"{n} CPU{'s' if n != 1 else ''}" if n else "every CPU" for n in cpus)


def experiment_summaries(analysis: Analysis) -> list[str]:
    lines = []
    for experiment in dict.fromkeys(a.id.experiment for a in analysis.arms):
        arms = [a for a in analysis.arms if a.id.experiment == experiment]
        comparisons = [c for c in analysis.comparisons if c.item.experiment == experiment]
        counts: dict[str, int] = {}
        for comparison in comparisons:
            counts[comparison.verdict] = counts.get(comparison.verdict, 0) + 1
        failed = sum(a.failed_runs for a in arms)
        runs = sum(len(a.processes) for a in arms)
        verdicts = ", ".join(f"{v} {k}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
        lines.append(f"{experiment}: {len(arms)} arms, {runs} process runs" + (f" ({failed} failed)" if failed else "")
                     + _placement(arms) + (f"; {len(comparisons)} comparisons: {verdicts}" if comparisons else ""))
    return lines


def host_table(analysis: Analysis, only_disagreeing: bool = False) -> Table | None:
    """Each item's estimate and verdict on each host, where more than one host measured it."""
    table = Table("estimates per host", ["item", "host", "measured [interval at its level]", "verdict"])
    judged = [(f"claim {c.claim.id}: {instance_what(j)}", j) for c in analysis.claims for j in c.instances]
    judged += [(f"{instance_what(j)}", j) for j in analysis.comparisons]
    split = 0
    for label, item in judged:
        if item.hosts is None or (only_disagreeing and not item.hosts.disagree):
            continue
        split += item.hosts.disagree
        for index, host in enumerate(item.hosts.hosts):
            verdict = host.decision.verdict + (f" ({host.decision.n} rounds)" if host.decision.n else "")
            table.rows.append([label if index == 0 else "", host.host, units.ratio(host.decision), verdict])
        if item.hosts.why:
            table.rows.append(["", "", item.hosts.why, Verdict.HOSTS_DISAGREE if item.hosts.disagree else item.verdict])
    table.note = (f"hosts disagree beyond their noise on {split} item{'s' if split != 1 else ''}: those are reported "
                  "per host, never as one pooled verdict") if split else "the hosts agree within their noise on every item"
    return table if table.rows else None


def all_tables(analysis: Analysis) -> list[Table]:
    extra = [host_table(analysis), metric_table(analysis), steady_table(analysis), failed_table(analysis)]
    claims = claim_table(analysis)
    return ([claims] if claims else []) + case_tables(analysis) + [t for t in extra if t is not None]
