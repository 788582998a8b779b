"""The claims of reports' JSON documents (`versus report N --format json`, a run's session.json).

`versus lab claims REPORT.json [EXPERIMENT…] [--counts]`: the Markdown tables of docs/results.md and the
experiments' READMEs, or the decided claims per experiment. Each instance's interval is the one that
decided it, at its level, as the report printed it.

`versus lab across REPORT.json…`: several runs' verdicts side by side. Each claim's verdict per run
(listed where the runs do not all decide it alike), the claims decided in at least one run, in all
and in none, any claim that holds in one run and does not hold in another (a flip), and the share of
deciding intervals that contain the estimate pooled over the runs: each claim pair's rounds (those the
rule analyses, from the documents' raw samples, `stored.rounds`) pooled over the runs, and their
trimmed mean at the first run's rule.

A claim is judged on the machine that measured it, and a ratio of two runtimes is a property of the
CPU as much as of the code. So where the runs come from more than one host class (the CPU model each
report's hosts name), a flip is counted within a host class, a claim decided alike on each class but
apart between them is listed as such ("HOST"), and the pooled estimate is given both over all runs and
over the runs of each interval's own host class.
"""
from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import judge, stats, units
from ..definitions import Method
from ..errors import UsageError
from ..record import StoredMethod, StoredPlan
from ..rule import PER_TRIM, TABLES, Rule
from ..verdict import Verdict
from .stored import REPORT_HINT, Values, read_report, rounds, start_of

HEADER = ("| claim | bound | verdict | instance | measured [interval at its level] | rounds |\n"
          "| --- | --- | --- | --- | --- | ---: |")
DECIDED = (Verdict.HOLDS.value, Verdict.DOES_NOT_HOLD.value)
TARGET_COVERAGE = 0.97  # the target for intervals containing the pooled estimate


def _bound(expected: dict[str, float | None]) -> str:
    return units.metric_bounds(expected.get("min"), expected.get("max"))


def _labels(doc: dict[str, Any]) -> dict[str, tuple[str, str]]:
    out = {}
    for arm in doc["arms"]:
        label = f"{arm['case']}[{arm['variant']}]" if arm.get("variant") else arm["case"]
        out[arm["key"]] = (label, arm["runtime"])
    return out


def _instance(instance: dict[str, Any], labels: dict[str, tuple[str, str]]) -> str:
    top = labels[instance["numerator"]]
    if instance.get("denominator") is None:
        return f"{top[0]} on {top[1]}: {instance['verdict']}"
    bottom = labels[instance["denominator"]]
    if top[1] == bottom[1]:
        what = f"{top[0]} ÷ {bottom[0]} on {top[1]}"
    elif top[0] == bottom[0]:
        what = f"{top[0]}: {top[1]} ÷ {bottom[1]}"
    else:
        what = f"{top[0]} on {top[1]} ÷ {bottom[0]} on {bottom[1]}"
    return f"{what}: {instance['verdict']}"


def _measured(instance: dict[str, Any], ratio: bool) -> str:
    shown, sign = instance.get("ratio"), "×" if ratio else ""
    if shown is None:
        return instance.get("note") or "no interval"
    if instance.get("note"):
        # below the floor of rounds the interval is wide by the rule's choice, not because the rounds disagree
        why = "too few rounds" if instance["note"].startswith("too few rounds") else "rounds disagree"
        return f"{shown['value']:.3g}{sign} ({why}: no usable interval yet)"
    ends = instance.get("ends_one_sided")
    level = f"at {units.level(ends[0])} / {units.level(ends[1])} one-sided" if ends and abs(ends[0] - ends[1]) > 1e-12 \
        else f"at {units.level(instance['level'])}"
    return f"{shown['value']:.3g}{sign} [{shown['low']:.3g}, {shown['high']:.3g}] {level}"


def _depends(claim: dict[str, Any]) -> str:
    """A verdict that an analysis choice moves, as the report flags it: " ⚠ inconclusive with the median
    of each process's samples" (a report written before `depends_on` has none)."""
    return "".join(f" ⚠ {alternative['verdict']} with {alternative['alternative']}"
                   for alternative in claim.get("depends_on") or [])


