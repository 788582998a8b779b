"""Results made by other tools, as versus process runs: JMH, hyperfine and pyperf JSON."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError


@dataclass
class ImportedArm:
    """One benchmark of the other tool, with its forks/processes as groups of ns-per-iteration values."""

    name: str
    runs: list[list[float]]
    warmups: list[list[float]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)


def detect(data: Any) -> str:
    if isinstance(data, list) and data and isinstance(data[0], dict) and "primaryMetric" in data[0]:
        return "jmh"
    if isinstance(data, dict) and isinstance(data.get("results"), list) and \
            all("times" in r or "mean" in r for r in data["results"]):
        return "hyperfine"
    if isinstance(data, dict) and "benchmarks" in data and str(data.get("version", "")).startswith("1."):
        return "pyperf"
    raise UsageError("not a JMH, hyperfine or pyperf JSON document",
                     "give JMH's -rf json output, hyperfine's --export-json, or a pyperf .json file")


def read(path: Path) -> tuple[str, list[ImportedArm]]:
    from . import hyperfine, jmh, pyperf

    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise UsageError(f"cannot read {path}: {error}", "give a JSON file written by JMH, hyperfine or pyperf") from None
    kind = detect(data)
    if kind == "jmh":
        return kind, jmh.parse(data)
    return kind, (hyperfine.parse(data) if kind == "hyperfine" else pyperf.parse(data))
