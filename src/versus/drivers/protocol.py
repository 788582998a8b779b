"""The protocol driver: programs that speak protocol v1 through a helper."""
from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ..definitions import Arm, Method
from ..errors import ExperimentError
from ..executor import Executor
from ..paths import cache_dir, helpers
from ..protocol import ProtocolViolation, parse
from ..runtimes import family
from ..runtimes.family import BuildContext
from .base import FAILED, OK, Driver, ProcessRun, base_env, failure_of, finish, judge_checks, validate


def program_of(arm: Arm) -> Path:
    program = arm.program
    if program is None or not program.is_file():
        raise ExperimentError(f"{arm.key}: program {program} does not exist",
                              f"add it, or remove {arm.runtime.program_family} from [programs]")
    return program


class ProtocolDriver(Driver):
    name: ClassVar[str] = "protocol"

    def __init__(self) -> None:
        self._built: dict[str, Path | None] = {}

    def prepare(self, arm: Arm, executor: Executor) -> None:
        program = program_of(arm)
        if arm.key not in self._built:
            context = BuildContext(executor, cache_dir(), helpers())
            self._built[arm.key] = family(arm.runtime.family).build(arm.runtime, program, context)

    def built(self, arm: Arm) -> Path | None:
        return self._built.get(arm.key)

    def command(self, arm: Arm, method: Method, inner: int) -> tuple[list[str], dict[str, str]]:
        argv, extra = family(arm.runtime.family).launch(arm.runtime, program_of(arm), self.built(arm), helpers())
        env = base_env(arm)
        env.update(extra)
        env.update({"VERSUS_PROTOCOL": "1", "VERSUS_CASE": arm.case.name, "VERSUS_WARMUP": str(method.warmup),
                    "VERSUS_SAMPLES": str(method.samples), "VERSUS_INNER": str(inner),
                    "VERSUS_MIN_SAMPLE_NS": str(method.min_sample_ns)})
        return argv, env

    def run(self, arm: Arm, method: Method, inner: int, executor: Executor,
            extra_env: dict[str, str] | None = None) -> ProcessRun:
        argv, env = self.command(arm, method, inner)
        env.update(extra_env or {})
        completed = executor.execute(argv, env, method.timeout, cwd=arm.experiment.path)
        run = ProcessRun(FAILED)
        try:
            output = parse(completed.stdout, arm.case.name)
        except ProtocolViolation as violation:
            run.reason = failure_of(completed, method) or f"protocol: {violation}"
            return finish(run, completed)
        run.samples, run.metrics, run.hello = output.samples, output.metrics, output.hello
        run.checks, check_reason = judge_checks(output.checks, arm, run.inner or inner)
        run.reason = failure_of(completed, method) or validate(output, method) or check_reason
        run.status = FAILED if run.reason else OK
        return finish(run, completed)
