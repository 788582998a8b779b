"""The gil experiment end to end, tiny: every case once on CPython 2.7 and 3.11 through the harness,
with every check verified (transactions counted on both sides, wakeups counted), fastcond built first."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from versus.cli import main

ROOT = Path(__file__).resolve().parents[1]
RUNTIMES = "cpython@2.7,cpython@3.11"
TINY = ["--processes", "1", "--warmup", "0", "--samples", "1", "--inner", "2000", "--param", "wakeups=5",
        "--param", "pause_us=200"]


def build_fastcond() -> None:
    done = subprocess.run([str(ROOT / "scripts" / "build-fastcond.sh")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_every_case_runs_and_checks(db, capsys):
    build_fastcond()
    code = main(["run", "gil", "--runtimes", RUNTIMES, "--db", str(db), "--format", "json", *TINY])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    assert doc["failed_runs"] == []
    measured = {(a["case"], a["runtime"]) for a in doc["arms"] if a["processes_ok"] == 1}
    runtimes = {a["runtime"] for a in doc["arms"]}
    assert {r.rsplit(".", 1)[0] for r in runtimes} == {"cpython@2.7", "cpython@3.11"}
    common = {"cpu_efficiency", "prodcon_lock", "prodcon_lock_with_cpu", "prodcon_condition", "io_wakeup_latency"}
    for runtime in runtimes:
        cases = {c for c, r in measured if r == runtime}
        assert cases == (common if runtime.startswith("cpython@2.") else common | {"prodcon_fastcond"}), runtime
    for arm in doc["arms"]:
        metrics = arm["metrics"]
        if arm["case"] == "cpu_efficiency":
            assert metrics["e"]["value"] > 0  # with 2,000 increments, thread start-up dominates
        elif arm["case"] == "io_wakeup_latency":
            assert metrics["wakeup_p50_us"]["value"] > 0
        else:
            assert metrics["transactions_per_s"]["value"] > 0
    verdicts = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert set(verdicts) == {"native-condition", "condition-vs-lock", "io-priority", "io-priority-py27", "beazley-py27",
                             "new-gil-efficiency"}
    assert "not measured" not in verdicts.values()
    claims = {c["id"]: c for c in doc["claims"]}
    # e of cpu_efficiency, one instance per CPython of its side (an instance names its arm gil/case/runtime)
    for claim, runtime in (("beazley-py27", "cpython@2.7"), ("new-gil-efficiency", "cpython@3.11")):
        arms = [i["numerator"] for i in claims[claim]["instances"]]
        assert [a.split("/")[1] for a in arms] == ["cpu_efficiency"], claim
        assert [a.split("/")[2].rsplit(".", 1)[0] for a in arms] == [runtime], claim


@pytest.mark.slow
def test_build_fastcond_is_idempotent_and_quick():
    build_fastcond()
    done = subprocess.run([str(ROOT / "scripts" / "build-fastcond.sh")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "built" not in done.stderr, done.stderr


def test_a_stale_fastcond_build_is_refused(tmp_path, monkeypatch):
    """A build of an older fastcond.c would measure the old code (it happened once): load() says to rebuild."""
    import sys

    tag = "cpython-" + ".".join(map(str, sys.version_info[:3]))
    cache = tmp_path / "cache"
    folder = cache / "fastcond" / tag
    folder.mkdir(parents=True)
    monkeypatch.setenv("VERSUS_CACHE", str(cache))
    monkeypatch.syspath_prepend(str(ROOT / "subjects" / "fastcond" / "python"))
    import fastcond_build

    (folder / ".stamp").write_text("0" * 64 + " cc -O2\n")
    with pytest.raises(RuntimeError, match="older subjects/fastcond/src/fastcond.c"):
        fastcond_build.load()