def table(doc: dict[str, Any], experiment: str) -> str:
    labels = _labels(doc)
    rows = [HEADER]
    for claim in doc["claims"]:
        if claim["experiment"] != experiment or claim["verdict"] == Verdict.NOT_MEASURED.value:
            continue
        head = [f"`{claim['id']}`", _bound(claim["expected"]), f"**{claim['verdict']}**{_depends(claim)}"]
        for index, instance in enumerate(claim["instances"]):
            cells = head if index == 0 else ["", "", ""]
            ratio = instance.get("denominator") is not None
            cells = cells + [_instance(instance, labels), _measured(instance, ratio), str(instance["rounds"])]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def counts(doc: dict[str, Any]) -> str:
    """The decided claims per experiment, those whose verdict depends on an analysis choice named apart
    (the report's headline counts them apart too)."""
    lines, total, decided, hanging = [], 0, 0, 0

    def line(name: str, done: int, of: int, depend: int) -> str:
        return f"{name}: {done} of {of}" + (f" ({depend} of them {'depend' if depend > 1 else 'depends'} "
                                            "on an analysis choice)" if depend else "")

    for experiment in dict.fromkeys(c["experiment"] for c in doc["claims"]):
        measured = [c for c in doc["claims"] if c["experiment"] == experiment and c["verdict"] != Verdict.NOT_MEASURED.value]
        done = [c for c in measured if c["verdict"] in DECIDED]
        depend = sum(1 for c in done if c.get("depends_on"))
        total, decided, hanging = total + len(measured), decided + len(done), hanging + depend
        lines.append(line(experiment, len(done), len(measured), depend))
    return "\n".join(lines + [line("all", decided, total, hanging)])


def claims(path: Path, experiments: list[str], only_counts: bool) -> str:
    doc = read_report(path)
    try:
        if only_counts:
            return counts(doc)
        found = list(dict.fromkeys(c["experiment"] for c in doc["claims"]))
        chosen = experiments or found
        unknown = [e for e in chosen if e not in found]
        if unknown:
            raise UsageError(f"no claims of {', '.join(unknown)} in {path}",
                             f"it has claims of {', '.join(found) or 'no experiment'}")
        parts = []
        for experiment in chosen:
            if len(chosen) > 1:
                parts.append(f"#### {experiment}\n")
            parts.append(table(doc, experiment) + "\n")
        return "\n".join(parts).rstrip("\n")
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise _malformed(path, error) from None


def _malformed(path: Path, error: Exception) -> UsageError:
    return UsageError(f"{path} is not a report as versus writes it ({type(error).__name__}: {str(error)[:80]})",
                      REPORT_HINT)


# --- across runs ---------------------------------------------------------------------------------

def rule_of(doc: Mapping[str, Any]) -> Rule:
    """The rule a report's verdicts were reached by: the one it names, or its session's stored one."""
    stored = doc.get("rule")
    if isinstance(stored, Mapping):
        return Rule.from_dict(stored)
    session = doc.get("session")
    plan = session.get("plan") if isinstance(session, Mapping) else None
    return Rule.of(plan if isinstance(plan, Mapping) else {})


def arm_values(arm: Mapping[str, Any], metric: str, rule: Rule) -> Values:
    """Round → (value, warmup) of each successful process run in a report's arm, from its raw samples,
    with the per-process value the rule (or the arm's method) names, as the analysis takes it."""
    value = judge.stored_value(StoredMethod.of(arm.get("method")).value, rule)
    out: Values = {}
    for run in arm.get("runs") or []:
        if run.get("status") != "ok":
            continue
        facts = judge.facts_of([(int(ns), int(inner), bool(warm)) for ns, inner, warm in run.get("samples") or []],
                               [(str(m[0]), float(m[1])) for m in run.get("metrics") or []],
                               int(run.get("wall_ns") or 0), value)
        found = facts.metrics.get(metric) if metric else facts.value
        if found is not None:
            out[int(run["round"])] = (found, facts.warmup)
    return out


@dataclass
class Deciding:
    """One run's deciding interval of a claim pair."""

    run: int  # 1-based, in the order given
    claim: str
    pair: str
    verdict: str
    low: float
    high: float


