"""Exit codes, formats, and the claims verdicts of a fixture whose true answer is known."""
from __future__ import annotations

import json

from conftest import FIXTURES
from versus.cli import main


def test_unknown_experiment_is_a_usage_error(db, capsys):
    assert main(["run", "no-such-experiment", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("versus: error: no experiment 'no-such-experiment'")
    assert "hint:" in err


def test_bad_runtime_spec_says_how_to_write_one(db, capsys):
    assert main(["run", str(FIXTURES / "fake"), "--runtimes", "cpython@@3", "--db", str(db)]) == 2
    assert "family@version" in capsys.readouterr().err


def test_nothing_stored_is_a_clear_error(db, capsys):
    assert main(["report", "--db", str(db)]) == 3
    assert "there is no results database" in capsys.readouterr().err
    assert not db.exists()


def test_claims_hold_and_fail_as_constructed_and_fail_on_claims_exits_1(db, capsys):
    code = main(["run", str(FIXTURES / "claims"), "--db", str(db), "--format", "json", "--fail-on-claims"])
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    verdicts = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert verdicts == {"four-times": "holds", "ten-times": "does not hold"}
    ratio = doc["claims"][0]["instances"][0]["ratio"]
    assert 3.8 < ratio["low"] <= ratio["value"] <= ratio["high"] < 4.2
    assert code == 1
    assert "ten-times" in captured.err


def test_report_and_compare_read_stored_sessions(db, capsys, tmp_path):
    for _ in range(2):
        assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "2", "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["report", "1", "--db", str(db), "--format", "markdown", "--charts", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out
    assert "## claims" in out and "four-times" in out
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["claims-fast.png", "claims-slow.png"]
    assert main(["compare", "1", "2", "--db", str(db)]) == 0
    table = capsys.readouterr().out
    assert "claims/fast/cpython@3.11" in table and "ratio B ÷ A" in table
