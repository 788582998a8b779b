"""The per-process contention covariate: recorded around each process, stored, and weighed by
`versus lab contention` (issue 29 §4: used for adjustment only if it explains the stored residuals)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

from versus.contention import Contention, read_counters
from versus.drivers.base import ProcessRun
from versus.executor import SubprocessExecutor
from versus.lab.contention import COVARIATES, USE_R2, Pooled, render
from versus.protocol import SampleRecord
from versus.store import Store


def test_a_process_gets_its_cpu_time_and_switches_from_the_harness_around_it():
    completed = SubprocessExecutor().execute([sys.executable, "-c", "sum(range(3_000_000))"], {}, 60)
    assert completed.exit_code == 0 and completed.contention is not None
    assert completed.contention.cpu_ns > 0 and completed.contention.preempted >= 0
    assert 0 < completed.contention.cpu_ns < completed.wall_ns * 4  # at most every CPU of the machine, all along


def test_counters_that_the_kernel_does_not_offer_stay_unknown_not_zero():
    before, after = Contention(10, 1, -1, 5), Contention(30, 4, -1, 9)
    assert after.since(before) == Contention(20, 3, -1, 4)
    assert read_counters().cpu_ns >= 0


def test_contention_is_stored_with_its_run_and_old_runs_have_none(db: Path):
    store = Store(db)
    session = store.new_session(1, [], {}, {})
    arm = store.add_arm(session, 0, {"experiment": "e", "experiment_path": "", "case": "c", "runtime": "r",
                                     "runtime_info": {}, "params": {}, "method": {}})
    seen = Contention(2_000_000_000, 17, 300_000, 10_000_000)
    store.save_run(arm, 0, ProcessRun("ok", samples=[SampleRecord(1, 1, False)], contention=seen))
    store.save_run(arm, 1, ProcessRun("ok", samples=[SampleRecord(1, 1, False)]))
    assert [r.contention for r in store.runs(session)] == [seen, None]
    assert Contention.from_json("not json") is None and Contention.from_json('{"cpu_ns": true}') is None


def _pooled(slope: float, rounds: int = 400, seed: int = 5) -> Pooled:
    rng = random.Random(seed)
    pooled = Pooled(pairs=1, rounds=rounds)
    xs = [rng.gauss(0, 1) for _ in range(rounds)]
    units = [slope * x + rng.gauss(0, 1) for x in xs]
    mean_u, mean_x = sum(units) / rounds, sum(xs) / rounds
    sd_u = (sum((u - mean_u) ** 2 for u in units) / rounds) ** 0.5
    sd_x = (sum((x - mean_x) ** 2 for x in xs) / rounds) ** 0.5
    pooled.products = [(u - mean_u) / sd_u * (x - mean_x) / sd_x for u, x in zip(units, xs, strict=True)]
    return pooled


def test_a_covariate_explains_the_residuals_only_past_the_preregistered_share():
    strong, none = _pooled(1.0), _pooled(0.0)
    assert strong.r is not None and strong.r * strong.r > USE_R2 and strong.explains()
    assert none.r is not None and abs(none.r) < 0.15 and not none.explains()


def test_a_covariate_the_program_drives_is_never_adjusted_for_however_well_it_explains():
    pooled = {name: _pooled(1.0) for name in COVARIATES}
    table = render(pooled, {}, 10, 10, 1)
    rows = {line.split(" | ")[0]: line for line in table.splitlines() if " | " in line}
    assert rows["steal"].endswith("| yes")
    assert "no: the program's own threads" in rows["preempted"] and "no: PSI counts" in rows["pressure"]
