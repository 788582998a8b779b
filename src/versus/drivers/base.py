"""The driver interface: how one kind of program becomes a process run, and what drivers share."""
from __future__ import annotations

import os
import shlex
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from ..contention import Contention
from ..definitions import Arm, Method
from ..errors import ExperimentError
from ..executor import Completed, Executor, log_tail
from ..expr import evaluate
from ..protocol import Output, SampleRecord
from ..quiet import as_given

OK, FAILED = "ok", "failed"


@dataclass
class ProcessRun:
    status: str
    reason: str = ""
    samples: list[SampleRecord] = field(default_factory=list)
    checks: list[tuple[str, str, bool]] = field(default_factory=list)  # value, expected, ok
    metrics: list[tuple[str, float, str]] = field(default_factory=list)
    hello: dict[str, object] = field(default_factory=dict)
    log_tail: str = ""
    wall_ns: int = 0
    exit_code: int | None = None
    started: float = 0.0  # when it started (time.time()), for imports; the store stamps new runs itself
    contention: Contention | None = None  # what else the machine did meanwhile (contention.py)

    @property
    def inner(self) -> int:
        measured = [s.inner for s in self.samples if not s.warmup]
        return measured[-1] if measured else 0


class Driver:
    """One kind of program. A driver declares what the harness asks of it by name (nothing outside
    `drivers/` names a driver) and implements `run`; the defaults suit a driver that runs a program."""

    name: ClassVar[str]
    needs_program: ClassVar[bool] = True  # whether an arm needs a [programs] entry for its runtime
    # The fields a case's `command` template gets (checked when the experiment is read), or None
    # where the driver does not read `command` as a template.
    command_fields: ClassVar[tuple[str, ...] | None] = None
    runs_own_server: ClassVar[bool] = False  # True: it starts a server itself; a case's `server` is not started for it

    def prepare(self, arm: Arm, executor: Executor) -> None:
        """Once per arm before its first process run (build a program, check files); raises VersusError."""

    def built(self, arm: Arm) -> Path | None:
        """What prepare built for the arm (classes, a jar, a binary), or None."""
        return None

    def run(self, arm: Arm, method: Method, inner: int, executor: Executor,
            extra_env: dict[str, str] | None = None) -> ProcessRun:
        """One process run of `arm`; never raises for a failure of the program itself."""
        raise NotImplementedError


# The harness sets these per process run; stale values from the caller's environment must not leak in.
# Others, such as VERSUS_CACHE, pass through: programs find fetched data and builds with them.
_PER_RUN = ("VERSUS_PROTOCOL", "VERSUS_LIST", "VERSUS_CASE", "VERSUS_WARMUP", "VERSUS_SAMPLES", "VERSUS_INNER",
            "VERSUS_MIN_SAMPLE_NS", "VERSUS_PORT", "VERSUS_PARAM_")


def base_env(arm: Arm) -> dict[str, str]:
    env = {k: v for k, v in as_given(os.environ).items() if not k.startswith(_PER_RUN)}
    env.update({f"VERSUS_PARAM_{k.upper()}": v for k, v in arm.params})
    return env


def failure_of(completed: Completed, method: Method) -> str:
    """The reason a finished process failed by its exit alone, or ''."""
    if completed.timed_out:
        return f"timed out after {method.timeout:g} s (raise [method] timeout, or shrink the workload)"
    if completed.overflow:
        return f"printed {completed.overflow}; print less"
    if completed.exit_code != 0:
        last = completed.stderr.strip().split("\n")[-1:] or ["(no stderr)"]
        return f"exit code {completed.exit_code}: {last[0][:200] or '(no stderr)'}"
    if completed.leftovers:
        shown = ", ".join(completed.leftovers[:3]) + (" …" if len(completed.leftovers) > 3 else "")
        return (f"left {len(completed.leftovers)} process{'es' if len(completed.leftovers) > 1 else ''} behind "
                f"({shown}); versus stopped them: a benchmark must stop what it starts")
    return ""


def validate(output: Output, method: Method) -> str:
    """The reason a protocol run failed by its content, or ''."""
    if not output.ended:
        return "no `end` line: the program stopped before finishing"
    warm = sum(1 for s in output.samples if s.warmup)
    measured = len(output.samples) - warm
    if (warm, measured) != (method.warmup, method.samples):
        return f"expected {method.warmup} warmup and {method.samples} measured samples, got {warm} and {measured}"
    return zero_samples(output.samples)


def zero_samples(samples: list[SampleRecord]) -> str:
    if any(s.ns == 0 and not s.warmup for s in samples):
        return "a measured sample of 0 ns: the clock cannot time it; raise inner or the sample's work"
    return ""


def judge_checks(values: list[str], arm: Arm, inner: int) -> tuple[list[tuple[str, str, bool]], str]:
    """Each check against the case's expected value; the reason for the first wrong one."""
    if not arm.case.check:
        return [(v, "", True) for v in values], ""
    names: dict[str, object] = {k: v for k, v in arm.params}
    names["inner"] = inner
    expected = str(evaluate(arm.case.check, names))
    judged = [(v, expected, v == expected) for v in values]
    if not values:
        return judged, f"no check reported; the case must report a value equal to {arm.case.check} = {expected}"
    wrong = [v for v in values if v != expected]
    if wrong:
        return judged, f"wrong check: got {wrong[0][:200]}, expected {expected} ({arm.case.check})"
    return judged, ""


def fill_template(template: str, fields: dict[str, str], where: str, what: str = "command") -> list[str]:
    """A command template split like a shell would, each part filled in and kept one argument: a
    name or parameter holding `$(…)` or `;` reaches the program as text, never a shell."""
    try:
        parts = shlex.split(template)
    except ValueError as error:
        raise ExperimentError(f"{where}: {what} {template!r}: {error}", "close the quote, or escape it") from None
    return [_fill(part, fields, where, what, template) for part in parts]


def _fill(part: str, fields: dict[str, str], where: str, what: str, template: str) -> str:
    """One argument with its `{name}` fields filled in. Only plain names: a format spec
    (`{runtime:>300000000}` asked for 300 MB of padding), a conversion or an attribute or index
    (`{runtime.__class__}`) is refused, so a template costs what it says and reads nothing else."""
    out: list[str] = []
    try:
        pieces = list(string.Formatter().parse(part))
    except ValueError as error:
        raise ExperimentError(f"{where}: {what} {template!r}: {error}",
                              "use {name} fields only; write {{ and }} for literal braces") from None
    for literal, name, spec, conversion in pieces:
        out.append(literal)
        if name is None:
            continue
        if spec or conversion or not name.isidentifier():
            raise ExperimentError(f"{where}: {what} {template!r}: {{{name}{'!' + conversion if conversion else ''}"
                                  f"{':' + spec[:20] if spec else ''}}} is not a plain field",
                                  "use {name} fields only, without a format spec; write {{ and }} for literal braces")
        if name not in fields:
            raise ExperimentError(f"{where}: {what} {template!r} names {name!r}, which is not a field",
                                  "fields: " + ", ".join("{" + f + "}" for f in sorted(fields)))
        out.append(fields[name])
    return "".join(out)


def finish(run: ProcessRun, completed: Completed) -> ProcessRun:
    """The run after one more of its processes: a run of several (a command's executions, a load
    generator's) takes as long as all of them, and its counters are all of theirs."""
    run.log_tail = log_tail(completed)
    run.wall_ns += completed.wall_ns
    run.exit_code = completed.exit_code
    if completed.contention is not None:
        run.contention = completed.contention.plus(run.contention)
    return run
