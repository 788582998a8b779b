"""Exit codes, formats, and the claims verdicts of a fixture whose true answer is known."""
from __future__ import annotations

import json
import math
import os
import sqlite3

import pytest
from scipy.stats import t as student

from conftest import FIXTURES
from versus.cli import main
from versus.rule import CURRENT


def test_unknown_experiment_is_a_usage_error(db, capsys):
    assert main(["run", "no-such-experiment", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("versus: error: no experiment 'no-such-experiment'")
    assert "hint:" in err


def test_bad_runtime_spec_says_how_to_write_one(db, capsys):
    assert main(["run", str(FIXTURES / "fake"), "--runtimes", "cpython@@3", "--db", str(db)]) == 2
    assert "family@version" in capsys.readouterr().err


def test_more_cpus_than_the_host_gives_is_a_usage_error_before_anything_runs(db, capsys):
    usable = len(os.sched_getaffinity(0))
    assert main(["run", str(FIXTURES / "claims"), "--cpus", str(usable + 1), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"runs each process on cpus = {usable + 1}, and this host lets versus use {usable}" in err
    assert f"hint: pass --cpus {usable} (or fewer)" in err and "Traceback" not in err
    with sqlite3.connect(db) as connection:  # no session was started
        assert connection.execute("select count(*) from sessions").fetchone() == (0,)


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
    instance = doc["claims"][0]["instances"][0]
    ratio, level, rounds = instance["ratio"], instance["level"], instance["rounds"]
    # the interval printed is the one that decided, at its level (a look's share of the claims' 5%): the
    # program's ±3% jitter spreads less than the rule's floor below 20 rounds, so the floor sets its width
    assert rounds == 10 < CURRENT.floor_until and 0.95 < level < 1
    half = float(student.ppf(1 - (1 - level) / 2, rounds - 1)) * CURRENT.floor / math.sqrt(rounds)
    assert 3.9 < ratio["value"] < 4.1
    assert ratio["low"] == pytest.approx(ratio["value"] * math.exp(-half), rel=1e-6)
    assert ratio["high"] == pytest.approx(ratio["value"] * math.exp(half), rel=1e-6)
    assert code == 1
    assert "ten-times" in captured.err


def test_report_and_compare_read_stored_sessions(db, capsys, tmp_path):
    for _ in range(2):
        assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "2", "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["report", "1", "--db", str(db), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "## claims" in out and "four-times" in out
    assert main(["compare", "1", "2", "--db", str(db)]) == 0
    table = capsys.readouterr().out
    assert "claims/fast/cpython@3.11" in table and "ratio B ÷ A" in table
    assert main(["sessions", "--db", str(db)]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert len(listing) == 2 and "complete" in listing[0] and "claims" in listing[0]


def test_swept_parameters_make_one_arm_each_and_metric_claims_are_judged(tmp_path, db, capsys):
    folder = tmp_path / "sweep"
    folder.mkdir()
    (folder / "experiment.toml").write_text('''
[experiment]
name = "sweep"
runtimes = ["cpython@3.11"]
[method]
processes = 3
warmup = 0
samples = 3
inner = 10
[params]
size = ["10", "40"]
[programs]
python3 = "size.py"
[[cases]]
name = "store"
check = "size"
[[claims]]
id = "ratio-of-bytes"
statement = "size 40 stores 4x the bytes of size 10"
source = "arithmetic"
metric = "bytes"
numerator = { case = "store", runtime = "cpython", params = { size = "40" } }
denominator = { case = "store", runtime = "cpython", params = { size = "10" } }
min = 3.9
max = 4.1
[[claims]]
id = "fraction-short"
statement = "at least 65% fit"
source = "arithmetic"
metric = "fraction"
numerator = { case = "store", runtime = "cpython" }
min = 0.65
''')
    (folder / "size.py").write_text('''
import json, os
size = int(os.environ["VERSUS_PARAM_SIZE"])
say = lambda **m: print("@versus " + json.dumps(m))
say(v=1, type="hello", runtime="cpython", version="3", clock="none")
for i in range(int(os.environ["VERSUS_SAMPLES"])):
    say(type="sample", case="store", ns=1000 + i, inner=10, warmup=False)
    say(type="check", case="store", value=str(size))
    say(type="metric", case="store", name="bytes", value=size * 100, unit="bytes")
    say(type="metric", case="store", name="fraction", value=0.5 if size == 10 else 0.8, unit="ratio")
say(type="end")
''')
    assert main(["run", str(folder), "--db", str(db), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(a["key"] for a in doc["arms"]) == ["sweep/store[size=10]/cpython@3.11.7",
                                                    "sweep/store[size=40]/cpython@3.11.7"]
    claims = {c["id"]: c for c in doc["claims"]}
    ratio = claims["ratio-of-bytes"]["instances"]
    assert len(ratio) == 1 and ratio[0]["ratio"]["value"] == pytest.approx(4.0) and ratio[0]["verdict"] == "holds"
    fractions = {i["numerator"].split("/")[1]: i["verdict"] for i in claims["fraction-short"]["instances"]}
    assert fractions == {"store[size=10]": "does not hold", "store[size=40]": "holds"}
    assert claims["fraction-short"]["verdict"] == "does not hold"

    # A comma in --param sweeps from the command line; one value pins the sweep.
    for values, sizes in (("10,20,40", ["10", "20", "40"]), ("20", ["20"])):
        assert main(["run", str(folder), "--db", str(db), "--format", "json", "--processes", "1",
                     "--param", f"size={values}"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert sorted(a["params"]["size"] for a in doc["arms"]) == sizes


def test_a_claim_between_modes_pairs_each_version_with_itself():
    """Regression: jruby+int ÷ jruby+jit paired every JRuby version with every other one."""
    from dataclasses import dataclass

    from versus.arms import ArmId
    from versus.experiment import Claim, Side
    from versus.items import paired
    from versus.record import StoredRuntime

    @dataclass
    class Arm:
        id: ArmId
        runtime: StoredRuntime
        param_map: dict

    def arm(version: str, flag: str) -> Arm:
        return Arm(ArmId("fib", "fib_recursive", "", f"jruby@{version}+{flag}/java@25"),
                   StoredRuntime("jruby", version, (flag,), "25.0.3"), {})

    claim = Claim(id="c", statement="", source="", numerator=Side(case="fib_recursive", runtime="jruby+int"),
                  denominator=Side(case="fib_recursive", runtime="jruby+jit"), min=1.5)
    assert paired(arm("1.0", "int"), arm("1.0", "jit"), claim)
    assert not paired(arm("1.0", "int"), arm("9.4.14.0", "jit"), claim)


def test_quick_cases_and_a_claim_on_time_itself(tmp_path, db, capsys):
    folder = tmp_path / "q"
    folder.mkdir()
    (folder / "experiment.toml").write_text('''
[experiment]
runtimes = ["cpython@3.11"]
[method]
processes = 3
warmup = 0
samples = 2
inner = 10
[quick]
cases = ["fast"]
[programs]
python3 = "p.py"
[[cases]]
name = "fast"
[[cases]]
name = "slow"
[[claims]]
id = "under-a-ms"
statement = "fast takes under 1 ms per iteration"
source = "arithmetic"
numerator = { case = "fast", runtime = "cpython" }
max = 1000000
''')
    (folder / "p.py").write_text("import json\nsay = lambda **m: print('@versus ' + json.dumps(m))\n"
                                 "say(v=1, type='hello', runtime='cpython', version='3', clock='none')\n"
                                 "for i in range(2): say(type='sample', case='fast', ns=5000, inner=10, warmup=False)\n"
                                 "say(type='end')\n")
    assert main(["run", str(folder), "--quick", "--db", str(db), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [a["case"] for a in doc["arms"]] == ["fast"]
    claim = doc["claims"][0]
    assert claim["verdict"] == "holds" and claim["instances"][0]["ratio"]["value"] == pytest.approx(500)
