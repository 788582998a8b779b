"""What an import reads: a JSON file within bounds, checked to be plain data, and another tool's
benchmark as an ImportedArm of ns-per-iteration values."""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..files import read_bounded

MAX_NS = 1e18  # a value beyond ~30 years per iteration is not a measurement
MAX_BYTES = 256 << 20  # an import file, and what it expands to: a session of a million samples is ~60 MB
MAX_DEPTH = 64  # nesting of objects and arrays: a versus document needs 10
INT64 = 1 << 63  # SQLite's integers: -2^63 to 2^63 - 1


@dataclass
class ImportedArm:
    """One benchmark of the other tool, with its forks/processes as groups of ns-per-iteration values."""

    name: str
    runs: list[list[float]]
    warmups: list[list[float]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    loops: list[int] = field(default_factory=list)  # iterations per sample in each run, where known


def read_json(path: Path) -> Any:
    """A JSON file, gzip-compressed when it ends in .gz, read within bounds (files.read_bounded) and
    checked to be plain data a database can hold (`plain`); every failure an error that says what."""
    raw = read_bounded(path, MAX_BYTES, "results file")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError as error:
        raise UsageError(f"{path} is not UTF-8 text ({error.reason} at byte {error.start})",
                         "give the JSON file the tool wrote, unchanged") from None
    except (ValueError, RecursionError) as error:
        raise UsageError(f"{path} is not valid JSON: {str(error)[:120]}",
                         "give the JSON file the tool wrote, unchanged") from None
    del raw
    problem = plain(data)
    if problem:
        raise UsageError(f"{path}: {problem}", "give the JSON file the tool wrote, unchanged")
    return data


def plain(data: Any) -> str:
    """'' when `data` (parsed JSON) is nested at most MAX_DEPTH deep, its numbers are finite and its
    integers fit SQLite, and its text is text (no lone surrogate, which no encoder writes); else what
    is wrong and where. Iterative: no input is deep enough to exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, dict):
            items: Any = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            if isinstance(value, str) and _SURROGATE.search(value):
                return f"{where or 'a value'}: text with a lone surrogate ({value[:40]!r})"
            if isinstance(value, int) and not isinstance(value, bool) and not -INT64 <= value < INT64:
                return f"{where or 'a value'}: {str(value)[:30]} is beyond the integers a database holds (±2^63)"
            if isinstance(value, float) and not math.isfinite(value):
                return f"{where or 'a value'}: a number beyond what a double holds"
            continue
        if depth >= MAX_DEPTH:
            return f"{where or 'the document'}: nested deeper than {MAX_DEPTH} levels"
        for key, item in items:
            if isinstance(key, str) and _SURROGATE.search(key):
                return f"{where or 'the document'}: a key with a lone surrogate ({key[:40]!r})"
            stack.append((item, f"{where}[{key!r}]" if isinstance(key, int) else f"{where}.{key}".lstrip("."), depth + 1))
    return ""


_SURROGATE = re.compile("[\ud800-\udfff]")


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def value(number: Any, where: str) -> float:
    """A measured value (ns): finite, positive, not absurd."""
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise ValueError(f"{where}: {str(number)[:40]!r} is not a number")
    result = float(number)
    if not math.isfinite(result) or not 0 < result < MAX_NS:
        raise ValueError(f"{where}: {number!r} is not a positive finite time")
    return result
