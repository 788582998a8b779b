"""The store: schema versions, atomic process runs, and a harness killed with -9 that resumes."""
from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FIXTURES
from versus.drivers.base import ProcessRun
from versus.errors import StoreError
from versus.protocol import SampleRecord
from versus.record import load_session
from versus.store import SCHEMA_VERSION, Store
from versus.store.sqlite import SQLiteBackend


def test_schema_is_versioned_and_a_newer_one_is_refused(db):
    Store(db).close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    sqlite3.connect(db).execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this versus"):
        Store(db)


def test_wal_mode(db):
    store = Store(db)
    assert isinstance(store.backend, SQLiteBackend)
    assert store.backend.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_process_run_is_stored_whole_or_not_at_all(db):
    store = Store(db)
    session = store.new_session(1, [], {}, {})
    arm = store.add_arm(session, 0, {"experiment": "e", "experiment_path": "", "case": "c", "runtime": "r",
                                     "runtime_info": {}, "params": {}, "method": {}})
    run = ProcessRun("ok", samples=[SampleRecord(1, 1, False)], checks=[("a", "a", True)])
    store.save_run(arm, 0, run)
    with pytest.raises(StoreError, match="UNIQUE"):
        store.save_run(arm, 0, run)  # the same round twice: rejected, and nothing half-written
    assert [len(r.samples) for r in store.runs(session)] == [1]


def test_a_process_run_is_stored_with_the_time_it_started_not_the_time_it_ended(db):
    """The selftest times decisions from `started + wall`, a resumed budget from the last run's end:
    both were a process's wall time late when `started` held the moment the run was stored."""
    store = Store(db)
    session = store.new_session(1, [], {}, {})
    arm = store.add_arm(session, 0, {"experiment": "e", "experiment_path": "", "case": "c", "runtime": "r",
                                     "runtime_info": {}, "params": {}, "method": {}})
    before = time.time()
    store.save_run(arm, 0, ProcessRun("ok", samples=[SampleRecord(1, 1, False)], wall_ns=5_000_000_000))
    after = time.time()
    (run,) = store.runs(session)
    assert before - 5 <= run.started <= after - 5
    assert before <= run.started + run.wall_ns / 1e9 <= after


# Twelve process runs long enough (a few tenths of a second each) that a signal sent after the first ones
# always lands mid-run: with the fixture's default loop they all finished inside the polling interval
# on a fast CI machine, and the test saw a completed session instead of an interrupted one.
_SLOW_CLAIMS_RUN = [sys.executable, "-m", "versus", "run", str(FIXTURES / "claims"), "--processes", "6",
                    "--inner", "1000000"]


def _wait_for_runs(db: Path, harness: subprocess.Popen, runs: int) -> None:
    """Until the running harness has stored `runs` process runs. Read-only, so that polling before the
    harness made the database never creates it; if the harness ends first, the test says so (once in a
    full `make test` of 2026-11-26 the Ctrl-C test saw a harness that had finished and returned 0)."""
    deadline, count = time.monotonic() + 60, 0
    while time.monotonic() < deadline and harness.poll() is None:
        time.sleep(0.1)
        if not db.exists():
            continue
        try:
            with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as reader:
                count = reader.execute("SELECT COUNT(*) FROM process_runs").fetchone()[0]
        except sqlite3.Error:
            continue
        if count >= runs:
            return
    pytest.fail(f"the harness stored {count} process runs before it "
                + (f"ended with exit code {harness.returncode}" if harness.poll() is not None else "was still running at 60 s")
                + f"; the test needs {runs} stored while it runs")


def test_kill_9_mid_run_leaves_a_readable_db_and_resume_finishes(db, tmp_path):
    argv = _SLOW_CLAIMS_RUN + ["--db", str(db)]
    harness = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_for_runs(db, harness, 3)
    os.kill(harness.pid, signal.SIGKILL)
    harness.wait()
    # the `versus` process is the supervisor: the harness it forked stops on its own a moment later
    deadline = time.monotonic() + 30
    while Store(db, readonly=True).in_use() and time.monotonic() < deadline:
        time.sleep(0.1)
    store = Store(db)
    session = load_session(store)
    kept = len(store.runs(session.id))
    assert session.status == "interrupted" and 3 <= kept < 12  # as after SIGTERM: the harness stopped cleanly
    store.close()
    done = subprocess.run([sys.executable, "-m", "versus", "run", "--resume", "--db", str(db), "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    store = Store(db)
    assert load_session(store).status == "complete"
    runs = store.runs(session.id)
    assert len(runs) == 12 and len({(r.arm_id, r.round) for r in runs}) == 12


def test_ctrl_c_stops_cleanly_keeps_finished_runs_and_resume_finishes(db):
    argv = _SLOW_CLAIMS_RUN + ["--db", str(db)]
    # A shell's background job (`make test &`) inherits SIGINT ignored; the harness must get it as Ctrl-C sends it.
    harness = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    _wait_for_runs(db, harness, 2)
    harness.send_signal(signal.SIGINT)
    _, err = harness.communicate(timeout=30)
    assert harness.returncode == 130
    assert "versus run --resume" in err
    store = Store(db)
    session = load_session(store)
    assert session.status == "interrupted" and len(store.runs(session.id)) >= 2
    done = subprocess.run([sys.executable, "-m", "versus", "run", "--resume", "--db", str(db)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(Store(db).runs(session.id)) == 12


def test_a_resumed_budget_counts_the_time_to_the_end_of_the_last_process_run(db):
    from versus.session import _spent
    store = Store(db)
    session = store.new_session(1, [], {}, {})
    arm = store.add_arm(session, 0, {"experiment": "e", "experiment_path": "", "case": "c", "runtime": "r",
                                     "runtime_info": {}, "params": {}, "method": {}})
    store.save_run(arm, 0, ProcessRun("ok", samples=[SampleRecord(1, 1, False)], wall_ns=3_000_000_000))
    created = load_session(store, session).created
    assert created is not None
    assert _spent(store, load_session(store, session)) == pytest.approx(time.time() - created, abs=1.0)
