"""The versioned JSON document of a session (`--format json`, `session.json`, `versus export`).

Version 2 holds everything needed to report again: the definitions as run, the plan, every process
run with its raw samples, metrics, checks and contention counters, besides the estimates, verdicts
and what the machine did meanwhile (`machine`, computed). `versus import` reads it back into a store,
and the same reports come out; `ingest/versus.py` is its schema, field by field. Fields added within
a version are optional, so older documents of it still import.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict
from typing import Any

from .. import stats
from ..analyze import Analysis, ArmResult, Judged
from ..printable import json_safe
from ..stats import ArmSummary, Interval
from ..store import StoredRun

FORMAT = "versus.session"
VERSION = 2


def _interval(interval: Interval | None) -> dict[str, float] | None:
    return None if interval is None else {"value": interval.value, "low": interval.low, "high": interval.high}


def _summary(summary: ArmSummary | None) -> dict[str, Any] | None:
    if summary is None:
        return None
    return {"value": summary.value, "low": summary.interval.low if summary.interval else None,
            "high": summary.interval.high if summary.interval else None, "level": stats.ARM_LEVEL,
            "processes": summary.processes, "note": summary.note}


def _arm(arm: ArmResult, runs: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    pooled = arm.pooled
    return {
        "key": arm.key, "experiment": arm.id.experiment, "case": arm.id.case, "variant": arm.id.variant,
        "runtime": arm.id.runtime, "runtime_info": arm.runtime.stored, "params": arm.param_map,
        "method": arm.method.stored,
        "processes_ok": arm.ok_runs, "processes_failed": arm.failed_runs, "unit": "ns per iteration",
        "estimate": _summary(arm.summary),
        "statistics": {"median": float(sorted(pooled)[len(pooled) // 2]) if pooled else None,
                       "mean": sum(pooled) / len(pooled) if pooled else None,
                       "min": min(pooled) if pooled else None, "samples": len(pooled)},
        "metrics": {name: {"unit": unit, **(_summary(summary) or {})} for name, (summary, unit) in arm.metrics.items()},
        "steady_state": arm.steady_counts,
        "runs": runs.get(arm.row_id, []),
    }


def _decision(judged: Judged) -> dict[str, Any]:
    decision = judged.decision
    shown: dict[str, Any] = {"verdict": judged.verdict, "ratio": _interval(decision.interval), "level": decision.level,
                             "ends_one_sided": list(decision.sides) if decision.sides else None,
                             "rounds": decision.n, "rounds_left_out": decision.left_out, "paired": decision.paired,
                             "note": decision.note, "rounds_needed": decision.rounds_needed,
                             "seconds_needed": judged.seconds_needed, "minimal_detectable_effect": decision.mde}
    if judged.hosts is not None:  # more than one host measured it: each host's own, and whether they agree
        shown["pooled_verdict"] = decision.verdict
        shown["hosts"] = [{"host": h.host, "verdict": h.decision.verdict, "ratio": _interval(h.decision.interval),
                           "level": h.decision.level, "rounds": h.decision.n, "note": h.decision.note}
                          for h in judged.hosts.hosts]
        shown["hosts_disagree"] = judged.hosts.disagree
        shown["hosts_note"] = judged.hosts.why
    return shown


def _runs(analysis: Analysis, store_runs: list[StoredRun]) -> dict[int, list[dict[str, Any]]]:
    by_arm: dict[int, list[dict[str, Any]]] = {}
    for run in store_runs:
        entry = {
            "round": run.round, "status": run.status, "reason": run.reason, "exit_code": run.exit_code,
            "wall_ns": run.wall_ns, "started": run.started, "hello": run.hello, "log_tail": run.log_tail,
            "samples": [[ns, inner, warm] for _, ns, inner, warm in run.samples],
            "metrics": [[name, value, unit] for name, value, unit in run.metrics],
            "checks": [[value, expected, ok] for value, expected, ok in (run.checks or [])]}
        if run.host or run.leg:  # runs stored before hosts and legs were have neither
            entry.update(host=run.host, leg=run.leg)
        if run.contention is not None:  # nor do runs stored before the counters were recorded
            entry["contention"] = asdict(run.contention)
        by_arm.setdefault(run.arm_id, []).append(entry)
    return by_arm


def document(analysis: Analysis, store_runs: list[StoredRun]) -> dict[str, Any]:
    session = analysis.session.to_dict()
    runs = _runs(analysis, store_runs)
    keep = ("id", "created", "finished", "status", "seed", "argv", "options", "plan", "versus", "lacks")
    return clean({
        "format": FORMAT, "version": VERSION,
        "session": {k: session[k] for k in keep},
        "host": session["host"],
        "definitions": session["definitions"],
        "delta": analysis.delta, "alpha": analysis.rule.alpha, "sequential": analysis.sequential,
        "rule": analysis.rule.to_dict(), "stopped": analysis.stopped,
        "arms": [_arm(a, runs) for a in analysis.arms],
        "comparisons": [{"experiment": c.item.experiment, "by": c.item.by, "arm": c.numerator.key,
                         "baseline": c.denominator.key if c.denominator else None, **_decision(c)}
                        for c in analysis.comparisons],
        "claims": [{"id": c.claim.id, "experiment": c.experiment, "statement": c.claim.statement,
                    "source": c.claim.source, "quote": c.claim.quote, "metric": c.claim.metric or None,
                    "expected": {"min": c.claim.min, "max": c.claim.max}, "verdict": c.verdict, "note": c.note,
                    "depends_on": [{"choice": a.choice, "alternative": a.label, "verdict": a.verdict} for a in c.depends_on],
                    "instances": [{"numerator": i.numerator.key,
                                   "denominator": i.denominator.key if i.denominator else None, **_decision(i)}
                                  for i in c.instances]} for c in analysis.claims],
        "failed_runs": [{"arm": f.arm_key, "round": f.round, "reason": f.reason, "log_tail": f.log_tail}
                        for f in analysis.failed],
        **_contributors(analysis),
    })


def _contributors(analysis: Analysis) -> dict[str, Any]:
    """The session's legs and the hosts recorded with it (sessions stored before either have none)."""
    found: dict[str, Any] = {}
    if analysis.legs:
        found["legs"] = [{"number": leg.number, "kind": leg.kind, "started": leg.started, "finished": leg.finished,
                          "argv": leg.argv, "host": leg.host, "budget": leg.budget, "stopped": leg.stopped,
                          "versus": leg.versus} for leg in analysis.legs]
    if analysis.hosts:
        found["hosts"] = analysis.hosts
    machine = analysis.machine()
    if machine:
        found["machine"] = {host: asdict(state) for host, state in machine.items()}
    return found


def clean(value: Any) -> Any:
    """JSON has no NaN or Infinity: they become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def dumps(doc: dict[str, Any]) -> str:
    # ensure_ascii=False keeps names readable; json_safe escapes what a terminal would act on
    return json_safe(json.dumps(clean(doc), indent=1, allow_nan=False, ensure_ascii=False))
