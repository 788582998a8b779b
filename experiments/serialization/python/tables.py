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


def cell(interval: dict[str, float]) -> str:
    return f"{fmt_ns(interval['value'])} [{fmt_ns(interval['low'])}, {fmt_ns(interval['high'])}]"


def tables(doc: dict[str, Any]) -> str:
    arms = [a for a in doc["arms"] if a["case"].startswith("py_") and a.get("median")]
    out = []
    for runtime in sorted({a["runtime"] for a in arms}):
        rows = sorted((a for a in arms if a["runtime"] == runtime), key=lambda a: a["median"]["value"])
        values = sorted({a["params"].get("value", "standard") for a in rows})
        out.append(f"#### {runtime} (value {', '.join(values)})\n")
        out.append("| case | create | serialize | deserialize | serialize + deserialize | size | deflate | processes |")
        out.append("|---|---|---|---|---|---|---|---|")
        for a in rows:
            m = a["metrics"]
            out.append(f"| {a['case'][3:]} | {cell(m['create_ns']['median'])} | {cell(m['serialize_ns']['median'])} | "
                       f"{cell(m['deserialize_ns']['median'])} | {cell(a['median'])} | {m['size']['median']['value']:.0f} B | "
                       f"{m['deflate_size']['median']['value']:.0f} B | {a['processes_ok']} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(tables(json.load(sys.stdin)))
