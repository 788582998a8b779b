"""The protocol driver: programs that speak protocol v1 through a helper."""
from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from ..errors import ExperimentError, VersusError
from ..executor import Executor
from ..experiment import Method
from ..plan import Arm
from ..protocol import ProtocolViolation, parse
from ..runtimes.fetch import cache_dir
from ..runtimes.model import HELPERS
from .base import FAILED, OK, ProcessRun, base_env, failure_of, finish, judge_checks, validate


class ProtocolDriver:
    name = "protocol"

    def __init__(self) -> None:
        self._classpaths: dict[str, Path] = {}

    def prepare(self, arm: Arm) -> None:
        program = arm.program
        if program is None or not program.is_file():
            raise ExperimentError(f"{arm.key}: program {program} does not exist",
                                  f"add it, or remove {arm.runtime.program_family} from [programs]")
        if arm.key in self._classpaths:
            return
        if arm.runtime.family == "java" and program.name == "pom.xml":
            from .jmh import build_jar  # a Maven project whose shaded jar `target/program.jar` has a Main-Class

            self._classpaths[arm.key] = build_jar(program.parent, "program")
        elif arm.runtime.family == "java":
            self._classpaths[arm.key] = compile_java(program, arm.runtime.executable.parent / "javac")
        elif arm.runtime.family == "rust":
            self._classpaths[arm.key] = build_rust(program, arm.runtime.executable)

    def command(self, arm: Arm, method: Method, inner: int) -> tuple[list[str], dict[str, str]]:
        assert arm.program is not None
        argv, extra = arm.runtime.launch(arm.program, self._classpaths.get(arm.key))
        env = base_env(arm)
        env.update(extra)
        env.update({"VERSUS_PROTOCOL": "1", "VERSUS_CASE": arm.case.name, "VERSUS_WARMUP": str(method.warmup),
                    "VERSUS_SAMPLES": str(method.samples), "VERSUS_INNER": str(inner),
                    "VERSUS_MIN_SAMPLE_NS": str(method.min_sample_ns)})
        return argv, env

    def classpath(self, arm: Arm) -> Path | None:
        return self._classpaths.get(arm.key)

    def run(self, arm: Arm, method: Method, inner: int, executor: Executor,
            extra_env: dict[str, str] | None = None) -> ProcessRun:
        argv, env = self.command(arm, method, inner)
        env.update(extra_env or {})
        completed = executor.execute(argv, env, method.timeout, cwd=arm.experiment.path)
        run = ProcessRun(FAILED)
        try:
            output = parse(completed.stdout, arm.case.name)
        except ProtocolViolation as violation:
            run.reason = f"protocol: {violation}"
            return finish(run, completed)
        run.samples, run.metrics, run.hello = output.samples, output.metrics, output.hello
        run.checks, check_reason = judge_checks(output.checks, arm, run.inner or inner)
        run.reason = failure_of(completed, method) or validate(output, arm, method) or check_reason
        run.status = FAILED if run.reason else OK
        return finish(run, completed)


def build_rust(manifest: Path, cargo: Path) -> Path:
    """`cargo build --release` of the program's Cargo project (its Cargo.toml) into the cache."""
    import tomllib

    if manifest.name != "Cargo.toml":
        raise ExperimentError(f"a rust program is a Cargo.toml, not {manifest.name}", "set [programs] rust = \"…/Cargo.toml\"")
    name = tomllib.loads(manifest.read_text())["package"]["name"]
    target = cache_dir() / "cargo-target" / hashlib.sha256(str(manifest.resolve()).encode()).hexdigest()[:16]
    done = subprocess.run([str(cargo), "build", "--release", "--quiet", "--manifest-path", str(manifest),
                           "--target-dir", str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        raise VersusError(f"cargo build failed for {manifest}:\n{done.stderr.strip()[-2000:]}",
                          "fix the build error above")
    return target / "release" / name


def compile_java(program: Path, javac: Path) -> Path:
    """Compile the program's folder and the Java helper once per (sources, JDK) into the cache."""
    sources = sorted(program.parent.glob("*.java")) + sorted((HELPERS / "java").rglob("*.java"))
    digest = hashlib.sha256(str(javac.resolve()).encode())
    for source in sources:
        digest.update(source.read_bytes())
    target = cache_dir() / "classes" / digest.hexdigest()[:16]
    if (target / ".complete").exists():
        return target
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([str(javac), "-nowarn", "-d", str(target), *map(str, sources)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise VersusError(f"javac failed for {program}:\n{done.stderr.strip()[-2000:]}",
                          "fix the compile error in the program above")
    (target / ".complete").write_text("ok")
    return target
