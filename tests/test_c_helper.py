"""The C protocol helper (helpers/c/versus.h), compiled with gcc and with clang: tests/programs/helper_prog.c
run with the protocol's environment variables, its output read by the harness's own parser.

The cases add, manual, self_sized and boom mirror tests/test_helpers.py's programs; the others test what C
can get wrong on its own: JSON escaping of arbitrary bytes, non-finite metrics, silent failures, threads.
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from versus.protocol import Output, parse  # noqa: E402

PROGRAM = ROOT / "tests" / "programs" / "helper_prog.c"
HELPER = ROOT / "helpers" / "c"
COMPILERS = ("gcc", "clang")
# What the harness will use (-O2 -pthread), plus strict C99 and every warning as an error: the header
# must build cleanly in any program.
FLAGS = ["-O2", "-pthread", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"]
METRIC_NAME = "na\u00efve \"q\" \u2603 \U0001F600"
CASES = ["add", "manual", "self_sized", "boom", "escapes", "echo", "bad_metric", "silent_failure", "no_sample",
         "param_u64", "threaded", "typo"]

pytestmark = pytest.mark.slow


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def output(self, case: str | None = None) -> Output:
        return parse(self.stdout, case)


def _run(binary: Path, env: dict[str, str] | dict[bytes, bytes]) -> Run:
    if env and isinstance(next(iter(env)), bytes):
        full_b = {k: v for k, v in os.environb.items() if not k.startswith(b"VERSUS_")}
        full_b.update(env)  # type: ignore[arg-type]
        proc = subprocess.run([str(binary)], env=full_b, capture_output=True, timeout=60)
    else:
        full = {k: v for k, v in os.environ.items() if not k.startswith("VERSUS_")}
        full["VERSUS_PROTOCOL"] = "1"
        full.update(env)  # type: ignore[arg-type]
        proc = subprocess.run([str(binary)], env=full, capture_output=True, timeout=60)
    return Run(proc.returncode, proc.stdout.decode("ascii"), proc.stderr.decode("utf-8", "replace"))


SCENARIOS: dict[str, dict[str, str]] = {
    "list": {"VERSUS_LIST": "1"},
    "timed": {"VERSUS_CASE": "add", "VERSUS_INNER": "0", "VERSUS_WARMUP": "1", "VERSUS_SAMPLES": "2",
              "VERSUS_MIN_SAMPLE_NS": "2000000"},
    "fixed": {"VERSUS_CASE": "add", "VERSUS_INNER": "1000", "VERSUS_WARMUP": "2", "VERSUS_SAMPLES": "3"},
    "defaults": {"VERSUS_CASE": "self_sized"},
    "manual": {"VERSUS_CASE": "manual", "VERSUS_INNER": "50", "VERSUS_WARMUP": "1", "VERSUS_SAMPLES": "2",
               "VERSUS_PARAM_EXPECT": "ok"},
    "self_sized": {"VERSUS_CASE": "self_sized", "VERSUS_INNER": "0", "VERSUS_WARMUP": "0", "VERSUS_SAMPLES": "2"},
    "threaded": {"VERSUS_CASE": "threaded", "VERSUS_INNER": "0", "VERSUS_WARMUP": "1", "VERSUS_SAMPLES": "2",
                 "VERSUS_MIN_SAMPLE_NS": "1000000"},
    "escapes": {"VERSUS_CASE": "escapes", "VERSUS_INNER": "1", "VERSUS_WARMUP": "0", "VERSUS_SAMPLES": "1"},
    "param": {"VERSUS_CASE": "param_u64", "VERSUS_INNER": "1", "VERSUS_WARMUP": "0", "VERSUS_SAMPLES": "1",
              "VERSUS_PARAM_N": " 12 "},
    "param_default": {"VERSUS_CASE": "param_u64", "VERSUS_INNER": "1", "VERSUS_WARMUP": "0", "VERSUS_SAMPLES": "1"},
    "nothing": {"VERSUS_CASE": "add", "VERSUS_WARMUP": "0", "VERSUS_SAMPLES": "0"},
    # failures of a case: exit 1, a message, no `end`
    "boom": {"VERSUS_CASE": "boom", "VERSUS_INNER": "3", "VERSUS_SAMPLES": "1"},
    "boom_calibrating": {"VERSUS_CASE": "boom", "VERSUS_INNER": "0"},
    "bad_metric": {"VERSUS_CASE": "bad_metric", "VERSUS_INNER": "1"},
    "silent_failure": {"VERSUS_CASE": "silent_failure", "VERSUS_INNER": "1"},
    "no_sample": {"VERSUS_CASE": "no_sample", "VERSUS_INNER": "1"},
    "bad_param": {"VERSUS_CASE": "param_u64", "VERSUS_INNER": "1", "VERSUS_PARAM_N": "-4"},
    "typo": {"VERSUS_CASE": "typo", "VERSUS_INNER": "1", "VERSUS_PARAM_N_ITEMS": "3", "VERSUS_PARAM_EXPECT": "ok"},
    "typo_no_params": {"VERSUS_CASE": "typo", "VERSUS_INNER": "1"},
    # a bad environment: exit 2 before `hello`
    "unknown_case": {"VERSUS_CASE": "no_such_case"},
    "no_case": {},
    "bad_count": {"VERSUS_CASE": "add", "VERSUS_SAMPLES": "many"},
    "negative_warmup": {"VERSUS_CASE": "add", "VERSUS_WARMUP": "-1"},
    "zero_min_sample": {"VERSUS_CASE": "add", "VERSUS_MIN_SAMPLE_NS": "0"},
    "protocol_2": {"VERSUS_PROTOCOL": "2", "VERSUS_LIST": "1"},
}


class Compiled:
    def __init__(self, compiler: str, binary: Path):
        self.compiler = compiler
        self.binary = binary
        self._runs: dict[str, Run] | None = None

    def run(self, scenario: str) -> Run:
        if self._runs is None:
            with ThreadPoolExecutor(max_workers=4) as pool:
                futures = {name: pool.submit(_run, self.binary, env) for name, env in SCENARIOS.items()}
                self._runs = {name: future.result() for name, future in futures.items()}
        return self._runs[scenario]


@pytest.fixture(scope="module", params=COMPILERS)
def compiled(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Compiled:
    compiler = request.param
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed (scripts/system-packages.sh installs it)")
    binary = tmp_path_factory.mktemp(compiler) / "helper_prog"
    build = subprocess.run([compiler, *FLAGS, "-I", str(HELPER), str(PROGRAM), "-o", str(binary)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    assert build.stderr == "", build.stderr  # no warnings either
    return Compiled(compiler, binary)


def _version(compiler: str) -> str:
    return subprocess.run([compiler, "-dumpfullversion", "-dumpversion"], capture_output=True, text=True).stdout.strip()


def _ok(run: Run, case: str | None = None) -> Output:
    assert run.code == 0, run.stderr
    out = run.output(case)
    assert out.ended
    return out


def test_hello_names_compiler_and_clock(compiled: Compiled) -> None:
    out = _ok(compiled.run("list"))
    hello = out.hello
    assert hello["v"] == 1 and hello["type"] == "hello"
    assert hello["runtime"] == compiled.compiler
    assert hello["version"] == _version(compiled.compiler)
    assert hello["clock"] == "clock_gettime(CLOCK_MONOTONIC)"
    assert isinstance(hello["impl"], str) and "glibc" in hello["impl"] and "optimized" in hello["impl"]
    assert compiled.run("list").stdout.splitlines()[0].startswith('@versus {"v":1,"type":"hello"')


def test_list(compiled: Compiled) -> None:
    out = _ok(compiled.run("list"))
    assert out.cases == CASES
    assert not out.samples


def test_timed_case_calibrates(compiled: Compiled) -> None:
    run = compiled.run("timed")
    out = _ok(run, "add")
    assert [s.warmup for s in out.samples] == [True, False, False]
    inner = out.samples[0].inner
    assert inner > 1 and all(s.inner == inner for s in out.samples)
    # calibrated to >= VERSUS_MIN_SAMPLE_NS: the probe said so in the log; a busy machine may still
    # make a later sample faster than the probe, so the samples themselves are not bounded here
    assert any(line.startswith(f"calibrated add: inner={inner} ") for line in out.log), out.log
    assert out.checks == [str(sum(i & 7 for i in range(inner)))] * 3
    kinds = [line.split('"type":"')[1].split('"')[0] for line in run.stdout.splitlines() if line.startswith("@versus ")]
    assert kinds == ["hello"] + ["sample", "check"] * 3 + ["end"]  # each check right after its sample


def test_fixed_inner(compiled: Compiled) -> None:
    out = _ok(compiled.run("fixed"), "add")
    assert [(s.inner, s.warmup) for s in out.samples] == [(1000, True)] * 2 + [(1000, False)] * 3
    assert out.checks == [str(sum(i & 7 for i in range(1000)))] * 5
    assert not any(line.startswith("calibrated") for line in out.log)


def test_defaults_one_warmup_three_samples(compiled: Compiled) -> None:
    out = _ok(compiled.run("defaults"), "self_sized")
    assert [s.warmup for s in out.samples] == [True, False, False, False]


def test_no_samples_asked(compiled: Compiled) -> None:
    out = _ok(compiled.run("nothing"))
    assert not out.samples and not out.checks


def test_manual_case_with_check_and_metrics(compiled: Compiled) -> None:
    run = compiled.run("manual")
    out = _ok(run, "manual")
    assert [(s.inner, s.warmup) for s in out.samples] == [(50, True), (50, False), (50, False)]
    expected = sum(i & 7 for i in range(50))
    assert out.checks == [f"ok:{expected}"] * 3
    # none for the warmup sample; the name's UTF-8 (with a character beyond U+FFFF) comes back intact
    assert out.metrics == [(METRIC_NAME, 242.0, "bytes"), ("ratio", 0.5, "1")] * 2
    assert '"value":242,' in run.stdout and '"value":0.5,' in run.stdout
    assert all(line.isascii() for line in run.stdout.splitlines())


def test_self_sized_manual_case_under_calibration(compiled: Compiled) -> None:
    out = _ok(compiled.run("self_sized"), "self_sized")
    assert [(s.inner, s.warmup) for s in out.samples] == [(1000, False), (1000, False)]
    assert out.checks == ["true", "true"]


def test_threads_in_a_manual_case(compiled: Compiled) -> None:
    out = _ok(compiled.run("threaded"), "threaded")
    inner = out.samples[0].inner  # may stay small: on a loaded machine starting a thread can take the 1 ms
    assert len(out.samples) == 3 and all(s.inner == inner for s in out.samples)
    assert out.checks == [str(sum(i & 7 for i in range(inner)))] * 3


def test_params(compiled: Compiled) -> None:
    assert _ok(compiled.run("param"), "param_u64").checks == ["144:arg"]
    assert _ok(compiled.run("param_default"), "param_u64").checks == ["9:arg"]


def test_json_escapes_every_byte(compiled: Compiled) -> None:
    run = compiled.run("escapes")
    out = _ok(run, "escapes")
    raw = bytes(range(1, 128)) + b"|\xff|\x80|\xe2\x98|\xed\xa0\x80|\xc0\xaf|"
    assert out.checks == [raw.decode("utf-8", "replace")]
    assert all(line.isascii() for line in run.stdout.splitlines())


def test_json_escapes_random_bytes(compiled: Compiled) -> None:
    """Random byte strings (mostly valid UTF-8 with damage) through VERSUS_PARAM_TEXT: what the parser
    reads back is what Python's decode(errors="replace") makes of the same bytes."""
    rng = random.Random(13)
    alphabet = [bytes([b]) for b in range(1, 256)] + [ch.encode() for ch in "é☃😀\U0010FFFF\uFFFD\"\\"]

    def text() -> bytes:
        return b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))

    texts = [text() for _ in range(200)]
    envs = [{b"VERSUS_PROTOCOL": b"1", b"VERSUS_CASE": b"echo", b"VERSUS_INNER": b"1", b"VERSUS_WARMUP": b"0",
             b"VERSUS_SAMPLES": b"1", b"VERSUS_PARAM_TEXT": t} for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        runs = list(pool.map(lambda env: _run(compiled.binary, env), envs))
    for raw, run in zip(texts, runs):
        assert _ok(run, "echo").checks == [raw.decode("utf-8", "replace")], raw


@pytest.mark.parametrize("scenario, message", [
    ("boom", 'case "boom" failed: boom from the test program (boom)'),
    ("boom_calibrating", 'case "boom" failed: boom from the test program (boom)'),
    ("bad_metric", 'case "bad_metric" failed: metric "speed" is'),
    ("silent_failure", 'case "silent_failure" failed: it returned 7'),
    ("no_sample", 'case "no_sample" failed: the manual case returned 0 without versus_sample()'),
    ("bad_param", 'case "param_u64" failed: parameter n="-4" is not an integer >= 0'),
    ("typo", "unknown parameter 'expectt': this run passes expect, n_items; give versus_param a default"),
    ("typo_no_params", "unknown parameter 'expectt': this run passes no parameters;"),
])
def test_failing_case_exits_1_without_end(compiled: Compiled, scenario: str, message: str) -> None:
    run = compiled.run(scenario)
    assert run.code == 1
    assert message in run.stderr
    out = run.output()
    assert out.hello and not out.ended
    assert not out.samples


@pytest.mark.parametrize("scenario, variable", [
    ("unknown_case", "VERSUS_CASE"), ("no_case", "VERSUS_CASE"), ("bad_count", "VERSUS_SAMPLES"),
    ("negative_warmup", "VERSUS_WARMUP"), ("zero_min_sample", "VERSUS_MIN_SAMPLE_NS"),
    ("protocol_2", "VERSUS_PROTOCOL"),
])
def test_bad_environment(compiled: Compiled, scenario: str, variable: str) -> None:
    run = compiled.run(scenario)
    assert run.code == 2, run.stderr
    assert variable in run.stderr
    assert run.stdout == ""


def test_unknown_case_names_the_cases(compiled: Compiled) -> None:
    assert "(cases: " + ", ".join(CASES) + ")" in compiled.run("unknown_case").stderr

