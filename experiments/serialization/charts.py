"""Charts and a table of a serialization session, in the manner of the 2008 posts: one bar chart each for
create, serialize, deserialize (time per operation) and size (bytes), one bar per serializer.

Reads a session's JSON document (`versus report N --format json > session.json`, or
`versus-results/session-N/session.json`). JVM arms are cases named SERIALIZER_OPERATION (operation: create,
serialize, deserialize, roundtrip, read_two); Python arms (py_*) report their operations as the metrics
create_ns, serialize_ns, deserialize_ns. Bars are medians with their 95% intervals; colours say which
artifacts ran: 2008's (jmh-2008, JDK 17), today's on JDK 17 or 25, Python.

    .venv/bin/python experiments/serialization/charts.py SESSION.json [-o DIR] [--value standard]
    .venv/bin/versus report 7 --format json | .venv/bin/python experiments/serialization/charts.py - -o charts/

It writes DIR/serialization-VALUE.png and prints a Markdown table (time per operation, size) to stdout.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OPERATIONS = ("create", "serialize", "deserialize", "roundtrip", "read_two")
PANELS = (("create", "Object creation (ns)"), ("serialize", "Serialization (ns)"),
          ("deserialize", "Deserialization, every field read (ns)"), ("size", "Serialized size (bytes)"))
COLOURS = {"2008": "tab:orange", "jdk17": "tab:blue", "jdk25": "tab:green", "python": "tab:purple"}
LEGEND = {"2008": "2008's artifacts (protobuf 2.5.0, libthrift 0.6.1), JDK 17", "jdk17": "today's, JDK 17",
          "jdk25": "today's, JDK 25", "python": "Python (CPython 3.13)"}


@dataclass
class Row:
    """One serializer on one runtime: its operations' medians [low, high] in ns, and its size in bytes."""

    name: str
    group: str
    times: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    size: float | None = None
    deflated: float | None = None


def load(source: str) -> dict[str, Any]:
    text = sys.stdin.read() if source == "-" else Path(source).read_text()
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SystemExit(f"charts: {source} is not JSON ({error.msg}); give `versus report N --format json`") from None
    if not isinstance(document, dict) or document.get("format") != "versus.session":
        raise SystemExit(f"charts: {source} is not a versus session document (versus report N --format json)")
    return document


def _estimate(arm: dict[str, Any]) -> tuple[float, float, float] | None:
    """The arm's median per iteration with its interval (the document's estimate; older ones: median)."""
    got = arm.get("estimate") or arm.get("median")
    if not got or got.get("value") is None:
        return None
    value = float(got["value"])
    return value, float(got.get("low") if got.get("low") is not None else value), \
        float(got.get("high") if got.get("high") is not None else value)


def _metric(arm: dict[str, Any], name: str) -> tuple[float, float, float] | None:
    got = (arm.get("metrics") or {}).get(name)
    if not got or got.get("value") is None:
        return None
    value = float(got["value"])
    return value, float(got.get("low") or value), float(got.get("high") or value)


def _group(arm: dict[str, Any], serializer: str) -> str:
    info = arm.get("runtime_info") or {}
    if info.get("family") not in (None, "java"):
        return "python"
    if "2008" in serializer:
        return "2008"
    version = str(info.get("version") or arm.get("runtime", "")).split("@")[-1]
    return "jdk25" if version.startswith("25") else "jdk17"


def rows(document: dict[str, Any], value: str, python_runtime: str) -> list[Row]:
    found: dict[tuple[str, str], Row] = {}
    for arm in document.get("arms", []):
        if arm.get("experiment") != "serialization" or str((arm.get("params") or {}).get("value")) != value:
            continue
        case = str(arm["case"])
        if case.startswith("py_"):
            if not str(arm.get("runtime", "")).startswith(python_runtime):
                continue
            row = found.setdefault((case, "python"), Row(case, "python"))
            for operation in ("create", "serialize", "deserialize"):
                measured = _metric(arm, f"{operation}_ns")
                if measured:
                    row.times[operation] = measured
            estimate = _estimate(arm)
            if estimate:
                row.times["roundtrip"] = estimate
        else:
            serializer, _, operation = case.rpartition("_")
            if operation == "two" and serializer.endswith("_read"):
                serializer, operation = serializer[: -len("_read")], "read_two"
            if operation not in OPERATIONS:
                continue
            group = _group(arm, serializer)
            row = found.setdefault((serializer, group), Row(serializer, group))
            estimate = _estimate(arm)
            if estimate:
                row.times[operation] = estimate
        size, deflated = _metric(arm, "size"), _metric(arm, "deflate_size")
        if size:
            row.size = size[0]
        if deflated:
            row.deflated = deflated[0]
    order = list(COLOURS)
    return sorted(found.values(), key=lambda r: (order.index(r.group), r.name))


def label(row: Row) -> str:
    return f"{row.name} ({'JDK 25' if row.group == 'jdk25' else 'JDK 17' if row.group in ('jdk17', '2008') else 'Python'})"


