"""The report's tables as plain data; terminal.py and markdown.py only render them."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..analyze import Analysis, ComparisonResult
from . import units


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""


def case_tables(analysis: Analysis) -> list[Table]:
    by_arm: dict[int, ComparisonResult] = {c.arm.id: c for c in analysis.comparisons}
    tables = []
    for experiment in dict.fromkeys(a.experiment for a in analysis.arms):
        for case in dict.fromkeys(a.label for a in analysis.arms if a.experiment == experiment):
            arms = [a for a in analysis.arms if a.experiment == experiment and a.label == case]
            arms.sort(key=lambda a: a.estimate.median.value if a.estimate else float("inf"))
            baseline = next((c.baseline.runtime for c in analysis.comparisons
                             if c.experiment == experiment and c.case == case), "")  # c.case is the label
            table = Table(f"{experiment} · {case}",
                          ["runtime", "median per iteration [95% CI]", "min", "mean", "processes",
                           f"time vs {baseline or 'baseline'} [95% CI]", "verdict"])
            for arm in arms:
                runs = f"{arm.ok_runs}" + (f" ({arm.failed_runs} failed)" if arm.failed_runs else "")
                if arm.estimate is None:
                    table.rows.append([arm.runtime, "no valid runs", "", "", runs, "", ""])
                    continue
                comparison = by_arm.get(arm.id)
                table.rows.append([
                    arm.runtime, units.duration_ci(arm.estimate.median), units.duration(arm.estimate.min.value),
                    units.duration(arm.estimate.mean.value), runs,
                    units.ratio(comparison.comparison.ratio) if comparison else "baseline",
                    _verdict(comparison) if comparison else ""])
            tables.append(table)
    return tables


def _verdict(comparison: ComparisonResult) -> str:
    if comparison.verdict == "inconclusive":
        return f"inconclusive (could detect ≥ {comparison.comparison.mde:.1%})"
    return comparison.verdict


def metric_table(analysis: Analysis) -> Table | None:
    table = Table("metrics", ["experiment · case", "runtime", "metric", "median [95% CI]"])
    for arm in analysis.arms:
        for name, (estimate, unit) in arm.metrics.items():
            median = estimate.median
            table.rows.append([f"{arm.experiment} · {arm.label}", arm.runtime, name,
                               f"{units.number(median.value, unit)} [{median.low:.4g}, {median.high:.4g}]"])
    return table if table.rows else None


def claim_table(analysis: Analysis) -> Table | None:
    table = Table("claims", ["claim", "verdict", "expected", "measured ratio [95% CI]", "arms"])
    for claim in analysis.claims:
        expected = units.bounds(claim.claim.min, claim.claim.max)
        if not claim.instances:
            table.rows.append([claim.claim.id, claim.verdict, expected, "", claim.note])
        held = sum(1 for i in claim.instances if i.verdict == "holds")
        for index, instance in enumerate(claim.instances):
            head = [claim.claim.id, f"{claim.verdict} ({held}/{len(claim.instances)} hold)", expected] \
                if index == 0 else ["", "", ""]
            if instance.denominator is None:
                what = f"{claim.claim.metric} of {_short(instance.numerator.key)}"
                measured = f"{units.ratio(instance.comparison.ratio).replace('×', '')} {instance.verdict}"
            else:
                what = f"{_short(instance.numerator.key)} ÷ {_short(instance.denominator.key)}"
                measured = f"{units.ratio(instance.comparison.ratio)} {instance.verdict}"
            table.rows.append(head + [measured, what])
    table.note = "ratio = time of the first arm ÷ time of the second; verdicts Holm-corrected across the session"
    return table if analysis.claims else None


def _short(key: str) -> str:
    _, case, runtime = key.split("/", 2)
    return f"{runtime} {case}"


def failed_table(analysis: Analysis) -> Table | None:
    table = Table("failed process runs", ["arm", "round", "reason", "last log line"])
    for failed in analysis.failed:
        last = (failed.log_tail.strip().splitlines() or [""])[-1][:100]
        table.rows.append([failed.arm_key, str(failed.round), failed.reason, last])
    return table if table.rows else None


def all_tables(analysis: Analysis) -> list[Table]:
    extra = [metric_table(analysis), claim_table(analysis), failed_table(analysis)]
    return case_tables(analysis) + [t for t in extra if t is not None]


def header_lines(analysis: Analysis) -> list[str]:
    session, host = analysis.session, analysis.session["host"]
    return [f"session {session['id']} ({session['status']}), seed {session['seed']}",
            f"host: {host.get('cpu')}, {host.get('cores')} cores, load {host.get('load')}, "
            f"governor {host.get('governor')}, kernel {host.get('kernel')}",
            f"verdicts: practical threshold ±{analysis.delta:.0%}, 95% hierarchical bootstrap CIs, Holm-corrected"]
