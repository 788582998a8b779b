"""Every case of the dispatch experiment against the post's "direct invocation", per runtime.

Reads a session's JSON document (`versus report SESSION --format json`, or
`versus-results/session-N/session.json`) and prints a Markdown table: for each case, its median time per
call and its ratio to interface_call (the post's "direct invocation") and to direct_static on the same
runtime. The bracket is a conservative interval from the two arms' 95% intervals (each a Student t
interval over the arm's processes; low ÷ high, high ÷ low). The claims' own intervals come from the
per-round paired log ratios (Yuen's trimmed mean, at the sequential looks' levels: docs/method.md)
and are in `versus report`.

    .venv/bin/versus report 7 --format json | .venv/bin/python experiments/dispatch/ratios.py -
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

CASES = ["direct_static", "interface_call", "reflect_new_array", "reflect_shared_array", "handle_static_final",
         "handle_field", "lambda_metafactory"]


def ratio(top: dict[str, float], bottom: dict[str, float]) -> str:
    value = top["value"] / bottom["value"]
    low = top["low"] / bottom["high"] if bottom["high"] else float("nan")
    high = top["high"] / bottom["low"] if bottom["low"] else float("inf")
    return f"{value:.2f}× [{low:.2f}, {high:.2f}]"


def table(document: dict[str, Any]) -> str:
    arms = {(a["runtime"], a["case"]): a["median"] for a in document["arms"]
            if a.get("experiment") == "dispatch" and a.get("median")}
    runtimes = sorted({runtime for runtime, _ in arms}, key=lambda r: (r.split("@")[1].split("+")[0].zfill(3), r))
    lines = ["| runtime | case | ns per call | ÷ interface_call | ÷ direct_static |",
             "| --- | --- | ---: | ---: | ---: |"]
    for runtime in runtimes:
        for case in CASES:
            median = arms.get((runtime, case))
            if median is None:
                continue
            cells = [runtime, case, f"{median['value']:.2f}"]
            for base in ("interface_call", "direct_static"):
                other = arms.get((runtime, base))
                cells.append(ratio(median, other) if other else "–")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    text = sys.stdin.read() if argv[0] == "-" else Path(argv[0]).read_text()
    print(table(json.loads(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