BASELINES = {"2008": "protobuf2008", "jdk17": "protobuf", "jdk25": "protobuf", "python": "py_protobuf"}


def total(row: Row) -> float | None:
    """jvm-serializers' "total": the roundtrip arm where it was measured, else serialize + deserialize."""
    if "roundtrip" in row.times:
        return row.times["roundtrip"][0]
    if "serialize" in row.times and "deserialize" in row.times:
        return row.times["serialize"][0] + row.times["deserialize"][0]
    return None


def table(rows_: list[Row], value: str) -> str:
    """The rows as Markdown, with each total ÷ protobuf SPEED's on the same runtime (jvm-serializers'
    "total" against its protobuf row: a ratio of this session's medians, not a paired estimate)."""
    def cell(row: Row, operation: str) -> str:
        got = row.times.get(operation)
        return "" if not got else _human(got[0])

    baseline = {r.group: total(r) for r in rows_ if r.name == BASELINES[r.group] and total(r)}

    def ratio(row: Row) -> str:
        got, base = total(row), baseline.get(row.group)
        return "" if not got or not base else f"{got / base:.2f}"

    lines = [f"value `{value}`; medians per operation (ns, µs, ms); sizes in bytes (deflated); total (the "
             "roundtrip, else serialize + deserialize) ÷ protobuf's on the same runtime (protobuf2008 for 2008's "
             "artifacts)", "",
             "| serializer | runtime | create | serialize | deserialize | roundtrip | read_two | size (deflated) "
             "| total ÷ protobuf |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in rows_:
        size = "" if row.size is None else f"{row.size:.0f}" + ("" if row.deflated is None else f" ({row.deflated:.0f})")
        runtime = {"2008": "2008 artifacts, JDK 17", "jdk17": "JDK 17", "jdk25": "JDK 25", "python": "Python"}[row.group]
        lines.append(f"| {row.name} | {runtime} | " + " | ".join(cell(row, op) for op in OPERATIONS)
                     + f" | {size} | {ratio(row)} |")
    return "\n".join(lines)


def _human(ns: float) -> str:
    if ns >= 1e6:
        return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns:.3g} ns"


def draw(rows_: list[Row], output: Path, value: str, session: object) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(2, 2, figsize=(15, 13))
    for axis, (key, title) in zip(axes.flat, PANELS, strict=True):
        shown = [r for r in rows_ if (r.size is not None if key == "size" else key in r.times)]
        shown.sort(key=lambda r: (r.size or 0) if key == "size" else r.times[key][0])
        positions = range(len(shown))
        if not shown:  # `--quick` measures only the claims' arms: no deserialize arm, for one
            axis.set_title(title)
            axis.text(0.5, 0.5, "not measured in this session\n(`versus run serialization` measures every serializer)",
                      ha="center", va="center", transform=axis.transAxes, fontsize=10, color="#555555")
            axis.set_xticks([])
            axis.set_yticks([])
            continue
        if key == "size":
            values = [r.size or 0.0 for r in shown]
            axis.barh(positions, values, color=[COLOURS[r.group] for r in shown])
            axis.barh(positions, [r.deflated or 0.0 for r in shown], color="white", alpha=0.45, hatch="//",
                      label="deflated")
        else:
            values = [r.times[key][0] for r in shown]
            errors = [[r.times[key][0] - r.times[key][1] for r in shown], [r.times[key][2] - r.times[key][0] for r in shown]]
            axis.barh(positions, values, xerr=errors, color=[COLOURS[r.group] for r in shown], capsize=2)
            axis.set_xscale("log")
        axis.set_yticks(list(positions))
        axis.set_yticklabels([label(r) for r in shown], fontsize=7)
        axis.set_title(title)
        axis.grid(True, axis="x", which="both", alpha=0.3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=COLOURS[g]) for g in COLOURS if any(r.group == g for r in rows_)]
    names = [LEGEND[g] for g in COLOURS if any(r.group == g for r in rows_)]
    figure.legend(handles, names, loc="lower center", ncol=len(names), fontsize=9)
    figure.suptitle(f"MediaContent ({value} value): create, serialize, deserialize, size (session {session}; "
                    "medians, 95% intervals; times on a log scale)")
    figure.tight_layout(rect=(0, 0.03, 1, 0.97))
    figure.savefig(output, dpi=110)
    plt.close(figure)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("document", help="a session's JSON document, or - for stdin")
    parser.add_argument("-o", "--output", default=".", help="folder for the PNG")
    parser.add_argument("--value", default="standard", help="which value's arms: standard, 2008, unicode, large")
    parser.add_argument("--python", default="cpython@3.13", help="the Python runtime whose arms are drawn")
    args = parser.parse_args(argv)
    document = load(args.document)
    found = rows(document, args.value, args.python)
    if not found:
        raise SystemExit(f"charts: no serialization arm with value={args.value} in the document")
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    session = (document.get("session") or {}).get("id", "?")
    print(draw(found, folder / f"serialization-{args.value}.png", args.value, session), file=sys.stderr)
    print(table(found, args.value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
