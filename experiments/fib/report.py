"""fib's own chart in the HTML report (section 5): then_and_now.py's JRuby line, as SVG.

The report calls `figures(doc)` with the session's JSON document (versus.report.html, the report.py
hook) inside its matplotlib style.
"""
from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from typing import Any


def _then_and_now() -> Any:
    spec = importlib.util.spec_from_file_location("fib_then_and_now", Path(__file__).with_name("then_and_now.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def figures(doc: dict[str, Any]) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as folder:
        try:
            drawn = _then_and_now().draw(doc, Path(folder) / "then_and_now.svg", None)
        except SystemExit:  # its way of saying the session has no JRuby arm of fib_recursive
            return []
        return [("fib_recursive on JRuby, then and now (median, 95% CI)", Path(drawn).read_text())]
