"""Verdicts over hosts: rounds pooled across hosts, each host a block, and hosts that disagree said so.

A round runs every arm it holds on one host (fleet.coordinator), so each round's log ratio is paired
within a host: the hosts' own speeds cancel in it as the machine's drift does. The pooled verdict is
therefore the sequential design over every host's rounds in round order, exactly as on one host
(judge.judge over all observations), and a session on one host is judged as it always was.

What pairing cannot cancel is a host on which the ratio itself differs: another CPU, another cache,
another kernel. For each item, every host's own rounds are judged alone (its estimate, interval and
verdict, as if it had run the session by itself), and every two hosts' trimmed means of their
per-round log ratios are compared (Yuen–Welch with the rule's spread floor, at the item's α split
over the pairs of hosts). Where
hosts reach different verdicts (holds here, does not hold there; faster here, the same there), or
where their ratios differ beyond their noise and some host does not reach the pooled verdict on its
own, the item is reported per host and never as one pooled verdict. Where the ratios differ but every
host reaches the pooled verdict by itself (a claim of ≥ 10× that is 4× on one host and 7× on another),
the verdict stands and the report says that the hosts measure different ratios.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from . import judge, stats
from .items import Item
from .rule import CURRENT, Rule
from .verdict import Verdict

DISAGREE = Verdict.HOSTS_DISAGREE


@dataclass(frozen=True)
class HostDecision:
    host: str
    decision: stats.Decision  # this host's rounds alone, under the session's design


@dataclass(frozen=True)
class OverHosts:
    hosts: list[HostDecision]
    disagree: bool  # the pooled verdict is withheld: reported per host
    why: str = ""  # where the hosts differ: which, and how
    differ: bool = False  # two hosts' ratios differ beyond their noise (whether or not the verdict stands)

    def summary(self) -> str:
        return "; ".join(f"{h.host}: {h.decision.verdict}" for h in self.hosts)


def _positive(facts: dict[int, judge.Facts], metric: str) -> dict[int, float]:
    found = {r: f.metrics.get(metric) if metric else f.value for r, f in facts.items()}
    return {r: v for r, v in found.items() if v is not None and v > 0}


def _units(item: Item, observations: judge.Observations) -> list[float]:
    """The item's per-round values on the log scale: log ratios of matched rounds (log values for a bound)."""
    values = _positive(observations.get(item.numerator, {}), item.metric)
    if item.denominator is None:
        return [math.log(values[r]) for r in sorted(values)]
    below = _positive(observations.get(item.denominator, {}), item.metric)
    return [math.log(values[r]) - math.log(below[r]) for r in sorted(set(values) & set(below))]


def over_hosts(item: Item, by_host: dict[str, judge.Observations], alpha: float, start: int, rule: Rule = CURRENT,
               pairs: int = 1, pooled: str = "") -> OverHosts | None:
    """Each host's decision on the item and whether the hosts disagree (`pooled`: the verdict over all
    of them); None with fewer than two hosts that measured it."""
    measured = {host: obs for host, obs in by_host.items() if _units(item, obs)}
    if len(measured) < 2:
        return None
    decisions = [HostDecision(host, judge.judge(item, obs, alpha, start, rule, pairs=pairs))
                 for host, obs in sorted(measured.items())]
    verdicts = {d.decision.verdict for d in decisions if d.decision.decided}
    if len(verdicts) > 1:
        shown = ", ".join(f"{d.host} {d.decision.verdict}" for d in decisions)
        return OverHosts(decisions, True, f"the hosts reach different verdicts ({shown})", differ=True)
    host_pairs = list(itertools.combinations(sorted(measured), 2))
    level = 1 - alpha / max(1, len(host_pairs))
    for a, b in host_pairs:
        left, right = _units(item, measured[a]), _units(item, measured[b])
        if min(len(left), len(right)) < rule.first_look:
            continue
        # with the rule's floor on the spread at the fewer of the two hosts' rounds, as a verdict has
        low, high = stats.interval(stats.floored(stats.welch_location(left, right, rule), rule), level)
        if low > 0 or high < 0:
            ratio = math.exp(stats.trimmed_location(left, rule=rule).center - stats.trimmed_location(right, rule=rule).center)
            why = (f"{a} measures {ratio:.3g}× what {b} does, beyond their noise (interval of the ratio of hosts "
                   f"[{math.exp(low):.3g}, {math.exp(high):.3g}] at {level:.2%})")
            alone = all(d.decision.verdict == pooled for d in decisions)
            return OverHosts(decisions, not alone, why if not alone else f"{why}; each host alone reaches {pooled}",
                             differ=True)
    return OverHosts(decisions, False)
