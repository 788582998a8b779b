"""The hostile-input campaign, written down: malformed experiment files, protocol streams, databases,
import files and arguments. Each ends in `versus: error: …` with a hint and its documented exit code,
or in a failed process run with its reason; never in a traceback, never with a finished run lost.
One test per defect the campaign found (issue 15)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import FIXTURES
from versus.cli import main
from versus.experiment import all_experiments

BASE = '''
[experiment]
name = "h"
runtimes = ["cpython@3.11"]
[method]
processes = 1
warmup = 0
samples = 1
inner = 10
timeout = 20
[params]
parts = 3
[programs]
python3 = "prog.py"
[[cases]]
name = "job"
check = "parts"
'''

PROGRAM = '''
import versus_helper as vh
vh.run({"job": vh.timed(lambda n: int(vh.param("parts")))})
'''


def experiment(tmp_path: Path, toml: str = BASE, program: str = PROGRAM, name: str = "h") -> Path:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "experiment.toml").write_text(toml)
    (folder / "prog.py").write_text(program)
    return folder


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err, captured.err
    return code, captured.out, captured.err


# --- experiment.toml ----------------------------------------------------------------------------

TOML_CASES = [
    # (what to change, the message, a word of the hint)
    (("check = \"parts\"", "chek = \"parts\""), "unknown key 'chek' in [[cases]] #1 (job); did you mean 'check'?", "remove"),
    (("runtimes = [", "runtime = ["), "unknown key 'runtime' in [experiment]; did you mean 'runtimes'?", "remove"),
    (("processes = 1", "proceses = 1"), "unknown key 'proceses' in [method]; did you mean 'processes'?", "remove"),
    (("processes = 1", "processes = \"many\""), "[method].processes: input should be a valid integer", "type"),
    (("processes = 1", "processes = 1000000000"), "less than or equal to 1000", "docs/experiment-toml.md"),
    (("warmup = 0", "warmup = -1"), "greater than or equal to 0", "docs/experiment-toml.md"),
    (("inner = 10", "inner = -5"), "greater than or equal to 0", "docs/experiment-toml.md"),
    (("timeout = 20", "timeout = -1"), "greater than 0", "docs/experiment-toml.md"),
    (("timeout = 20", "timeout = nan"), "finite", "docs/experiment-toml.md"),
    (("timeout = 20", "timeout = 20\nmin_sample_ns = 0"), "greater than or equal to 1", "docs/experiment-toml.md"),
    (("timeout = 20", "timeout = 20\nvalue = \"minimum\""), "[method].value: input should be 'median' or 'min'",
     "docs/experiment-toml.md"),
    (('runtimes = ["cpython@3.11"]', 'runtimes = "cpython@3.11"'), "[experiment].runtimes: input should be a valid list",
     "lists are written"),
    (('python3 = "prog.py"', 'python3 = "progg.py"'), "[programs] python3 = 'progg.py': there is no such file",
     "did you mean 'prog.py'?"),
    (('python3 = "prog.py"', 'pyhton3 = "prog.py"'), "unknown program family 'pyhton3'", "did you mean 'python3'?"),
    (('name = "job"', 'name = ""'), "[[cases]] #1.name: a case name is 1 to 200 characters", "docs/experiment-toml.md"),
    (('check = "parts"', 'check = "9 ** 9 ** 9"'), None, None),  # valid syntax: judged when the run checks
    (('check = "parts"', 'check = "partz * 2"'), "names 'partz', which is not a parameter", "known names"),
    (('check = "parts"', 'check = "__import__(\'os\')"'), "uses something other than arithmetic", "integers"),
    (("[[cases]]\nname = \"job\"", "[[cases]]\nname = \"job\"\n[[cases]]\nname = \"job\""),
     "two [[cases]] are named 'job'", "own name"),
    (('name = "job"', 'name = "job"\ndriver = "lode"'), "unknown driver 'lode'", "did you mean 'load'?"),
    (('name = "job"', 'name = "job"\ndriver = "command"\ncommand = "echo \'unclosed"'), "No closing quotation",
     "close the quote"),
    (('name = "job"', 'name = "job"\ndriver = "command"\ncommand = "echo {0}"'), "{0}", "fields"),
    (('name = "job"', 'name = "job"\ndriver = "command"\ncommand = "echo {"'), "Single '{'", "literal braces"),
    (('name = "job"', 'name = "job"\ndriver = "load"\ncommand = "ab -q -c 1 -n 10 {url}{nope}"'),
     "names 'nope', which is not a field", "{url}"),
    (('name = "job"', 'name = "job"\nruntimes = ["cobol@9"]'), "family 'cobol', which versus does not know",
     "families are"),
    (("[experiment]", "[experimnt]"), "unknown key 'experimnt' in the top level; did you mean 'experiment'?", "remove"),
    (("", "[[claims]]\nid = \"c\"\nstatement = \"s\"\nsource = \"x\"\n"
          "numerator = { case = \"job\", runtime = \"cpython\" }\ndenominator = { case = \"jobb\", runtime = \"cpython\" }\n"
          "min = 1"), "denominator names case 'jobb', which is not a case", "did you mean 'job'?"),
    (("", "[[claims]]\nid = \"c\"\nstatement = \"s\"\nsource = \"x\"\n"
          "numerator = { case = \"job\", runtime = \"cobol@9\" }\ndenominator = { case = \"job\", runtime = \"cpython\" }\n"
          "min = 1"), "family 'cobol'", "families are"),
    (("", "[[claims]]\nid = \"c\"\nstatement = \"s\"\nsource = \"x\"\n"
          "numerator = { case = \"job\", runtime = \"cpython\" }\ndenominator = { case = \"job\", runtime = \"pypy\" }\n"
          "min = 3\nmax = 2"), "min 3 is above max 2", "docs/experiment-toml.md"),
    (("", "[[claims]]\nid = \"c\"\nstatement = \"s\"\nsource = \"x\"\n"
          "numerator = { case = \"job\", runtime = \"cpython\", params = { partz = 1 } }\n"
          "denominator = { case = \"job\", runtime = \"pypy\" }\nmin = 1"),
     "pins parameter 'partz', which is not in [params]", "did you mean 'parts'?"),
    (("", "[[claims]]\nid = \"c\"\nstatement = \"s\"\nsource = \"x\"\nnumerator = { case = \"job\", runtime = \"cpython\" }\n"
          "denominator = { case = \"job\", runtime = \"pypy\" }\nmin = 1\n[[claims]]\nid = \"c\"\nstatement = \"s\"\n"
          "source = \"x\"\nnumerator = { case = \"job\", runtime = \"cpython\" }\n"
          "denominator = { case = \"job\", runtime = \"pypy\" }\nmin = 1"), "two [[claims]] have the id 'c'", "own id"),
    (("[method]", "[method\n"), "Expected ']'", "TOML syntax"),
    # [quick] is validated merged over [method]: its errors were placed "in the top level" with its keys unknown
    (('check = "parts"', 'check = "parts"\n[quick]\nwramup = 2'), "unknown key 'wramup' in [quick]; did you mean 'warmup'?",
     "remove"),
    (('check = "parts"', 'check = "parts"\n[quick]\nwarmup = "x"'), "[quick].warmup: input should be a valid integer",
     "type"),
]


@pytest.mark.parametrize("change,message,hint", TOML_CASES, ids=[str(i) for i in range(len(TOML_CASES))])
def test_a_bad_experiment_toml_is_a_usage_error_that_names_the_place(change, message, hint, tmp_path, db, capsys):
    old, new = change
    toml = BASE.replace(old, new, 1) if old else BASE + new
    assert toml != BASE
    code, _, err = run(capsys, "run", str(experiment(tmp_path, toml)), "--db", str(db))
    if message is None:  # a valid file whose check the run then rejects: a failed process run
        assert code == 4 and "too large" in err
        return
    assert code == 2, err
    assert err.startswith("versus: error: ") and message in err and "hint:" in err and hint in err


def test_a_string_of_runtimes_says_to_write_a_list(tmp_path, db, capsys):
    """Regression: runtimes = "cpython@3.11" said "unknown family 'c'"."""
    toml = BASE.replace('runtimes = ["cpython@3.11"]', 'runtimes = "cpython@3.11"')
    _, _, err = run(capsys, "run", str(experiment(tmp_path, toml)), "--db", str(db))
    assert "family 'c'" not in err and "valid list" in err


def test_the_load_driver_advice_names_the_key_the_code_reads():
    """Regression: drivers/load.py told users to write `load = "ab …"`, but the code reads `command`."""
    source = (Path(__file__).parents[1] / "src" / "versus" / "drivers" / "load.py").read_text()
    assert "load = \"ab" not in source and 'command = "ab -q -c 10 -n 2000 {url}"' in source


# --- command line ----------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,code,message", [
    (["--help"], 0, None),
    (["--version"], 0, None),
    (["run", "--help"], 0, None),
    (["selftest", "--help"], 0, None),
    (["frobnicate"], 2, "invalid choice: 'frobnicate'"),
    (["run", "{folder}", "--seed", "-1"], 2, "--seed -1 is out of range"),
    (["run", "{folder}", "--seed", str(2**70)], 2, "out of range"),
    (["run", "{folder}", "--timeout", "nan"], 2, "--timeout"),
    (["run", "{folder}", "--processes", "0"], 2, "--processes"),
    (["run", "{folder}", "--budget", "soon"], 2, "is not a duration"),
    (["run", "{folder}", "--budget=-5m"], 2, "must be a positive duration"),
    (["run", "{folder}", "--budget", "-5m"], 2, "must be a positive duration"),  # argparse said "expected one argument"
    (["run", "{folder}", "--param", "nosuch=5"], 2, "no experiment of this run has a parameter 'nosuch'"),
    (["run", "{folder}", "--param", "novalue"], 2, "bad --param"),
    (["run", "{folder}", "--runtimes", "cpython@@3"], 2, "bad runtime spec"),
    (["run", "{folder}", "--cases", "nope"], 2, "none of the cases nope"),
    (["run", "{folder}", "--baseline", "case:nope"], 2, "no experiment of this run has a case 'nope'"),
    (["run", "no-such-experiment"], 2, "no experiment 'no-such-experiment'"),
    (["report", "7"], 3, "there is no results database"),
    (["runtimes", "fetch", "jython@9.9"], 2, "nothing matched"),
    (["runtimes", "fetch"], 2, "nothing to fetch"),
    (["selftest", "--seconds", "-1"], 2, "must be positive"),
    (["selftest", "--rule", "history_flor=true"], 2, "expected today, or KEY=VALUE"),
    (["lab", "calibration", "--history-rounds", "5"], 2, "with --history"),
    (["selftest", "--rule", "history_floor=perhaps"], 2, "history_floor must be true or false"),
    (["export", "-o", "/nonexistent/dir/x.json"], 3, "there is no results database"),
])
def test_bad_arguments_get_a_clear_error_and_the_documented_code(argv, code, message, tmp_path, db, capsys):
    folder = experiment(tmp_path)
    argv = [a.replace("{folder}", str(folder)) for a in argv]
    if argv[0] in ("run", "report", "export"):
        argv += ["--db", str(db)]
    status, out, err = run(capsys, *argv)
    assert status == code, err
    if message:
        assert message in err and "hint:" in err
    else:
        assert out.startswith("usage:") or out.startswith("versus ")


def test_run_without_names_plans_every_experiment(db, capsys):
    status, out, err = run(capsys, "run", "--quick", "--dry-run", "--db", str(db))
    assert status == 0, err
    for folder in all_experiments():
        assert f"  {folder.name}: " in out + err


# --- protocol streams ------------------------------------------------------------------------------

STREAMS = [
    # (what the program prints after hello, the reason of the failed process run)
    ('say(type="sample", case="job", ns=2**63, inner=1, warmup=False)', "0 ≤ ns < 2^63"),
    ('say(type="sample", case="job", ns=5, inner=2**63, warmup=False)', "1 ≤ inner < 2^63"),
    ('say(type="sample", case="job", ns=0, inner=1, warmup=False); say(type="check", case="job", value="3"); '
     'say(type="end")',
     "a measured sample of 0 ns"),
    ('print("@versus " + json.dumps({"type": "metric", "case": "job", "name": "m", "value": float("nan")}))',
     "malformed JSON"),
    ('print("@versus " + \'{"type":"metric","case":"job","name":"m","value":\' + "9" * 400 + "}")', "finite"),
    ('print("@versus {not json")', "malformed JSON"),
    ('print("@versus " + "[" * 50000 + "]" * 50000)', "malformed JSON"),
    ('sys.stdout.buffer.write(b"\\xff\\xfe@versus binary\\n"); sys.stdout.flush()', "no `end`"),
]


@pytest.mark.parametrize("body,reason", STREAMS, ids=[str(i) for i in range(len(STREAMS))])
def test_a_malformed_stream_is_a_failed_run_and_the_session_finishes(body, reason, tmp_path, db, capsys):
    program = ("import json, sys\nsay = lambda **m: print('@versus ' + json.dumps(m), flush=True)\n"
               "say(v=1, type='hello', runtime='cpython', version='3', clock='none')\n"
               f"{body}\nsys.stdout.flush()\n")
    folder = experiment(tmp_path, program=program)
    code, out, err = run(capsys, "run", str(folder), "--db", str(db), "--format", "json")
    assert code == 4
    doc = json.loads(out)
    assert doc["session"]["status"] == "complete"
    assert [reason in f["reason"] for f in doc["failed_runs"]] == [True], doc["failed_runs"]


def test_a_u2028_inside_a_json_string_does_not_split_the_line(tmp_path, db, capsys):
    program = ("import json\nsay = lambda **m: print('@versus ' + json.dumps(m, ensure_ascii=False), flush=True)\n"
               "say(v=1, type='hello', runtime='cpython', version='3', clock='a\\u2028b')\n"
               "say(type='sample', case='job', ns=10, inner=1, warmup=False)\n"
               "say(type='check', case='job', value='3')\nsay(type='end')\n")
    code, out, _ = run(capsys, "run", str(experiment(tmp_path, program=program)), "--db", str(db), "--format", "json")
    assert code == 0 and json.loads(out)["failed_runs"] == []


def test_markup_in_a_log_line_is_text(tmp_path, db, capsys):
    """Regression: a last stderr line with `[/x]` crashed rich's markup."""
    program = "import sys\nsys.stderr.write('broken [/x] and [method] [bold]\\n')\nsys.exit(3)\n"
    code, out, err = run(capsys, "run", str(experiment(tmp_path, program=program)), "--db", str(db))
    assert code == 4 and "[/x]" in out + err and "[method]" in out + err


