"""hyperfine's `--export-json`: each time is one whole process, so each is a process run of one sample."""
from __future__ import annotations

from typing import Any

from .imported import ImportedArm, value


def parse(data: dict[str, Any]) -> list[ImportedArm]:
    arms = []
    for index, result in enumerate(data["results"]):
        times = result.get("times") or [result["mean"]]
        name = str(result["command"])
        runs = [[value(t * 1e9 if isinstance(t, (int, float)) else t, f"results[{index}]")] for t in times]
        arms.append(ImportedArm(name, runs, info={"parameters": result.get("parameters") or {}}, loops=[1] * len(runs)))
    return arms
