"""Each way a benchmark process can fail becomes a stored failed process run; the others go on."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import FIXTURES
from versus.cli import main
from versus.record import load_session
from versus.store import Store


def run_fake(db: Path, capsys, *extra: str) -> dict:
    code = main(["run", str(FIXTURES / "fake"), "--db", str(db), "--format", "json", "--seed", "7", *extra])
    captured = capsys.readouterr()
    assert code == 4, "an arm without a successful process run makes the session exit 4"
    assert "had no successful process run" in captured.err
    return json.loads(captured.out)


def test_every_fault_is_a_failed_run_and_the_good_arm_survives(db, capsys):
    doc = run_fake(db, capsys)
    reasons: dict[str, str] = {}
    for failed in doc["failed_runs"]:
        reasons.setdefault(failed["arm"].split("/")[1], failed["reason"])
    assert set(reasons) == {"crash", "hang", "malformed", "wrong_check", "exit_nonzero", "no_end"}
    assert "exit code 1" in reasons["crash"]
    assert "timed out" in reasons["hang"]
    assert "malformed JSON" in reasons["malformed"]
    assert "wrong check: got 4951, expected 4950" in reasons["wrong_check"]
    assert "exit code 3" in reasons["exit_nonzero"]
    assert "no `end`" in reasons["no_end"]
    good = next(a for a in doc["arms"] if a["case"] == "good")
    assert good["processes_ok"] == 2 and good["processes_failed"] == 0
    estimate = good["estimate"]
    if estimate["low"] is None:  # two processes of a loaded machine may disagree past a usable interval
        assert "disagree" in estimate["note"] and estimate["value"] > 0
    else:
        assert estimate["low"] <= estimate["value"] <= estimate["high"]
    assert doc["session"]["status"] == "complete"


def test_failed_runs_keep_their_log_tail(db, capsys):
    doc = run_fake(db, capsys, "--cases", "crash")
    tails = [f["log_tail"] for f in doc["failed_runs"]]
    assert tails and all("RuntimeError: the benchmark crashed" in t for t in tails)


def test_a_failed_run_stores_its_samples_for_diagnosis(db, capsys):
    run_fake(db, capsys, "--cases", "wrong_check")
    store = Store(db)
    runs = store.runs(load_session(store).id)
    assert runs and all(r.status == "failed" and len(r.samples) == 4 for r in runs)


def test_command_driver_times_whole_commands_and_checks_their_output(tmp_path, db, capsys):
    folder = tmp_path / "cmd"
    folder.mkdir()
    (folder / "experiment.toml").write_text('''
[experiment]
name = "cmd"
driver = "command"
runtimes = ["cpython@3.11"]
[method]
processes = 2
warmup = 1
samples = 2
[params]
n = 1000
[[cases]]
name = "sum"
command = "{runtime} -c 'print(sum(range({n})))'"
check = "n * (n - 1) // 2"
[[cases]]
name = "fails"
command = "{runtime} -c 'import sys; sys.exit(4)'"
''')
    assert main(["run", str(folder), "--db", str(db), "--format", "json"]) == 4
    doc = json.loads(capsys.readouterr().out)
    good = next(a for a in doc["arms"] if a["case"] == "sum")
    assert good["processes_ok"] == 2 and good["estimate"]["value"] > 1000  # a whole process takes > 1 µs
    for run in good["runs"]:  # a process run of three executions takes as long as the three (regression: the last)
        assert run["wall_ns"] >= sum(ns for ns, _, _ in run["samples"]) > 0
        assert len(run["samples"]) == 3
    assert {f["reason"] for f in doc["failed_runs"]} == {"execution 1: exit code 4: (no stderr)"}


def test_stale_protocol_variables_do_not_leak_but_the_cache_does(monkeypatch):
    """Regression: base_env dropped every VERSUS_* variable, so programs lost VERSUS_CACHE."""
    from versus.drivers.base import base_env
    from versus.experiment import load
    from versus.plan import make_plan

    monkeypatch.setenv("VERSUS_CACHE", "/somewhere")
    monkeypatch.setenv("VERSUS_CASE", "stale")
    monkeypatch.setenv("VERSUS_PARAM_OLD", "stale")
    arm = make_plan([load(FIXTURES / "fake")], None, ["good"], False, {}).arms[0]
    env = base_env(arm)
    assert env["VERSUS_CACHE"] == "/somewhere" and "VERSUS_CASE" not in env and "VERSUS_PARAM_OLD" not in env
    assert env["VERSUS_PARAM_EXPECTED"] == "4950"
