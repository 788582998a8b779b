"""The versioned JSON document of a session (`--format json`, `versus export`)."""
from __future__ import annotations

from typing import Any

from ..analyze import Analysis, ArmResult
from ..stats import Interval

FORMAT = "versus.session"
VERSION = 1


def _interval(interval: Interval) -> dict[str, float]:
    return {"value": interval.value, "low": interval.low, "high": interval.high}


def _arm(arm: ArmResult) -> dict[str, Any]:
    out: dict[str, Any] = {"key": arm.key, "experiment": arm.experiment, "case": arm.case, "variant": arm.variant,
                           "runtime": arm.runtime,
                           "runtime_info": arm.info, "params": arm.params, "processes_ok": arm.ok_runs,
                           "processes_failed": arm.failed_runs, "unit": "ns per iteration"}
    if arm.estimate:
        out.update({"median": _interval(arm.estimate.median), "mean": _interval(arm.estimate.mean),
                    "min": _interval(arm.estimate.min), "samples": arm.estimate.samples,
                    "warmup_curve": arm.warmup_curve})
    out["metrics"] = {name: {"unit": unit, "median": _interval(e.median), "mean": _interval(e.mean)}
                      for name, (e, unit) in arm.metrics.items()}
    return out


def document(analysis: Analysis) -> dict[str, Any]:
    session = analysis.session
    return {
        "format": FORMAT, "version": VERSION,
        "session": {k: session[k] for k in ("id", "created", "finished", "status", "seed", "argv", "options")},
        "host": session["host"],
        "delta": analysis.delta,
        "arms": [_arm(a) for a in analysis.arms],
        "comparisons": [{"experiment": c.experiment, "case": c.case, "arm": c.arm.key, "baseline": c.baseline.key,
                         "ratio": _interval(c.comparison.ratio), "verdict": c.verdict, "p_adjusted": c.p_adjusted,
                         "minimal_detectable_effect": c.comparison.mde} for c in analysis.comparisons],
        "claims": [{"id": c.claim.id, "experiment": c.experiment, "statement": c.claim.statement,
                    "source": c.claim.source, "quote": c.claim.quote,
                    "expected": {"min": c.claim.min, "max": c.claim.max}, "verdict": c.verdict, "note": c.note,
                    "metric": c.claim.metric or None,
                    "instances": [{"numerator": i.numerator.key,
                                   "denominator": i.denominator.key if i.denominator else None,
                                   "ratio": _interval(i.comparison.ratio), "verdict": i.verdict}
                                  for i in c.instances]} for c in analysis.claims],
        "failed_runs": [{"arm": f.arm_key, "round": f.round, "reason": f.reason, "log_tail": f.log_tail}
                        for f in analysis.failed],
    }


def read_document(data: dict[str, Any]) -> dict[str, Any]:
    """Accept every version this versus has written; upgrade older ones to the current shape."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a versus session document (format {data.get('format')!r})")
    if not isinstance(data.get("version"), int) or data["version"] > VERSION:
        raise ValueError(f"document version {data.get('version')!r} is newer than this versus ({VERSION})")
    return data
