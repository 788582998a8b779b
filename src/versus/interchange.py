"""`versus import` and `versus export`: sessions in and out as versus, JMH, hyperfine or pyperf JSON.

An import is one transaction: a file that fails half way leaves no half session behind.
"""
from __future__ import annotations

import gzip
import json
import time
from pathlib import Path
from typing import Any

from . import ingest
from .analyze import analyze
from .arms import ArmId
from .contention import Contention
from .drivers.base import ProcessRun
from .errors import UsageError
from .files import write_file
from .ingest import pyperf
from .ingest import versus as versus_document
from .protocol import SCALE, SampleRecord  # imported values are ns per iteration: stored per SCALE iterations
from .record import row
from .report.document import FORMAT, VERSION, document, dumps
from .store import Leg, Store, StoredRun


def import_file(store: Store, path: Path, argv: list[str]) -> int:
    kind, arms = ingest.read(path)
    if kind == "versus":
        return _import_versus(store, ingest.read_json(path), f"versus file {path}")
    experiment = f"{kind}:{path.stem}"
    with store.transaction():
        # Imported benchmarks are arms of one comparison: each against the first, like hyperfine's table.
        definitions = {experiment: {"baseline_case": arms[0].name, "imported_from": str(path)}}
        session = store.new_session(0, argv, {}, {"import": kind, "file": str(path)}, definitions,
                                    imported=f"{kind} file {path}")
        for position, arm in enumerate(arms):
            identity = ArmId(experiment, arm.name, "", kind)
            arm_id = store.add_arm(session, position, row(identity, "", {"family": kind, "version": ""}, {}, {}))
            for round_, values in enumerate(arm.runs):
                warm = arm.warmups[round_] if round_ < len(arm.warmups) else []
                samples = [SampleRecord(round(v * SCALE), SCALE, True) for v in warm] + \
                          [SampleRecord(round(v * SCALE), SCALE, False) for v in values]
                store.insert_run(arm_id, round_, ProcessRun("ok", samples=samples, hello={"imported": kind}))
        store.finish_session(session, "complete")
    return session


def _import_versus(store: Store, data: dict[str, Any], source: str) -> int:
    """A versus session document back into a store, run for run: the same report comes out. It is
    checked whole first (ingest/versus.py): a document that would fail half way, or leave a value no
    report can show, is refused before anything is stored."""
    version = data.get("version")
    if version != VERSION:
        raise UsageError(f"a versus session document of version {str(version)[:20]!r}; this versus reads version "
                         f"{VERSION}", "version 1 documents hold no raw samples: export the session again with this "
                         "versus" if version == 1 else "upgrade versus")
    checked = versus_document.check(data, source.removeprefix("versus file "))
    with store.transaction():
        return _insert_versus(store, data, checked, source)


# A session exported while it ran (or was stopped) holds no more than its finished process runs: here
# it is an interrupted one, never a complete one, and never resumable (it is imported).
_STATUS_ON_IMPORT = {"complete": "complete", "interrupted": "interrupted", "running": "interrupted",
                     "failed": "failed"}


def _insert_versus(store: Store, data: dict[str, Any], checked: versus_document.SessionDocument, source: str) -> int:
    """The document's options, status and definitions are stored as history: the session is marked
    imported (by this code, never by the file), so `--resume` never runs what the file says. Free-form
    parts (options, definitions, host, plan, hello) are stored as the file has them, so an export of
    an import is the export imported; the hosts and legs of a session that ran in several come back
    as recorded."""
    meta, raw = checked.session, data["session"]
    session = store.new_session(meta.seed, meta.argv, dict(data.get("host") or {}), dict(raw.get("options") or {}),
                                dict(data.get("definitions") or {}), dict(raw.get("plan") or {}),
                                dict(raw.get("versus") or {}), imported=source)
    for position, (arm, raw_arm) in enumerate(zip(checked.arms, data["arms"])):
        identity = ArmId(arm.experiment, arm.case, arm.variant, arm.runtime)
        arm_id = store.add_arm(session, position, row(identity, "", dict(raw_arm.get("runtime_info") or {}),
                                                      arm.params, dict(raw_arm.get("method") or {})))
        for run, raw_run in zip(arm.runs, raw_arm.get("runs") or []):
            samples = [SampleRecord(ns, inner, warm) for ns, inner, warm in run.samples]
            counters = run.contention
            stored = ProcessRun(run.status, run.reason, samples, list(run.checks), list(run.metrics),
                                dict(raw_run.get("hello") or {}), run.log_tail, run.wall_ns, run.exit_code, run.started,
                                Contention(counters.cpu_ns, counters.preempted, counters.pressure_us, counters.steal_ns)
                                if counters is not None else None)
            store.insert_run(arm_id, run.round, stored, run.host, run.leg)
    for leg in checked.legs:
        store.add_leg(session, Leg(leg.number, leg.kind, leg.started, leg.finished, leg.argv, leg.host, leg.budget,
                                   leg.stopped, dict(leg.versus)))
    for name, details in (data.get("hosts") or {}).items():
        store.add_host(session, str(name), dict(details), {})
    store.finish_session(session, _STATUS_ON_IMPORT[meta.status])
    store.restamp(session, meta.created if meta.created is not None else time.time(), meta.finished, meta.lacks)
    return session


def export_json(store: Store, session_id: int | None, target: Path) -> dict[str, Any]:
    analysis = analyze(store, session_id)
    doc = document(analysis, store.runs(analysis.session.id))
    _write(target, dumps(doc))
    return doc


def export_pyperf(store: Store, session_id: int | None, target: Path) -> None:
    analysis = analyze(store, session_id)
    runs_by_arm: dict[int, list[StoredRun]] = {}
    for run in store.runs(analysis.session.id):
        if run.status == "ok":
            runs_by_arm.setdefault(run.arm_id, []).append(run)
    arms = []
    for arm in analysis.arms:
        runs = []
        for run in runs_by_arm.get(arm.row_id, []):
            warm = [(ns / inner, inner) for _, ns, inner, w in run.samples if w]
            measured = [(ns / inner, inner) for _, ns, inner, w in run.samples if not w]
            runs.append((warm, measured))
        arms.append((arm.key, runs))
    _write(target, json.dumps(pyperf.export(analysis.session.host, arms), indent=1))


def _write(target: Path, text: str) -> None:
    data = text.encode("utf-8")
    if target.suffix == ".gz":
        data = gzip.compress(data)
    try:
        write_file(target, data)
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}",
                         "give -o a path in a folder you can write") from None


__all__ = ["FORMAT", "export_json", "export_pyperf", "import_file"]
