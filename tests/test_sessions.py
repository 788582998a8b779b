"""Sessions stand alone: reports and resumes read the store, never today's files; report folders
never collide; old databases move forward and say what they lack."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from conftest import FIXTURES
from versus.analyze import analyze
from versus.cli import main, report_folder
from versus.drivers.base import ProcessRun
from versus.experiment import load
from versus.protocol import SampleRecord
from versus.record import load_session
from versus.store import Store
from versus.store.schema import MIGRATIONS, for_sqlite


def claims_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "claims"
    shutil.copytree(FIXTURES / "claims", folder)
    return folder


def verdicts(capsys, *argv: str) -> dict[str, str]:
    main(list(argv))
    doc = json.loads(capsys.readouterr().out)
    return {c["id"]: c["verdict"] for c in doc["claims"]}


def test_a_report_of_an_old_session_ignores_todays_files(tmp_path, db, capsys):
    """Regression: `versus report N` re-read experiment.toml, so an edited or moved folder changed or
    dropped an old session's verdicts."""
    folder = claims_copy(tmp_path)
    before = verdicts(capsys, "run", str(folder), "--db", str(db), "--format", "json")
    assert before == {"four-times": "holds", "ten-times": "does not hold"}
    toml = folder / "experiment.toml"
    toml.write_text(toml.read_text().replace("min = 10", "min = 1"))
    assert verdicts(capsys, "report", "1", "--db", str(db), "--format", "json") == before
    shutil.rmtree(folder)
    assert verdicts(capsys, "report", "1", "--db", str(db), "--format", "json") == before


def test_resume_uses_the_stored_definition_not_an_edited_file(tmp_path, db, capsys, monkeypatch):
    """Regression: editing experiment.toml between a run and its --resume pooled runs of two sizes."""
    folder = claims_copy(tmp_path)
    from versus import runner

    real = runner.run_one
    calls = {"n": 0}

    def interrupted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "run_one", interrupted)
    assert main(["run", str(folder), "--db", str(db), "--processes", "3"]) == 130
    monkeypatch.setattr(runner, "run_one", real)
    toml = folder / "experiment.toml"
    toml.write_text(toml.read_text().replace("samples = 7", "samples = 2").replace("inner = 20000", "inner = 5"))
    capsys.readouterr()
    assert main(["run", "--resume", "--db", str(db), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "changed since session 1 started" in captured.err
    doc = json.loads(captured.out)
    counts = {len([s for s in run["samples"] if not s[2]]) for arm in doc["arms"] for run in arm["runs"]}
    inners = {s[1] for arm in doc["arms"] for run in arm["runs"] for s in run["samples"]}
    assert counts == {7} and inners == {20000}
    assert sum(arm["processes_ok"] for arm in doc["arms"]) == 6


def test_two_databases_in_one_folder_keep_their_reports_apart(tmp_path, capsys):
    """Regression: session-N/ was keyed by number only, so two databases overwrote each other's reports."""
    first, second = tmp_path / "versus.db", tmp_path / "other.db"
    for db in (first, second):
        assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1"]) == 0
    capsys.readouterr()
    assert report_folder(first, 1) != report_folder(second, 1)
    assert (report_folder(first, 1) / "report.md").exists() and (report_folder(second, 1) / "report.md").exists()
    assert report_folder(first, 1).name == "session-1" and report_folder(second, 1).name == "other-session-1"


def test_dry_run_prints_the_plan_and_estimates_from_history(tmp_path, db, capsys):
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "2"]) == 0
    capsys.readouterr()
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--dry-run", "--budget", "10m"]) == 0
    out = capsys.readouterr().out
    assert "2 arms" in out and "claims: 2 arms × 10 processes = 20 process runs; about" in out
    assert "budget: 10.0 min" in out and "never run" not in out
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 1  # nothing ran


def test_a_case_can_be_the_baseline(tmp_path, db, capsys):
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "3", "--baseline", "case:fast",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(c["by"], c["arm"].split("/")[1], c["baseline"].split("/")[1], c["verdict"]) for c in doc["comparisons"]] == \
        [("case", "slow", "fast", "slower")]
    assert doc["definitions"]["claims"]["raw"]["experiment"]["baseline"] == {"case": "fast"}


def test_a_schema_2_database_moves_forward_and_says_what_it_lacks(tmp_path):
    db = tmp_path / "old.db"
    connection = sqlite3.connect(db)
    for number, script in enumerate(MIGRATIONS[:2]):
        connection.executescript(for_sqlite(script) + f"\nPRAGMA user_version={number + 1};")
    for session, folder in ((1, FIXTURES / "claims"), (2, tmp_path / "gone")):
        connection.execute("INSERT INTO sessions VALUES (?, 0, 0, 'complete', 1, '[]', '{}', '{}')", (session,))
        connection.execute("INSERT INTO arms (session_id, position, experiment, experiment_path, case_name, runtime,"
                           " runtime_info, params, method) VALUES (?, 0, 'claims', ?, 'fast', 'cpython@3.11', '{}',"
                           " '{}', '{}')", (session, str(folder)))
    connection.commit()
    connection.close()
    store = Store(db)
    kept, gone = load_session(store, 1), load_session(store, 2)
    assert "claims" in kept.definitions and kept.lacks == ""
    assert gone.definitions == {} and "folders were gone" in gone.lacks


def _one_run(store: Store, method: dict[str, object]) -> int:
    session = store.new_session(1, [], {}, {})
    arm = store.add_arm(session, 0, {"experiment": "e", "experiment_path": "", "case": "c", "runtime": "r",
                                     "runtime_info": {}, "params": {}, "method": method})
    samples = [SampleRecord(9_000, 1, True)] + [SampleRecord(ns, 1, False) for ns in (5_000, 3_000, 8_000)]
    store.save_run(arm, 0, ProcessRun("ok", samples=samples))
    return session


def test_a_process_value_is_its_fastest_sample_where_the_method_says_min_and_the_median_before_it_existed(db):
    """The warmup sample (9 µs) is never the value; a session stored before `value` existed (its arms'
    methods lack the key) is judged with the median it ran with, so its report does not change."""
    store = Store(db)
    fastest = _one_run(store, {"value": "min", "samples": 3})
    old = _one_run(store, {"samples": 3})
    median = _one_run(store, {"value": "median", "samples": 3})
    values = {session: analyze(store, session).arms[0].processes[0].value for session in (fastest, old, median)}
    assert values == {fastest: 3_000, old: 5_000, median: 5_000}


def test_quick_takes_the_methods_value_unless_it_sets_its_own(tmp_path):
    folder = claims_copy(tmp_path)
    toml = folder / "experiment.toml"
    toml.write_text(toml.read_text().replace("[method]\n", "[method]\nvalue = \"min\"\n"))
    assert (load(folder).method.value, load(folder).quick.value) == ("min", "min")
    toml.write_text(toml.read_text() + "\n[quick]\nvalue = \"median\"\n")
    assert (load(folder).method.value, load(folder).quick.value) == ("min", "median")
