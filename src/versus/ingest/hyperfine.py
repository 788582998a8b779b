"""hyperfine's `--export-json`: each time is one whole process, so each is a process run of one sample."""
from __future__ import annotations

from typing import Any

from . import ImportedArm


def parse(data: dict[str, Any]) -> list[ImportedArm]:
    arms = []
    for result in data["results"]:
        times = result.get("times") or [result["mean"]]
        arms.append(ImportedArm(result["command"], [[t * 1e9] for t in times],
                                info={"exit_codes": result.get("exit_codes"), "parameters": result.get("parameters")}))
    return arms
