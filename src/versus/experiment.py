"""Experiments: a folder with `experiment.toml`, its programs, and a README."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ExperimentError

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = ROOT / "experiments"
DRIVERS = ("protocol", "command", "jmh", "load")


@dataclass(frozen=True)
class Method:
    processes: int = 5
    warmup: int = 2
    samples: int = 5
    inner: int = 0  # 0: calibrate once per arm
    timeout: float = 300.0
    min_sample_ns: int = 100_000_000


@dataclass(frozen=True)
class Case:
    name: str
    check: str = ""  # expression for the expected check value; "" = no check expected
    runtimes: tuple[str, ...] = ()  # selectors; empty = every runtime of the experiment
    command: str = ""  # command driver: the command line with {param} fields; jmh driver: the benchmark
    description: str = ""
    driver: str = ""  # overrides the experiment's driver, so one experiment can mix protocol and jmh arms
    programs: tuple[tuple[str, str], ...] = ()  # per-family program overrides for this case
    server: str = ""  # a command template started before each process run; the client gets VERSUS_PORT


@dataclass(frozen=True)
class Side:
    case: str
    runtime: str  # a runtime selector, see selectors.py
    params: tuple[tuple[str, str], ...] = ()  # pins swept parameters: { size = "40" }


@dataclass(frozen=True)
class Claim:
    id: str
    statement: str
    source: str
    quote: str
    numerator: Side  # the ratio is numerator time / denominator time
    denominator: Side | None  # None: an absolute bound on the numerator's metric
    min: float | None = None
    max: float | None = None
    metric: str = ""  # compare a metric instead of time


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
    quick_params: dict[str, str]
    quick_runtimes: list[str]
    baseline: str
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    def program_for(self, family: str) -> Path | None:
        relative = self.programs.get(family)
        return self.path / relative if relative else None

    def case(self, name: str) -> Case:
        for case in self.cases:
            if case.name == name:
                return case
        raise ExperimentError(f"experiment {self.name} has no case {name!r}",
                              "its cases are: " + ", ".join(c.name for c in self.cases))


def find(name_or_path: str) -> Path:
    """An experiment by name (under experiments/) or by path to a folder with experiment.toml."""
    candidate = Path(name_or_path)
    for folder in (candidate, EXPERIMENTS / name_or_path):
        if (folder / "experiment.toml").is_file():
            return folder.resolve()
    known = ", ".join(sorted(p.parent.name for p in EXPERIMENTS.glob("*/experiment.toml")))
    raise ExperimentError(f"no experiment {name_or_path!r}",
                          f"name one of: {known or '(none)'}; or give a path to a folder with experiment.toml")


def all_experiments() -> list[Path]:
    return sorted(p.parent for p in EXPERIMENTS.glob("*/experiment.toml"))


def load(folder: Path) -> Experiment:
    file = folder / "experiment.toml"
    try:
        raw = tomllib.loads(file.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ExperimentError(f"cannot read {file}: {error}", "fix the TOML syntax at the place named") from None
    where = str(file)
    top = _table(raw, "experiment", where)
    driver = str(top.get("driver", "protocol"))
    if driver not in DRIVERS:
        raise ExperimentError(f"{where}: unknown driver {driver!r}", f"use one of: {', '.join(DRIVERS)}")
    cases = [_case(c, where) for c in raw.get("cases", [])]
    if not cases:
        raise ExperimentError(f"{where}: no [[cases]]", 'add at least one: [[cases]] name = "my_case"')
    claims = [_claim(c, where, {c.name for c in cases}) for c in raw.get("claims", [])]
    method = _method(raw.get("method", {}), Method(), where)
    quick_raw = dict(raw.get("quick", {}))
    quick_params = {k.lower(): str(v) for k, v in quick_raw.pop("params", {}).items()}
    quick_runtimes = [str(r) for r in quick_raw.pop("runtimes", [])]
    runtimes = [str(r) for r in top.get("runtimes", [])]
    return Experiment(
        name=str(top.get("name", folder.name)), path=folder, title=str(top.get("title", "")), driver=driver,
        programs={str(k): str(v) for k, v in raw.get("programs", {}).items()}, cases=cases, claims=claims,
        runtimes=runtimes, jdks=[str(j) for j in top.get("jdks", ["17"])],
        params={k.lower(): [str(x) for x in v] if isinstance(v, list) else str(v)
                for k, v in raw.get("params", {}).items()},
        method=method, quick=_method(quick_raw, method, where + " [quick]"), quick_params=quick_params,
        quick_runtimes=quick_runtimes, baseline=str(top.get("baseline", runtimes[0] if runtimes else "")), raw=raw)


def _table(raw: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = raw.get(key, {})
    if not isinstance(value, dict):
        raise ExperimentError(f"{where}: [{key}] must be a table", f"write it as [{key}] followed by key = value lines")
    return value


def _method(raw: dict[str, Any], base: Method, where: str) -> Method:
    known = set(Method.__dataclass_fields__)
    unknown = set(raw) - known
    if unknown:
        raise ExperimentError(f"{where}: unknown method keys {sorted(unknown)}", f"known keys: {sorted(known)}")
    values = {**base.__dict__, **raw}
    for key in ("processes", "samples"):
        if int(values[key]) < 1:
            raise ExperimentError(f"{where}: {key} must be ≥ 1", f"set {key} = 1 or more")
    return Method(**{k: type(getattr(base, k))(v) for k, v in values.items()})


def _case(raw: dict[str, Any], where: str) -> Case:
    if "name" not in raw:
        raise ExperimentError(f"{where}: a [[cases]] entry has no name", 'add name = "..." to it')
    driver = str(raw.get("driver", ""))
    if driver and driver not in DRIVERS:
        raise ExperimentError(f"{where}: case {raw['name']} has unknown driver {driver!r}", f"use one of: {', '.join(DRIVERS)}")
    return Case(name=str(raw["name"]), check=str(raw.get("check", "")), driver=driver,
                runtimes=tuple(str(r) for r in raw.get("runtimes", [])), command=str(raw.get("command", "")),
                description=str(raw.get("description", "")),
                programs=tuple(sorted((str(k), str(v)) for k, v in raw.get("programs", {}).items())),
                server=str(raw.get("server", "")))


def _side(raw: Any, where: str, cases: set[str]) -> Side:
    if not isinstance(raw, dict) or "case" not in raw or "runtime" not in raw:
        raise ExperimentError(f"{where}: a claim side must be {{ case = ..., runtime = ... }}",
                              'write numerator = { case = "adder", runtime = "jython@2.5.0" }')
    if raw["case"] not in cases:
        raise ExperimentError(f"{where}: claim names unknown case {raw['case']!r}", f"cases: {sorted(cases)}")
    params = raw.get("params", {})
    if not isinstance(params, dict):
        raise ExperimentError(f"{where}: a claim side's params must be a table", 'write params = { dataset = "monaco" }')
    return Side(str(raw["case"]), str(raw["runtime"]), tuple(sorted((k.lower(), str(v)) for k, v in params.items())))


def _claim(raw: dict[str, Any], where: str, cases: set[str]) -> Claim:
    needed = ("id", "statement", "source", "numerator") + (() if raw.get("metric") else ("denominator",))
    for key in needed:
        if key not in raw:
            raise ExperimentError(f"{where}: claim {raw.get('id', '?')} lacks {key}",
                                  "a claim needs id, statement, source, numerator, denominator (optional for a "
                                  "metric claim) and min and/or max")
    if "min" not in raw and "max" not in raw:
        raise ExperimentError(f"{where}: claim {raw['id']} has neither min nor max", "give the expected ratio bounds")
    return Claim(id=str(raw["id"]), statement=str(raw["statement"]), source=str(raw["source"]),
                 quote=str(raw.get("quote", "")), numerator=_side(raw["numerator"], where, cases),
                 denominator=_side(raw["denominator"], where, cases) if "denominator" in raw else None,
                 min=float(raw["min"]) if "min" in raw else None, max=float(raw["max"]) if "max" in raw else None,
                 metric=str(raw.get("metric", "")))