@dataclass(frozen=True)
class Across:
    runs: int
    verdicts: dict[tuple[str, str], list[str]]  # claim → its verdict in each run ("-": not in that run)
    deciding: list[tuple[Deciding, float | None]]  # each deciding interval, with its pair's pooled estimate
    rules_differ: tuple[str, ...] = ()  # the rule fields in which the runs' rules differ (the pooled estimate takes run 1's)
    methods: dict[str, str] = field(default_factory=dict)  # experiment → how its method differs between runs
    hosts: tuple[str, ...] = ()  # each run's host class; empty: one class
    on_host: tuple[float | None, ...] = ()  # each deciding interval's pair pooled over the runs of its host class

    def _apart(self, key: tuple[str, str], runs: list[int]) -> bool:
        return len({self.verdicts[key][r] for r in runs} & set(DECIDED)) > 1

    def _classes(self) -> list[list[int]]:
        """The runs (0-based) of each host class."""
        if not self.hosts:
            return [list(range(self.runs))]
        return [[r for r, h in enumerate(self.hosts) if h == host] for host in dict.fromkeys(self.hosts)]

    @property
    def flips(self) -> list[tuple[str, str]]:
        """Claims that hold in one run and do not hold in another on the same host class."""
        return [k for k in self.verdicts if any(self._apart(k, runs) for runs in self._classes())]

    @property
    def between_hosts(self) -> list[tuple[str, str]]:
        """Claims decided alike within each host class but apart between two classes."""
        flips = set(self.flips)
        return [k for k in self.verdicts if k not in flips and self._apart(k, list(range(self.runs)))]

    def host_runs(self) -> list[tuple[str, list[int]]]:
        """Each host class with its runs (1-based)."""
        return [(self.hosts[runs[0]], [r + 1 for r in runs]) for runs in self._classes()] if self.hosts else []

    def decided(self, how: str) -> list[tuple[str, str]]:
        """The claims decided in at least one run ("some"), in every run ("all"), or in none ("none")."""
        test = {"some": any, "all": all}.get(how)
        if how == "none":
            return [k for k, seen in self.verdicts.items() if not any(v in DECIDED for v in seen)]
        assert test is not None
        return [k for k, seen in self.verdicts.items() if test(v in DECIDED for v in seen)]

    @property
    def contained(self) -> list[bool]:
        return [estimate is not None and _inside(d.low, d.high, estimate) for d, estimate in self.deciding]

    @property
    def contained_on_host(self) -> list[bool]:
        return [estimate is not None and _inside(d.low, d.high, estimate)
                for (d, _), estimate in zip(self.deciding, self.on_host)]


def _inside(low: float, high: float, value: float) -> bool:
    """Within [low, high] up to the last bits of a double: an exact pair (sizes in bytes) decides with an
    interval of one point, and the pooled estimate of the same value, computed another way (a mean of
    logs, exponentiated), may differ from it in the 16th digit (make runs of 2026-11-27: 7 of 80
    deciding intervals "missed" their own value so)."""
    slack = 1e-9 * max(abs(low), abs(high))
    return low - slack <= value <= high + slack


def _experiment(arm: Mapping[str, Any]) -> str:
    return str(arm.get("experiment") or str(arm["key"]).split("/", 1)[0])  # keys are experiment/case/runtime


def _method_of(doc: Mapping[str, Any], experiment: str) -> str:
    """An experiment's method in a report, as its arms stored it with today's defaults for keys an older
    version did not store: the same text for the same measurement."""
    found = {json.dumps({**Method().model_dump(), **(arm.get("method") or {})}, sort_keys=True)
             for arm in doc["arms"] if _experiment(arm) == experiment}
    return "\n".join(sorted(found))


