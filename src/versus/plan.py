"""Plan: experiments × cases × runtimes (× swept parameters) → arms, and what is compared."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import arms as identity
from . import selectors
from .definitions import Arm, Case, Experiment, Method
from .drivers import DRIVERS
from .errors import UsageError
from .items import Item, groups_of, items_of
from .runtimes import Runtime, parse_spec, resolve

__all__ = ["Arm", "Plan", "make_plan", "rejoined", "sweep"]

MAX_ARMS = 20_000  # a plan beyond this is a mistake (a sweep of sweeps), not an experiment


@dataclass
class Plan:
    arms: list[Arm]
    methods: dict[str, Method]  # by experiment name
    notes: list[str]
    experiments: dict[str, Experiment] = field(default_factory=dict)
    params: dict[str, dict[str, str | list[str]]] = field(default_factory=dict)  # as run, by experiment
    items: list[Item] = field(default_factory=list)
    groups: list[list[int]] = field(default_factory=list)  # arm indices that run in the same rounds


def make_plan(experiments: list[Experiment], runtime_specs: list[str] | None, case_names: list[str] | None,
              quick: bool, overrides: dict[str, object], param_overrides: dict[str, str | list[str]] | None = None,
              fetch: bool = True) -> Plan:
    plan = Plan([], {}, [])
    for experiment in experiments:
        if experiment.name in plan.experiments:
            raise UsageError(f"experiment {experiment.name} is named twice", "name each experiment once")
        plan.experiments[experiment.name] = experiment
        method = experiment.quick if quick else experiment.method
        method = Method.model_validate({**method.model_dump(), **{k: v for k, v in overrides.items() if v is not None}})
        plan.methods[experiment.name] = method
        params: dict[str, str | list[str]] = dict(experiment.params)
        if quick:
            params.update(experiment.quick_params)
        params.update({k: v for k, v in (param_overrides or {}).items() if k in experiment.params})
        plan.params[experiment.name] = params
        specs = runtime_specs or (experiment.quick_runtimes if quick and experiment.quick_runtimes
                                  else experiment.runtimes)
        if not specs:
            raise UsageError(f"experiment {experiment.name} names no runtimes",
                             "add runtimes = [...] to its [experiment], or give --runtimes")
        runtimes = _runtimes(specs, experiment, plan.notes, fetch)
        cases = _cases(experiment, case_names or (experiment.quick_cases if quick else None))
        for runtime in runtimes:
            missing = False
            for case in cases:
                if not selectors.selected(case.runtimes, runtime):
                    continue
                if _needs_program(experiment, case) and experiment.program_for(runtime.program_family, case) is None:
                    missing = True
                    continue
                for variant, values in sweep(params):
                    plan.arms.append(Arm(experiment, experiment.name, case, runtime, values, variant))
                    if len(plan.arms) > MAX_ARMS:
                        raise UsageError(f"the plan has more than {MAX_ARMS} arms",
                                         "sweep fewer parameter values, or select --cases and --runtimes")
            if missing:
                plan.notes.append(f"{experiment.name}: no {runtime.program_family} program for {runtime.name}")
    for name in param_overrides or {}:
        if not any(name in e.params for e in experiments):
            known = sorted({p for e in experiments for p in e.params})
            raise UsageError(f"--param {name}: no experiment of this run has a parameter {name!r}",
                             "parameters: " + (", ".join(known) or "(none)"))
    if not plan.arms:
        raise UsageError("the plan has no arms: " + ("; ".join(plan.notes) or "nothing selected"),
                         "check the runtimes against `versus runtimes` and the cases against `versus list`")
    if quick and not runtime_specs and not case_names:
        plan.arms = _claims_arms(plan)
    plan.items = items_of(plan.arms, plan.experiments)
    plan.groups = groups_of(len(plan.arms), plan.items, [a.experiment_name for a in plan.arms])
    return plan


def _claims_arms(plan: Plan) -> list[Arm]:
    """A quick method measures what its experiment's claims compare: its [quick] cases × runtimes
    also make arms no claim names (counting_adder on C1-only Jython), which would cost the first
    rounds (3 processes each) and leave less of a budget to the claims. An experiment without a
    measurable claim keeps every arm; --cases or --runtimes keep every arm they select."""
    named: set[int] = set()
    for item in items_of(plan.arms, plan.experiments):
        if item.claim is not None:
            named.update(item.arms)
    claimed = {plan.arms[i].experiment_name for i in named}
    dropped = [i for i, a in enumerate(plan.arms) if i not in named and a.experiment_name in claimed]
    counts = {name: sum(1 for i in dropped if plan.arms[i].experiment_name == name) for name in plan.experiments}
    if dropped:
        each = ", ".join(f"{name} {count}" for name, count in counts.items() if count)
        plan.notes.append(f"--quick leaves out {len(dropped)} arm{'s' if len(dropped) != 1 else ''} that no claim "
                          f"compares ({each}); --cases or --runtimes select them")
    return [a for i, a in enumerate(plan.arms) if i not in dropped]


def _needs_program(experiment: Experiment, case: Case) -> bool:
    return DRIVERS[experiment.driver_of(case)].needs_program


def _cases(experiment: Experiment, names: list[str] | None) -> list[Case]:
    if not names:
        return experiment.cases
    known = {c.name for c in experiment.cases}
    cases = [experiment.case(name) for name in rejoined(names, known) if name in known]
    if not cases:
        raise UsageError(f"none of the cases {', '.join(names)} is in {experiment.name}",
                         "its cases are: " + ", ".join(c.name for c in experiment.cases))
    return cases


def rejoined(names: list[str], known: set[str]) -> list[str]:
    """`--cases a,b,c` split at its commas, with the pieces joined again where together they name a
    case: a case may be called `a,b` (the longest name that fits wins)."""
    out, index = [], 0
    while index < len(names):
        end = next((e for e in range(len(names), index + 1, -1) if ",".join(names[index:e]) in known), index + 1)
        out.append(",".join(names[index:end]))
        index = end
    return out


def sweep(params: dict[str, str | list[str]]) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Every combination of the list-valued parameters, each with its label."""
    combos: list[dict[str, str]] = [{}]
    for name, value in params.items():
        options = value if isinstance(value, list) else [value]
        combos = [{**combo, name: option} for combo in combos for option in options]
        if len(combos) > MAX_ARMS:
            raise UsageError(f"the parameter sweep has more than {MAX_ARMS} combinations",
                             "sweep fewer values at once")
    swept = [k for k, v in params.items() if isinstance(v, list)]
    return [(identity.variant_of(c, swept), tuple(sorted(c.items()))) for c in combos]


def _runtimes(specs: list[str], experiment: Experiment, notes: list[str], fetch: bool) -> list[Runtime]:
    found: list[Runtime] = []
    for text in specs:
        resolution = resolve(parse_spec(text), experiment.jdks, fetch=fetch)
        notes.extend(resolution.notes)
        for runtime in resolution.runtimes:
            if runtime.name not in {r.name for r in found}:
                found.append(runtime)
    return found
