"""The jmh driver end to end on a tiny JMH project (built with Maven on first use)."""
from __future__ import annotations

import json
import shutil
from typing import cast

import pytest

from conftest import FIXTURES
from versus.cli import main
from versus.executor import Executor


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("mvn"), reason="Maven is not installed (make setup installs it)")
def test_jmh_forks_are_process_runs_with_checks(db, capsys, monkeypatch):
    # JMH refuses to start while another JMH on the machine holds /tmp/jmh.lock (a test on another xdist
    # worker, or another test session); versus runs one process at a time itself, so the lock is not needed here.
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Djmh.ignoreLock=true")
    code = main(["run", str(FIXTURES / "jmh"), "--db", str(db), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["failed_runs"] == []
    arms = {a["case"]: a for a in doc["arms"]}
    assert arms["sum"]["processes_ok"] == 2 and arms["sum"]["statistics"]["samples"] == 4
    assert doc["comparisons"] == []  # one runtime: nothing to compare within a case
    assert 1.3 < arms["sum_twice"]["estimate"]["value"] / arms["sum"]["estimate"]["value"] < 3.5


def test_a_held_jmh_lock_is_waited_for(monkeypatch, tmp_path):
    """Regression: a concurrent JMH run holding /tmp/jmh.lock failed the process run at once."""
    from versus.drivers import jmh
    from versus.executor import Completed
    from versus.experiment import load
    from versus.plan import make_plan

    experiment = load(FIXTURES / "jmh")
    arm = make_plan([experiment], None, ["sum"], False, {})
    answers = [Completed(1, "", f"{jmh.LOCKED} (/tmp/jmh.lock), exiting.", 10)] * 2 + [Completed(3, "", "boom", 10)]

    class Scripted:
        calls = 0

        def execute(self, argv, env, timeout, cwd=None):
            Scripted.calls += 1
            return answers[Scripted.calls - 1]

    monkeypatch.setattr(jmh, "LOCK_WAIT", 0.01)
    driver = jmh.JmhDriver()
    program = arm.arms[0].program
    assert program is not None
    driver._jars[program] = tmp_path / "benchmarks.jar"
    run = driver.run(arm.arms[0], arm.methods["jmh-fixture"], 0, cast(Executor, Scripted()))
    assert Scripted.calls == 3 and run.reason == "exit code 3: boom"


def test_a_jar_is_rebuilt_when_a_source_folder_its_pom_names_changes(tmp_path):
    """Regression: sources added with build-helper (outside the project folder) left a stale jar."""
    from versus.runtimes.maven import _inputs

    project, shared = tmp_path / "project", tmp_path / "shared"
    (project / "src").mkdir(parents=True)
    shared.mkdir()
    (shared / "Model.java").write_text("class Model {}")
    (project / "pom.xml").write_text("<project><source>${project.basedir}/../shared</source></project>")
    names = {p.name for p in _inputs(project, tmp_path / "helpers")}
    assert {"pom.xml", "Model.java"} <= names


def test_warmup_scores_survive_the_benchmarks_own_output():
    """Regression: an @versus line printed from a @Setup landed on JMH's warmup line and lost its score."""
    from versus.drivers.jmh import warmup_scores

    stdout = ("# Warmup Iteration   1: @versus {\"type\":\"metric\",\"case\":\"x\",\"name\":\"size\",\"value\":5}\n"
              "12.5 ns/op\n# Warmup Iteration   2: 11.25 ns/op\n# Warmup Iteration   3: 1,210.5 ns/op\n"
              "Iteration   1: 10.0 ns/op\n")
    assert warmup_scores(stdout) == [("12.5", "ns/op"), ("11.25", "ns/op"), ("1,210.5", "ns/op")]
