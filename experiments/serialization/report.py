"""serialization's own charts in the HTML report (section 5): charts.py's four 2008-style panels (create,
serialize, deserialize, size), one figure per value the session measured, as SVG.

The report calls `figures(doc)` with the session's JSON document (the report.py hook of versus.report.html).
"""
from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from typing import Any

VALUES = ("standard", "2008", "unicode", "large")


def _charts() -> Any:
    spec = importlib.util.spec_from_file_location("serialization_charts", Path(__file__).with_name("charts.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # charts.py's dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def figures(doc: dict[str, Any]) -> list[tuple[str, str]]:
    charts = _charts()
    session = (doc.get("session") or {}).get("id", "?")
    out: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        for value in VALUES:
            rows = charts.rows(doc, value, "cpython@3.13")
            if not rows:
                continue
            drawn = charts.draw(rows, Path(folder) / f"{value}.svg", value, session)
            out.append((f"MediaContent, {value} value: create, serialize, deserialize, size", Path(drawn).read_text()))
    return out
