"""JMH's `-rf json`: one entry per benchmark (and params); rawData holds one list per fork."""
from __future__ import annotations

from typing import Any

from ..errors import UsageError
from . import ImportedArm

_TIME = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9}


def ns_per_op(value: float, unit: str) -> float:
    """JMH scores as ns per operation: `ns/op` style directly, `ops/ms` style by inversion."""
    top, _, bottom = unit.partition("/")
    if top in _TIME and bottom == "op":
        return value * _TIME[top]
    if top == "ops" and bottom in _TIME:
        return _TIME[bottom] / value
    raise UsageError(f"JMH score unit {unit!r} is not a time per op or ops per time",
                     "run JMH in mode avgt, sample or thrpt")


def parse(data: list[dict[str, Any]]) -> list[ImportedArm]:
    arms = []
    for entry in data:
        metric = entry["primaryMetric"]
        unit = metric.get("scoreUnit", "")
        name = entry["benchmark"]
        if entry.get("params"):
            name += "(" + ",".join(f"{k}={v}" for k, v in sorted(entry["params"].items())) + ")"
        runs = [[ns_per_op(v, unit) for v in fork] for fork in metric.get("rawData", [])]
        arms.append(ImportedArm(name, runs, info={"mode": entry.get("mode"), "jvm": entry.get("jvm"),
                                                  "jdkVersion": entry.get("jdkVersion"), "unit": unit,
                                                  "params": entry.get("params", {})}))
    return arms