def test_json_output_is_json_without_nan(tmp_path, db, capsys):
    code, out, _ = run(capsys, "run", str(FIXTURES / "claims"), "--db", str(db), "--format", "json", "--processes", "1")
    assert code == 0
    assert "NaN" not in out and "Infinity" not in out
    json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


def test_manifest_strings_never_reach_a_shell(tmp_path, db, capsys):
    """`$(…)`, backticks and `;` in a case name, a parameter and a command arrive as literal text."""
    evil = "$(touch pwned);touch pwned`touch pwned`"
    toml = BASE.replace('name = "job"', f'name = "job {evil}"\ndriver = "command"\n'
                        f'command = "{{runtime}} -c \\"import sys; print(sys.argv[1])\\" {{parts}}"\ncheck = "parts"')
    toml = toml.replace('check = "parts"\n', "", 1).replace("parts = 3", f'parts = "{evil}"')
    toml = toml.replace("[params]", "[params]").replace('[programs]\npython3 = "prog.py"\n', "")
    code, out, err = run(capsys, "run", str(experiment(tmp_path, toml)), "--db", str(db), "--format", "json")
    assert code == 0, err
    assert not list(tmp_path.rglob("pwned"))
    doc = json.loads(out)
    assert doc["arms"][0]["runs"][0]["checks"][0][0] == evil


