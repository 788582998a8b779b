"""The command driver: whole-process wall time of any command, like hyperfine."""
from __future__ import annotations

import shlex
from pathlib import Path

from ..errors import ExperimentError
from ..executor import Executor
from ..experiment import Method
from ..plan import Arm
from ..protocol import SampleRecord
from .base import FAILED, OK, ProcessRun, base_env, failure_of, finish, judge_checks


class CommandDriver:
    """One process run = warmup + samples executions of the command, each one sample of inner 1."""

    name = "command"

    def prepare(self, arm: Arm) -> None:
        if not arm.case.command:
            raise ExperimentError(f"{arm.key}: a command case needs `command = \"...\"`",
                                  'e.g. command = "{runtime} -c pass"')
        self.argv(arm)

    def argv(self, arm: Arm) -> list[str]:
        fields = dict(arm.params)
        fields["runtime"] = str(arm.runtime.executable)
        fields["program"] = str(arm.program or "")
        try:
            return [part.format(**fields) for part in shlex.split(arm.case.command)]
        except KeyError as missing:
            raise ExperimentError(f"{arm.key}: command names {missing}, which is not a parameter",
                                  "use {runtime}, {program} or a [params] name") from None

    def classpath(self, arm: Arm) -> Path | None:
        return None

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
            run.samples.append(SampleRecord(completed.wall_ns, 1, index < method.warmup))
            outputs.append((completed.stdout.strip().splitlines() or [""])[-1])
        run.checks, reason = judge_checks(outputs if arm.case.check else [], arm, 1)
        if reason:
            run.status, run.reason = FAILED, reason
        run.hello = {"runtime": arm.runtime.family, "version": arm.runtime.version, "clock": "harness wall clock"}
        return run
