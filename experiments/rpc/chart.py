"""The rpc experiment's latency chart, like the post's: one bar per case, the median round trip on a log scale.

Reads a session's JSON document (`versus report SESSION --format json`) and draws, for one JDK, every rpc
case's median round trip (`latency_p50_us`, the median over process runs; whiskers = its 95% confidence
interval; a tick = the p99 round trip), the 2008 setup's and today's, with the post's three 2008 figures (a
MacBook Pro, Java 5) as reference bars. It also prints a table of every case's figures and the claims'
ratios, so the README can quote them from the same session.

    .venv/bin/versus report 7 --format json | .venv/bin/python experiments/rpc/chart.py - -o experiments/rpc/latency.png
    .venv/bin/python experiments/rpc/chart.py session.json [-o latency.png] [--jdk 25]
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# The post's round trips in ms ("Protobuf vs Spring RPC", November 2008).
POST = (("socket (post)", 0.228), ("HTTP (post)", 2.08), ("Spring RPC (post)", 106.8))
# Each case's label and setup, in the chart's order (top to bottom).
CASES = (
    ("socket_2008", "socket, as written", "2008"),
    ("socket_2008_quickack", "socket, ACKs at once (the post's TCP)", "2008"),
    ("socket_2008_nodelay", "socket + TCP_NODELAY", "2008"),
    ("http_2008", "HTTP (httpclient 3.1, Jetty 6)", "2008"),
    ("http_2008_nostale", "HTTP, stale check off", "2008"),
    ("spring_2008", "Spring 2.5.6 HttpInvoker", "2008"),
    ("socket", "socket, buffered + NODELAY", "today"),
    ("http", "HTTP/1.1 (HttpClient 5, Jetty 12)", "today"),
    ("http2", "HTTP/2 h2c", "today"),
    ("spring", "Spring 5.3 HttpInvoker", "today"),
    ("grpc", "gRPC (grpc-java)", "today"),
    ("grpc_direct", "gRPC, handler on event loop", "today"),
)
COLOURS = {"post": "tab:gray", "2008": "tab:orange", "today": "tab:blue"}


def load(source: str) -> dict[str, Any]:
    text = sys.stdin.read() if source == "-" else Path(source).read_text()
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SystemExit(f"chart: {source} is not JSON ({error}); give `versus report N --format json`") from None
    if document.get("format") != "versus.session":
        raise SystemExit(f"chart: {source} is not a versus session document (versus report N --format json)")
    return document


def rpc_arms(document: dict[str, Any], jdk: str) -> dict[str, dict[str, Any]]:
    """The rpc arms measured on the JDK whose major version is `jdk`, by case."""
    found = {}
    for arm in document["arms"]:
        major = str(arm.get("runtime_info", {}).get("jdk_version", "")).split(".")[0]
        if arm.get("experiment") == "rpc" and estimate(arm) and major == jdk:
            found[arm["case"]] = arm
    return found


def estimate(arm: dict[str, Any], metric: str = "latency_p50_us") -> dict[str, float] | None:
    """The arm's metric (µs) with its 95% interval; None if the arm did not report it."""
    found = arm.get("metrics", {}).get(metric)
    return found if isinstance(found, dict) and found.get("value") is not None else None


Bar = tuple[str, str, float, float, float, float]  # label, setup, median ms, low ms, high ms, p99 ms


def rows(arms: dict[str, dict[str, Any]]) -> list[Bar]:
    """One bar per case, the post's figures first."""
    out: list[Bar] = [(label, "post", ms, ms, ms, 0.0) for label, ms in POST]
    for case, label, setup in CASES:
        if case in arms:
            value = estimate(arms[case])
            assert value is not None
            ms = value["value"] / 1e3
            low, high = value.get("low"), value.get("high")  # None when the interval is undefined
            p99 = estimate(arms[case], "latency_p99_us")
            out.append((label, setup, ms, ms if low is None else low / 1e3, ms if high is None else high / 1e3,
                        p99["value"] / 1e3 if p99 else 0.0))
    return out


