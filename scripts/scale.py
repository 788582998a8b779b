"""How long versus takes at scale: the three inputs of issue 33's "bounded time" (item 18), made here
and timed with the `versus` given (this checkout's, or another's to compare with).

- a dry run of 10,000 arms: one case swept over 10,000 values of a parameter (`versus run --dry-run`);
- a report of 3 process runs of 100,000 samples each: a pyperf file imported (`versus report`);
- the HTML page of 2,000 claims on 2 arms: the claims fixture's two cases, run with 3 processes, and
  `versus report --html` (the run itself is not timed).

Each line: wall time, the CPU time of versus's processes (user + system, which a busy machine inflates
less), and the load average when it began. The inputs go to OUT (made if missing; reused if there).

Usage: .venv/bin/python scripts/scale.py OUT [--versus PATH] [--only dry-run|report|html]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from versus.lab import piped

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT / "tests" / "fixtures" / "claims"


def _sweep(out: Path, arms: int) -> Path:
    folder = out / f"sweep{arms}"
    folder.mkdir(parents=True, exist_ok=True)
    values = ", ".join(str(i) for i in range(arms))
    (folder / "experiment.toml").write_text(f'[experiment]\nruntimes = ["cpython@3.11"]\n[params]\nn = [{values}]\n'
                                            f'[programs]\npython3 = "p.py"\n[[cases]]\nname = "job"\n')
    (folder / "p.py").write_text("")
    return folder


def _samples(out: Path, versus: str, per_run: int) -> Path:
    db = out / "samples.db"
    if not db.exists():
        rng = random.Random(1)
        runs = [{"values": [1e-6 * (1 + rng.random() * 0.01) for _ in range(per_run)]} for _ in range(3)]
        source = out / "samples.json"
        source.write_text(json.dumps({"version": "1.0", "benchmarks": [{"metadata": {"name": "big"}, "runs": runs}]}))
        subprocess.run([versus, "import", str(source), "--db", str(db)], check=True, capture_output=True)
    return db


def _claims(out: Path, versus: str, count: int) -> Path:
    db = out / "claims.db"
    if not db.exists():
        folder = out / "claims"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(CLAIMS / "work.py", folder)
        head = (CLAIMS / "experiment.toml").read_text().split("[[claims]]")[0]
        claims = "".join(f'[[claims]]\nid = "c{i}"\nstatement = "slow is at least {1 + i / 500:.3f}× fast"\n'
                         f'source = "scripts/scale.py"\nnumerator = {{ case = "slow", runtime = "cpython" }}\n'
                         f'denominator = {{ case = "fast", runtime = "cpython" }}\nmin = {1 + i / 500:.3f}\n'
                         for i in range(count))
        (folder / "experiment.toml").write_text(head + claims)
        subprocess.run([versus, "run", str(folder), "--db", str(db), "--processes", "3", "--format", "json"],
                       check=True, capture_output=True)
    return db


def _timed(label: str, argv: list[str]) -> None:
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    status = "" if done.returncode == 0 else f"  (exit {done.returncode}: {done.stderr.strip()[-200:]})"
    print(f"{label:<40} wall {wall:7.1f} s  cpu {cpu:7.1f} s  load {load:5.2f}{status}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description="versus at scale: the three timings of issue 33's item 18")
    parser.add_argument("out", type=Path)
    parser.add_argument("--versus", default=str(ROOT / ".venv" / "bin" / "versus"))
    parser.add_argument("--only", choices=["dry-run", "report", "html"])
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    versus = args.versus
    if args.only in (None, "dry-run"):
        _timed("dry run of 10,000 arms", [versus, "run", str(_sweep(args.out, 10_000)), "--dry-run",
                                          "--db", str(args.out / "none.db")])
    if args.only in (None, "report"):
        _timed("report of 3 × 100,000 samples", [versus, "report", "--db", str(_samples(args.out, versus, 100_000))])
    if args.only in (None, "html"):
        db = _claims(args.out, versus, 2000)
        _timed("JSON report of 2,000 claims", [versus, "report", "--db", str(db), "--format", "json"])
        _timed("HTML page of 2,000 claims", [versus, "report", "--db", str(db), "--html", str(args.out / "claims.html")])
    return 0


if __name__ == "__main__":
    sys.exit(piped(main))
