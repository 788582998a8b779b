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
    variant: str = ""  # the swept parameters' values, e.g. "dataset=monaco"

    @property
    def label(self) -> str:
        return f"{self.case.name}[{self.variant}]" if self.variant else self.case.name

    @property
    def key(self) -> str:
        return f"{self.experiment_name}/{self.label}/{self.runtime.name}"

    @property
    def driver(self) -> str:
        return self.case.driver or self.experiment.driver

    @property
    def program(self) -> Path | None:
        override = dict(self.case.programs).get(self.runtime.program_family)
        if override:
            return self.experiment.path / override
        return self.experiment.program_for(self.runtime.program_family)


@dataclass
class Plan:
    arms: list[Arm]
    methods: dict[str, Method]  # by experiment name
    notes: list[str]


def make_plan(experiments: list[Experiment], runtime_specs: list[str] | None, case_names: list[str] | None,
              quick: bool, overrides: dict[str, int], param_overrides: dict[str, str | list[str]] | None = None,
              fetch: bool = True) -> Plan:
    arms: list[Arm] = []
    notes: list[str] = []
    methods: dict[str, Method] = {}
    for experiment in experiments:
        method = experiment.quick if quick else experiment.method
        method = Method(**{**method.__dict__, **{k: v for k, v in overrides.items() if v is not None}})
        methods[experiment.name] = method
        params: dict[str, str | list[str]] = dict(experiment.params)
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
            missing = False
            for case in cases:
                if case.runtimes and not any(selectors.matches(s, runtime, strict_flags=False) for s in case.runtimes):
                    continue
                needs_program = (case.driver or experiment.driver) in ("protocol", "jmh", "load")
                if needs_program and dict(case.programs).get(runtime.program_family) is None and \
                        experiment.program_for(runtime.program_family) is None:
                    missing = True
                    continue
                for variant, values in sweep(params):
                    arms.append(Arm(experiment, experiment.name, case, runtime, values, variant))
            if missing:
                notes.append(f"{experiment.name}: no {runtime.program_family} program for {runtime.name}")
    if not arms:
        raise UsageError("the plan has no arms: " + ("; ".join(notes) or "nothing selected"),
                         "check --runtimes and --cases against `versus list` and `versus runtimes`")
    return Plan(arms, methods, notes)


def sweep(params: dict[str, str | list[str]]) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Every combination of the list-valued parameters, each with its label."""
    combos: list[dict[str, str]] = [{}]
    for key, value in params.items():
        options = value if isinstance(value, list) else [value]
        combos = [{**combo, key: option} for combo in combos for option in options]
    swept = [k for k, v in params.items() if isinstance(v, list)]
    return [(",".join(f"{k}={c[k]}" for k in swept), tuple(sorted(c.items()))) for c in combos]


def _runtimes(specs: list[str], experiment: Experiment, notes: list[str], fetch: bool) -> list[Runtime]:
    found: list[Runtime] = []
    for text in specs:
        resolution = resolve(parse_spec(text), experiment.jdks, fetch=fetch)
        notes.extend(resolution.notes)
        for runtime in resolution.runtimes:
            if runtime.name not in {r.name for r in found}:
                found.append(runtime)
    return found
