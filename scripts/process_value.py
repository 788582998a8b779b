"""Which process value spreads less: the median of a process's measured samples, or their minimum.

For each stored `make run` session given, per experiment: the median over its claim pairs (on time,
not on a metric) and over its comparisons of the SD of the per-round log ratio over the experiment's
own first `processes` rounds (every pair has those, whatever the sequential rounds did later), with
each process's value taken both ways from its stored samples; "(all)" takes every claim pair of the
run, one figure for the machine's noise that does not depend on which value the run used. Then, per experiment, in how many of
the sessions the minimum gave the smaller spread. The rounds are the same both ways; only the value
of each process differs. (docs/results.md, "The fastest sample of a process".)

With --model instead: the noise model with spells within a process (`simulate.Noise.sample_spell_enter`
at 0.10, 0.15 and 0.25, 1.8×, kept with 0.6; no spells of whole rounds), 2,000 A/A and 2,000
planted-3% trials from 3 rounds up to 200, each process's value the median or the minimum of its 5
samples: A/A false positives, planted detection and its median rounds.

Usage: .venv/bin/python scripts/process_value.py DB [DB ...] | --model
"""
from __future__ import annotations

import math
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from _stored import run

from versus import simulate
from versus.analyze import ArmResult, analyze
from versus.errors import VersusError
from versus.store import Store

WAYS: dict[str, Callable[[Sequence[float]], float]] = {"median": statistics.median, "min": min}


def _logs(arm: ArmResult, way: Callable[[Sequence[float]], float], before: int) -> dict[int, float]:
    """Round → log of the process's value taken `way` from its measured samples."""
    out = {}
    for process in arm.processes:
        measured = [v for v, warm in process.samples if not warm]
        if process.status == "ok" and process.round < before and measured and way(measured) > 0:
            out[process.round] = math.log(way(measured))
    return out


def _spread(top: ArmResult, bottom: ArmResult, way: Callable[[Sequence[float]], float]) -> float | None:
    first = int(top.method.get("processes", 0))
    a, b = _logs(top, way, first), _logs(bottom, way, first)
    ratios = [a[r] - b[r] for r in sorted(set(a) & set(b))]
    return statistics.stdev(ratios) if len(ratios) >= 2 else None


def spreads(db: Path) -> dict[tuple[str, str], dict[str, float]]:
    """(experiment, "claims" or "comparisons") → way → median SD over the pairs."""
    analysis = analyze(Store(db, create=False), None)
    pairs: dict[tuple[str, str], list[tuple[ArmResult, ArmResult]]] = {}
    for claim in analysis.claims:
        for judged in claim.instances:
            if judged.denominator is not None and not judged.item.metric:
                pairs.setdefault((claim.experiment, "claims"), []).append((judged.numerator, judged.denominator))
                # every claim pair of the run, whatever its experiment's value: the machine's noise
                pairs.setdefault(("(all)", "claims"), []).append((judged.numerator, judged.denominator))
    for comparison in analysis.comparisons:
        if comparison.denominator is not None:
            key = (comparison.numerator.id.experiment, "comparisons")
            pairs.setdefault(key, []).append((comparison.numerator, comparison.denominator))
    out: dict[tuple[str, str], dict[str, float]] = {}
    for key, found in pairs.items():
        by_way = {}
        for name, way in WAYS.items():
            sds = [sd for top, bottom in found if (sd := _spread(top, bottom, way)) is not None]
            if sds:
                by_way[name] = statistics.median(sds)
        if len(by_way) == len(WAYS):
            out[key] = by_way
    return out


def model() -> None:
    print("spell entered per sample | value | per-round spread | A/A faster or slower | planted 3% slower | median rounds")
    for enter in (0.10, 0.15, 0.25):
        for value in WAYS:
            noise = simulate.Noise(spell=math.log(1.8), spell_enter=0.0, sample_spell_enter=enter, value=value)
            aa = simulate.calibrate(1.0, 3, 2000, 200, seed=5, noise=noise)
            planted = simulate.calibrate(1.03, 3, 2000, 200, seed=1005, noise=noise)
            print(f"{enter:.2f} | {value} | {simulate.model_spread(noise):.4f} | {aa.count('faster', 'slower')} of 2000 | "
                  f"{planted.rate('slower'):.1%} | {statistics.median(planted.rounds) if planted.rounds else '-'}")


def main(argv: list[str]) -> int:
    if argv == ["--model"]:
        model()
        return 0
    if not argv or any(not Path(db).is_file() for db in argv):
        print(__doc__.rsplit("\n\n", 1)[-1].strip(), file=sys.stderr)
        missing = [db for db in argv if not Path(db).is_file()]
        if missing:
            print(f"process_value: no database at {', '.join(missing)} (a `versus run` writes versus-results/versus.db)",
                  file=sys.stderr)
        return 2
    table: dict[tuple[str, str], list[dict[str, float]]] = {}
    print("database | experiment | pairs | median SD of the per-round log ratio: median value → min value")
    for db in argv:
        try:
            found = spreads(Path(db))
        except VersusError as error:
            print(f"process_value: {db}: {error.message}", file=sys.stderr)
            return 1
        for (experiment, kind), by_way in sorted(found.items()):
            table.setdefault((experiment, kind), []).append(by_way)
            print(f"{db} | {experiment} | {kind} | {by_way['median']:.3f} → {by_way['min']:.3f}")
    print("\nexperiment | pairs | sessions in which the minimum spread less")
    for (experiment, kind), rows in sorted(table.items()):
        smaller = sum(row["min"] < row["median"] for row in rows)
        print(f"{experiment} | {kind} | {smaller} of {len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(run(lambda: main(sys.argv[1:])))
