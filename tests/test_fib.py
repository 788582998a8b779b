"""The fib experiment end to end, tiny: both cases once on every program family (Ruby on CRuby and on
JRuby interpreted and compiled, Python 2 on CPython 2.7 and Jython, Python 3 on CPython and PyPy, Java),
through the harness, with every check verified. fib(20) and fib_iterative(20000) keep it short; the
experiment's checks are for fib(30) and fib(500000), so the test runs a copy with the checks of its n."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from versus.cli import main
from versus.paths import experiments

RUNTIMES = ("cruby@3.1,cruby@3.1+yjit,jruby@1.0+int,jruby@1.0+jit,jruby@1.7.27+int,jruby@10.1.1.0+jit,"
            "cpython@2.7,jython@2.7.4,cpython@3.13,pypy@3.9,java@25")
SMALL = {"recursive_n": (20, "832040", "6765"),
         "iterative_n": (20000, "'73808518469780453125'", "'39857683971213093125'")}


def small_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "fib"
    shutil.copytree(experiments() / "fib", folder)
    toml = folder / "experiment.toml"
    text = toml.read_text()
    for _, full, small in SMALL.values():
        line = f'check = "{full}"'
        assert text.count(line) == 1, f"experiment.toml no longer has {line}"
        text = text.replace(line, f'check = "{small}"')
    toml.write_text(text)
    return folder


def test_the_last_20_digits_in_the_check_are_those_of_fib_500000():
    i, j = 0, 1
    for _ in range(500000):
        i, j = j, i + j
    assert f"'{i % 10 ** 20:020d}'" == SMALL["iterative_n"][1]


@pytest.mark.slow
def test_both_cases_run_and_check_on_every_family(tmp_path, db, capsys):
    params = [item for name, (n, _, _) in SMALL.items() for item in ("--param", f"{name}={n}")]
    code = main(["run", str(small_copy(tmp_path)), "--runtimes", RUNTIMES, "--processes", "1", "--warmup", "1",
                 "--samples", "2", "--db", str(db), "--format", "json", *params])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    assert doc["failed_runs"] == []
    measured = {(a["case"], a["runtime_info"]["family"]) for a in doc["arms"] if a["processes_ok"] == 1}
    for family in ("cruby", "jruby", "cpython", "jython", "pypy", "java"):
        assert {("fib_recursive", family), ("fib_iterative", family)} <= measured, family
    assert len(doc["arms"]) == 2 * len(RUNTIMES.split(","))
