"""A versus session document (`versus export`, report/document.py) checked whole before anything of it
is stored: every field an import keeps has its type and range, so no value of a document can make a
database unreportable later (a timestamp beyond what a date can show, a budget that is text, methods
as a list, flags as a number) or fail half way into the store (two runs of one round).

The checked document is stored as it was (the models only judge it), so an export imports back and
exports again unchanged. Its options, status and definitions stay history: interchange.py marks the
session imported, and an imported session is never resumed.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..definitions import Method
from ..errors import UsageError

INT64_MAX = (1 << 63) - 1
LAST_TIME = 253370764800.0  # 9999-01-01 UTC: a date any time zone can show
STATUSES = ("complete", "interrupted", "running", "failed")

Time = Annotated[float, Field(ge=0, le=LAST_TIME, allow_inf_nan=False)]
Count = Annotated[int, Field(ge=0, le=INT64_MAX)]
Scalar = str | int | float | bool | None


class _Checked(BaseModel):
    """Strict types; keys the import does not keep (estimates, verdicts) are not judged."""

    model_config = ConfigDict(strict=True, extra="ignore")


def _method(value: dict[str, Any]) -> dict[str, Any]:
    if value:
        try:
            Method.model_validate(value)
        except ValidationError as error:
            first = error.errors()[0]
            raise ValueError(f"not a method: {'.'.join(str(p) for p in first['loc'])}: {first['msg'].lower()}") from None
    return value


class PlanRecord(_Checked):
    methods: dict[str, dict[str, Any]] = Field(default_factory=dict)
    params: dict[str, dict[str, str | list[str]]] = Field(default_factory=dict)
    budget: Annotated[float, Field(ge=0, allow_inf_nan=False)] | None = None
    notes: list[str] = Field(default_factory=list)
    settled: bool = False
    intersection_union: bool = False
    stopped: str = ""

    @field_validator("methods")
    @classmethod
    def _methods(cls, methods: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for method in methods.values():
            _method(method)
        return methods


class SessionRecord(_Checked):
    created: Time | None = None
    finished: Time | None = None
    status: Literal["complete", "interrupted", "running", "failed"] = "complete"
    seed: Count = 0
    argv: list[str] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
    plan: PlanRecord = Field(default_factory=PlanRecord)
    versus: dict[str, str] = Field(default_factory=dict)
    lacks: str = ""


class Definition(_Checked):
    model_config = ConfigDict(strict=True, extra="allow")
    raw: dict[str, Any] = Field(default_factory=dict)
    path: str = ""
    commit: str = ""


class RuntimeRecord(_Checked):
    model_config = ConfigDict(strict=True, extra="allow")
    family: str = ""
    version: str = ""
    flags: list[str] = Field(default_factory=list)
    jdk_version: str = ""


class ContentionRecord(_Checked):
    """contention.Contention: counters over a process's life, -1 where the machine offered none."""

    cpu_ns: Annotated[int, Field(ge=-1, le=INT64_MAX)]
    preempted: Annotated[int, Field(ge=-1, le=INT64_MAX)]
    pressure_us: Annotated[int, Field(ge=-1, le=INT64_MAX)]
    steal_ns: Annotated[int, Field(ge=-1, le=INT64_MAX)]


class RunRecord(_Checked):
    round: Annotated[int, Field(ge=0, le=(1 << 31) - 1)]
    status: Literal["ok", "failed"]
    reason: str = ""
    exit_code: Annotated[int, Field(ge=-INT64_MAX - 1, le=INT64_MAX)] | None = None
    wall_ns: Count = 0
    started: Time = 0.0
    hello: dict[str, Any] = Field(default_factory=dict)
    log_tail: str = ""
    samples: list[tuple[Count, Annotated[int, Field(ge=1, le=INT64_MAX)], bool]] = Field(default_factory=list)
    metrics: list[tuple[str, Annotated[float, Field(allow_inf_nan=False)], str]] = Field(default_factory=list)
    checks: list[tuple[str, str, bool]] = Field(default_factory=list)
    host: str = ""  # the host that ran it ('' in a document of one host)
    leg: Annotated[int, Field(ge=0, le=(1 << 31) - 1)] = 0
    contention: ContentionRecord | None = None  # absent in runs stored before it was recorded

    @field_validator("samples", "metrics", "checks", mode="before")
    @classmethod
    def _rows(cls, rows: Any) -> Any:
        """JSON writes each row as an array; strict tuples want tuples (their items stay strict)."""
        return [tuple(r) if isinstance(r, list) else r for r in rows] if isinstance(rows, list) else rows


class ArmRecord(_Checked):
    experiment: str
    case: str
    variant: str = ""
    runtime: str
    runtime_info: RuntimeRecord = Field(default_factory=RuntimeRecord)
    params: dict[str, str] = Field(default_factory=dict)
    method: dict[str, Any] = Field(default_factory=dict)
    runs: list[RunRecord] = Field(default_factory=list)

    @field_validator("method")
    @classmethod
    def _method(cls, method: dict[str, Any]) -> dict[str, Any]:
        return _method(method)


class LegRecord(_Checked):
    """One `versus run` that added rounds to the session (store.Leg)."""

    number: Annotated[int, Field(ge=1, le=(1 << 31) - 1)]
    kind: Literal["start", "resume", "more"]
    started: Time
    finished: Time | None = None
    argv: list[str] = Field(default_factory=list)
    host: str = ""
    budget: Annotated[float, Field(ge=0, allow_inf_nan=False)] | None = None
    stopped: str = ""
    versus: dict[str, Any] = Field(default_factory=dict)


class SessionDocument(_Checked):
    format: Literal["versus.session"]
    version: Literal[2]
    session: SessionRecord
    host: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict)
    definitions: dict[str, Definition] = Field(default_factory=dict)
    arms: list[ArmRecord]
    legs: list[LegRecord] = Field(default_factory=list)
    hosts: dict[str, dict[str, Scalar | list[Scalar]]] = Field(default_factory=dict)


def check(data: dict[str, Any], where: str) -> SessionDocument:
    """The document judged whole; a UsageError naming the first few fields that are wrong."""
    try:
        document = SessionDocument.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(str(p) for p in d['loc']) or 'the document'}: {d['msg'].lower()}"
                             for d in error.errors()[:3])
        raise UsageError(f"{where} is not a valid versus session document: {problems[:600]}",
                         "give a file that `versus export` wrote, unchanged") from None
    keys: set[tuple[str, str, str, str]] = set()
    for index, arm in enumerate(document.arms):
        key = (arm.experiment, arm.case, arm.variant, arm.runtime)
        if key in keys:
            raise UsageError(f"{where}: arms[{index}] is a second arm {'/'.join(key)}",
                             "give a file that `versus export` wrote, unchanged")
        keys.add(key)
        rounds = [run.round for run in arm.runs]
        if len(set(rounds)) != len(rounds):
            again = next(r for r in rounds if rounds.count(r) > 1)
            raise UsageError(f"{where}: arms[{index}] has two process runs of round {again}",
                             "give a file that `versus export` wrote, unchanged")
    numbers = [leg.number for leg in document.legs]
    if len(set(numbers)) != len(numbers):
        raise UsageError(f"{where}: two legs of number {next(n for n in numbers if numbers.count(n) > 1)}",
                         "give a file that `versus export` wrote, unchanged")
    return document
