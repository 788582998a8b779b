"""docs/extending.md, walked through: a toy runtime family and a toy driver, each one class and one
registry entry (made here by the test instead of a line in the registry), run an experiment through
the real CLI. Nothing else of versus learns their names: if some module still named families or
drivers, the run would fail or the toy would be refused."""
from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import ClassVar

import pytest

from versus.cli import main
from versus.definitions import Arm, Method
from versus.drivers import DRIVERS
from versus.drivers.base import FAILED, OK, Driver, ProcessRun, base_env, failure_of, fill_template, finish, judge_checks
from versus.errors import ExperimentError
from versus.executor import Executor
from versus.protocol import SampleRecord
from versus.runtimes.families import FAMILIES
from versus.runtimes.family import BuildContext, Family
from versus.runtimes.model import Runtime
from versus.runtimes.resolve import installed


class Toy(Family):
    """A family whose one runtime is this Python, its programs `.toy` files of Python."""

    name = "toy"
    program = "toy"
    flags = {"loud": "say so in the environment"}
    install_hint = "nothing to install: it is the test's own Python"

    def discover(self) -> list[Runtime]:
        return [Runtime(self.name, "1.0", Path(sys.executable), "test")]

    def build(self, runtime: Runtime, program: Path, context: BuildContext) -> Path | None:
        if program.suffix != ".toy":
            raise ExperimentError(f"a toy program is a .toy file, not {program.name}", 'set [programs] toy = "x.toy"')
        return None

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        loud = {"TOY_LOUD": "1"} if "loud" in runtime.flags else {}
        return [str(runtime.executable), str(program)], {"PYTHONPATH": str(helpers / "python"), **loud}


class LinesDriver(Driver):
    """A toy driver: its command prints one number a line, each a sample's ns (inner 1); the check
    is how many lines it printed. `{lines}` is how many it must print."""

    name = "lines"
    needs_program = False
    command_fields: ClassVar[tuple[str, ...] | None] = ("runtime", "lines")

    def run(self, arm: Arm, method: Method, inner: int, executor: Executor,
            extra_env: dict[str, str] | None = None) -> ProcessRun:
        count = method.warmup + method.samples
        fields = {**dict(arm.params), "runtime": str(arm.runtime.executable), "lines": str(count)}
        argv = fill_template(arm.case.command, fields, arm.key)
        completed = executor.execute(argv, {**base_env(arm), **(extra_env or {})}, method.timeout,
                                     cwd=arm.experiment.path)
        run = finish(ProcessRun(FAILED), completed)
        run.reason = failure_of(completed, method)
        if run.reason:
            return run
        values = [int(line) for line in completed.stdout.split()]
        run.samples = [SampleRecord(ns, 1, index < method.warmup) for index, ns in enumerate(values)]
        run.checks, run.reason = judge_checks([str(len(values))], arm, 1)
        run.hello = {"runtime": arm.runtime.family, "version": arm.runtime.version, "clock": "its own"}
        run.status = FAILED if run.reason else OK
        return run


@pytest.fixture
def registered(monkeypatch):
    """The two registry lines of docs/extending.md."""
    monkeypatch.setitem(FAMILIES, Toy.name, Toy())
    monkeypatch.setitem(DRIVERS, LinesDriver.name, LinesDriver)
    installed.cache_clear()
    yield
    installed.cache_clear()


PROGRAM = """\
import os
import versus_helper as vh


def count(n):
    total = 0
    for _ in range(n):
        total += 1
    return total if not os.environ.get("TOY_LOUD") else -1


vh.run({"count": vh.timed(count)})
"""


def experiment(tmp_path: Path, command: str = "{runtime} -c 'for i in range({lines}): print(1000 + i)'") -> Path:
    folder = tmp_path / "toys"
    folder.mkdir()
    (folder / "count.toy").write_text(PROGRAM)
    (folder / "experiment.toml").write_text(textwrap.dedent(f"""\
        [experiment]
        title = "a toy family and a toy driver"
        runtimes = ["toy@1"]

        [method]
        processes = 3
        warmup = 1
        samples = 5
        inner = 2000
        timeout = 60

        [programs]
        toy = "count.toy"

        [[cases]]
        name = "count"
        check = "inner"

        [[cases]]
        name = "listed"
        driver = "lines"
        command = "{command}"
        check = "6"
        """))
    return folder


def test_a_toy_family_and_a_toy_driver_run_through_the_cli(registered, tmp_path, capsys):
    code = main(["run", str(experiment(tmp_path)), "--db", str(tmp_path / "v.db"), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    arms = {a["case"]: a for a in doc["arms"]}
    assert set(arms) == {"count", "listed"}
    assert all(a["runtime"] == "toy@1.0" and a["processes_ok"] == 3 and a["processes_failed"] == 0
               for a in arms.values())
    # the driver's samples as its command printed them: 1000 warmup, then 1001…1005, median 1003
    assert arms["listed"]["estimate"]["value"] == 1003
    assert arms["count"]["estimate"]["value"] > 0
    assert all(run["checks"] for a in arms.values() for run in a["runs"])


def test_a_toy_flag_reaches_the_launch_and_its_check_fails(registered, tmp_path, capsys):
    folder = experiment(tmp_path)
    code = main(["run", str(folder), "--runtimes", "toy@1+loud", "--cases", "count", "--db", str(tmp_path / "v.db"),
                 "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 4  # every process run failed its check: the flag reached the program
    assert doc["arms"][0]["runtime"] == "toy@1.0+loud" and doc["arms"][0]["processes_ok"] == 0


def test_the_toy_driver_s_fields_are_checked_when_the_experiment_is_read(registered, tmp_path, capsys):
    folder = experiment(tmp_path, command="{runtime} {url}")
    assert main(["run", str(folder), "--db", str(tmp_path / "v.db")]) == 2
    err = capsys.readouterr().err
    assert "names 'url', which is not a field" in err and "{lines}" in err


def test_without_their_registry_lines_they_are_refused(tmp_path, capsys, monkeypatch):
    folder = experiment(tmp_path)
    assert main(["run", str(folder), "--db", str(tmp_path / "v.db")]) == 2
    assert "unknown runtime family 'toy'" in capsys.readouterr().err
    monkeypatch.setitem(FAMILIES, Toy.name, Toy())
    assert main(["run", str(folder), "--db", str(tmp_path / "v.db")]) == 2
    assert "case listed: unknown driver 'lines'" in capsys.readouterr().err
