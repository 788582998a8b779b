"""Markdown tables of the Python arms of a serialization session, one per runtime, from versus's JSON report.

    versus report SESSION --format json | python experiments/serialization/python/tables.py

Columns: the medians (95% CI) of create_ns, serialize_ns and deserialize_ns, the sample time
(serialize + deserialize) and the sizes, per case; rows in order of serialize + deserialize.
"""
from __future__ import annotations

import json
import sys
from typing import Any


def fmt_ns(value: float) -> str:
    return f"{value / 1000:.2f} µs" if value >= 1000 else f"{value:.0f} ns"


def interval(estimate: dict[str, Any]) -> dict[str, Any]:
    """{value, low, high} of an arm's time or a metric, in the report's format of either harness version
    (an "estimate", or a "median" with its interval)."""
    if isinstance(estimate.get("estimate"), dict):
        return estimate["estimate"]
    return estimate["median"] if isinstance(estimate.get("median"), dict) else estimate


def cell(estimate: dict[str, Any]) -> str:
    found = interval(estimate)
    if found.get("low") is None or found.get("high") is None:
        return fmt_ns(found["value"])
    return f"{fmt_ns(found['value'])} [{fmt_ns(found['low'])}, {fmt_ns(found['high'])}]"


def tables(doc: dict[str, Any]) -> str:
    arms = [a for a in doc["arms"] if a["case"].startswith("py_") and (a.get("estimate") or a.get("median"))]
    out = []
    groups = sorted({(a["params"].get("value", "standard"), a["runtime"]) for a in arms})
    for value, runtime in groups:
        rows = sorted((a for a in arms if a["runtime"] == runtime and a["params"].get("value", "standard") == value),
                      key=lambda a: interval(a)["value"])
        out.append(f"#### {runtime}, value {value}\n")
        out.append("| case | create | serialize | deserialize | serialize + deserialize | size | deflate | processes |")
        out.append("|---|---|---|---|---|---|---|---|")
        for a in rows:
            m = a["metrics"]
            out.append(f"| {a['case'][3:]} | {cell(m['create_ns'])} | {cell(m['serialize_ns'])} | "
                       f"{cell(m['deserialize_ns'])} | {cell(a)} | {interval(m['size'])['value']:.0f} B | "
                       f"{interval(m['deflate_size'])['value']:.0f} B | {a['processes_ok']} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(tables(json.load(sys.stdin)))
