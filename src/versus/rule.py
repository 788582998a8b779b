"""The decision rule as a value: what turns stored rounds into verdicts.

A session stores the rule it ran with (in its plan record), and is always judged by it: a report of an
old session never changes because today's constants did. `versus report N --rule KEY=VALUE` shows what
another rule would say of the same rounds. Sessions stored before the rule was a value are judged by
`Rule.legacy`, the rule they ran with.

The fields, and why each has the value it has, are in docs/method.md ("The rule"). This module holds
only the value and its schedule (looks, trims); the statistics that use it are in stats.py.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import UsageError

VALUES = ("median", "min")
# A field added to Rule after rules were stored: the value that keeps a stored rule without it judging as
# it did (docs/extending.md, "Adding a statistic"). `history` came after the first rules of version 2.
# `exact_rounds` came after weights: a rule stored without it judged identical rounds at its first look.
ABSENT: dict[str, Any] = {"history": 0, "weights": (), "exact_rounds": 0, "history_floor": False}
SpreadTable = tuple[tuple[str, tuple[float, ...]], ...]  # pair key → its learned spread at each of the rule's trims
SPENDINGS = ("uniform", "harmonic", "joint")
TABLES = ("spreads", "between")  # what a session learned of its pairs: pair key → a value at each trim
PER_TRIM = ("learned", "shift")  # one pair's, at each trim
# The looks of the legacy rule: after the last one, each look 1.25 times the one before, without end.
_LEGACY_LOOKS = (3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200, 250, 300, 400, 500)
# Today's shares of α: each look at 3–6 rounds, where most claims far from their bounds are decided, twice
# the share of each later look (docs/method.md, "Looks": decisions in 1.44–1.50× the oracle's rounds, not
# 1.50–1.55×, every scenario within α, futility's "same" verdicts kept).
_WEIGHTS = (2.0,) * 4 + (1.0,) * 16


@dataclass(frozen=True)
class Rule:
    """How a session's rounds become verdicts. Immutable; `replace` makes a variant."""

    version: int = 2
    alpha: float = 0.05  # error rate of an experiment's comparisons, and of its claims (two families)
    delta: float = 0.01  # practical threshold: a change within ±δ is "the same"
    value: str = ""  # a process run's value for every arm ("median" or "min"); "": each experiment's own
    trims: tuple[tuple[int, float], ...] = ((0, 0.0), (20, 0.1), (40, 0.2))  # (from n rounds on, share off each end)
    looks: tuple[int, ...] = (3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200, 250)
    # per-look level: "uniform" (α/K over the design's K looks), "harmonic" (α/(k(k+1))) or "joint" (the level
    # at which the design's looks together mislead with probability α: spending.py)
    spending: str = "uniform"
    # uniform spending with `weights` (one per look of `looks`): look k of a design has the share
    # weights[k] / (the sum of the design's weights) of α instead of 1/K; () shares it equally
    weights: tuple[float, ...] = _WEIGHTS
    first_look: int = 3  # fewer rounds decide nothing with an unknown spread
    # Identical rounds (a size in bytes, the same in every process: a measurement without noise) are
    # judged at this many rounds, however many are stored; 0: at the first look (the rule before it), or
    # at the rounds available below it.
    exact_rounds: int = 2
    floor: float = 0.2  # below `floor_until` rounds, a per-round spread (log scale) of at least this
    floor_until: int = 20
    # True: a pair that learned its spread from the store's earlier sessions (`learned`) has that spread
    # in place of `floor` below `floor_until` rounds; the floor guards against few rounds that all landed in
    # one of a pair's states, and the earlier sessions' rounds have seen its states
    history_floor: bool = False
    mean_agrees: bool = True  # a verdict needs the plain mean of its rounds on the verdict's side too
    settle: bool = True  # leave out the rounds run before an arm's warmup was last raised
    intersection_union: bool = True  # a claim over k pairs tests its "holds" end at k times a pair's α
    sequential: bool = True  # False: one look, at the size measured (imports, sessions without a plan)
    # A pair whose earlier sessions in the store hold at least this many rounds has its per-round spread
    # floored at theirs, at every look (history.py; 0: none). `spreads`: those learned when the session
    # started, stored with it; `learned`: one pair's, at each of `trims` (`for_pair`, as judge uses it).
    history: int = 30
    spreads: SpreadTable = ()
    learned: tuple[float, ...] = ()
    # `between`: each such pair's spread of its ratio from one session to the next beyond what their rounds
    # explain (a regime of the machine), at each of `trims`; `shift`: one pair's (`for_pair`). A session can
    # pin its own ratio no closer than that: it is added to every look's standard error.
    between: SpreadTable = ()
    shift: tuple[float, ...] = ()

    # --- the schedule --------------------------------------------------------------------------

    def looks_from(self, start: int) -> Iterator[int]:
        """The planned looks from `start` rounds on (never before `first_look`)."""
        first = max(self.first_look, start)
        if self.version >= 2:
            yield from (n for n in self.looks if n >= first)
            return
        yield from (n for n in _LEGACY_LOOKS if n >= first)
        n = max(_LEGACY_LOOKS[-1], first)
        while True:
            n = n * 5 // 4
            yield n

    def design(self, start: int, limit: int | None = None) -> tuple[int, ...]:
        """The looks of a design from `start`, up to `limit` rounds (the legacy design has no end)."""
        return _design(self, start, limit)

    def trim_at(self, n: int) -> float:
        """The share trimmed off each end of n rounds."""
        share = 0.0
        for start, trim in self.trims:
            if n >= start:
                share = trim
        return share

    def trim_level(self, n: int) -> int:
        """Which of `trims` applies at n rounds (its index)."""
        level = 0
        for index, (start, _) in enumerate(self.trims):
            if n >= start:
                level = index
        return level

    def floor_at(self, n: int) -> float:
        """The least per-round spread assumed at n rounds (0: the rounds' own spread alone): the rule's
        `floor` below `floor_until` rounds, and a pair's learned spread at the trim of n rounds."""
        floor = self.floor if n < self.floor_until and not (self.history_floor and self.learned) else 0.0
        if self.learned:
            floor = max(floor, self.learned[self.trim_level(n)])
        return floor

    def shift_at(self, n: int) -> float:
        """A pair's spread between sessions at the trim of n rounds (0: none learned)."""
        return self.shift[self.trim_level(n)] if self.shift else 0.0

    def for_pair(self, key: str) -> Rule:
        """The rule as it judges one pair: with the spreads learned for it, if any (`spreads`, `between`)."""
        if not self.spreads and not self.between:
            return self
        found, shift = dict(self.spreads).get(key, ()), dict(self.between).get(key, ())
        return self.replace(learned=found, shift=shift) if (found, shift) != (self.learned, self.shift) else self

    # --- a value -------------------------------------------------------------------------------

    def replace(self, **changes: Any) -> Rule:
        """The rule with these fields changed; a spending other than uniform drops the weights, which
        only uniform spending uses, unless the change gives them."""
        if changes.get("spending", "uniform") != "uniform" and "weights" not in changes:
            changes["weights"] = ()
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["trims"] = [list(t) for t in self.trims]
        data["looks"] = list(self.looks)
        data["weights"] = list(self.weights)
        for name in TABLES:
            data[name] = [[key, list(values)] for key, values in getattr(self, name)]
        for name in PER_TRIM:
            data[name] = list(getattr(self, name))
        # a field at the value a rule stored before it existed reads back as that value, and left out, a
        # stored session's rule (and its JSON report) is what it was before the field existed
        for name, value in {**ABSENT, "weights": [], **{name: [] for name in TABLES + PER_TRIM}}.items():
            if data[name] == value:
                del data[name]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rule:
        """A stored rule; a field it lacks (one added after it was stored) takes the value that does what
        the rule did before the field existed (`ABSENT`), or else its default; unknown fields are an error."""
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - fields)
        if unknown:
            raise ValueError(f"unknown rule field(s): {', '.join(unknown)}")
        values = {**{k: v for k, v in ABSENT.items() if k not in data}, **data}
        try:
            if "trims" in values:
                values["trims"] = tuple((_number(a, int), _number(b, float)) for a, b in values["trims"])
            if "looks" in values:
                values["looks"] = tuple(_number(n, int) for n in values["looks"])
            if "weights" in values:
                values["weights"] = tuple(_number(w, float) for w in values["weights"])
            for name in TABLES:
                if name in values:
                    values[name] = tuple((str(key), tuple(_number(v, float) for v in spread))
                                         for key, spread in values[name])
            for name in PER_TRIM:
                if name in values:
                    values[name] = tuple(_number(v, float) for v in values[name])
        except (TypeError, ValueError):
            raise ValueError("trims must be a list of [rounds, share] pairs, looks a list of round counts, weights "
                             "a list of numbers, spreads "
                             "and between lists of [pair, [spread at each trim]], learned and shift lists of "
                             "spreads") from None
        defaults = cls()
        for name, value in list(values.items()):
            if name in ("trims", "looks", "weights", *TABLES, *PER_TRIM):
                continue
            kind = type(getattr(defaults, name))
            if kind is bool:
                if not isinstance(value, bool):
                    raise ValueError(f"{name} must be true or false, not {value!r}")
            elif kind in (int, float):
                values[name] = _number(value, kind, name)
            elif not isinstance(value, kind):
                raise ValueError(f"{name} must be a {kind.__name__}, not {value!r}")
        rule = cls(**values)
        rule.check()
        return rule

    def check(self) -> None:
        """Raise ValueError when a field is out of its range."""
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must lie between 0 and 1, not {self.alpha}")
        if not 0 <= self.delta < 1:
            raise ValueError(f"delta must lie in [0, 1), not {self.delta}")
        if self.value not in ("", *VALUES):
            raise ValueError(f"value must be one of {', '.join(VALUES)} (or empty), not {self.value!r}")
        if self.spending not in SPENDINGS:
            raise ValueError(f"spending must be one of {', '.join(SPENDINGS)}, not {self.spending!r}")
        if not self.looks or list(self.looks) != sorted(set(self.looks)) or self.looks[0] < 2:
            raise ValueError("looks must be increasing round counts of at least 2")
        if self.weights and (len(self.weights) != len(self.looks) or any(not 0 < w < math.inf for w in self.weights)):
            raise ValueError(f"weights must give one number > 0 for each of the {len(self.looks)} looks, or none "
                             "(weights=[] shares α equally)")
        if self.weights and self.spending != "uniform":
            raise ValueError("weights share α among the looks under spending = uniform only")
        if any(not 0 <= t < 0.5 for _, t in self.trims):
            raise ValueError("each trim must lie in [0, 0.5)")
        if self.floor < 0 or self.first_look < 2:
            raise ValueError("floor must be ≥ 0 and first_look ≥ 2")
        if self.exact_rounds == 1 or self.exact_rounds < 0:
            raise ValueError(f"exact_rounds must be 0 (at the first look) or a number of rounds ≥ 2, not {self.exact_rounds}")
        if self.floor_until < 0:
            raise ValueError(f"floor_until must be a number of rounds ≥ 0, not {self.floor_until}")
        if self.history < 0:
            raise ValueError(f"history must be a number of rounds ≥ 0, not {self.history}")
        learned = [spread for spread in (self.learned, self.shift) if spread]
        for spread in learned + [values for name in TABLES for _, values in getattr(self, name)]:
            if len(spread) != len(self.trims) or any(not 0 <= v < math.inf for v in spread):
                raise ValueError("each learned spread must give one value ≥ 0 for each of the rule's trims")

    @classmethod
    def legacy(cls, plan: Mapping[str, Any]) -> Rule:
        """The rule a session stored before rules were values ran with: Bonferroni spending α/(k(k+1))
        over looks without end, 10% trimmed from 10 rounds, 20% from 20 and 40% from 80, no floor on
        the spread; and whichever of the later additions its plan record says it had."""
        return cls(version=1, trims=((0, 0.1), (20, 0.2), (80, 0.4)), looks=_LEGACY_LOOKS, spending="harmonic",
                   weights=(), exact_rounds=0, floor=0.0, floor_until=0, mean_agrees=False, history=0,
                   settle=bool(plan.get("settled")),
                   intersection_union=bool(plan.get("intersection_union")),
                   sequential=bool(plan.get("methods")))

    @classmethod
    def of(cls, plan: Mapping[str, Any]) -> Rule:
        """The rule a stored session is judged by: the one it stored, or the legacy rule."""
        stored = plan.get("rule")
        if isinstance(stored, Mapping):
            return cls.from_dict(stored)
        return cls.legacy(plan)

    def describe(self) -> str:
        """One line for reports."""
        spending = {"uniform": "α shared equally by its looks", "harmonic": "α/(k(k+1)) at look k",
                    "joint": "each look at the level at which its looks together spend α"}[self.spending]
        if self.weights:
            runs = [list(group) for _, group in itertools.groupby(zip(self.looks, self.weights), key=lambda nw: nw[1])]
            spending = "α shared by its looks in proportion to " + ", ".join(
                f"{run[0][1]:g} at {run[0][0]}" + (f"–{run[-1][0]}" if len(run) > 1 else "") for run in runs)
        floor = (f"; a per-round spread of at least {self.floor:g} below {self.floor_until} rounds"
                 if self.floor and self.floor_until else "")
        floor += " (a pair's learned spread in its place)" if floor and self.history_floor else ""
        agree = "; the mean of the rounds must agree" if self.mean_agrees else ""
        agree += f"; identical rounds decide at {self.exact_rounds}" if self.exact_rounds else ""
        n, moved = len(self.spreads), len(self.between)
        learned = ("" if not n else "; 1 pair's per-round spread at least its earlier sessions'" if n == 1 else
                   f"; {n} pairs' per-round spreads at least their earlier sessions'")
        learned += ("" if not moved else "; 1 pair's ratio as uncertain as it moved between its earlier sessions"
                    if moved == 1 else f"; {moved} pairs' ratios as uncertain as they moved between their earlier sessions")
        return (f"rule v{self.version}: α = {self.alpha:g} per experiment and family, threshold ±{self.delta:.0%}, "
                f"looks from {self.first_look} rounds, {spending}{floor}{agree}{learned}")


