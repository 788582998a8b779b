"""`versus import` and `versus export`: sessions in and out as versus, JMH, hyperfine or pyperf JSON.

An import is one transaction: a file that fails half way leaves no half session behind.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from . import ingest
from .analyze import analyze
from .arms import ArmId
from .drivers.base import ProcessRun
from .errors import UsageError
from .ingest import pyperf
from .protocol import SampleRecord
from .report.document import FORMAT, VERSION, document, dumps
from .session import row
from .store import Leg, Store

_SCALE = 1000  # imported values are ns per iteration: stored as ns per 1000 iterations


def import_file(store: Store, path: Path, argv: list[str]) -> int:
    kind, arms = ingest.read(path)
    if kind == "versus":
        return _import_versus(store, ingest.read_json(path), argv)
    experiment = f"{kind}:{path.stem}"
    with store.transaction():
        # Imported benchmarks are arms of one comparison: each against the first, like hyperfine's table.
        definitions = {experiment: {"baseline_case": arms[0].name, "imported_from": str(path)}}
        session = store.new_session(0, argv, {}, {"import": kind, "file": str(path)}, definitions)
        for position, arm in enumerate(arms):
            identity = ArmId(experiment, arm.name, "", kind)
            arm_id = store.add_arm(session, position, row(identity, "", {"family": kind, "version": ""}, {}, {}))
            for round_, values in enumerate(arm.runs):
                warm = arm.warmups[round_] if round_ < len(arm.warmups) else []
                samples = [SampleRecord(round(v * _SCALE), _SCALE, True) for v in warm] + \
                          [SampleRecord(round(v * _SCALE), _SCALE, False) for v in values]
                store.insert_run(arm_id, round_, ProcessRun("ok", samples=samples, hello={"imported": kind}))
        store.finish_session(session, "complete")
    return session


def _import_versus(store: Store, data: dict[str, Any], argv: list[str]) -> int:
    """A versus session document back into a store, run for run: the same report comes out."""
    version = data.get("version")
    if version != VERSION:
        raise UsageError(f"a versus session document of version {version!r}; this versus reads version {VERSION}",
                         "version 1 documents hold no raw samples: export the session again with this versus"
                         if version == 1 else "upgrade versus")
    try:
        with store.transaction():
            return _insert_versus(store, data)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise UsageError(f"the versus document is incomplete: {type(error).__name__}: {str(error)[:120]}",
                         "give a file that `versus export` wrote, unchanged") from None


def _insert_versus(store: Store, data: dict[str, Any]) -> int:
    meta = data["session"]
    session = store.new_session(int(meta.get("seed") or 0), list(meta.get("argv") or []), dict(data.get("host") or {}),
                                dict(meta.get("options") or {}), dict(data.get("definitions") or {}),
                                dict(meta.get("plan") or {}), dict(meta.get("versus") or {}))
    for position, arm in enumerate(data["arms"]):
        identity = ArmId(str(arm["experiment"]), str(arm["case"]), str(arm.get("variant", "")), str(arm["runtime"]))
        arm_id = store.add_arm(session, position, row(identity, "", dict(arm.get("runtime_info") or {}),
                                                      dict(arm.get("params") or {}), dict(arm.get("method") or {})))
        for run in arm.get("runs") or []:
            samples = [SampleRecord(int(ns), int(inner), bool(warm)) for ns, inner, warm in run.get("samples") or []]
            if any(not (0 <= s.ns < 1 << 63 and 0 < s.inner < 1 << 63) for s in samples):
                raise ValueError("a sample out of range")
            stored = ProcessRun(str(run["status"]), str(run.get("reason", "")), samples,
                                [(str(v), str(e), bool(ok)) for v, e, ok in run.get("checks") or []],
                                [(str(n), float(v), str(u)) for n, v, u in run.get("metrics") or []],
                                dict(run.get("hello") or {}), str(run.get("log_tail", "")), int(run.get("wall_ns") or 0),
                                run.get("exit_code"), float(run.get("started") or 0.0))
            store.insert_run(arm_id, int(run["round"]), stored, str(run.get("host") or ""), int(run.get("leg") or 0))
    for leg in data.get("legs") or []:  # the legs and hosts of a session that ran in several, as recorded
        finished, budget = leg.get("finished"), leg.get("budget")
        store.add_leg(session, Leg(int(leg["number"]), str(leg["kind"]), float(leg["started"]),
                                   None if finished is None else float(finished), [str(a) for a in leg.get("argv") or []],
                                   str(leg.get("host") or ""), None if budget is None else float(budget),
                                   str(leg.get("stopped") or ""), dict(leg.get("versus") or {})))
    for name, details in (data.get("hosts") or {}).items():
        store.add_host(session, str(name), dict(details), {})
    store.finish_session(session, str(meta.get("status") or "complete") if meta.get("status") in
                         ("complete", "interrupted") else "complete")
    created = meta.get("created")
    if isinstance(created, (int, float)):
        finished = meta.get("finished")
        store.restamp(session, float(created), float(finished) if isinstance(finished, (int, float)) else None)
    return session


def export_json(store: Store, session_id: int | None, target: Path) -> dict[str, Any]:
    analysis = analyze(store, session_id)
    doc = document(analysis, store.runs(analysis.session["id"]))
    _write(target, dumps(doc))
    return doc


def export_pyperf(store: Store, session_id: int | None, target: Path) -> None:
    analysis = analyze(store, session_id)
    runs_by_arm: dict[int, list[Any]] = {}
    for run in store.runs(analysis.session["id"]):
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
    _write(target, json.dumps(pyperf.export(analysis.session.get("host") or {}, arms), indent=1))


def _write(target: Path, text: str) -> None:
    data = text.encode("utf-8")
    if target.suffix == ".gz":
        data = gzip.compress(data)
    try:
        target.write_bytes(data)
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}",
                         "give -o a path in a folder you can write") from None


__all__ = ["FORMAT", "export_json", "export_pyperf", "import_file"]
