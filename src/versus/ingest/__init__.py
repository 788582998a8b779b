"""Results made by other tools, as versus process runs: JMH, hyperfine and pyperf JSON (and versus's own)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import UsageError
from . import hyperfine, jmh, pyperf
from .imported import ImportedArm, plain, read_json, value

__all__ = ["ImportedArm", "detect", "plain", "read", "read_json", "value"]


def detect(data: Any) -> str:
    if isinstance(data, dict) and data.get("format") == "versus.session":
        return "versus"
    if isinstance(data, list) and data and isinstance(data[0], dict) and "primaryMetric" in data[0]:
        return "jmh"
    if isinstance(data, dict) and isinstance(data.get("results"), list) and \
            all(isinstance(r, dict) and ("times" in r or "mean" in r) for r in data["results"]):
        return "hyperfine"
    if isinstance(data, dict) and "benchmarks" in data and str(data.get("version", "")).startswith("1."):
        return "pyperf"
    raise UsageError("not a versus, JMH, hyperfine or pyperf JSON document",
                     "give JMH's -rf json output, hyperfine's --export-json, a pyperf .json(.gz) file or a versus export")


def read(path: Path) -> tuple[str, list[ImportedArm]]:
    data = read_json(path)
    kind = detect(data)
    if kind == "versus":
        return kind, []
    parsers: dict[str, Callable[[Any], list[ImportedArm]]] = {"jmh": jmh.parse, "hyperfine": hyperfine.parse,
                                                             "pyperf": pyperf.parse}
    parser = parsers[kind]
    try:
        arms = parser(data)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError, OverflowError) as error:
        raise UsageError(f"{path} is not a valid {kind} file: {type(error).__name__}: {str(error)[:160]}",
                         f"give the JSON file {kind} wrote, unchanged") from None
    if not arms or not any(arm.runs for arm in arms):
        raise UsageError(f"{path} holds no measured values", f"give a {kind} file with results")
    return kind, arms