def _how_methods_differ(texts: list[str]) -> str:
    """`key: a in runs 1–8, b in run 9` for each method key whose value differs between the runs."""
    methods = [[json.loads(line) for line in text.split("\n") if line] for text in texts]
    keys = sorted({k for ms in methods for m in ms for k in m})
    parts = []
    for key in keys:
        values = [", ".join(sorted({json.dumps(m.get(key)) for m in ms})) for ms in methods]
        if len(set(values)) > 1:
            runs: dict[str, list[int]] = {}
            for run, value in enumerate(values, 1):
                runs.setdefault(value, []).append(run)
            parts.append(f"{key} " + "; ".join(f"{value} in run{'s' if len(r) > 1 else ''} {_runs(r)}"
                                                  for value, r in runs.items()))
    return ", ".join(parts)


def _runs(numbers: list[int]) -> str:
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][-1] + 1:
            spans[-1].append(n)
        else:
            spans.append([n])
    return ", ".join(f"{s[0]}–{s[-1]}" if len(s) > 1 else str(s[0]) for s in spans)


def host_class(doc: Mapping[str, Any]) -> str:
    """The CPU model(s) of the hosts a report's session ran on: what decides whether two runs measured
    on the same kind of machine (every VM here is called `vm`)."""
    hosts = doc.get("hosts")
    found = [h for h in hosts.values() if isinstance(h, Mapping)] if isinstance(hosts, Mapping) else []
    if not found and isinstance(doc.get("host"), Mapping):
        found = [doc["host"]]
    names = sorted({str(h.get("cpu") or "unknown CPU") for h in found})
    return " + ".join(names) or "unknown host"


def across(paths: list[Path]) -> Across:
    """Several reports set side by side. An experiment whose method differs between them (a report
    before `cpus` existed and one after) measured two things: each method's runs are pooled, and
    their claims counted, apart (the claim's id gets ` [method N]`)."""
    docs = [read_report(path) for path in paths]
    try:
        experiments = sorted({_experiment(arm) for doc in docs for arm in doc["arms"]})
        texts = {e: [_method_of(doc, e) for doc in docs] for e in experiments}
    except (KeyError, TypeError, AttributeError) as error:
        raise _malformed(paths[0], error) from None
    versions = {e: list(dict.fromkeys(t for t in ts if t)) for e, ts in texts.items()}
    methods = {e: _how_methods_differ(ts) for e, ts in texts.items() if len(versions[e]) > 1}
    verdicts: dict[tuple[str, str], list[str]] = {}
    units_of: dict[tuple[str, str], list[float]] = {}
    units_on: dict[tuple[str, tuple[str, str]], list[float]] = {}  # (host class, pair) → rounds
    scale_of: dict[tuple[str, str], str] = {}
    deciding: list[tuple[Deciding, tuple[str, str]]] = []
    hosts = [host_class(doc) for doc in docs]
    rule: Rule | None = None
    differ: set[str] = set()
    for index, (path, doc) in enumerate(zip(paths, docs), 1):
        try:
            own = rule_of(doc)
            if rule is not None:
                # what a session learned (a pair's history) is its data, not its rule
                differ |= {f.name for f in dataclasses.fields(Rule)
                           if f.name not in (*TABLES, *PER_TRIM) and getattr(own, f.name) != getattr(rule, f.name)}
            rule = rule or own
            arms = {arm["key"]: arm for arm in doc["arms"]}
            plan = StoredPlan.of((doc.get("session") or {}).get("plan"))
            for claim in doc["claims"]:
                key = (str(claim["experiment"]), str(claim["id"]))
                if key[0] in methods:
                    key = (key[0], f"{key[1]} [method {versions[key[0]].index(texts[key[0]][index - 1]) + 1}]")
                verdicts.setdefault(key, ["-"] * (index - 1)).append(str(claim["verdict"]))
                metric = claim.get("metric") or ""
                for instance in claim.get("instances") or []:
                    top, bottom = instance["numerator"], instance.get("denominator")
                    pair = (f"{key[0]} {key[1]}", f"{top} ÷ {bottom}" if bottom else top)
                    found = rounds(arm_values(arms[top], metric, own),
                                   arm_values(arms[bottom], metric, own) if bottom else None,
                                   start_of(plan, key[0], own), own)
                    if found is not None:
                        units_of.setdefault(pair, []).extend(found.units)
                        units_on.setdefault((hosts[index - 1], pair), []).extend(found.units)
                        scale_of[pair] = found.scale
                    shown = instance.get("ratio")
                    if instance.get("verdict") in DECIDED and shown is not None:
                        deciding.append((Deciding(index, pair[0], pair[1], str(instance["verdict"]),
                                                  float(shown["low"]), float(shown["high"])), pair))
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise _malformed(path, error) from None
        for seen in verdicts.values():
            seen += ["-"] * (index - len(seen))
    def pool(pooled_units: list[float], scale: str) -> float | None:
        if len(pooled_units) < 2 or rule is None:
            return None
        center = stats.trimmed_location(pooled_units, rule=rule).center
        return math.exp(center) if scale == "log" else center

    pooled = {pair: pool(found, scale_of[pair]) for pair, found in units_of.items()}
    several = len(set(hosts)) > 1
    on_host = tuple(pool(units_on[(hosts[d.run - 1], pair)], scale_of[pair]) if (hosts[d.run - 1], pair) in units_on
                    else None for d, pair in deciding) if several else ()
    return Across(len(docs), verdicts, [(d, pooled.get(pair)) for d, pair in deciding], tuple(sorted(differ)), methods,
                  tuple(hosts) if several else (), on_host)


