"""`versus selftest`: this machine's false-positive rate, noise floor, and power to see a 3% change.

One session interleaves three arms: `spin`, `spin_again` (the same arm, so A/A) and `spin_planted` (3% more
work). Its rounds are cut into disjoint trials of TRIAL_ROUNDS process runs per arm; each trial is one
comparison, made with the same statistics as `versus run` (without Holm, since each trial stands alone).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from . import stats
from .executor import SubprocessExecutor
from .experiment import load
from .plan import make_plan
from .runner import Job, run_session
from .store import Store

PROGRAM = Path(__file__).parent / "selftest_program"
TRIAL_ROUNDS = 40


def run_selftest(seconds: float, db: Path | None) -> int:
    experiment = load(PROGRAM)
    plan = make_plan([experiment], None, None, False, {})
    store = Store(db or Path(tempfile.mkdtemp(prefix="versus-selftest-")) / "selftest.db")
    session_id = store.new_session(0, sys.argv, {}, {"selftest": True})
    method = plan.methods[experiment.name]
    jobs = [Job(arm, store.add_arm(session_id, i, {"experiment": "selftest", "experiment_path": str(PROGRAM),
                                                   "case": arm.case.name, "runtime": arm.runtime.name,
                                                   "runtime_info": {}, "params": {}, "method": {}}), method, 0)
            for i, arm in enumerate(plan.arms)]
    deadline = time.monotonic() + seconds
    started = time.monotonic()

    def stop_at_deadline(job: Job, run: object) -> None:
        if time.monotonic() > deadline:
            raise _Budget

    try:
        run_session(store, session_id, jobs, seed=1, executor=SubprocessExecutor(), on_run=stop_at_deadline)
    except _Budget:
        pass
    elapsed = time.monotonic() - started
    print(summarize(store, session_id, elapsed))
    return 0


class _Budget(Exception):
    pass


def trial_comparisons(groups: dict[str, list[list[float]]], rng: np.random.Generator
                      ) -> tuple[list[stats.Comparison], list[stats.Comparison]]:
    """A/A and planted comparisons, one of each per disjoint trial of TRIAL_ROUNDS rounds."""
    count = min(len(v) for v in groups.values()) // TRIAL_ROUNDS
    same, planted = [], []
    for trial in range(count):
        window = slice(trial * TRIAL_ROUNDS, (trial + 1) * TRIAL_ROUNDS)
        a = stats.estimate(groups["spin"][window], rng)
        same.append(stats.compare(stats.estimate(groups["spin_again"][window], rng), a))
        planted.append(stats.compare(stats.estimate(groups["spin_planted"][window], rng), a))
    return same, planted


def summarize(store: Store, session_id: int, elapsed: float) -> str:
    names = {row["id"]: row["case"] for row in store.arms(session_id)}
    groups: dict[str, list[list[float]]] = {name: [] for name in names.values()}
    for run in store.runs(session_id):
        if run.status == "ok":
            groups[names[run.arm_id]].append([ns / inner for _, ns, inner, warm in run.samples if not warm])
    same, planted = trial_comparisons(groups, np.random.default_rng(0))
    if not same:
        return "versus selftest: not enough runs for one trial; give it more --seconds"
    false_positive = sum(stats.verdict(c.p_differs, c.p_same, c.ratio.value) in ("faster", "slower") for c in same)
    detected = sum(stats.verdict(c.p_differs, c.p_same, c.ratio.value) == "slower" for c in planted)
    widths = [(c.ratio.high - c.ratio.low) / 2 for c in same]
    per_trial = elapsed / len(same)
    process_medians = [float(np.median(g)) for g in groups["spin"]]
    spread = float(np.std(process_medians) / np.mean(process_medians))
    return "\n".join([
        f"versus selftest: {len(same)} trials of {TRIAL_ROUNDS} process runs per arm, {elapsed:.0f} s "
        f"({per_trial:.0f} s per comparison)",
        f"  false-positive rate (A/A verdict faster or slower): {false_positive}/{len(same)} = "
        f"{false_positive / len(same):.1%}",
        f"  noise floor: A/A 95% CI half-width median {np.median(widths):.2%}, max {max(widths):.2%}; "
        f"process-to-process spread of medians {spread:.2%}",
        f"  planted 3% slowdown detected (verdict slower): {detected}/{len(planted)} = {detected / len(planted):.1%}; "
        f"measured ratios median {np.median([c.ratio.value for c in planted]):.4f}",
        f"  practical threshold ±{stats.DELTA:.0%}, α = {stats.ALPHA}",
    ])
