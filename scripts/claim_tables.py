"""The claims of a session as the Markdown tables of docs/results.md and the experiments' READMEs.

    versus report 1 --format json > run.json
    .venv/bin/python scripts/claim_tables.py run.json              # every experiment, under #### headings
    .venv/bin/python scripts/claim_tables.py run.json fib          # one experiment's table
    .venv/bin/python scripts/claim_tables.py run.json --counts     # decided claims per experiment
    .venv/bin/python scripts/claim_tables.py --across run*.json    # the claims' verdicts over several runs

It reads the versioned session document (`versus report --format json`, `session.json`), so it
prints what the report printed: each instance's interval is the one that decided it, at its level.
"""
from __future__ import annotations

import json
import sys
from typing import Any

from _stored import run

from versus.report import units

HEADER = ("| claim | bound | verdict | instance | measured [interval at its level] | rounds |\n"
          "| --- | --- | --- | --- | --- | ---: |")


def _bound(expected: dict[str, float | None]) -> str:
    return units.metric_bounds(expected.get("min"), expected.get("max"))


def _labels(doc: dict[str, Any]) -> dict[str, tuple[str, str]]:
    out = {}
    for arm in doc["arms"]:
        label = f"{arm['case']}[{arm['variant']}]" if arm.get("variant") else arm["case"]
        out[arm["key"]] = (label, arm["runtime"])
    return out


def _instance(instance: dict[str, Any], labels: dict[str, tuple[str, str]]) -> str:
    top = labels[instance["numerator"]]
    if instance.get("denominator") is None:
        return f"{top[0]} on {top[1]}: {instance['verdict']}"
    bottom = labels[instance["denominator"]]
    if top[1] == bottom[1]:
        what = f"{top[0]} ÷ {bottom[0]} on {top[1]}"
    elif top[0] == bottom[0]:
        what = f"{top[0]}: {top[1]} ÷ {bottom[1]}"
    else:
        what = f"{top[0]} on {top[1]} ÷ {bottom[0]} on {bottom[1]}"
    return f"{what}: {instance['verdict']}"


def _measured(instance: dict[str, Any], ratio: bool) -> str:
    shown, sign = instance.get("ratio"), "×" if ratio else ""
    if shown is None:
        return instance.get("note") or "no interval"
    if instance.get("note"):
        return f"{shown['value']:.3g}{sign} (rounds disagree: no usable interval yet)"
    ends = instance.get("ends_one_sided")
    level = f"at {units.level(ends[0])} / {units.level(ends[1])} one-sided" if ends and abs(ends[0] - ends[1]) > 1e-12 \
        else f"at {units.level(instance['level'])}"
    return f"{shown['value']:.3g}{sign} [{shown['low']:.3g}, {shown['high']:.3g}] {level}"


def table(doc: dict[str, Any], experiment: str) -> str:
    labels = _labels(doc)
    rows = [HEADER]
    for claim in doc["claims"]:
        if claim["experiment"] != experiment or claim["verdict"] == "not measured":
            continue
        head = [f"`{claim['id']}`", _bound(claim["expected"]), f"**{claim['verdict']}**"]
        for index, instance in enumerate(claim["instances"]):
            cells = head if index == 0 else ["", "", ""]
            ratio = instance.get("denominator") is not None
            cells = cells + [_instance(instance, labels), _measured(instance, ratio), str(instance["rounds"])]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def counts(doc: dict[str, Any]) -> str:
    lines, total, decided = [], 0, 0
    for experiment in dict.fromkeys(c["experiment"] for c in doc["claims"]):
        measured = [c for c in doc["claims"] if c["experiment"] == experiment and c["verdict"] != "not measured"]
        done = [c for c in measured if c["verdict"] in ("holds", "does not hold")]
        total, decided = total + len(measured), decided + len(done)
        lines.append(f"{experiment}: {len(done)} of {len(measured)}")
    return "\n".join(lines + [f"all: {decided} of {total}"])


DECIDED = ("holds", "does not hold")


def across(docs: list[dict[str, Any]]) -> str:
    """Per claim, its verdict in each run, for the claims not decided alike in all of them: FLIP where
    one run said holds and another does not hold; then how many were decided in at least one run, in
    all, and in none."""
    keys = list(dict.fromkeys((c["experiment"], c["id"]) for doc in docs for c in doc.get("claims", [])))
    verdicts = [{(c["experiment"], c["id"]): c["verdict"] for c in doc.get("claims", [])} for doc in docs]
    lines, some, every, flips = [], 0, 0, 0
    for key in keys:
        seen = [run.get(key, "-") for run in verdicts]
        decided = {v for v in seen if v in DECIDED}
        some, every = some + bool(decided), every + all(v in DECIDED for v in seen)
        flips += len(decided) > 1
        if len(set(seen)) > 1 or not decided:
            mark = "FLIP " if len(decided) > 1 else ""
            lines.append(f"{mark}{key[0]} {key[1]}: " + ", ".join(seen))
    lines.append(f"{len(keys)} claims over {len(docs)} runs: decided in at least one {some}, in all {every}, "
                 f"in none {len(keys) - some}; holds in one run and does not hold in another: {flips}")
    return "\n".join(lines)


def _read(path: str) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            doc: dict[str, Any] = json.load(handle)
            return doc
    except (OSError, ValueError) as error:
        print(f"claim_tables: cannot read {path}: {error}; make it with `versus report N --format json > FILE`",
              file=sys.stderr)
        return None


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    if argv[0] == "--across":
        docs = [_read(path) for path in argv[1:]]
        if not docs or any(doc is None for doc in docs):
            return 2
        print(across([doc for doc in docs if doc is not None]))
        return 0
    read = _read(argv[0])
    if read is None:
        return 2
    doc = read
    experiments = list(dict.fromkeys(c["experiment"] for c in doc.get("claims", [])))
    if argv[1:] == ["--counts"]:
        print(counts(doc))
        return 0
    chosen = argv[1:] or experiments
    unknown = [e for e in chosen if e not in experiments]
    if unknown:
        print(f"claim_tables: no claims of {', '.join(unknown)} in {argv[0]}; it has {', '.join(experiments)}",
              file=sys.stderr)
        return 2
    for experiment in chosen:
        if len(chosen) > 1:
            print(f"#### {experiment}\n")
        print(table(doc, experiment) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(run(lambda: main(sys.argv[1:])))
