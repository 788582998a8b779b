"""Import of JMH, hyperfine and pyperf JSON; export to pyperf and back."""
from __future__ import annotations

import json
import math

import pytest

from conftest import FIXTURES
from versus.cli import main
from versus.ingest.jmh import ns_per_op
from versus.record import load_session
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
    assert len(store.runs(load_session(store).id)) == 3


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


def test_a_versus_export_imports_back_to_the_same_report(tmp_path, db, capsys):
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "3", "--format", "json"]) == 0
    capsys.readouterr()
    out = tmp_path / "session.json.gz"
    assert main(["export", "1", "--db", str(db), "-o", str(out)]) == 0
    other = tmp_path / "other.db"
    assert main(["import", str(out), "--db", str(other)]) == 0
    capsys.readouterr()
    reports = []
    for database in (db, other):
        assert main(["report", "1", "--db", str(database), "--format", "markdown"]) == 0
        reports.append(capsys.readouterr().out)
    assert reports[0] == reports[1]
    assert "four-times" in reports[0]


def test_hyperfine_commands_become_arms_of_one_comparison_and_missing_host_facts_are_left_out(tmp_path, db, capsys):
    data = {"results": [{"command": "sleep 0.01", "times": [0.0101, 0.0102, 0.0103, 0.0101]},
                        {"command": "sleep 0.02", "times": [0.0201, 0.0203, 0.0202, 0.0204]}]}
    path = tmp_path / "hf.json"
    path.write_text(json.dumps(data))
    assert main(["import", str(path), "--db", str(db)]) == 0
    assert main(["report", "--db", str(db), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(c["arm"].split("/")[1], c["baseline"].split("/")[1], c["verdict"]) for c in doc["comparisons"]] == \
        [("sleep 0.02", "sleep 0.01", "slower")]
    assert main(["report", "--db", str(db), "--format", "markdown"]) == 0
    report = capsys.readouterr().out
    assert "None" not in report and "host:" not in report


def test_pyperf_export_writes_real_loops_keeps_swept_arms_apart_and_gzips(tmp_path, db, capsys):
    folder = tmp_path / "sweep"
    folder.mkdir()
    (folder / "experiment.toml").write_text('''
[experiment]
runtimes = ["cpython@3.11"]
[method]
processes = 2
warmup = 1
samples = 2
inner = 500
[params]
size = ["10", "40"]
[programs]
python3 = "p.py"
[[cases]]
name = "read"
''')
    (folder / "p.py").write_text("import versus_helper as vh\nvh.run({'read': vh.timed(lambda n: None)})\n")
    assert main(["run", str(folder), "--db", str(db)]) == 0
    out = tmp_path / "suite.json.gz"
    assert main(["export", "--db", str(db), "--to", "pyperf", "-o", str(out)]) == 0
    import gzip

    suite = json.loads(gzip.decompress(out.read_bytes()))
    names = sorted(b["metadata"]["name"] for b in suite["benchmarks"])
    assert names == ["sweep/read[size=10]/cpython@3.11.7", "sweep/read[size=40]/cpython@3.11.7"]
    loops = {run["metadata"]["loops"] for b in suite["benchmarks"] for run in b["runs"]}
    assert loops == {500}
    assert all(None not in suite["metadata"].values() for _ in [0])
