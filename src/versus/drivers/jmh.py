"""The jmh driver: a JMH benchmark jar, one fork per process run, `-rf json` ingested.

JMH does the JIT-safe measuring (forks, Blackhole); versus does the interleaving, statistics, storage
and reports. A case names its benchmark with `command = "Class.method"`; the parameter `iteration_ms`
sets JMH's warmup and measurement iteration time (default 1000), every other one is passed as `-p`; `[programs] java` is the
Maven project that builds `target/benchmarks.jar`. Benchmarks may print protocol `check` and `metric`
lines (for example from a @TearDown); checks are judged like any other, metrics are stored.
"""
from __future__ import annotations

import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

from ..definitions import Arm, Method
from ..errors import ExperimentError, UsageError
from ..executor import Completed, Executor
from ..ingest.jmh import ns_per_op
from ..paths import cache_dir, helpers
from ..protocol import SCALE, Output, ProtocolViolation, SampleRecord, parse
from ..runtimes import family
from ..runtimes.family import BuildContext
from ..runtimes.maven import maven_jar
from .base import FAILED, OK, Driver, ProcessRun, base_env, failure_of, finish, judge_checks, zero_samples

LOCKED = "Unable to acquire the JMH lock"
LOCK_WAIT = 2.0
_ITERATION = re.compile(r"^# Warmup Iteration\s+\d+:|^Iteration\s+\d+:|^Result ", re.M)
_SCORE = re.compile(r"(?<![\w.])([0-9][0-9.,]*)\s+([a-z]+/[a-z]+)\b")


class JmhDriver(Driver):
    name: ClassVar[str] = "jmh"

    def __init__(self) -> None:
        self._jars: dict[Path, Path] = {}

    def prepare(self, arm: Arm, executor: Executor) -> None:
        project = arm.program
        if project is None or not (project / "pom.xml").is_file():
            raise ExperimentError(f"{arm.key}: the jmh driver needs [programs] java = a Maven project folder",
                                  "point it at the folder with the benchmarks' pom.xml")
        if project not in self._jars:
            self._jars[project] = maven_jar(project, "benchmarks", BuildContext(executor, cache_dir(), helpers()))

    def built(self, arm: Arm) -> Path | None:
        return self._jars.get(arm.program) if arm.program else None

    def argv(self, arm: Arm, method: Method, result: Path) -> list[str]:
        project = arm.program
        assert project is not None
        benchmark = arm.case.command or arm.case.name
        jvm_flags = family(arm.runtime.family).jvm_flags(arm.runtime)
        params = [item for key, value in arm.params for item in ("-p", f"{key}={value}")
                  if key != "iteration_ms"]
        millis = dict(arm.params).get("iteration_ms", "1000")
        argv = [str(arm.runtime.executable), "-jar", str(self._jars[project]), f"^(.*\\.)?{re.escape(benchmark)}$",
                "-f", "1", "-wi", str(method.warmup), "-i", str(method.samples), "-w", f"{millis}ms",
                "-r", f"{millis}ms", "-bm", "avgt", "-tu", "ns", "-rf", "json", "-rff", str(result), *params]
        if jvm_flags:
            argv += ["-jvmArgsAppend", " ".join(jvm_flags)]
        return argv

    def run(self, arm: Arm, method: Method, inner: int, executor: Executor,
            extra_env: dict[str, str] | None = None) -> ProcessRun:
        with tempfile.TemporaryDirectory(prefix="versus-jmh-") as folder:
            result = Path(folder) / "result.json"
            # JMH refuses to run while another JMH run holds its machine-wide lock, which keeps two
            # measurements from disturbing each other: wait for it rather than fail.
            deadline = time.monotonic() + method.timeout
            while True:
                completed = executor.execute(self.argv(arm, method, result), {**base_env(arm), **(extra_env or {})},
                                             method.timeout,
                                             cwd=arm.experiment.path)
                if LOCKED not in completed.stdout + completed.stderr or time.monotonic() > deadline:
                    break
                time.sleep(LOCK_WAIT)
            run = ProcessRun(FAILED)
            run.reason = failure_of(completed, method)
            if run.reason:
                return finish(run, completed)
            try:
                entries = json.loads(result.read_text())
                output = parse(_protocol_lines(completed.stdout), None)
            except (OSError, ValueError, RecursionError) as error:
                run.reason = f"no JMH result: {error}"
                return finish(run, completed)
            except ProtocolViolation as violation:
                run.reason = f"protocol: {violation}"
                return finish(run, completed)
        try:
            return self._ingest(arm, method, entries, output, completed, run)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError, OverflowError,
                UsageError) as error:
            run.reason = f"unreadable JMH result: {type(error).__name__}: {str(error)[:200]}"
            return finish(run, completed)

    def _ingest(self, arm: Arm, method: Method, entries: Any, output: Output, completed: Completed,
                run: ProcessRun) -> ProcessRun:
        if len(entries) != 1:
            run.reason = f"the pattern matched {len(entries)} JMH benchmarks; a case must name exactly one"
            return finish(run, completed)
        metric = entries[0]["primaryMetric"]
        unit = metric.get("scoreUnit", "ns/op")
        warm = [ns_per_op(float(v.replace(",", "")), u) for v, u in warmup_scores(completed.stdout)]
        measured = [ns_per_op(float(v), unit) for fork in metric.get("rawData", []) for v in fork]
        if not all(0 <= v < 9e15 for v in warm + measured):
            raise ValueError("a score out of range")
        run.samples = [SampleRecord(round(v * SCALE), SCALE, True) for v in warm] + \
                      [SampleRecord(round(v * SCALE), SCALE, False) for v in measured]
        run.hello = {"runtime": arm.runtime.family, "version": str(entries[0].get("jdkVersion", "")), "clock": "JMH",
                     "impl": str(entries[0].get("vmName", ""))}
        run.metrics = output.metrics
        run.checks, reason = judge_checks(output.checks, arm, SCALE)
        if len(measured) != method.samples:
            reason = f"expected {method.samples} measured iterations, JMH reported {len(measured)}"
        reason = reason or zero_samples(run.samples)
        run.reason, run.status = reason, FAILED if reason else OK
        return finish(run, completed)


def warmup_scores(stdout: str) -> list[tuple[str, str]]:
    """Each warmup iteration's score and unit. The benchmark's own output (an `@versus` line from a
    @Setup) may sit between "# Warmup Iteration N:" and the score, on the same line or the next ones."""
    marks = list(_ITERATION.finditer(stdout))
    scores = []
    for mark, after in zip(marks, [*marks[1:], None]):
        if not mark.group(0).startswith("# Warmup"):
            continue
        chunk = stdout[mark.end(): after.start() if after else len(stdout)]
        text = "\n".join(line[:line.index("@versus ")] if "@versus " in line else line for line in chunk.split("\n"))
        found = _SCORE.search(text)
        if found:
            scores.append((found.group(1), found.group(2)))
    return scores


def _protocol_lines(stdout: str) -> str:
    """The `@versus` lines the benchmark printed, inside JMH's own output; a hello makes them parseable."""
    # JMH prints the fork's output inside its own lines ("Iteration   1: @versus {...}").
    lines = [line[line.index("@versus "):] for line in stdout.split("\n") if "@versus " in line]
    return "\n".join(['@versus {"v":1,"type":"hello","runtime":"jmh","version":"","clock":"JMH"}', *lines,
                      '@versus {"type":"end"}'])
