"""Scheduling and the runner, with a fake executor so the tests are exact."""
from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES
from versus.executor import Completed
from versus.experiment import load
from versus.plan import make_plan
from versus.runner import Job, run_session, schedule
from versus.store import Store


class FakeExecutor:
    """Answers every process with protocol output for fixed timings; records what it was asked."""

    def __init__(self) -> None:
        self.calls: list[dict[str, str]] = []

    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        self.calls.append(env)
        case, inner = env["VERSUS_CASE"], int(env["VERSUS_INNER"]) or 64
        lines = ['@versus {"v":1,"type":"hello","runtime":"fake","version":"0","clock":"none"}']
        total = int(env["VERSUS_WARMUP"]) + int(env["VERSUS_SAMPLES"])
        for index in range(total):
            warm = "true" if index < int(env["VERSUS_WARMUP"]) else "false"
            lines.append(f'@versus {{"type":"sample","case":"{case}","ns":{inner * 10},"inner":{inner},"warmup":{warm}}}')
            lines.append(f'@versus {{"type":"check","case":"{case}","value":"{inner}"}}')
        lines.append('@versus {"type":"end"}')
        return Completed(0, "\n".join(lines), "", 1000)


def jobs_for(store: Store, processes: int, inner: int = 100) -> list[Job]:
    experiment = load(FIXTURES / "claims")
    plan = make_plan([experiment], None, None, False, {"processes": processes, "inner": inner})
    session = store.new_session(5, [], {}, {})
    return [Job(arm, store.add_arm(session, i, {"experiment": "claims", "experiment_path": "", "case": arm.case.name,
                                                "runtime": arm.runtime.name, "runtime_info": {}, "params": {},
                                                "method": {}}), plan.methods["claims"], 0)
            for i, arm in enumerate(plan.arms)]


def test_each_round_runs_every_arm_once_in_a_seeded_shuffled_order(db):
    jobs = jobs_for(Store(db), processes=8)
    order = schedule(jobs, 8, seed=11)
    rounds = [[job.arm_id for r, job in order if r == n] for n in range(8)]
    assert all(sorted(r) == sorted(j.arm_id for j in jobs) for r in rounds)
    assert len({tuple(r) for r in rounds}) > 1  # not the same order every round
    assert [j.arm_id for _, j in schedule(jobs, 8, seed=11)] == [j.arm_id for _, j in order]


def test_calibration_happens_once_per_arm_and_is_reused(db):
    store = Store(db)
    jobs = jobs_for(store, processes=3, inner=0)
    fake = FakeExecutor()
    run_session(store, 1, jobs, seed=1, executor=fake)
    by_case: dict[str, list[str]] = {}
    for env in fake.calls:
        by_case.setdefault(env["VERSUS_CASE"], []).append(env["VERSUS_INNER"])
    assert by_case == {"fast": ["0", "64", "64"], "slow": ["0", "64", "64"]}
    assert all(len(store.done_rounds(j.arm_id)) == 3 for j in jobs)
