#!/usr/bin/env python3
"""Stop a running `versus run` again and again, as test_store.py's Ctrl-C and kill -9 tests do, and
count the runs whose harness went on to complete its session instead of stopping.

    scripts/signal_stress.py int 30                  # SIGINT to the supervisor after 2 process runs
    scripts/signal_stress.py kill 30                 # SIGKILL to it after 3: the harness gets SIGTERM
    SRC=/tmp/old/src VERSUS_ROOT=$PWD scripts/signal_stress.py int 30   # another checkout's harness

A failure prints the harness's stderr (where CPython reports an exception it dropped). The flake it
found (docs/results.md) shows under load: run two at once, or beside other work.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "claims"


def stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as reader:
            return int(reader.execute("SELECT COUNT(*) FROM process_runs").fetchone()[0])
    except sqlite3.Error:
        return 0


def once(mode: str, folder: Path) -> tuple[bool, str]:
    """One run stopped mid-session: (stopped as it should, what it says)."""
    db = folder / "v.db"
    env = dict(os.environ, PYTHONPATH=os.environ.get("SRC", str(ROOT / "src")))
    argv = [sys.executable, "-m", "versus", "run", str(FIXTURE), "--processes", "6", "--inner", "1000000",
            "--db", str(db)]
    with open(folder / "stderr", "w") as err:
        harness = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=env,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        wanted = 2 if mode == "int" else 3
        deadline = time.monotonic() + 120
        while harness.poll() is None and stored(db) < wanted and time.monotonic() < deadline:
            time.sleep(0.1)
        harness.send_signal(signal.SIGINT if mode == "int" else signal.SIGKILL)
        harness.wait()
    # after kill -9 the harness stops (or, wrongly, finishes) on its own: wait for either
    deadline = time.monotonic() + 120
    while (status := statuses(db)) == ["running"] and time.monotonic() < deadline:
        time.sleep(0.2)
    ok = status == ["interrupted"] and (mode == "kill" or harness.returncode == 130)
    return ok, f"exit {harness.returncode}, sessions {status}, {stored(db)} process runs"


def statuses(db: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(str(db))) as reader:
        return [row[0] for row in reader.execute("SELECT status FROM sessions")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["int", "kill"])
    parser.add_argument("runs", type=int)
    args = parser.parse_args()
    failed = dropped = 0
    for number in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="versus-signal-") as folder:
            ok, what = once(args.mode, Path(folder))
            said = (Path(folder) / "stderr").read_text()
            dropped += "Exception ignored" in said
            print(number, "ok" if ok else "FAILED", what, "(a handler's exception dropped)" * ("Exception ignored" in said),
                  flush=True)
            if not ok:
                failed += 1
                print(said[-3000:], flush=True)
    print(f"{failed} of {args.runs} runs went on after the signal; in {dropped}, CPython dropped the handler's exception")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
