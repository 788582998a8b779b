"""pyperf's JSON (format 1.x): benchmarks of runs; values in seconds per loop iteration, and each
run's `loops` (× `inner_loops`) the iterations one value stands for."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .imported import ImportedArm, value


def _loops(metadata: dict[str, Any]) -> int:
    loops = int(metadata.get("loops", 1) or 1) * int(metadata.get("inner_loops", 1) or 1)
    return max(1, loops)


def parse(data: dict[str, Any]) -> list[ImportedArm]:
    common = data.get("metadata") or {}
    arms = []
    for index, benchmark in enumerate(data["benchmarks"]):
        metadata = {**common, **(benchmark.get("metadata") or {})}
        runs, warmups, loops = [], [], []
        for run in benchmark.get("runs") or []:
            if not run.get("values"):
                continue  # a calibration run
            where = f"benchmarks[{index}]"
            runs.append([value(v * 1e9, where) for v in run["values"]])
            warmups.append([value(pair[1] * 1e9, where) for pair in run.get("warmups") or []])
            loops.append(_loops({**metadata, **(run.get("metadata") or {})}))
        arms.append(ImportedArm(str(metadata.get("name", f"benchmark {index + 1}")), runs, warmups,
                                info={"unit": metadata.get("unit", "second")}, loops=loops))
    return arms


def export(host: Mapping[str, object], arms: list[tuple[str, list[tuple[list[tuple[float, int]], list[tuple[float, int]]]]]]
           ) -> dict[str, Any]:
    """A pyperf suite: one benchmark per arm (its key, swept parameters included), one run per successful
    process run; values in seconds per iteration with the run's real loop count."""
    benchmarks = []
    for name, runs in arms:
        pyperf_runs = []
        for warm, measured in runs:
            if not measured:
                continue
            loops = measured[0][1]
            pyperf_runs.append({"metadata": {"loops": loops},
                                "warmups": [[inner, v / 1e9] for v, inner in warm],
                                "values": [v / 1e9 for v, _ in measured]})
        benchmarks.append({"metadata": {"name": name, "unit": "second"}, "runs": pyperf_runs})
    metadata = {k: v for k, v in {"hostname": host.get("hostname"), "cpu_model_name": host.get("cpu"),
                                  "cpu_count": host.get("cores"), "platform": host.get("os")}.items() if v is not None}
    return {"version": "1.0", "metadata": metadata, "benchmarks": benchmarks}
