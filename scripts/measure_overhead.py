"""What the harness adds to a process run beyond the program's own work (docs/method.md).

Interleaves N runs of an empty protocol program started bare (subprocess.run of the same argv and
environment) with N process runs through the harness (protocol driver: spawn, parse, validate, then
an atomic store commit) and prints the median of each and their difference.
Usage: .venv/bin/python scripts/measure_overhead.py [N]
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from versus.drivers.protocol import ProtocolDriver
from versus.executor import SubprocessExecutor
from versus.experiment import load
from versus.plan import make_plan
from versus.store import Store


def main(count: int) -> None:
    experiment = load(Path(__file__).parent / "overhead")
    plan = make_plan([experiment], None, None, False, {})
    arm, method = plan.arms[0], plan.methods["overhead"]
    driver = ProtocolDriver()
    driver.prepare(arm)
    argv, env = driver.command(arm, method, 1)
    store = Store(Path(tempfile.mkdtemp()) / "overhead.db")
    session = store.new_session(0, [], {}, {})
    arm_id = store.add_arm(session, 0, {"experiment": "overhead", "experiment_path": "", "case": "empty",
                                        "runtime": arm.runtime.name, "runtime_info": {}, "params": {}, "method": {}})
    bare, harness = [], []
    for index in range(count):
        start = time.perf_counter_ns()
        subprocess.run(argv, env=env, capture_output=True, cwd=experiment.path, check=True)
        bare.append(time.perf_counter_ns() - start)
        start = time.perf_counter_ns()
        run = driver.run(arm, method, 1, SubprocessExecutor())
        store.save_run(arm_id, index, run)
        harness.append(time.perf_counter_ns() - start)
        assert run.status == "ok", run.reason
    b, h = statistics.median(bare), statistics.median(harness)
    print(f"{arm.runtime.name}, {count} interleaved pairs: bare process {b / 1e6:.2f} ms, "
          f"through the harness {h / 1e6:.2f} ms, added {(h - b) / 1e6:.2f} ms per process run "
          f"(median of pairwise differences {statistics.median(x - y for x, y in zip(harness, bare)) / 1e6:.2f} ms)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
