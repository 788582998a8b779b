"""Plan: experiments × cases × runtimes → arms."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import selectors
from .errors import UsageError
from .experiment import Case, Experiment, Method
from .runtimes import Runtime, parse_spec, resolve


@dataclass(frozen=True)
class Arm:
    experiment: Experiment = field(compare=False, hash=False)
    experiment_name: str
    case: Case
    runtime: Runtime
    params: tuple[tuple[str, str], ...]

    @property
    def key(self) -> str:
        return f"{self.experiment_name}/{self.case.name}/{self.runtime.name}"

    @property
    def driver(self) -> str:
        return self.case.driver or self.experiment.driver

    @property
    def program(self) -> Path | None:
        return self.experiment.program_for(self.runtime.program_family)


@dataclass
class Plan:
    arms: list[Arm]
    methods: dict[str, Method]  # by experiment name
    notes: list[str]


def make_plan(experiments: list[Experiment], runtime_specs: list[str] | None, case_names: list[str] | None,
              quick: bool, overrides: dict[str, int], param_overrides: dict[str, str] | None = None,
              fetch: bool = True) -> Plan:
    arms: list[Arm] = []
    notes: list[str] = []
    methods: dict[str, Method] = {}
    for experiment in experiments:
        method = experiment.quick if quick else experiment.method
        method = Method(**{**method.__dict__, **{k: v for k, v in overrides.items() if v is not None}})
        methods[experiment.name] = method
        params = dict(experiment.params)
        if quick:
            params.update(experiment.quick_params)
        params.update(param_overrides or {})
        specs = runtime_specs or (experiment.quick_runtimes if quick and experiment.quick_runtimes
                                  else experiment.runtimes)
        runtimes = _runtimes(specs, experiment, notes, fetch)
        cases = experiment.cases
        if case_names:
            cases = [experiment.case(name) for name in case_names if name in {c.name for c in experiment.cases}]
            if not cases:
                raise UsageError(f"none of the cases {case_names} is in {experiment.name}",
                                 "its cases are: " + ", ".join(c.name for c in experiment.cases))
        for runtime in runtimes:
            if experiment.program_for(runtime.program_family) is None and \
                    any((c.driver or experiment.driver) in ("protocol", "jmh") for c in cases):
                notes.append(f"{experiment.name}: no {runtime.program_family} program for {runtime.name}")
                continue
            for case in cases:
                if case.runtimes and not any(selectors.matches(s, runtime, strict_flags=False) for s in case.runtimes):
                    continue
                arms.append(Arm(experiment, experiment.name, case, runtime, tuple(sorted(params.items()))))
    if not arms:
        raise UsageError("the plan has no arms: " + ("; ".join(notes) or "nothing selected"),
                         "check --runtimes and --cases against `versus list` and `versus runtimes`")
    return Plan(arms, methods, notes)


def _runtimes(specs: list[str], experiment: Experiment, notes: list[str], fetch: bool) -> list[Runtime]:
    found: list[Runtime] = []
    for text in specs:
        resolution = resolve(parse_spec(text), experiment.jdks, fetch=fetch)
        notes.extend(resolution.notes)
        for runtime in resolution.runtimes:
            if runtime.name not in {r.name for r in found}:
                found.append(runtime)
    return found
