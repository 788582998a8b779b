"""The "then and now" chart of the fib experiment: fib_recursive time across JRuby versions, 2007 to 2026.

Reads a session's JSON document (`versus report SESSION --format json > session.json`, or
`versus-results/session-N/session.json`) and draws, on one JDK, the median time of fib_recursive on
each JRuby version (compiled and interpreted, against the version's release year), with CRuby 3.1 and
CRuby 3.1 + YJIT as horizontal lines; whiskers and bands are the 95% confidence intervals.

    .venv/bin/python experiments/fib/then_and_now.py SESSION.json [-o then_and_now.png] [--jdk 25]
    .venv/bin/versus report 7 --format json | .venv/bin/python experiments/fib/then_and_now.py - -o chart.png
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

# The year each JRuby release was published (JRuby 1.0: June 2007; the others: the build dates inside
# their jruby-complete jars on Maven Central).
RELEASE_YEARS = {"1.0": 2007, "1.7.27": 2017, "9.4.14.0": 2025, "10.1.1.0": 2026}
CASE = "fib_recursive"
MODES = (("jit", "JRuby compiled", "tab:blue", "o"), ("int", "JRuby interpreted", "tab:orange", "s"))
LINES = ((("cruby", ()), "CRuby 3.1", "tab:red"), (("cruby", ("yjit",)), "CRuby 3.1 + YJIT", "tab:green"))


def load(source: str) -> dict[str, Any]:
    text = sys.stdin.read() if source == "-" else Path(source).read_text()
    document = json.loads(text)
    if document.get("format") != "versus.session":
        raise SystemExit(f"then_and_now: {source} is not a versus session document (versus report N --format json)")
    return document


def fib_arms(document: dict[str, Any]) -> list[dict[str, Any]]:
    # an arm needs its interval's both ends (one process has none): the chart draws whiskers
    return [a for a in document["arms"] if a.get("experiment") == "fib" and a.get("case") == CASE
            and (a.get("estimate") or {}).get("low") is not None and (a.get("estimate") or {}).get("high") is not None]


def jdk_of(arm: dict[str, Any]) -> str:
    version = str(arm["runtime_info"].get("jdk_version", ""))
    parts = version.split(".")
    return parts[1] if parts[0] == "1" and len(parts) > 1 else parts[0]


def choose_jdk(arms: list[dict[str, Any]], wanted: str | None) -> str:
    jdks = sorted({jdk_of(a) for a in arms if a["runtime_info"]["family"] == "jruby"}, key=lambda j: int(j or 0))
    if not jdks:
        raise SystemExit("then_and_now: the document has no JRuby arm of fib_recursive with a result")
    if wanted:
        if wanted not in jdks:
            raise SystemExit(f"then_and_now: no JRuby arm on java@{wanted}; the document has java@{', java@'.join(jdks)}")
        return wanted
    return jdks[-1]  # the newest JDK: the only one that hosts JRuby 10


def series(arms: list[dict[str, Any]], jdk: str) -> dict[str, list[tuple[str, int, dict[str, float]]]]:
    """mode -> [(version, year, median interval)], sorted by year."""
    out: dict[str, list[tuple[str, int, dict[str, float]]]] = {mode: [] for mode, *_ in MODES}
    for arm in arms:
        info = arm["runtime_info"]
        if info["family"] != "jruby" or jdk_of(arm) != jdk:
            continue
        flags = tuple(info.get("flags", []))
        mode = "int" if "int" in flags else "jit"
        year = RELEASE_YEARS.get(info["version"])
        if year is None:  # a version this table does not know: place it by its major number
            year = 2000 + int(info["version"].split(".")[0])
        out[mode].append((info["version"], year, arm["estimate"]))
    for points in out.values():
        points.sort(key=lambda p: p[1])
    return out


def draw(document: dict[str, Any], output: Path, jdk: str | None) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    arms = fib_arms(document)
    jdk = choose_jdk(arms, jdk)
    ms = 1e-6
    figure, axes = plt.subplots(figsize=(8, 5))
    points_by_mode = series(arms, jdk)
    # one evenly spaced slot per JRuby version, in release order, labelled with version and year
    slots = sorted({(p[1], p[0]) for points in points_by_mode.values() for p in points},
                   key=lambda yv: (yv[0], [int(x) for x in yv[1].split(".") if x.isdigit()]))
    index = {version: i for i, (_, version) in enumerate(slots)}
    for mode, label, color, marker in MODES:
        points = points_by_mode[mode]
        if not points:
            continue
        xs = [index[p[0]] for p in points]
        values = [p[2]["value"] * ms for p in points]
        low = [(p[2]["value"] - p[2]["low"]) * ms for p in points]
        high = [(p[2]["high"] - p[2]["value"]) * ms for p in points]
        axes.errorbar(xs, values, yerr=[low, high], color=color, marker=marker, capsize=4, label=label)
    for (family, flags), label, color in LINES:
        for arm in arms:
            info = arm["runtime_info"]
            if info["family"] == family and tuple(info.get("flags", [])) == flags:
                median = arm["estimate"]
                axes.axhline(median["value"] * ms, color=color, linestyle="--",
                             label=f"{label} ({median['value'] * ms:.0f} ms)")
                axes.axhspan(median["low"] * ms, median["high"] * ms, color=color, alpha=0.15)
                break
    axes.set_xticks(range(len(slots)))
    axes.set_xticklabels([f"JRuby {version}\n{year}" for year, version in slots])
    axes.set_xlim(-0.5, len(slots) - 0.5)
    axes.set_yscale("log")
    axes.set_xlabel("JRuby version and release year")
    axes.set_ylabel("fib(30), ms per call (median, 95% CI)")
    session = document.get("session", {}).get("id", "?")
    axes.set_title(f"fib_recursive: JRuby then and now, on java@{jdk} (session {session})")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(output, dpi=120)
    plt.close(figure)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("document", help="a session's JSON document, or - for stdin")
    parser.add_argument("-o", "--output", default="then_and_now.png", help="the PNG to write")
    parser.add_argument("--jdk", help="the JDK of the JRuby arms (default: the newest in the document)")
    args = parser.parse_args(argv)
    print(draw(load(args.document), Path(args.output), args.jdk))
    return 0


if __name__ == "__main__":
    sys.exit(main())
