"""JMH's `-rf json`: one entry per benchmark (and params); rawData holds one list per fork."""
from __future__ import annotations

from typing import Any

from ..errors import UsageError
from .imported import ImportedArm, value

_TIME = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9}


def ns_per_op(score: float, unit: str) -> float:
    """JMH scores as ns per operation: `ns/op` style directly, `ops/ms` style by inversion."""
    top, _, bottom = unit.partition("/")
    if top in _TIME and bottom == "op":
        return score * _TIME[top]
    if top == "ops" and bottom in _TIME:
        if score <= 0:
            raise UsageError(f"a JMH throughput of {score:g} {unit} is no time per operation",
                             "remove the benchmarks that did no operations")
        return _TIME[bottom] / score
    raise UsageError(f"JMH score unit {unit!r} is not a time per op or ops per time",
                     "run JMH in mode avgt, sample or thrpt")


def parse(data: list[dict[str, Any]]) -> list[ImportedArm]:
    arms = []
    for index, entry in enumerate(data):
        metric = entry["primaryMetric"]
        unit = str(metric.get("scoreUnit", ""))
        name = str(entry["benchmark"])
        params = entry.get("params") or {}
        if params:
            name += "(" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"
        runs = [[value(ns_per_op(float(v), unit), f"[{index}].primaryMetric.rawData") for v in fork]
                for fork in metric.get("rawData") or []]
        arms.append(ImportedArm(name, runs, info={"mode": entry.get("mode"), "jvm": entry.get("jvm"),
                                                  "jdkVersion": entry.get("jdkVersion"), "unit": unit,
                                                  "params": params}))
    return arms
