"""Import of JMH, hyperfine and pyperf JSON; export to pyperf and back."""
from __future__ import annotations

import json
import math

import pytest

from conftest import FIXTURES
from versus.cli import main
from versus.ingest.jmh import ns_per_op
from versus.store import Store

JMH = [{"benchmark": "bench.Dispatch.reflective", "mode": "avgt", "params": {"size": "10"},
        "primaryMetric": {"score": 2.0, "scoreUnit": "ns/op", "rawData": [[2.0, 2.1, 1.9], [2.2, 2.0, 2.1]]}},
       {"benchmark": "bench.Dispatch.direct", "mode": "thrpt",
        "primaryMetric": {"score": 1.0, "scoreUnit": "ops/us", "rawData": [[1.0, 1.0], [2.0, 2.0]]}}]
HYPERFINE = {"results": [{"command": "sleep 0.01", "mean": 0.0105, "times": [0.0101, 0.0106, 0.0108]}]}


def test_jmh_units():
    assert ns_per_op(3, "us/op") == 3000 and ns_per_op(2, "ops/us") == 500 and ns_per_op(1, "ops/s") == 1e9


def test_jmh_forks_become_process_runs(tmp_path, db, capsys):
    path = tmp_path / "jmh.json"
    path.write_text(json.dumps(JMH))
    assert main(["import", str(path), "--db", str(db)]) == 0
    assert main(["report", "--db", str(db), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    arms = {a["case"]: a for a in doc["arms"]}
    assert arms["bench.Dispatch.reflective(size=10)"]["processes_ok"] == 2
    assert arms["bench.Dispatch.direct"]["estimate"]["value"] == pytest.approx(math.sqrt(1000 * 500))


def test_hyperfine_times_are_one_process_each(tmp_path, db):
    path = tmp_path / "hf.json"
    path.write_text(json.dumps(HYPERFINE))
    assert main(["import", str(path), "--db", str(db)]) == 0
    store = Store(db)
    assert len(store.runs(store.session()["id"])) == 3


def test_pyperf_export_imports_back_with_the_same_values(tmp_path, db, capsys):
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "2", "--format", "json"]) == 0
    first = {a["key"]: a for a in json.loads(capsys.readouterr().out)["arms"]}
    out = tmp_path / "suite.json"
    assert main(["export", "1", "--db", str(db), "--to", "pyperf", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["version"] == "1.0"
    assert main(["import", str(out), "--db", str(db)]) == 0
    assert main(["report", "2", "--db", str(db), "--format", "json"]) == 0
    again = {a["case"]: a for a in json.loads(capsys.readouterr().out)["arms"]}
    for key, arm in first.items():
        assert again[key]["processes_ok"] == arm["processes_ok"]
        assert again[key]["estimate"]["value"] == pytest.approx(arm["estimate"]["value"], rel=1e-3)


def test_not_a_known_format_says_which_are(tmp_path, db, capsys):
    path = tmp_path / "x.json"
    path.write_text("{}")
    assert main(["import", str(path), "--db", str(db)]) == 2
    assert "JMH, hyperfine or pyperf" in capsys.readouterr().err
