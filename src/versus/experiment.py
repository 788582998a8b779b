"""Experiments: a folder with `experiment.toml`, its programs, and a README.

`experiment.toml` is validated against one schema (the pydantic models of `definitions.py`): unknown
keys are rejected with a did-you-mean, types and ranges are checked, and claims must name cases,
runtimes and parameters that exist; each driver says which fields its templates get.
docs/experiment-toml.md is generated from these models (`versus schema`).
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .definitions import Baseline, Case, Claim, Experiment, ExperimentFile, Header, Method, Quick, Side, check_sweep, scalar_text
from .drivers import DRIVERS, SERVER_FIELDS
from .drivers.base import fill_template
from .errors import ExperimentError, UsageError, VersusError, did_you_mean
from .expr import check_expression
from .files import deeper_than, read_bounded, text_of
from .paths import experiments
from .runtimes import parse_spec
from .runtimes.families import program_families
from .selectors import check_selector

__all__ = ["Baseline", "Case", "Claim", "Experiment", "Header", "Method", "Quick", "Side", "all_experiments", "find",
           "from_raw", "load"]


def _params(raw: dict[str, Any]) -> dict[str, str | list[str]]:
    return {k: [scalar_text(x) for x in v] if isinstance(v, list) else scalar_text(v) for k, v in raw.items()}


def find(name_or_path: str) -> Path:
    """An experiment by name (under experiments/) or by path to a folder with experiment.toml."""
    candidate = Path(name_or_path)
    if (candidate / "experiment.toml").is_file():
        return candidate.resolve()
    folder = experiments() / name_or_path
    if "/" not in name_or_path and (folder / "experiment.toml").is_file():
        return folder
    known = [p.name for p in all_experiments()]
    raise ExperimentError(f"no experiment {name_or_path!r}",
                          f"name one of: {', '.join(known) or '(none)'}; or give a path to a folder with "
                          "experiment.toml" + did_you_mean(name_or_path, known))


def all_experiments() -> list[Path]:
    return sorted(p.parent for p in experiments().glob("*/experiment.toml"))


MAX_TOML_BYTES = 16 << 20  # an experiment.toml: the largest in experiments/ is 20 kB
MAX_TOML_DEPTH = 32  # tables and arrays within each other: experiment.toml needs 4


def load(folder: Path) -> Experiment:
    """experiment.toml read within bounds (a regular file, at most 16 MB, UTF-8, nested at most 32
    deep) and validated; each failure an ExperimentError that names the real problem."""
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
            check_sweep(name, value)
        except ValueError as error:
            raise ExperimentError(f"{where}: [quick] params: {error}", "name each value once") from None
        if name not in parsed.params:
            raise ExperimentError(f"{where}: [quick] params names {name!r}, which is not in [params]",
                                  "add it to [params] first" + did_you_mean(name, list(parsed.params)))
    names = [c.name for c in parsed.cases]
    for case in quick.cases:
        if case not in names:
            raise ExperimentError(f"{where}: [quick] cases names {case!r}, which is not a case",
                                  "cases: " + ", ".join(names) + did_you_mean(case, names))
    return method, _params(quick.params), list(quick.runtimes), list(quick.cases)


def _cross_check(experiment: Experiment, where: str, check_files: bool) -> None:
    """What one key says about another: drivers, programs, cases named by claims, selectors, params."""
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
                 "program families are: " + ", ".join(program_families()) + did_you_mean(family, list(program_families())))
        path = experiment.path / relative
        if check_files and not path.exists():
            siblings = [str(p.relative_to(experiment.path)) for p in path.parent.glob("*")] if path.parent.is_dir() else []
            fail(f"[programs] {family} = {relative!r}: there is no such file in {experiment.path}",
                 "fix the path (relative to the experiment folder)" + did_you_mean(relative, siblings))
    params = set(experiment.params) | {"inner"}
    for case in experiment.cases:
        driver = experiment.driver_of(case)
        if driver not in DRIVERS:
            fail(f"case {case.name}: unknown driver {driver!r}",
                 "drivers are: " + ", ".join(DRIVERS) + did_you_mean(driver, list(DRIVERS)))
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
             "drivers are: " + ", ".join(DRIVERS) + did_you_mean(experiment.driver, list(DRIVERS)))
    if experiment.baseline.case and experiment.baseline.case not in names:
        fail(f"baseline case {experiment.baseline.case!r} is not a case",
             "cases: " + ", ".join(names) + did_you_mean(experiment.baseline.case, names))
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
                     "cases: " + ", ".join(names) + did_you_mean(side.case, names))
            try:
                check_selector(side.runtime)
            except VersusError as error:
                fail(f"claim {claim.id}: {label}: {error.message}", error.hint)
            for name in side.params:
                if name not in experiment.params:
                    fail(f"claim {claim.id}: {label} pins parameter {name!r}, which is not in [params]",
                         "parameters: " + ", ".join(experiment.params) + did_you_mean(name, list(experiment.params)))


def _check_templates(experiment: Experiment, case: Case, driver: str, where: str) -> None:
    """Command and server templates split and fill with the fields they will get (no shell involved)."""
    params = {name: "x" for name in experiment.params}
    templates = []
    command_fields = DRIVERS[driver].command_fields
    if command_fields is not None and case.command:
        templates.append(("command", case.command, command_fields))
    if case.server:
        templates.append(("server", case.server, SERVER_FIELDS))
    for what, template, fields in templates:
        fill_template(template, {**params, **{name: "1" for name in fields}}, f"{where}: case {case.name}", what)


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
            messages.append(f"unknown key {key!r} in {where}" + did_you_mean(key, known)
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
