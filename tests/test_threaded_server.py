"""The threaded-server experiment end to end, tiny: every case once on CPython 2.7 and 3.11 with ab and
wrk through the load driver, no failed request, and no server left behind."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import processes_left
from versus.cli import main

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "experiments" / "threaded-server" / "python" / "testserver.py"
TINY = ["--processes", "1", "--warmup", "0", "--samples", "1", "--param", "requests=200", "--param", "seconds=1"]


def servers_left() -> list[int]:
    return processes_left(str(SERVER))


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("ab") and shutil.which("wrk")),
                    reason="ab and wrk come from apache2-utils and wrk (make setup installs them)")
def test_every_case_serves_without_failures(db, capsys):
    done = subprocess.run([str(ROOT / "scripts" / "build-fastcond.sh")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    code = main(["run", "threaded-server", "--runtimes", "cpython@2.7,cpython@3.11", "--db", str(db),
                 "--format", "json", *TINY])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    assert doc["failed_runs"] == []
    stock = {"ab_c1", "ab_c10", "wrk_c10"}
    for runtime in {a["runtime"] for a in doc["arms"]}:
        cases = {a["case"] for a in doc["arms"] if a["runtime"] == runtime and a["processes_ok"] == 1}
        assert cases == (stock if runtime.startswith("cpython@2.") else stock | {c + "_fastcond" for c in stock})
    for arm in doc["arms"]:
        assert arm["metrics"]["requests_per_s"]["value"] > 10
    assert {c["id"]: c["verdict"] != "not measured" for c in doc["claims"]} == {"rps-30": True, "linux-c10-worse": True}
    # ab -c 10 against ab -c 1 within each CPython, never across runtimes
    pairs = [(i["numerator"].split("/"), i["denominator"].split("/"))
             for c in doc["claims"] if c["id"] == "linux-c10-worse" for i in c["instances"]]
    assert len(pairs) == 2 and all((a[1], b[1], a[2]) == ("ab_c10", "ab_c1", b[2]) for a, b in pairs)
    assert servers_left() == []
