"""pyperf's JSON (format 1.0): benchmarks of runs, values in seconds per loop iteration."""
from __future__ import annotations

from typing import Any

from . import ImportedArm


def parse(data: dict[str, Any]) -> list[ImportedArm]:
    common = data.get("metadata", {})
    arms = []
    for benchmark in data["benchmarks"]:
        metadata = {**common, **benchmark.get("metadata", {})}
        runs = [[v * 1e9 for v in run["values"]] for run in benchmark.get("runs", []) if run.get("values")]
        warmups = [[v * 1e9 for _, v in run.get("warmups", [])] for run in benchmark.get("runs", [])]
        arms.append(ImportedArm(str(metadata.get("name", "benchmark")), runs, warmups,
                                info={"unit": metadata.get("unit", "second")}))
    return arms


def export(document: dict[str, Any], groups: dict[str, list[tuple[list[float], list[float]]]]) -> dict[str, Any]:
    """A pyperf suite: one benchmark per arm, one run per successful process run (values in seconds)."""
    host = document["host"]
    benchmarks = []
    for name, runs in groups.items():
        benchmarks.append({"metadata": {"name": name, "unit": "second"},
                           "runs": [{"metadata": {"loops": 1},
                                     "warmups": [[1, w / 1e9] for w in warm], "values": [v / 1e9 for v in values]}
                                    for warm, values in runs if values]})
    return {"version": "1.0", "metadata": {"hostname": host.get("hostname"), "cpu_model_name": host.get("cpu"),
                                           "cpu_count": host.get("cores"), "platform": host.get("os")},
            "benchmarks": benchmarks}
