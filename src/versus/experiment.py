"""Experiments: a folder with `experiment.toml`, its programs, and a README.

`experiment.toml` is validated against one schema (the pydantic models below): unknown keys are
rejected with a did-you-mean, types and ranges are checked, and claims must name cases, runtimes and
parameters that exist. docs/experiment-toml.md is generated from these models (`versus schema`).
"""
from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import ExperimentError, UsageError, VersusError

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
        return tuple(sorted((k, _text(v)) for k, v in self.params.items()))


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
    experiment: Header = Field(default_factory=Header)  # type: ignore[arg-type]
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
            _once(name, value)
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
                              "its cases are: " + ", ".join(c.name for c in self.cases) + _did_you_mean(
                                  name, [c.name for c in self.cases]))

    def driver_of(self, case: Case) -> str:
        return case.driver or self.driver


def _once(name: str, value: object) -> None:
    """A sweep names each value once: `[5, 5]` or `[1, "1"]` made arms of one key, compared with each other."""
    if isinstance(value, list):
        seen: set[str] = set()
        for text in map(_text, value):
            if text in seen:
                raise ValueError(f"parameter {name} sweeps the value {text!r} more than once: each value makes one arm")
            seen.add(text)


def _text(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _params(raw: dict[str, Any]) -> dict[str, str | list[str]]:
    return {k: [_text(x) for x in v] if isinstance(v, list) else _text(v) for k, v in raw.items()}


def find(name_or_path: str) -> Path:
    """An experiment by name (under experiments/) or by path to a folder with experiment.toml."""
    from .paths import experiments

    candidate = Path(name_or_path)
    if (candidate / "experiment.toml").is_file():
        return candidate.resolve()
    folder = experiments() / name_or_path
    if "/" not in name_or_path and (folder / "experiment.toml").is_file():
        return folder
    known = [p.name for p in all_experiments()]
    raise ExperimentError(f"no experiment {name_or_path!r}",
                          f"name one of: {', '.join(known) or '(none)'}; or give a path to a folder with "
                          "experiment.toml" + _did_you_mean(name_or_path, known))


def all_experiments() -> list[Path]:
    from .paths import experiments

    return sorted(p.parent for p in experiments().glob("*/experiment.toml"))


MAX_TOML_BYTES = 16 << 20  # an experiment.toml: the largest in experiments/ is 20 kB
MAX_TOML_DEPTH = 32  # tables and arrays within each other: experiment.toml needs 4


def load(folder: Path) -> Experiment:
    """experiment.toml read within bounds (a regular file, at most 16 MB, UTF-8, nested at most 32
    deep) and validated; each failure an ExperimentError that names the real problem."""
    from .files import deeper_than, read_bounded, text_of

    file = folder / "experiment.toml"
    try:
        text = text_of(read_bounded(file, MAX_TOML_BYTES, "experiment.toml"), file, "experiment.toml")
        raw = tomllib.loads(text)
    except UsageError as error:
        raise ExperimentError(error.message, error.hint) from None
    except tomllib.TOMLDecodeError as error:
        raise ExperimentError(f"{file}: {error}", "fix the TOML syntax at the place named") from None
    except RecursionError:
        raise ExperimentError(f"{file}: tables or arrays nested too deep to read",
                              f"an experiment.toml nests at most {MAX_TOML_DEPTH} deep") from None
    if deeper_than(raw, MAX_TOML_DEPTH):
        raise ExperimentError(f"{file}: tables or arrays nested more than {MAX_TOML_DEPTH} deep",
                              f"an experiment.toml nests at most {MAX_TOML_DEPTH} deep")
    return from_raw(raw, folder, str(file))


def from_raw(raw: dict[str, Any], folder: Path, where: str = "experiment.toml", check_files: bool = True) -> Experiment:
    """Validate a parsed experiment.toml; `check_files=False` for a stored definition of an old session."""
    try:
        parsed = ExperimentFile.model_validate(raw)
    except ValidationError as error:
        raise ExperimentError(f"{where}: {_explain(error, raw)}", _hint(error)) from None
    header = parsed.experiment
    runtimes = list(header.runtimes)
    baseline = header.baseline if isinstance(header.baseline, Baseline) else Baseline(runtime=header.baseline)
    if not baseline.runtime and not baseline.case and runtimes:
        baseline = Baseline(runtime=runtimes[0])
    quick = _quick(parsed, where)
    experiment = Experiment(
        name=header.name or folder.name, path=folder, title=header.title, driver=header.driver,
        programs=dict(parsed.programs), cases=list(parsed.cases), claims=list(parsed.claims), runtimes=runtimes,
        jdks=list(header.jdks), params=_params(parsed.params), method=parsed.method, quick=quick[0],
        quick_params=quick[1], quick_runtimes=quick[2], baseline=baseline, raw=raw, quick_cases=quick[3])
    _cross_check(experiment, where, check_files)
    return experiment


def _quick(parsed: ExperimentFile, where: str) -> tuple[Method, dict[str, str | list[str]], list[str], list[str]]:
    merged = {**parsed.method.model_dump(), **parsed.quick}
    try:
        quick = Quick.model_validate(merged)
    except ValidationError as error:
        raise ExperimentError(f"{where}: {_explain(error, {'quick': merged}, ('quick',))}", _hint(error)) from None
    method = Method.model_validate({k: v for k, v in quick.model_dump().items() if k in Method.model_fields})
    for name, value in quick.params.items():
        try:
            _once(name, value)
        except ValueError as error:
            raise ExperimentError(f"{where}: [quick] params: {error}", "name each value once") from None
        if name not in parsed.params:
            raise ExperimentError(f"{where}: [quick] params names {name!r}, which is not in [params]",
                                  "add it to [params] first" + _did_you_mean(name, list(parsed.params)))
    names = [c.name for c in parsed.cases]
    for case in quick.cases:
        if case not in names:
            raise ExperimentError(f"{where}: [quick] cases names {case!r}, which is not a case",
                                  "cases: " + ", ".join(names) + _did_you_mean(case, names))
    return method, _params(quick.params), list(quick.runtimes), list(quick.cases)


def _cross_check(experiment: Experiment, where: str, check_files: bool) -> None:
    """What one key says about another: drivers, programs, cases named by claims, selectors, params."""
    from .drivers import DRIVERS
    from .expr import check_expression
    from .runtimes import parse_spec
    from .runtimes.families import program_families
    from .selectors import check_selector

    def fail(message: str, hint: str) -> None:
        raise ExperimentError(f"{where}: {message}", hint)

    names = [c.name for c in experiment.cases]
    for duplicate in sorted({n for n in names if names.count(n) > 1}):
        fail(f"two [[cases]] are named {duplicate!r}", "give each case its own name")
    ids = [c.id for c in experiment.claims]
    for duplicate in sorted({i for i in ids if ids.count(i) > 1}):
        fail(f"two [[claims]] have the id {duplicate!r}", "give each claim its own id")
    for spec in [*experiment.runtimes, *experiment.quick_runtimes]:
        try:
            parse_spec(spec)
        except VersusError as error:
            fail(f"runtimes: {error.message}", error.hint)
    for family, relative in [*experiment.programs.items(), *[(f, p) for c in experiment.cases for f, p in c.programs.items()]]:
        if family not in program_families():
            fail(f"[programs] has an unknown program family {family!r}",
                 "program families are: " + ", ".join(program_families()) + _did_you_mean(family, list(program_families())))
        path = experiment.path / relative
        if check_files and not path.exists():
            siblings = [str(p.relative_to(experiment.path)) for p in path.parent.glob("*")] if path.parent.is_dir() else []
            fail(f"[programs] {family} = {relative!r}: there is no such file in {experiment.path}",
                 "fix the path (relative to the experiment folder)" + _did_you_mean(relative, siblings))
    params = set(experiment.params) | {"inner"}
    for case in experiment.cases:
        driver = experiment.driver_of(case)
        if driver not in DRIVERS:
            fail(f"case {case.name}: unknown driver {driver!r}",
                 "drivers are: " + ", ".join(DRIVERS) + _did_you_mean(driver, list(DRIVERS)))
        if case.check:
            try:
                check_expression(case.check, params)
            except VersusError as error:
                fail(f"case {case.name}: check: {error.message}", error.hint)
        for selector in case.runtimes:
            try:
                check_selector(selector)
            except VersusError as error:
                fail(f"case {case.name}: runtimes: {error.message}", error.hint)
        _check_templates(experiment, case, driver, where)
    if experiment.driver not in DRIVERS:
        fail(f"[experiment] driver {experiment.driver!r} is unknown",
             "drivers are: " + ", ".join(DRIVERS) + _did_you_mean(experiment.driver, list(DRIVERS)))
    if experiment.baseline.case and experiment.baseline.case not in names:
        fail(f"baseline case {experiment.baseline.case!r} is not a case",
             "cases: " + ", ".join(names) + _did_you_mean(experiment.baseline.case, names))
    if experiment.baseline.runtime:
        try:
            check_selector(experiment.baseline.runtime)
        except VersusError as error:
            fail(f"baseline: {error.message}", error.hint)
    for claim in experiment.claims:
        for label, side in (("numerator", claim.numerator), ("denominator", claim.denominator)):
            if side is None:
                continue
            if side.case not in names:
                fail(f"claim {claim.id}: {label} names case {side.case!r}, which is not a case",
                     "cases: " + ", ".join(names) + _did_you_mean(side.case, names))
            try:
                check_selector(side.runtime)
            except VersusError as error:
                fail(f"claim {claim.id}: {label}: {error.message}", error.hint)
            for name in side.params:
                if name not in experiment.params:
                    fail(f"claim {claim.id}: {label} pins parameter {name!r}, which is not in [params]",
                         "parameters: " + ", ".join(experiment.params) + _did_you_mean(name, list(experiment.params)))


def _check_templates(experiment: Experiment, case: Case, driver: str, where: str) -> None:
    """Command and server templates split and fill with the fields they will get (no shell involved)."""
    from .drivers.base import fill_template

    params = {name: "x" for name in experiment.params}
    templates = []
    if driver == "command" and case.command:
        templates.append(("command", case.command, {"runtime": "x", "program": "x"}))
    if driver == "load" and case.command:
        templates.append(("command", case.command, {"url": "x", "port": "1"}))
    if case.server:
        templates.append(("server", case.server, {"runtime": "x", "program": "x", "classpath": "x", "port": "1",
                                                  "case": "x"}))
    for what, template, fields in templates:
        fill_template(template, {**params, **fields}, f"{where}: case {case.name}", what)


def _did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _place(location: tuple[int | str, ...], raw: dict[str, Any]) -> str:
    """`[[cases]] #2 (name = "x")`-style words for a pydantic error location."""
    parts: list[str] = []
    node: Any = raw
    for index, key in enumerate(location):
        if isinstance(key, int) and isinstance(node, list) and key < len(node):
            item = node[key]
            label = item.get("name") or item.get("id") if isinstance(item, dict) else None
            parts[-1] = f"[[{parts[-1]}]] #{key + 1}" + (f" ({label})" if label else "")
            node = item
            continue
        parts.append(str(key) if index else f"{key}")
        node = node.get(key) if isinstance(node, dict) else None
    text = ".".join(parts)
    return re.sub(r"^(experiment|method|quick|params|programs)\b", r"[\1]", text)


_KNOWN: dict[str, list[str]] = {
    "experiment": list(Header.model_fields), "method": list(Method.model_fields), "quick": list(Quick.model_fields),
    "cases": list(Case.model_fields), "claims": list(Claim.model_fields), "numerator": list(Side.model_fields),
    "denominator": list(Side.model_fields), "": list(ExperimentFile.model_fields), "baseline": list(Baseline.model_fields),
}


def _explain(error: ValidationError, raw: dict[str, Any], within: tuple[str, ...] = ()) -> str:
    """The errors in words; `within` is where in the file the validated part sits (`[quick]` is
    validated after merging it over `[method]`)."""
    messages = []
    for detail in error.errors()[:3]:
        location = within + tuple(detail["loc"])
        if detail["type"] == "extra_forbidden":
            key = str(location[-1])
            parent = next((str(k) for k in reversed(location[:-1]) if isinstance(k, str)), "")
            known = _KNOWN.get(parent, [])
            where = _place(location[:-1], raw) or "the top level"
            messages.append(f"unknown key {key!r} in {where}" + _did_you_mean(key, known)
                            + (f" (known keys: {', '.join(known)})" if known else ""))
        else:
            where = _place(location, raw) or "the file"
            messages.append(f"{where}: {_message(detail)}")
    more = len(error.errors()) - 3
    return "; ".join(messages) + (f"; and {more} more" if more > 0 else "")


def _message(detail: Any) -> str:
    kind, text = detail["type"], detail["msg"]
    value = detail.get("input")
    if kind == "missing":
        return "is required"
    if kind.endswith("_type") or kind in ("list_type", "dict_type", "model_type", "literal_error"):
        shown = repr(value)[:60]
        return f"{text.lower()}, got {shown}"
    if kind.startswith("value_error"):
        return text.removeprefix("Value error, ")
    return f"{text}, got {repr(value)[:60]}" if value is not None and not isinstance(value, dict) else text


def _hint(error: ValidationError) -> str:
    kinds = {d["type"] for d in error.errors()}
    if "extra_forbidden" in kinds:
        return "remove or rename the key; docs/experiment-toml.md lists every key"
    if "missing" in kinds:
        return "add the key; docs/experiment-toml.md lists every key with its meaning"
    if any(k.endswith("_type") for k in kinds):
        return 'give the value the type docs/experiment-toml.md names (lists are written ["a", "b"])'
    return "see docs/experiment-toml.md for what each key accepts"