def _number(value: Any, kind: type, name: str = "") -> Any:
    """An int or float field's value; a bool, a string or anything else is an error that names it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and value != int(value)):
        raise ValueError(f"{name or 'a value'} must be {'an integer' if kind is int else 'a number'}, not {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name or 'a value'} must be finite, not {value!r}")
    return kind(value)


@functools.lru_cache(maxsize=256)
def _design(rule: Rule, start: int, limit: int | None) -> tuple[int, ...]:
    bound = limit if limit is not None else (rule.looks[-1] if rule.version >= 2 else 5000)
    return tuple(itertools.takewhile(lambda n: n <= bound, rule.looks_from(start)))


CURRENT = Rule()


def with_overrides(rule: Rule, pairs: Sequence[str]) -> Rule:
    """`--rule KEY=VALUE …`: the rule with those fields changed (values in JSON, or plain words);
    `--rule today`: today's rule, for the session's own looks (sequential or once) and warmup handling."""
    if not pairs:
        return rule
    fields = {f.name: f for f in dataclasses.fields(Rule)}
    changes: dict[str, Any] = {}
    for pair in pairs:
        if pair.strip() == "today":
            rule = CURRENT.replace(sequential=rule.sequential, settle=rule.settle,
                                   intersection_union=rule.intersection_union, spreads=rule.spreads,
                                   between=rule.between)
            continue
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or key not in fields:
            raise UsageError(f"--rule {pair!r}: expected today, or KEY=VALUE with KEY one of {', '.join(sorted(fields))}",
                             "for example: --rule today, or --rule value=median --rule floor=0")
        try:
            parsed: Any = json.loads(text)
        except json.JSONDecodeError:
            parsed = text
        changes[key] = parsed
    if changes.get("spending", "uniform") != "uniform" and "weights" not in changes:
        changes["weights"] = []  # only uniform spending uses them
    try:
        return Rule.from_dict({**rule.to_dict(), **changes})
    except (TypeError, ValueError) as error:
        raise UsageError(f"--rule: {error}", "docs/method.md, \"The rule\", lists every field and its range") from None