def table(arms: dict[str, dict[str, Any]]) -> list[str]:
    """A Markdown table of every case's figures (medians over process runs)."""
    lines = ["| case | round trip p50 | p90 | p99 | mean of batches | round trips/s at concurrency 8 |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for case, _, _ in CASES:
        arm = arms.get(case)
        if not arm:
            continue
        cells = []
        for metric in ("latency_p50_us", "latency_p90_us", "latency_p99_us"):
            found = estimate(arm, metric)
            cells.append(f"{found['value']:,.0f} µs" if found else "")
        mean = arm.get("estimate") or {}
        cells.append(f"{mean['value'] / 1e3:,.0f} µs" if mean.get("value") else "")
        rps = estimate(arm, "throughput_rps")
        cells.append(f"{rps['value']:,.0f}" if rps else "")
        lines.append(f"| `{case}` | " + " | ".join(cells) + " |")
    return lines


def settling(arms: dict[str, dict[str, Any]]) -> list[str]:
    """Each case's median round trip per process run, in round order, with their spread (the SD of
    their logs, as a percentage) and the warmup round trips each made: whether a stack settled."""
    lines = ["| case | processes | p50 per process (µs), in round order | spread | warmup round trips |",
             "| --- | ---: | --- | ---: | --- |"]
    for case, _, _ in CASES:
        arm = arms.get(case)
        if not arm:
            continue
        p50s, warmups = [], []
        for run in sorted(arm.get("runs", []), key=lambda r: r.get("round", 0)):
            found = {m[0]: m[1] for m in run.get("metrics") or [] if run.get("status") == "ok"}
            if "latency_p50_us" in found:
                p50s.append(float(found["latency_p50_us"]))
                warmups.append(int(found.get("warmup_round_trips", 0)))
        if not p50s:
            continue
        logs = [math.log(v) for v in p50s]
        mean = sum(logs) / len(logs)
        spread = math.sqrt(sum((x - mean) ** 2 for x in logs) / (len(logs) - 1)) if len(logs) > 1 else 0.0
        span = f"{min(warmups):,}" if min(warmups) == max(warmups) else f"{min(warmups):,} to {max(warmups):,}"
        lines.append(f"| `{case}` | {len(p50s)} | " + ", ".join(f"{v:,.0f}" for v in p50s) + f" | {spread:.0%} | {span} |")
    return lines


def draw(bars: list[Bar], title: str, output: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 0.42 * len(bars) + 1.6))
    positions = list(range(len(bars)))[::-1]
    for y, (_label, setup, ms, low, high, p99) in zip(positions, bars):
        axes.barh(y, ms, color=COLOURS[setup], height=0.7)
        if high > low:
            axes.errorbar(ms, y, xerr=[[ms - low], [high - ms]], fmt="none", ecolor="black", capsize=3, linewidth=1)
        if p99 > 0:
            axes.plot([p99], [y], marker="|", color="black", markersize=12)
        axes.text(high * 1.15, y, f"{ms:.3g} ms", va="center", fontsize=8)
    axes.set_yticks(positions, [b[0] for b in bars], fontsize=8)
    axes.set_xscale("log")
    axes.set_xlabel("round trip, ms (median, 95% CI; | = p99; log scale)")
    axes.set_title(title, fontsize=10)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in COLOURS.values()]
    axes.legend(handles, ["the post (2008, Mac OS X)", "2008 setup, here", "today's setup, here"], fontsize=8,
                loc="upper right")
    right = max(max(b[4], b[5]) for b in bars)
    axes.set_xlim(min(b[3] for b in bars) / 2, right * 8)
    figure.tight_layout()
    figure.savefig(output, dpi=110)


def claims(document: dict[str, Any]) -> list[str]:
    lines = []
    for claim in document.get("claims", []):
        if claim.get("experiment") != "rpc":
            continue
        for instance in claim["instances"]:
            ratio = instance["ratio"]
            low, high = (f"{ratio[k]:.3g}" if ratio.get(k) is not None else "?" for k in ("low", "high"))
            lines.append(f"{claim['id']}: {ratio['value']:.3g}× [{low}, {high}] "
                         f"{instance['verdict']} ({instance['numerator']} ÷ {instance['denominator']})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("session", help="a session's JSON document, or - for stdin")
    parser.add_argument("-o", "--output", default="latency.png", help="the PNG to write")
    parser.add_argument("--jdk", default="17", help="the JDK's major version (default 17)")
    args = parser.parse_args(argv)
    document = load(args.session)
    arms = rpc_arms(document, args.jdk)
    if not arms:
        raise SystemExit(f"chart: the session has no measured rpc arm on JDK {args.jdk}")
    session = document["session"]
    day = datetime.fromtimestamp(float(session.get("created", 0)), UTC).strftime("%Y-%m-%d")
    title = f"One MediaContent round trip on loopback, java@{args.jdk} (versus session {session.get('id')}, {day})"
    draw(rows(arms), title, Path(args.output))
    print(f"wrote {args.output}")
    for line in table(arms):
        print(line)
    print()
    for line in settling(arms):
        print(line)
    for line in claims(document):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
