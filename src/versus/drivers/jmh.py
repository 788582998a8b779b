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
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from ..errors import ExperimentError, VersusError
from ..executor import Executor
from ..experiment import Method
from ..ingest.jmh import ns_per_op
from ..plan import Arm
from ..protocol import ProtocolViolation, SampleRecord, parse
from .base import FAILED, OK, ProcessRun, base_env, failure_of, finish, judge_checks

SCALE = 1000  # JMH scores are fractional ns/op: stored as ns per 1000 ops
LOCKED = "Unable to acquire the JMH lock"
LOCK_WAIT = 2.0
_WARMUP = re.compile(r"^# Warmup Iteration\s+\d+:\s+([0-9.,]+)\s+(\S+)", re.M)


class JmhDriver:
    name = "jmh"

    def __init__(self) -> None:
        self._jars: dict[Path, Path] = {}

    def prepare(self, arm: Arm) -> None:
        project = arm.program
        if project is None or not (project / "pom.xml").is_file():
            raise ExperimentError(f"{arm.key}: the jmh driver needs [programs] java = a Maven project folder",
                                  "point it at the folder with the benchmarks' pom.xml")
        if project not in self._jars:
            self._jars[project] = build_jar(project)

    def argv(self, arm: Arm, method: Method, result: Path) -> list[str]:
        project = arm.program
        assert project is not None
        benchmark = arm.case.command or arm.case.name
        jvm_flags = arm.runtime.jvm_flags()
        params = [item for key, value in arm.params for item in ("-p", f"{key}={value}")
                  if key != "iteration_ms"]
        millis = dict(arm.params).get("iteration_ms", "1000")
        argv = [str(arm.runtime.executable), "-jar", str(self._jars[project]), f"^(.*\\.)?{re.escape(benchmark)}$",
                "-f", "1", "-wi", str(method.warmup), "-i", str(method.samples), "-w", f"{millis}ms",
                "-r", f"{millis}ms", "-bm", "avgt", "-tu", "ns", "-rf", "json", "-rff", str(result), *params]
        if jvm_flags:
            argv += ["-jvmArgsAppend", " ".join(jvm_flags)]
        return argv

    def classpath(self, arm: Arm) -> Path | None:
        return self._jars.get(arm.program) if arm.program else None

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
            except (OSError, json.JSONDecodeError) as error:
                run.reason = f"no JMH result: {error}"
                return finish(run, completed)
            except ProtocolViolation as violation:
                run.reason = f"protocol: {violation}"
                return finish(run, completed)
        if len(entries) != 1:
            run.reason = f"the pattern matched {len(entries)} JMH benchmarks; a case must name exactly one"
            return finish(run, completed)
        metric = entries[0]["primaryMetric"]
        unit = metric.get("scoreUnit", "ns/op")
        warm = [ns_per_op(float(v.replace(",", "")), u) for v, u in _WARMUP.findall(completed.stdout)]
        measured = [ns_per_op(v, unit) for fork in metric.get("rawData", []) for v in fork]
        run.samples = [SampleRecord(round(v * SCALE), SCALE, True) for v in warm] + \
                      [SampleRecord(round(v * SCALE), SCALE, False) for v in measured]
        run.hello = {"runtime": "java", "version": entries[0].get("jdkVersion", ""), "clock": "JMH",
                     "impl": entries[0].get("vmName", "")}
        run.metrics = output.metrics  # `@versus metric` lines the benchmark printed, like checks
        run.checks, reason = judge_checks(output.checks, arm, SCALE)
        if len(measured) != method.samples:
            reason = f"expected {method.samples} measured iterations, JMH reported {len(measured)}"
        run.reason, run.status = reason, FAILED if reason else OK
        return finish(run, completed)


def _protocol_lines(stdout: str) -> str:
    """The `@versus` lines the benchmark printed, inside JMH's own output; a hello makes them parseable."""
    # JMH prints the fork's output inside its own lines ("Iteration   1: @versus {...}").
    lines = [line[line.index("@versus "):] for line in stdout.splitlines() if "@versus " in line]
    return "\n".join(['@versus {"v":1,"type":"hello","runtime":"java","version":"","clock":"JMH"}', *lines,
                      '@versus {"type":"end"}'])


def build_jar(project: Path, name: str = "benchmarks") -> Path:
    """`mvn package` once; rebuilt when a source is newer than the jar `target/NAME.jar`."""
    jar = project / "target" / f"{name}.jar"
    sources = [p for p in project.rglob("*") if p.is_file() and "target" not in p.relative_to(project).parts]
    if jar.exists() and all(p.stat().st_mtime <= jar.stat().st_mtime for p in sources):
        return jar
    mvn = shutil.which("mvn")
    if not mvn:
        raise VersusError("the jmh driver needs Maven", "install it with: apt-get install -y maven")
    done = subprocess.run([mvn, "-q", "-B", "-f", str(project / "pom.xml"), "package", "-DskipTests"],
                          capture_output=True, text=True, timeout=900)
    if done.returncode == 0 and not jar.exists():
        raise VersusError(f"building {project} with Maven made no {jar}",
                          f"set <finalName>{name}</finalName> in its pom.xml's shade plugin configuration")
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
        raise VersusError(f"building {project} with Maven failed:\n" + "\n".join(tail),
                          "fix the build error above (try: mvn -f " + str(project / "pom.xml") + " package)")
    return jar
