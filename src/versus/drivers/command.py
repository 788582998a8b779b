"""The command driver: whole-process wall time of any command, like hyperfine."""
from __future__ import annotations

from typing import ClassVar

from ..definitions import Arm, Method
from ..errors import ExperimentError
from ..executor import Executor
from ..protocol import SampleRecord
from .base import FAILED, OK, Driver, ProcessRun, base_env, failure_of, fill_template, finish, judge_checks

FIELDS = ("runtime", "program")


def fields_of(arm: Arm) -> dict[str, str]:
    fields = {**dict(arm.params), "runtime": str(arm.runtime.executable), "program": str(arm.program or "")}
    return fields


class CommandDriver(Driver):
    """One process run = warmup + samples executions of the command, each one sample of inner 1."""

    name: ClassVar[str] = "command"
    needs_program: ClassVar[bool] = False
    command_fields: ClassVar[tuple[str, ...] | None] = FIELDS

    def prepare(self, arm: Arm, executor: Executor) -> None:
        if not arm.case.command:
            raise ExperimentError(f"{arm.key}: a command case needs `command = \"...\"`",
                                  'e.g. command = "{runtime} -c pass"')
        self.argv(arm)

    def argv(self, arm: Arm) -> list[str]:
        return fill_template(arm.case.command, fields_of(arm), arm.key)

    def run(self, arm: Arm, method: Method, inner: int, executor: Executor,
            extra_env: dict[str, str] | None = None) -> ProcessRun:
        run = ProcessRun(OK)
        argv, env = self.argv(arm), {**base_env(arm), **(extra_env or {})}
        outputs: list[str] = []
        for index in range(method.warmup + method.samples):
            completed = executor.execute(argv, env, method.timeout, cwd=arm.experiment.path)
            finish(run, completed)
            reason = failure_of(completed, method)
            if reason:
                run.status, run.reason = FAILED, f"execution {index + 1}: {reason}"
                return run
            run.samples.append(SampleRecord(max(1, completed.wall_ns), 1, index < method.warmup))
            outputs.append((completed.stdout.strip().split("\n") or [""])[-1])
        run.checks, reason = judge_checks(outputs if arm.case.check else [], arm, 1)
        if reason:
            run.status, run.reason = FAILED, reason
        run.hello = {"runtime": arm.runtime.family, "version": arm.runtime.version, "clock": "harness wall clock"}
        return run
