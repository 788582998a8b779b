"""`versus import` and `versus export`: move sessions in and out as JMH, hyperfine or pyperf JSON."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import ingest
from .analyze import analyze
from .drivers.base import ProcessRun
from .ingest import pyperf
from .protocol import SampleRecord
from .report.document import document
from .store import Store

_SCALE = 1000


def import_file(store: Store, path: Path, argv: list[str]) -> int:
    """A new session holding the file's benchmarks as arms, one process run per fork/process."""
    kind, arms = ingest.read(path)
    session = store.new_session(0, argv, {"imported_from": str(path)}, {"import": kind})
    for position, arm in enumerate(arms):
        arm_id = store.add_arm(session, position, {
            "experiment": f"{kind}:{path.stem}", "experiment_path": "", "case": arm.name, "runtime": kind,
            "runtime_info": {"family": kind, "version": "", **arm.info}, "params": {}, "method": {}})
        for round_, values in enumerate(arm.runs):
            warm = arm.warmups[round_] if round_ < len(arm.warmups) else []
            # Values are ns per iteration; stored as ns per 1000 iterations to keep sub-nanosecond digits.
            samples = [SampleRecord(round(v * _SCALE), _SCALE, True) for v in warm] + \
                      [SampleRecord(round(v * _SCALE), _SCALE, False) for v in values]
            store.save_run(arm_id, round_, ProcessRun("ok", samples=samples, hello={"imported": kind}))
    store.finish_session(session, "complete")
    return session


def export_pyperf(store: Store, session_id: int | None, target: Path) -> None:
    analysis = analyze(store, session_id)
    names = {row["id"]: f"{row['experiment']}/{row['case']}/{row['runtime']}" for row in store.arms(analysis.session["id"])}
    groups: dict[str, list[tuple[list[float], list[float]]]] = {name: [] for name in names.values()}
    for run in store.runs(analysis.session["id"]):
        if run.status == "ok":
            warm = [ns / inner for _, ns, inner, w in run.samples if w]
            values = [ns / inner for _, ns, inner, w in run.samples if not w]
            groups[names[run.arm_id]].append((warm, values))
    target.write_text(json.dumps(pyperf.export(document(analysis), groups), indent=1))


def export_json(store: Store, session_id: int | None, target: Path) -> dict[str, Any]:
    doc = document(analyze(store, session_id))
    target.write_text(json.dumps(doc, indent=1))
    return doc
