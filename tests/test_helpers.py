"""The protocol helpers (helpers/python, helpers/ruby, helpers/java), each on the oldest and the newest
runtime it supports, through one tiny program per language in tests/programs/.

Every program has the cases: add (timed), manual (manual, with a check and metrics), self_sized (manual,
ignores inner), boom (raises).  A runtime that is not on this machine (and cannot be fetched) is skipped.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from versus.runtimes import family, parse_spec, resolve  # noqa: E402

PROGRAMS = ROOT / "tests" / "programs"
HELPERS = ROOT / "helpers"

CASES = [
    ("python", "jython@2.5.0", "helper_prog.py"),
    ("python", "cpython@2.7", "helper_prog.py"),
    ("python", "cpython@3.13", "helper_prog.py"),
    ("ruby", "jruby@1.0", "helper_prog.rb"),
    ("ruby", "cruby@3.1", "helper_prog.rb"),
    ("ruby", "jruby@10.1.1.0/java@25", "helper_prog.rb"),
    ("java", "java@17", "HelperProg.java"),
    ("java", "java@25", "HelperProg.java"),
]

CLOCKS = {
    # Monotonic clocks only: time.time is a last resort the tested runtimes must not fall back to.
    "python": {"time.perf_counter_ns", "time.perf_counter", "System.nanoTime", "clock_gettime(CLOCK_MONOTONIC) via ctypes"},
    "ruby": {"Process.clock_gettime(CLOCK_MONOTONIC)", "System.nanoTime", "Time.now"},
    "java": {"System.nanoTime"},
}

METRIC_NAME = "na\u00efve \"q\" \u2603 \U0001F600"


# Every process run of a runtime, started together (JVM start-up dominates this file's time).
SCENARIOS: dict[str, dict[str, str]] = {
    "list": {"VERSUS_LIST": "1"},
    "timed": {"VERSUS_CASE": "add", "VERSUS_INNER": "0", "VERSUS_WARMUP": "1", "VERSUS_SAMPLES": "2",
              "VERSUS_MIN_SAMPLE_NS": "2000000"},
    "manual": {"VERSUS_CASE": "manual", "VERSUS_INNER": "50", "VERSUS_WARMUP": "1", "VERSUS_SAMPLES": "2",
               "VERSUS_PARAM_EXPECT": "ok"},
    "self_sized": {"VERSUS_CASE": "self_sized", "VERSUS_INNER": "0", "VERSUS_WARMUP": "0", "VERSUS_SAMPLES": "2"},
    "boom": {"VERSUS_CASE": "boom", "VERSUS_INNER": "3", "VERSUS_SAMPLES": "1"},
    "typo": {"VERSUS_CASE": "typo", "VERSUS_INNER": "3", "VERSUS_SAMPLES": "1", "VERSUS_PARAM_EXPECT": "ok"},
    "unknown_case": {"VERSUS_CASE": "no_such_case"},
    "bad_count": {"VERSUS_CASE": "add", "VERSUS_SAMPLES": "many"},
}
# Usage errors are helper logic that does not depend on the runtime: checked once per helper on
# CPython/CRuby/Java, not again on each (slow to start) JVM-hosted runtime.
SKIP_ON_HOSTED = {"bad_count"}
# These runs test the helpers, not performance: a JVM that starts with less JIT work keeps the file fast.
FAST_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1 -Xshare:auto"


class Run:
    def __init__(self, code: int, stdout: str, stderr: str):
        self.code = code
        self.out = stdout
        self.err = stderr
        self.messages = [json.loads(line[len("@versus "):]) for line in stdout.splitlines()
                         if line.startswith("@versus ")]


class Launcher:
    def __init__(self, language: str, runtime, program: Path, classpath: Path | None):
        self.language = language
        self.runtime = runtime
        self.argv, self.extra_env = family(runtime.family).launch(runtime, program, classpath, HELPERS)
        self._runs: dict[str, Run] | None = None

    def _run(self, env: dict[str, str]) -> Run:
        full = {k: v for k, v in os.environ.items() if not k.startswith("VERSUS_")}
        full.update(self.extra_env)
        full["VERSUS_PROTOCOL"] = "1"
        if self.runtime.family in ("jython", "jruby", "java"):
            full["JAVA_TOOL_OPTIONS"] = FAST_JVM
        full.update(env)
        proc = subprocess.run(self.argv, env=full, capture_output=True, text=True, timeout=120)
        return Run(proc.returncode, proc.stdout, proc.stderr)

    def run(self, scenario: str) -> Run:
        if scenario in SKIP_ON_HOSTED and self.runtime.family in ("jython", "jruby"):
            pytest.skip("tested on the same helper's other runtimes: keeps this file fast")
        if self._runs is None:
            wanted = {name: env for name, env in SCENARIOS.items()
                      if not (name in SKIP_ON_HOSTED and self.runtime.family in ("jython", "jruby"))}
            with ThreadPoolExecutor(max_workers=3) as pool:
                futures = {name: pool.submit(self._run, env) for name, env in wanted.items()}
                self._runs = {name: future.result() for name, future in futures.items()}
        return self._runs[scenario]


def _launcher(language: str, spec: str, program: str, tmp_path_factory) -> Launcher:
    try:
        resolution = resolve(parse_spec(spec), ["17"])
    except Exception as error:  # a fetch that fails, a JDK that is missing
        pytest.skip(f"{spec} is not available: {error}")
    if not resolution.runtimes:
        pytest.skip(f"{spec} is not available: " + "; ".join(resolution.notes))
    runtime = resolution.runtimes[0]
    classpath = None
    if language == "java":
        javac = runtime.executable.parent / "javac"
        if not javac.exists():
            pytest.skip(f"{spec} has no javac next to {runtime.executable}")
        classpath = tmp_path_factory.mktemp("classes-" + runtime.jdk_major)
        build = subprocess.run([str(javac), "--release", "8", "-Xlint:-options", "-encoding", "UTF-8",
                                "-d", str(classpath), str(HELPERS / "java" / "versus" / "Helper.java"),
                                str(PROGRAMS / program)], capture_output=True, text=True)
        assert build.returncode == 0, build.stderr
    return Launcher(language, runtime, PROGRAMS / program, classpath)


@pytest.fixture(scope="module", params=CASES, ids=[f"{lang}-{spec}" for lang, spec, _ in CASES])
def launcher(request, tmp_path_factory) -> Launcher:
    language, spec, program = request.param
    return _launcher(language, spec, program, tmp_path_factory)


def _check_hello(launcher: Launcher, hello: dict) -> None:
    assert hello["type"] == "hello" and hello["v"] == 1
    family = launcher.runtime.family
    assert hello["runtime"] == family
    assert launcher.runtime.version.startswith(hello["version"]) or hello["version"].startswith(
        launcher.runtime.version)
    assert hello["clock"] in CLOCKS[launcher.language]
    assert isinstance(hello["impl"], str) and hello["impl"]


def _by_type(messages: list[dict], kind: str) -> list[dict]:
    return [m for m in messages if m["type"] == kind]


def test_list(launcher: Launcher) -> None:
    run = launcher.run("list")
    code, messages, err = run.code, run.messages, run.err
    assert code == 0, err
    _check_hello(launcher, messages[0])
    assert [m["name"] for m in _by_type(messages, "case")] == ["add", "manual", "self_sized", "boom", "typo"]
    assert messages[-1] == {"type": "end"}


def test_timed_case_calibrates(launcher: Launcher) -> None:
    run = launcher.run("timed")
    code, messages, err = run.code, run.messages, run.err
    assert code == 0, err
    _check_hello(launcher, messages[0])
    assert messages[-1] == {"type": "end"}
    samples = _by_type(messages, "sample")
    checks = _by_type(messages, "check")
    assert [s["warmup"] for s in samples] == [True, False, False]
    inner = samples[0]["inner"]
    assert inner > 1 and all(s["inner"] == inner for s in samples)
    assert all(isinstance(s["ns"], int) and s["ns"] >= 0 for s in samples)
    expected = sum(i & 7 for i in range(inner))
    assert [c["value"] for c in checks] == [str(expected)] * 3
    # a check follows its sample
    kinds = [m["type"] for m in messages[1:-1]]
    assert kinds == ["sample", "check"] * 3


def test_manual_case_with_check_and_metrics(launcher: Launcher) -> None:
    run = launcher.run("manual")
    code, messages, err = run.code, run.messages, run.err
    assert code == 0, err
    assert messages[-1] == {"type": "end"}
    samples = _by_type(messages, "sample")
    assert [(s["inner"], s["warmup"]) for s in samples] == [(50, True), (50, False), (50, False)]
    expected = sum(i & 7 for i in range(50))
    assert [c["value"] for c in _by_type(messages, "check")] == [f"ok:{expected}"] * 3
    metrics = _by_type(messages, "metric")  # none for the warmup sample
    assert [(m["name"], m["value"], m["unit"]) for m in metrics] == [
        (METRIC_NAME, 242, "bytes"), ("ratio", 0.5, "1")] * 2
    assert all(m["case"] == "manual" for m in metrics)
    assert all(line.isascii() for line in run.out.splitlines() if line.startswith("@versus "))


def test_self_sized_manual_case_under_calibration(launcher: Launcher) -> None:
    run = launcher.run("self_sized")
    code, messages, err = run.code, run.messages, run.err
    assert code == 0, err
    samples = _by_type(messages, "sample")
    assert [(s["inner"], s["warmup"]) for s in samples] == [(1000, False), (1000, False)]
    assert [c["value"] for c in _by_type(messages, "check")] == ["true", "true"]


def test_case_that_raises(launcher: Launcher) -> None:
    run = launcher.run("boom")
    code, messages, err = run.code, run.messages, run.err
    assert code == 1
    assert "boom from the test program" in err
    assert messages and messages[0]["type"] == "hello"
    assert not _by_type(messages, "end")


def test_a_misspelt_parameter_is_an_error_naming_the_real_ones(launcher: Launcher) -> None:
    """Regression: vh.param("partz") returned None inside the program."""
    run = launcher.run("typo")
    assert run.code == 1
    assert "unknown parameter" in run.err and "expectt" in run.err and "expect" in run.err
    assert not _by_type(run.messages, "end")


@pytest.mark.parametrize("scenario, variable", [("unknown_case", "VERSUS_CASE"), ("bad_count", "VERSUS_SAMPLES")])
def test_bad_environment(launcher: Launcher, scenario: str, variable: str) -> None:
    run = launcher.run(scenario)
    assert run.code == 2, run.err
    assert variable in run.err
    assert not _by_type(run.messages, "end")
