"""What an experiment is, as plain data: the schema of `experiment.toml` (Method, Case, Claim …), a
loaded Experiment, and an Arm (a case on a runtime, with its parameters).

The lowest layer of the harness: drivers, the plan, the scheduler and the analysis all read these,
and this module imports nothing of theirs. Reading and checking a folder is `experiment.py`'s job.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from . import arms as identity
from .errors import ExperimentError, did_you_mean
from .runtimes.model import Runtime

Scalar = str | int | float | bool
_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"  # experiments and claim ids: safe in file names and URLs
_CASE = r"^[^/\x00-\x1f\x7f]{1,200}$"  # cases: any text but '/' (arm keys are experiment/case/runtime)
_PARAM = re.compile(r"^[a-z_][a-z0-9_]*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Method(_Strict):
    """How each arm is measured: `[method]`, and `[quick]` for `--quick` (and `make run`)."""

    processes: Annotated[int, Field(ge=1, le=1000, description="process runs per arm before any sequential rounds")] = 5
    warmup: Annotated[int, Field(ge=0, le=10_000, description="warmup samples per process run (stored, not analysed)")] = 2
    samples: Annotated[int, Field(ge=1, le=100_000, description="measured samples per process run")] = 5
    inner: Annotated[int, Field(ge=0, le=1 << 40, description="iterations per sample; 0: the first process run "
                                                              "calibrates it and later ones reuse it")] = 0
    timeout: Annotated[float, Field(gt=0, le=86_400, strict=False, allow_inf_nan=False,
                                    description="seconds before a process run is killed")] = 300.0
    min_sample_ns: Annotated[int, Field(ge=1, le=10**12, description="calibration target: a sample takes at least "
                                                                     "this long")] = 100_000_000
    value: Annotated[Literal["median", "min"], Field(description="a process run's value: the median of its measured "
                                                                 "samples, or their minimum (docs/method.md, "
                                                                 "'Estimates of an arm')")] = "median"
    cpus: Annotated[int, Field(ge=0, le=4096, description="CPUs each process run (and its server) may use: 0, all "
                                                          "the host gives; N, the last N of them, the same every run "
                                                          "(docs/method.md, 'Where threads run')")] = 0


class Quick(Method):
    """`[quick]`: the method of `--quick`; unset keys fall back to `[method]`."""

    params: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict, description="parameters to override")
    runtimes: list[str] = Field(default_factory=list, description="runtime specs to use instead of [experiment] runtimes")
    cases: list[str] = Field(default_factory=list, description="the cases to run (default: all); --cases overrides")


class Baseline(_Strict):
    runtime: str = Field(default="", description="compare every runtime with this one within each case")
    case: str = Field(default="", description="compare every case with this one within each runtime")


class Header(_Strict):
    """`[experiment]`."""

    name: str = Field(default="", description="defaults to the folder's name; letters, digits, '_', '.', '-'")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if value and not re.match(_NAME, value):
            raise ValueError("an experiment name is letters, digits, '_', '.' and '-', starting with a letter or digit")
        return value
    title: str = Field("", description="the question the experiment asks")
    driver: str = Field("protocol", description="how a process run is made: protocol, command, jmh or load")
    runtimes: list[str] = Field(default_factory=list, description="runtime specs, e.g. cpython@3.11, jython@2.5.0, cpython@*")
    jdks: list[str] = Field(default_factory=lambda: ["17"], description="JDKs that JVM-hosted runtimes run on")
    baseline: str | Baseline = Field("", description='a runtime selector, or { runtime = "…", case = "…" }; '
                                                     "default: the first runtime")


class Case(_Strict):
    """`[[cases]]`: one named workload."""

    name: str = Field(description="the case's name, passed as VERSUS_CASE: 1 to 200 characters, no '/'")
    check: str = Field("", description="expression of params (and `inner`) the program's check must equal")
    runtimes: tuple[str, ...] = Field((), strict=False, description="selectors: run the case only on these runtimes; "
                                                                     "`!selector` leaves those out (`!jython+c1`)")
    command: str = Field("", description="command driver: the command; load driver: ab/wrk command; jmh: the benchmark")
    description: str = Field("", description="what the case does, in a sentence (shown by reports)")
    driver: str = Field("", description="overrides [experiment] driver for this case")
    programs: dict[str, str] = Field(default_factory=dict, description="overrides [programs] entries for this case")
    server: str = Field("", description="a command started before each process run, on VERSUS_PORT")

    def __hash__(self) -> int:
        return hash(self.name)

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        if not re.match(_CASE, name):
            raise ValueError("a case name is 1 to 200 characters, without '/' or control characters")
        return name


class Side(_Strict):
    case: str = Field(description="a case of this experiment")
    runtime: str = Field(description="a runtime selector: family, family@1.2, family@>=1.2, +flag, /java@N")
    params: dict[str, Scalar] = Field(default_factory=dict, description="pins swept parameters")

    @property
    def pinned(self) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((k, scalar_text(v)) for k, v in self.params.items()))


class Claim(_Strict):
    """`[[claims]]`: a published statement with an expected ratio or bound."""

    id: str = Field(description="a short name, fixed once published: letters, digits, '_', '.', '-'")

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not re.match(_NAME, value):
            raise ValueError("a claim id is letters, digits, '_', '.' and '-', starting with a letter or digit")
        return value
    statement: str = Field(description="what the claim says, as a testable sentence")
    source: str = Field(description="who said it, where, when")
    quote: str = Field("", description="the source's own words")
    numerator: Side = Field(description="{ case, runtime, params }: the arms whose time (or metric) is on top")
    denominator: Side | None = Field(None, description="omit to bound the numerator's metric (or its time per "
                                                       "iteration, in ns) itself")
    min: Annotated[float | None, Field(gt=0, strict=False, allow_inf_nan=False,
                                       description="the ratio (or metric) is at least this")] = None
    max: Annotated[float | None, Field(gt=0, strict=False, allow_inf_nan=False,
                                       description="the ratio (or metric) is at most this")] = None
    metric: str = Field("", description="compare this metric instead of time")

    @model_validator(mode="after")
    def _bounds(self) -> Claim:
        if self.min is None and self.max is None:
            raise ValueError("a claim needs min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is above max {self.max:g}")
        return self


class ExperimentFile(_Strict):
    experiment: Header = Field(default_factory=Header)
    method: Method = Field(default_factory=Method)
    quick: dict[str, Any] = Field(default_factory=dict)
    params: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict)
    programs: dict[str, str] = Field(default_factory=dict)
    cases: list[Case]
    claims: list[Claim] = Field(default_factory=list)

    @field_validator("params")
    @classmethod
    def _params(cls, params: dict[str, Any]) -> dict[str, Any]:
        for name, value in params.items():
            if not _PARAM.match(name):
                raise ValueError(f"parameter name {name!r} must be lower case letters, digits and _")
            if isinstance(value, list) and not value:
                raise ValueError(f"parameter {name} is an empty list: give at least one value")
            check_sweep(name, value)
        return params


@dataclass
class Experiment:
    name: str
    path: Path
    title: str
    driver: str
    programs: dict[str, str]
    cases: list[Case]
    claims: list[Claim]
    runtimes: list[str]
    jdks: list[str]
    params: dict[str, str | list[str]]  # a list sweeps: one arm per value
    method: Method
    quick: Method
    quick_params: dict[str, str | list[str]]
    quick_runtimes: list[str]
    baseline: Baseline
    quick_cases: list[str] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)  # as read: stored with each session

    def program_for(self, family: str, case: Case | None = None) -> Path | None:
        relative = (case.programs.get(family) if case else None) or self.programs.get(family)
        return self.path / relative if relative else None

    def case(self, name: str) -> Case:
        for case in self.cases:
            if case.name == name:
                return case
        raise ExperimentError(f"experiment {self.name} has no case {name!r}",
                              "its cases are: " + ", ".join(c.name for c in self.cases) + did_you_mean(
                                  name, [c.name for c in self.cases]))

    def driver_of(self, case: Case) -> str:
        return case.driver or self.driver


def check_sweep(name: str, value: object) -> None:
    """A sweep names each value once: `[5, 5]` or `[1, "1"]` made arms of one key, compared with each other."""
    if isinstance(value, list):
        seen: set[str] = set()
        for text in map(scalar_text, value):
            if text in seen:
                raise ValueError(f"parameter {name} sweeps the value {text!r} more than once: each value makes one arm")
            seen.add(text)


def scalar_text(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Arm:
    experiment: Experiment = field(compare=False, hash=False)
    experiment_name: str
    case: Case
    runtime: Runtime
    params: tuple[tuple[str, str], ...]
    variant: str = ""  # the swept parameters' values, e.g. "dataset=monaco"

    @functools.cached_property
    def id(self) -> identity.ArmId:  # computed once: items and the scheduler ask for it often
        return identity.ArmId(self.experiment_name, self.case.name, self.variant, self.runtime.name)

    @property
    def label(self) -> str:
        return self.id.label

    @property
    def key(self) -> str:
        return self.id.key

    @property
    def driver(self) -> str:
        return self.experiment.driver_of(self.case)

    @property
    def program(self) -> Path | None:
        return self.experiment.program_for(self.runtime.program_family, self.case)

    # what items.py and selectors look at
    @property
    def family(self) -> str:
        return self.runtime.family

    @property
    def param_map(self) -> dict[str, str]:
        return dict(self.params)