# --- databases and files ---------------------------------------------------------------------------

def test_a_corrupted_database_is_an_error_with_a_way_out(tmp_path, capsys):
    db = tmp_path / "v.db"
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1", "--format", "json"]) == 0
    capsys.readouterr()
    data = bytearray(db.read_bytes())
    for offset in range(4096, min(len(data), 4096 * 3)):
        data[offset] = 0x5A
    db.write_bytes(bytes(data))
    for name in ("v.db-wal", "v.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    code, _, err = run(capsys, "report", "--db", str(db))
    assert code == 3 and "versus: error:" in err and "hint:" in err


def test_a_full_disk_keeps_the_finished_runs_and_the_session_resumable(tmp_path, db, capsys, monkeypatch):
    from versus import store as store_module
    from versus.record import load_session

    real = store_module.Store.insert_run
    calls = {"n": 0}

    def full(self, arm_id, round_, process_run, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        calls["n"] += 1
        if calls["n"] == 3:
            raise sqlite3.OperationalError("database or disk is full")
        return real(self, arm_id, round_, process_run, *args, **kwargs)

    monkeypatch.setattr(store_module.Store, "insert_run", full)
    code, _, err = run(capsys, "run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "3")
    assert code == 3 and "disk is full" in err and "--resume" in err
    monkeypatch.setattr(store_module.Store, "insert_run", real)
    stored = store_module.Store(db)
    session = load_session(stored)
    assert session.status == "interrupted" and len(stored.runs(session.id)) == 2
    stored.close()
    code, _, err = run(capsys, "run", "--resume", "--db", str(db))
    assert code == 0, err


def test_an_unwritable_export_path_is_an_error(tmp_path, db, capsys):
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1"]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "export", "--db", str(db), "-o", str(tmp_path / "missing" / "x.json"))
    assert code == 2 and "cannot write" in err


IMPORTS = [
    ("jmh-key", [{"primaryMetric": {}}]),
    ("jmh-type", [{"benchmark": 5, "primaryMetric": {"scoreUnit": "ns/op", "rawData": "x"}}]),
    ("jmh-zero", [{"benchmark": "b", "primaryMetric": {"scoreUnit": "ops/s", "rawData": [[0.0]]}}]),
    ("jmh-huge", [{"benchmark": "b", "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[1e300]]}}]),
    ("jmh-unit", [{"benchmark": "b", "primaryMetric": {"scoreUnit": "furlongs", "rawData": [[1.0]]}}]),
    ("jmh-empty", [{"benchmark": "b", "primaryMetric": {"scoreUnit": "ns/op", "rawData": []}}]),
    ("hyperfine-key", {"results": [{"times": [0.1]}]}),
    ("hyperfine-neg", {"results": [{"command": "x", "times": [-1.0]}]}),
    ("hyperfine-str", {"results": [{"command": "x", "times": ["fast"]}]}),
    ("hyperfine-nan", "NAN"),
    ("pyperf-runs", {"version": "1.0", "benchmarks": [{"runs": "x"}]}),
    ("pyperf-values", {"version": "1.0", "benchmarks": [{"runs": [{"values": [None]}]}]}),
    ("pyperf-huge", {"version": "1.0", "benchmarks": [{"runs": [{"values": [1e300]}]}]}),
    ("pyperf-warmups", {"version": "1.0", "benchmarks": [{"runs": [{"values": [1.0], "warmups": [1]}]}]}),
    ("versus-v1", {"format": "versus.session", "version": 1}),
    ("versus-broken", {"format": "versus.session", "version": 2, "session": {}, "arms": [{"case": "x"}]}),
    ("bad-utf8", b"\xff\xfe{"),
    ("not-json", b"{"),
    ("empty-object", {}),
]


@pytest.mark.parametrize("name,content", IMPORTS, ids=[n for n, _ in IMPORTS])
def test_a_malformed_import_is_refused_whole(name, content, tmp_path, db, capsys):
    path = tmp_path / f"{name}.json"
    if content == "NAN":
        path.write_text('{"results": [{"command": "x", "times": [NaN]}]}')
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(json.dumps(content))
    code, _, err = run(capsys, "import", str(path), "--db", str(db))
    assert code == 2 and "versus: error:" in err and "hint:" in err, err
    if db.exists():
        with sqlite3.connect(db) as connection:
            assert connection.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0  # nothing half-imported


def test_a_second_run_on_the_same_database_is_refused_with_the_holder_named(db, capsys):
    """Regression: --resume while the original run was still going crashed with sqlite3.IntegrityError."""
    from versus.store import Store

    holder = Store(db)
    holder.acquire()
    code, _, err = run(capsys, "run", str(FIXTURES / "claims"), "--db", str(db))
    assert code == 3 and "is in use by a running versus (pid" in err and "another --db" in err
    code, _, err = run(capsys, "run", "--resume", "--db", str(db))
    assert code == 3 and "in use" in err
    holder.release()