def render_across(result: Across) -> str:
    lines = []
    flips, between = set(result.flips), set(result.between_hosts)
    classes = result.host_runs()
    if classes:
        lines.append("the runs come from more than one host class: " + "; ".join(
            f"{host} (run{'s' if len(runs) > 1 else ''} {_runs(runs)})" for host, runs in classes))
    for key, seen in result.verdicts.items():
        decided = {v for v in seen if v in DECIDED}
        if len(set(seen)) > 1 or not decided:
            mark = "FLIP " if key in flips else "HOST " if key in between else ""
            lines.append(f"{mark}{key[0]} {key[1]}: " + ", ".join(seen))
    some, every, none = (len(result.decided(how)) for how in ("some", "all", "none"))
    apart = (f"holds in one run and does not hold in another on the same host class: {len(flips)}; decided alike on "
             f"each host class but apart between them (HOST): {len(between)}") if classes else \
        f"holds in one run and does not hold in another: {len(flips)}"
    lines.append(f"{len(result.verdicts)} claims over {result.runs} runs: decided in at least one {some}, in all {every}, "
                 f"in none {none}; {apart}")
    for experiment, how in result.methods.items():
        lines.append(f"{experiment}: the runs measured it by different methods ({how}); each method's runs are "
                     "pooled and their claims counted apart, as [method 1], [method 2] …")
    contained = result.contained
    if result.rules_differ:
        lines.append(f"the runs were judged by different rules (they differ in {', '.join(result.rules_differ)}): each "
                     "pair's pooled estimate is the trimmed mean at run 1's")
    if contained:
        share = sum(contained) / len(contained)
        lines.append(f"deciding intervals that contain the estimate pooled over the runs: {sum(contained)} of "
                     f"{len(contained)} ({share:.1%}; target ≥ {TARGET_COVERAGE:.0%})")
        for (d, estimate), inside in zip(result.deciding, contained):
            if not inside:
                pooled = f"{estimate:.4g}" if estimate is not None else "none (too few rounds)"
                lines.append(f"  run {d.run}: {d.claim} {d.pair}: {d.verdict} [{d.low:.4g}, {d.high:.4g}], pooled {pooled}")
        if classes:
            on_host = result.contained_on_host
            lines.append(f"deciding intervals that contain the estimate pooled over the runs of their own host class: "
                         f"{sum(on_host)} of {len(on_host)} ({sum(on_host) / len(on_host):.1%}; target ≥ "
                         f"{TARGET_COVERAGE:.0%})")
            for (d, _), estimate, inside in zip(result.deciding, result.on_host, on_host):
                if not inside:
                    pooled = f"{estimate:.4g}" if estimate is not None else "none (too few rounds)"
                    lines.append(f"  run {d.run}: {d.claim} {d.pair}: {d.verdict} [{d.low:.4g}, {d.high:.4g}], "
                                 f"pooled on its host class {pooled}")
    else:
        lines.append("no run decided a claim pair: no deciding interval to set against the pooled estimate")
    return "\n".join(lines)
