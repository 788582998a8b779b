#!/usr/bin/env python3
"""A fleet on this machine, for the figures of docs/results.md ("A lab for a team"): a throwaway
PostgreSQL server (tests/pgserver.py: a temporary directory, an unprivileged user, a free port),
workers pinned to CPUs with taskset, and one versus command run against it; then what it did.

    scripts/fleet_lab.py --cpus 0,1 -- run synchronization serialization --quick --budget 10m
    scripts/fleet_lab.py --cpus 0 -- run synchronization serialization --quick --budget 10m
    scripts/fleet_lab.py --cpus 0,1 -- selftest --seconds 600

Each CPU of --cpus gets one worker (`versus worker --name cpuN`, pinned to it). The command gets
`--db` of the server's database. Printed: the load average before and after, the command's own
output, and for a run its session's process runs, process runs per minute of the session's wall time and of the
time from the first process's start to the last one's end (set-up and builds left out),
the process runs of each host, and the claims decided. --keep DIR copies the lab into DIR/lab.db
(`versus db copy`) before the server is stopped.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from versus.lab import piped  # noqa: E402


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _versus(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "versus", *args], text=True, **kwargs)  # type: ignore[call-overload]


def main() -> int:
    argv = sys.argv[1:]
    if not argv or argv[0] in ("-h", "--help") or "--" not in argv:
        print(__doc__.strip() if __doc__ else "")
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    split = argv.index("--")
    options, command = argv[:split], argv[split + 1:]
    cpus = options[options.index("--cpus") + 1].split(",") if "--cpus" in options else ["0"]
    keep = Path(options[options.index("--keep") + 1]) if "--keep" in options else None
    if not command:
        print("fleet_lab.py: give the versus command after --, e.g. -- run synchronization --quick --budget 10m",
              file=sys.stderr)
        return 2
    from pgserver import PgServer

    server = PgServer()
    workers: list[subprocess.Popen[str]] = []
    try:
        server.start()
        url = server.create_database("lab")
        print(f"fleet_lab: PostgreSQL {server.port}; workers on CPUs {','.join(cpus)}; load before {_load()}", flush=True)
        for cpu in cpus:
            workers.append(subprocess.Popen(["taskset", "-c", cpu, sys.executable, "-m", "versus", "worker", "--db", url,
                                             "--name", f"cpu{cpu}"], text=True, stderr=subprocess.DEVNULL))
        began = time.monotonic()
        done = _versus(*command, "--db", url)
        wall = time.monotonic() - began
        print(f"fleet_lab: `versus {' '.join(command)}` exit {done.returncode} after {wall / 60:.1f} min; "
              f"load after {_load()}", flush=True)
        if command[0] == "run":
            _summary(url)
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            _versus("db", "copy", url, str(keep / "lab.db"))
        return done.returncode
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
        server.close()


def _summary(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        (created, finished), = connection.execute("SELECT created, finished FROM sessions ORDER BY id DESC LIMIT 1")
        hosts = connection.execute("SELECT host, COUNT(*) FROM process_runs GROUP BY host ORDER BY host").fetchall()
        (first, last), = connection.execute("SELECT MIN(started), MAX(started + wall_ns / 1e9) FROM process_runs")
    runs = sum(count for _, count in hosts)
    minutes = ((finished or time.time()) - created) / 60
    measuring = ((last or 0) - (first or 0)) / 60
    report = _versus("report", "--db", url, "--format", "json", capture_output=True)
    claims = json.loads(report.stdout).get("claims", []) if report.stdout.strip() else []
    measured = [c for c in claims if c["verdict"] != "not measured"]
    decided = [c for c in measured if c["verdict"] in ("holds", "does not hold")]
    split = [c for c in measured if c["verdict"] == "hosts disagree"]
    print(f"fleet_lab: {runs} process runs in {minutes:.1f} min of session = {runs / max(minutes, 1e-9):.1f} per minute; "
          f"{runs / max(measuring, 1e-9):.1f} per minute from the first process's start to the last one's end "
          f"({measuring:.1f} min); " + ", ".join(f"{host} {count}" for host, count in hosts))
    print(f"fleet_lab: {len(decided)} of {len(measured)} measured claims decided"
          + (f"; on {len(split)} the hosts disagree" if split else ""))


if __name__ == "__main__":
    sys.exit(piped(main))
