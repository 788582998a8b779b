"""The jmh driver end to end on a tiny JMH project (built with Maven on first use)."""
from __future__ import annotations

import json
import shutil

import pytest

from conftest import FIXTURES
from versus.cli import main


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("mvn"), reason="Maven is not installed (make setup installs it)")
def test_jmh_forks_are_process_runs_with_checks(db, capsys):
    code = main(["run", str(FIXTURES / "jmh"), "--db", str(db), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["failed_runs"] == []
    arms = {a["case"]: a for a in doc["arms"]}
    assert arms["sum"]["processes_ok"] == 2 and arms["sum"]["samples"] == 4
    twice = next(c for c in doc["comparisons"] if c["case"] == "sum_twice") if doc["comparisons"] else None
    assert twice is None  # one runtime: nothing to compare within a case
    assert 1.3 < arms["sum_twice"]["median"]["value"] / arms["sum"]["median"]["value"] < 3.5
