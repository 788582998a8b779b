"""What the lab's analyses read of the stored format: a database, a report's JSON document, and each
claim pair's rounds exactly as the decision rule judges them (`judge.judge`: the rounds at each arm's
latest warmup, the per-round log ratios from `judge.log_ratios`)."""
from __future__ import annotations

import json
import lzma
import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import judge
from ..analyze import ArmResult, Judged, ProcessFacts
from ..errors import UsageError
from ..record import StoredPlan
from ..rule import Rule, with_overrides
from ..store import Store, Target
from ..store.postgres import shown

REPORT_HINT = "make one with `versus report N --format json > FILE` (or take a run's session-N/session.json)"
MAX_REPORT_BYTES = 512 << 20  # a make run's document is a few MB

# round → (the process's value, the warmup samples it ran)
Values = dict[int, tuple[float, int]]


def open_store(path: Target) -> Store:
    """A stored database, opened read-only as `versus report` opens one (an analysis writes nothing,
    so it can read a live run's database, or one on a read-only file system); a path that is not a
    file is bad input (exit 2). A postgresql:// URL is read as `versus report --db URL` reads it."""
    if isinstance(path, str):
        return Store(path, create=False, readonly=True)
    if not path.is_file():
        raise UsageError(f"no database at {path}",
                         "give a versus.db: `make run` writes versus-results/versus.db, a selftest the file its --db names")
    return Store(path, create=False, readonly=True)


def name_of(target: Target) -> str:
    """A database as the lab's tables name it: a file's path, a URL without its password."""
    return str(target) if isinstance(target, Path) else shown(target)


def read_report(path: Path) -> dict[str, Any]:
    """A report's JSON document (`versus report N --format json`), checked for what the lab reads of it;
    `FILE.json.xz` is read as its decompressed JSON (docs/runs/ keeps make runs' reports so)."""
    try:
        if path.stat().st_size > MAX_REPORT_BYTES:
            raise UsageError(f"{path} is larger than {MAX_REPORT_BYTES >> 20} MB: not a session's report", REPORT_HINT)
        if path.suffix == ".xz":
            with lzma.open(path, "rb") as packed:
                text = packed.read(MAX_REPORT_BYTES + 1)
            if len(text) > MAX_REPORT_BYTES:
                raise UsageError(f"{path} holds more than {MAX_REPORT_BYTES >> 20} MB: not a session's report", REPORT_HINT)
            doc = json.loads(text)
        else:
            with path.open(encoding="utf-8") as handle:
                doc = json.load(handle)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}", REPORT_HINT) from None
    except (lzma.LZMAError, EOFError) as error:  # EOFError: an xz file cut short
        raise UsageError(f"{path} is not a whole xz file: {error}", REPORT_HINT) from None
    except ValueError as error:
        raise UsageError(f"{path} is not JSON: {error}", REPORT_HINT) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list) or not isinstance(doc.get("arms"), list):
        raise UsageError(f"{path} is not a versus report (it has no claims and arms)", REPORT_HINT)
    return doc


@dataclass(frozen=True)
class Rounds:
    """A claim pair's (or an absolute claim's) units, as the rule judges them."""

    units: tuple[float, ...]  # per-round log ratios, log values (an absolute claim), or values (linear), in round order
    scale: str  # "log" or "linear"
    spent: int = 0  # looks taken on rounds left out (judge.settled)
    left_out: int = 0
    indices: tuple[int, ...] = ()  # the round of each unit

    @property
    def exact(self) -> bool:
        """Every round the same (a size in bytes): a measurement without noise."""
        return bool(self.units) and all(u == self.units[0] for u in self.units)


def rounds(top: Values, bottom: Values | None, start: int, rule: Rule) -> Rounds | None:
    """The units judge.judge analyses for an item whose arms have these values: only the rounds at
    each arm's latest warmup where the rule settles (and is sequential), then the rounds both arms
    have. None where a value is 0 or negative under a ratio (judge.judge reports no ratio then)."""
    settle = rule.settle and rule.sequential
    if bottom is None:
        every = sorted(top)
        kept, spent = judge.settled([{r: top[r][1] for r in every}], start, rule) if settle else (every, 0)
        values = [top[r][0] for r in kept]
        if values and all(v > 0 for v in values):
            return Rounds(tuple(math.log(v) for v in values), "log", spent, len(every) - len(kept), tuple(kept))
        return Rounds(tuple(values), "linear", spent, len(every) - len(kept), tuple(kept))
    if any(v <= 0 for v, _ in [*top.values(), *bottom.values()]):
        return None
    every = sorted(set(top) | set(bottom))
    if settle:
        kept, spent = judge.settled([{r: w for r, (_, w) in top.items()}, {r: w for r, (_, w) in bottom.items()}],
                                    start, rule)
    else:
        kept, spent = every, 0
    both = set(top) & set(bottom)
    matched = sorted(both & set(kept))
    units = judge.log_ratios({r: top[r][0] for r in matched}, {r: bottom[r][0] for r in matched}, matched)
    return Rounds(tuple(units), "log", spent, len(both) - len(matched), tuple(matched))


def process_values(processes: Iterable[ProcessFacts], metric: str = "") -> Values:
    """Round → (value, warmup) of each successful process: its time per iteration taken as the
    analysis took it (the rule's per-process value), or its metric's median."""
    out: Values = {}
    for process in processes:
        value = process.metrics.get(metric) if metric else process.value
        if process.status == "ok" and value is not None:
            out[process.round] = (value, process.warmup)
    return out


def pair_rounds(judged: Judged, start: int, rule: Rule) -> Rounds | None:
    """A judged item's rounds, as judge.judge saw them."""
    metric = judged.item.metric
    top = process_values(judged.numerator.processes, metric)
    bottom = process_values(judged.denominator.processes, metric) if judged.denominator is not None else None
    return rounds(top, bottom, start, rule)


def start_of(plan: StoredPlan, experiment: str, rule: Rule) -> int:
    """The rounds every arm of an experiment ran before its first look (its method's `processes`)."""
    return plan.first_look(experiment, rule)


def initial_of(plan: StoredPlan, experiment: str, rule: Rule) -> int:
    """The rounds every arm of an experiment ran before the scheduler chose (StoredPlan.initial_of)."""
    return plan.initial_of(experiment, rule)


def round_seconds(arm: ArmResult) -> float:
    """What one more round of an arm costs: the median wall time of its processes, in seconds."""
    walls = [p.wall_ns / 1e9 for p in arm.processes]
    return statistics.median(walls) if walls else 0.0


def session_rule(plan: StoredPlan, changes: list[str]) -> Rule:
    """A stored session's own rule, with `--rule KEY=VALUE` changes."""
    return with_overrides(plan.rule, changes)
