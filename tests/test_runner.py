"""Scheduling and the runner, with fake executors so the tests are exact."""
from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest

from conftest import FIXTURES
from versus.drivers.base import ProcessRun
from versus.executor import Completed
from versus.experiment import load
from versus.plan import make_plan
from versus.record import arm_row, load_session
from versus.rule import CURRENT
from versus.runner import Job, run_session
from versus.scheduler import Budget, Scheduler
from versus.stats import Decision, Interval
from versus.store import Chosen, Store
from versus.verdict import Verdict


class FakeExecutor:
    """Answers every process with protocol output; a case's time per iteration is `times[case]` (× a
    factor per round, the same for every arm of the round: a machine that drifts)."""

    def __init__(self, times: dict[str, float] | None = None, drift: float = 0.0) -> None:
        self.calls: list[dict[str, str]] = []
        self.times = times or {}
        self.drift = drift

    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        self.calls.append(env)
        case, inner = env["VERSUS_CASE"], int(env["VERSUS_INNER"]) or 64
        slow = 1 + self.drift * math.sin(len(self.calls) / 7)
        ns = round(self.times.get(case, 10.0) * inner * slow)
        lines = ['@versus {"v":1,"type":"hello","runtime":"fake","version":"0","clock":"none"}']
        total = int(env["VERSUS_WARMUP"]) + int(env["VERSUS_SAMPLES"])
        for index in range(total):
            warm = "true" if index < int(env["VERSUS_WARMUP"]) else "false"
            lines.append(f'@versus {{"type":"sample","case":"{case}","ns":{ns + index % 3},"inner":{inner},"warmup":{warm}}}')
            lines.append(f'@versus {{"type":"check","case":"{case}","value":"{inner}"}}')
        lines.append('@versus {"type":"end"}')
        return Completed(0, "\n".join(lines), "", 1_000_000)

    def spawn(self, argv, env, cwd=None):  # noqa: ANN001, ANN201
        raise AssertionError("no servers here")


def setup(store: Store, processes: int, inner: int = 100, budget: float | None = None,
          times: dict[str, float] | None = None, warmup: int | None = None) -> tuple[list[Job], Scheduler]:
    experiment = load(FIXTURES / "claims")
    overrides: dict[str, object] = {"processes": processes, "inner": inner}
    if warmup is not None:
        overrides["warmup"] = warmup
    plan = make_plan([experiment], None, None, False, overrides)
    session = store.new_session(5, [], {}, {})
    method = plan.methods["claims"]
    jobs = [Job(arm, store.add_arm(session, i, arm_row(arm, method)), method, 0)
            for i, arm in enumerate(plan.arms)]
    return jobs, Scheduler(plan, {}, 11, Budget(budget))


def test_rounds_run_each_group_once_per_round_in_a_seeded_shuffled_order(db):
    _, scheduler = setup(Store(db), processes=8)
    batches = list(scheduler.batches())
    assert [b.round for b in batches] == list(range(8))  # one group: the claim links fast and slow
    assert all(sorted(b.arms) == [0, 1] for b in batches)
    assert len({tuple(b.arms) for b in batches}) == 2  # not the same order every round
    _, again = setup(Store(db), processes=8)
    assert [b.arms for b in again.batches()] == [b.arms for b in batches]


def _rounds(store: Store, arm_id: int) -> set[int]:
    return {run.round for session in store.sessions() for run in store.runs(session.id) if run.arm_id == arm_id}


def test_calibration_happens_once_per_arm_and_is_reused(db):
    store = Store(db)
    jobs, scheduler = setup(store, processes=3, inner=0)
    fake = FakeExecutor()
    run_session(store, jobs, scheduler, fake)
    by_case: dict[str, list[str]] = {}
    for env in fake.calls:
        by_case.setdefault(env["VERSUS_CASE"], []).append(env["VERSUS_INNER"])
    assert by_case == {"fast": ["0", "64", "64"], "slow": ["0", "64", "64"]}
    assert all(len(_rounds(store, j.arm_id)) == 3 for j in jobs)


def test_without_a_budget_the_experiments_processes_hold(db):
    store = Store(db)
    jobs, scheduler = setup(store, processes=2, times={"fast": 10.0, "slow": 40.0})
    run_session(store, jobs, scheduler, FakeExecutor({"fast": 10.0, "slow": 40.0}, drift=0.2))
    assert all(len(_rounds(store, j.arm_id)) == 2 for j in jobs)
    assert scheduler.status.reason == "every arm ran its processes"


def test_with_a_budget_rounds_go_on_until_the_claims_are_decided(db):
    store = Store(db)
    jobs, scheduler = setup(store, processes=2, budget=600, times={"fast": 10.0, "slow": 40.0})
    run_session(store, jobs, scheduler, FakeExecutor({"fast": 10.0, "slow": 40.0}, drift=0.3))
    rounds = [len(_rounds(store, j.arm_id)) for j in jobs]
    # paired: both arms, round for round; 4× apart, decided before the rule's floor of few rounds ends
    assert rounds[0] == rounds[1] and 3 <= rounds[0] < CURRENT.floor_until
    assert scheduler.status.reason == "every comparison and claim is decided"
    assert scheduler.status.open_items == []


def test_a_spent_budget_stops_the_rounds(db):
    store = Store(db)
    jobs, scheduler = setup(store, processes=2, budget=600)
    scheduler.budget = Budget(600, started=0.0, clock=lambda: 10_000.0)  # long past the deadline
    run_session(store, jobs, scheduler, FakeExecutor())
    assert [len(_rounds(store, j.arm_id)) for j in jobs] == [0, 0]
    assert "budget" in scheduler.status.reason


def test_an_exception_in_a_driver_is_a_failed_run_and_the_session_goes_on(db):
    """Regression: anything driver.run raised (KeyError, OSError, UsageError) ended the session."""
    store = Store(db)
    jobs, scheduler = setup(store, processes=2)

    class Exploding(FakeExecutor):
        def execute(self, argv, env, timeout, cwd=None):  # noqa: ANN001, ANN201
            if env["VERSUS_CASE"] == "slow":
                raise KeyError("nope")
            return super().execute(argv, env, timeout, cwd)

    run_session(store, jobs, scheduler, Exploding())
    runs = store.runs(load_session(store).id)
    assert len(runs) == 4
    failed = [r for r in runs if r.status == "failed"]
    assert len(failed) == 2 and all("internal error in the protocol driver: KeyError" in r.reason for r in failed)
    assert all("Traceback" in r.log_tail for r in failed)


class Jumpy(FakeExecutor):
    """The case `slow` never settles: its measured samples halve half way, as under a JIT still at work."""

    def execute(self, argv, env, timeout, cwd=None):  # noqa: ANN001, ANN201
        done = super().execute(argv, env, timeout, cwd)
        if env["VERSUS_CASE"] != "slow":
            return done
        lines = done.stdout.split("\n")
        samples = [i for i, line in enumerate(lines) if '"type":"sample"' in line and '"warmup":false' in line]
        for i in samples[len(samples) // 2:]:
            lines[i] = re.sub(r'"ns":(\d+)', lambda m: f'"ns":{int(m.group(1)) // 2}', lines[i])
        return Completed(0, "\n".join(lines), "", done.wall_ns)


@pytest.mark.parametrize(("warmup", "most"), [(1, 8), (2, 16), (16, 32), (40, 40)])
def test_raised_warmup_stops_at_eight_times_the_methods_and_at_32_samples(db, warmup, most):
    """A method that already warms up long gets one doubling, not 8×: 16 samples of 100 ms would become
    128, 13 s more per process, for a program that may never settle."""
    store = Store(db)
    jobs, scheduler = setup(store, processes=6, budget=600.0, warmup=warmup)
    fake = Jumpy()
    run_session(store, jobs, scheduler, fake)
    warmups = [int(env["VERSUS_WARMUP"]) for env in fake.calls if env["VERSUS_CASE"] == "slow"]
    assert warmups[0] == warmup and max(warmups) == most


@pytest.mark.parametrize("budget", [30.0, None])
def test_a_process_that_did_not_settle_gets_more_warmup_next_time_with_a_budget(db, budget):
    """With a budget the later rounds warm up longer; a fixed-size run keeps the method it was given."""
    store = Store(db)
    jobs, scheduler = setup(store, processes=3, budget=budget)

    fake = Jumpy()
    run_session(store, jobs, scheduler, fake)
    warmups = [int(env["VERSUS_WARMUP"]) for env in fake.calls if env["VERSUS_CASE"] == "slow"]
    if budget is None:
        assert warmups == [1, 1, 1]
        return
    assert warmups[0] == 1 and warmups[-1] > warmups[0]
    # only the arm still warming up: the arm it is compared with had settled, and keeps its rounds
    others = [int(env["VERSUS_WARMUP"]) for env in fake.calls if env["VERSUS_CASE"] != "slow"]
    assert set(others) == {1}


class LateJumpy(Jumpy):
    """`slow` settles in its first two rounds and stops settling after them."""

    def execute(self, argv, env, timeout, cwd=None):  # noqa: ANN001, ANN201
        if sum(1 for call in self.calls if call["VERSUS_CASE"] == "slow") < 2:
            return FakeExecutor.execute(self, argv, env, timeout, cwd)
        return super().execute(argv, env, timeout, cwd)


def test_only_a_groups_first_two_rounds_may_raise_its_warmup(db):
    """The rounds before a raise are left out of the verdicts (judge.settled): a raise after round 1
    would throw away rounds that looks were already taken on, so the warmup is settled by then."""
    store = Store(db)
    jobs, scheduler = setup(store, processes=5, budget=600.0)
    fake = LateJumpy(drift=0.3)  # rounds that differ: identical ones would decide at 2 (Rule.exact_rounds)
    run_session(store, jobs, scheduler, fake)
    warmups = [int(env["VERSUS_WARMUP"]) for env in fake.calls if env["VERSUS_CASE"] == "slow"]
    assert len(warmups) >= 5 and set(warmups) == {1}


def test_process_run_defaults_are_a_failure_with_no_samples():
    assert ProcessRun("failed").inner == 0


def test_a_sequential_round_runs_only_the_pair_of_one_open_item(db):
    """It ran the whole group once: a claim linking two of 24 arms paid for 24 processes a round."""
    from versus.selftest import PROGRAM

    store = Store(db)
    plan = make_plan([load(PROGRAM)], None, None, False, {"processes": 3, "inner": 100})
    session = store.new_session(5, [], {}, {})
    method = plan.methods["selftest"]
    jobs = [Job(arm, store.add_arm(session, i, arm_row(arm, method)), method, 0)
            for i, arm in enumerate(plan.arms)]
    scheduler = Scheduler(plan, {}, 11, Budget(600))
    times = {"spin": 10.0, "spin_again": 10.0, "spin_planted": 10.3}
    batches = []
    original = scheduler.batches

    def recording():  # noqa: ANN202
        for batch in original():
            batches.append(batch)
            yield batch

    scheduler.batches = recording  # type: ignore[method-assign]
    run_session(store, jobs, scheduler, FakeExecutor(times, drift=0.3))
    sequential = [b for b in batches if b.sequential]
    assert sequential, "the drift leaves something open after the first processes"
    assert all(len(b.arms) == 2 and plan.arms[b.arms[0]].case != plan.arms[b.arms[1]].case for b in sequential)
    assert len({b.round for b in batches}) == len(batches)  # each pair's round is the group's next


def test_an_item_with_fewer_rounds_than_its_first_look_is_not_taken_for_stuck(db):
    """An item with 1 round (its other processes failed, or a resumed session) needs 2 more for its
    first look, which is cheap; it must not go last with the items whose estimate sits on a threshold.
    It runs one of them and looks again: identical rounds (a size in bytes) decide at 2."""
    from versus.stats import Decision

    _, scheduler = setup(Store(db), processes=3, budget=100.0)
    assert len(scheduler.plan.items) >= 2
    decisions = {i: Decision(Verdict.INCONCLUSIVE, None, 0.0, 10, True) for i in range(len(scheduler.plan.items))}
    waiting = 1
    decisions[waiting] = Decision(Verdict.INCONCLUSIVE, None, 0.0, 1, True, note="1 round measured; a verdict needs at least 3")
    scheduler.status.open_items = list(decisions)
    choice = scheduler._choose(decisions, {})
    assert choice is not None
    assert choice.item == waiting and choice.rounds == 1 and choice.arms == set(scheduler.plan.items[waiting].arms)
    assert choice.target == 3  # its first look, priced as before: only the look between comes sooner
    # under the rule before identical rounds decided at 2, both rounds up to the first look at once
    scheduler.rule = scheduler.rule.replace(exact_rounds=0)
    choice = scheduler._choose(decisions, {})
    assert choice is not None and choice.item == waiting and choice.rounds == 2 and choice.target == 3


def test_an_item_no_look_within_its_cap_would_decide_gets_no_more_rounds(db):
    """The selftest's two-state pair ran every look to its cap of 200 rounds (budget: none), where no look
    could call it the same and every look could wrongly call it different: 7 of 102 trials did. From
    10 rounds on, an item whose decision is out of reach within its cap (`stats.futile`) is not fed; one
    with fewer rounds, whose spread is not known yet, still is, last."""
    _, scheduler = setup(Store(db), processes=3, budget=None)
    scheduler.budget = Budget(math.inf)
    items = range(len(scheduler.plan.items))
    out_of_reach = Interval(1.1, 0.6, 2.0)
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in items}
    decisions[0] = Decision(Verdict.INCONCLUSIVE, out_of_reach, 0.99, 20, True, reachable=None)
    decisions[1] = Decision(Verdict.INCONCLUSIVE, out_of_reach, 0.99, 20, True, rounds_needed=400, reachable=400)
    scheduler.status.open_items = [0, 1]
    assert scheduler._choose(decisions, {}) is None
    assert "within the budget left or its rounds" in scheduler.status.reason
    # within reach before its cap: fed
    decisions[1] = Decision(Verdict.INCONCLUSIVE, out_of_reach, 0.99, 20, True, rounds_needed=150, reachable=150)
    choice = scheduler._choose(decisions, {})
    assert choice is not None and choice.item == 1
    # its cap counts: 150 rounds are beyond one that has had 190 of its 200 sequential rounds
    assert scheduler._choose(decisions, {1: 190}) is None
    # fewer than 10 rounds: out of reach today, yet still fed when nothing else is open
    decisions[0] = Decision(Verdict.INCONCLUSIVE, out_of_reach, 0.99, 6, True)
    choice = scheduler._choose(decisions, {1: 190})
    assert choice is not None and choice.item == 0 and choice.rank == 3


def _swept_claims(tmp_path: Path, db: Path) -> Scheduler:
    """The claims fixture swept over a parameter: each claim then has two pairs (size=1, size=2)."""
    folder = tmp_path / "swept"
    folder.mkdir()
    (folder / "work.py").write_text((FIXTURES / "claims" / "work.py").read_text())
    toml = (FIXTURES / "claims" / "experiment.toml").read_text()
    toml = toml.replace("[programs]", '[params]\nsize = ["1", "2"]\n\n[programs]')
    toml = toml.replace('runtimes = ["cpython@3.11"]', 'runtimes = ["cpython@3.11"]\nbaseline = { case = "fast" }')
    (folder / "experiment.toml").write_text(toml)
    plan = make_plan([load(folder)], None, None, False, {"processes": 3, "inner": 100})
    scheduler = Scheduler(plan, {}, 11, Budget(1000.0))
    for arm in range(len(plan.arms)):  # a round of size=2 costs 10× one of size=1
        scheduler.record_wall(arm, int(1e9 if plan.arms[arm].param_map.get("size") == "1" else 1e10))
    return scheduler


def _pair(scheduler: Scheduler, claim: str, size: str) -> int:
    return next(i for i, item in enumerate(scheduler.plan.items) if item.claim is not None and item.claim.id == claim
                and scheduler.plan.arms[item.numerator].param_map.get("size") == size)


def _chosen(scheduler: Scheduler, decisions: dict[int, Decision]) -> int:
    choice = scheduler._choose(decisions, {})
    assert choice is not None
    return choice.item


def _open(ratio: float, n: int = 3, more: int = 5) -> Decision:
    return Decision(Verdict.INCONCLUSIVE, Interval(ratio, ratio / 3, ratio * 3), 0.99, n, True, rounds_needed=n + more)


def test_with_a_budget_every_group_runs_one_round_and_the_cheap_first_looks_come_first(tmp_path, db):
    """Every arm's three first rounds took 19.4 of a make run's 20.3 minutes of process time and it
    decided 10 of 58 claims: with a budget, one round per group tells the costs, and the rounds up to
    each first look go to the cheapest decisions (here the size=1 pairs, ten times cheaper)."""
    scheduler = _swept_claims(tmp_path, db)
    batches = scheduler.batches()
    initial = [next(batches) for _ in scheduler.plan.groups]
    assert [b.round for b in initial] == [0] * len(scheduler.plan.groups)
    assert not any(b.sequential for b in initial)
    assert sorted(a for b in initial for a in b.arms) == list(range(len(scheduler.plan.arms)))
    for batch in initial:  # as the runner records them
        for arm in batch.arms:
            scheduler.done[arm].add(batch.round)
    first = next(batches)
    assert first.sequential and first.round == 1
    assert {scheduler.plan.arms[a].param_map.get("size") for a in first.arms} == {"1"}


@pytest.mark.parametrize(("exact_rounds", "rounds"), [(2, 2), (0, 3)])
def test_with_a_budget_identical_rounds_decide_at_two_and_their_arms_run_no_third(db, exact_rounds, rounds):
    """Sizes in bytes are the same in every process. Make runs #47–#54 ran such claim pairs to 3 rounds,
    their first look, before judging them: a round more than a measurement without noise needs."""
    store = Store(db)
    jobs, scheduler = setup(store, processes=3, budget=600, times={"fast": 10.0, "slow": 40.0})
    scheduler.rule = scheduler.rule.replace(exact_rounds=exact_rounds)
    run_session(store, jobs, scheduler, FakeExecutor({"fast": 10.0, "slow": 40.0}))  # no drift: identical rounds
    assert scheduler.status.reason == "every comparison and claim is decided"
    assert {len(_rounds(store, job.arm_id)) for job in jobs} == {rounds}


def test_each_sequential_choice_is_told_with_its_reason_and_the_store_keeps_it(db):
    """`versus lab schedule` says what a run's rounds were spent on from these: every sequential round
    comes from a choice that was told, with the item, its rounds and the look it aims at."""
    store = Store(db)
    jobs, scheduler = setup(store, processes=2, budget=600, times={"fast": 10.0, "slow": 40.0})
    told: list[Chosen] = []
    scheduler.on_choice = told.append
    run_session(store, jobs, scheduler, FakeExecutor({"fast": 10.0, "slow": 40.0}, drift=0.3))
    rounds = len(_rounds(store, jobs[0].arm_id))
    assert told and sum(c.rounds for c in told) == rounds - 1  # all but the first round, which tells the costs
    first = told[0]
    assert first.item.startswith("claims ") and " ÷ " in first.item
    assert first.have == 1 and first.target == 3 and first.rank in (0, 1, 2) and 0 < first.budget_left <= 600
    assert all(later.have > earlier.have for earlier, later in zip(told, told[1:], strict=False))
    session = store.sessions()[0].id
    for chosen in told:
        store.add_choice(session, 1, chosen)
    assert [c for _, c in store.choices(session)] == told


def test_without_a_budget_every_arm_runs_its_processes_before_anything_else(db):
    _, scheduler = setup(Store(db), processes=3)
    assert [b.round for b in scheduler.batches()] == [0, 1, 2]
    assert all(scheduler.initial_of(a) == 3 for a in range(len(scheduler.plan.arms)))


def test_a_cheap_pair_near_its_bound_after_few_rounds_is_run_on_the_chance_that_it_lies_further(tmp_path, db):
    """After 3 rounds ten-times' cheap pair reads 9.8× against its bound of 10×: taken as the truth, no look
    within the design decides it. But 3 rounds leave the truth as likely at 12× or 8×, which 20 rounds
    decide about half the time (`stats.chances_by_look`), for 17 rounds of 2 s. The scheduler runs it
    before four-times' dear pair (rounds of 20 s), whose 5 rounds to its look are a long shot: in make
    run #50 new-gil-efficiency's pair on CPython 3.11.7, at 0.94 against 0.95 after 3 rounds (0.4 s a
    round), waited 37 minutes and stayed open; make run #46 decided it at 40 rounds (0.99)."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.SAME, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    near = _pair(scheduler, "ten-times", "1")
    decisions[near] = Decision(Verdict.INCONCLUSIVE, Interval(9.8, 9.8 / 3, 9.8 * 3), 0.99, 3, True,
                               rounds_needed=None, spread=0.1)
    dear = _pair(scheduler, "four-times", "2")
    decisions[dear] = _open(4.0)
    scheduler.status.open_items = [near, dear]
    choice = scheduler._choose(decisions, {})
    assert choice is not None and choice.item == near and choice.target == 20


def test_a_claim_pair_outside_its_bounds_alone_gets_the_rounds_that_settle_the_claim(tmp_path, db):
    """A claim does not hold as soon as one pair does not: where one pair's estimate lies outside
    the bounds, that pair alone decides the claim, although a cheaper pair would come first by time."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.SAME, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    # four-times (3×–5×): size=1 looks inside (cheap), size=2 looks outside at 8× (10× dearer)
    decisions[_pair(scheduler, "four-times", "1")] = _open(4.0)
    decisions[_pair(scheduler, "four-times", "2")] = _open(8.0)
    # ten-times (≥ 10×): decided already by its size=1 pair; its size=2 pair is open
    decisions[_pair(scheduler, "ten-times", "1")] = Decision(Verdict.DOES_NOT_HOLD, None, 0.99, 3, True)
    decisions[_pair(scheduler, "ten-times", "2")] = _open(4.0)
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    index = _chosen(scheduler, decisions)
    assert index == _pair(scheduler, "four-times", "2")


def test_a_claim_whose_pairs_all_look_inside_costs_all_of_them(tmp_path, db):
    """Every pair must hold: a claim is as dear as its open pairs together. four-times needs 5
    rounds of a cheap pair (10 s) and 5 of a dear one (100 s); ten-times one pair, 20 cheap rounds
    (40 s): ten-times is the cheaper claim to decide, though four-times has the cheapest pair."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.SAME, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    decisions[_pair(scheduler, "four-times", "1")] = _open(4.0)
    decisions[_pair(scheduler, "four-times", "2")] = _open(4.0)
    decisions[_pair(scheduler, "ten-times", "1")] = _open(12.0, more=20)
    decisions[_pair(scheduler, "ten-times", "2")] = Decision(Verdict.HOLDS, None, 0.99, 3, True)
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    index = _chosen(scheduler, decisions)
    assert index == _pair(scheduler, "ten-times", "1")
    # a settled claim's open pair is still run, after the open claims, as a comparison would be
    decisions[_pair(scheduler, "ten-times", "1")] = Decision(Verdict.DOES_NOT_HOLD, None, 0.99, 8, True)
    decisions[_pair(scheduler, "ten-times", "2")] = _open(12.0, more=1)
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    index = _chosen(scheduler, decisions)
    assert index == _pair(scheduler, "four-times", "1")
    decisions[_pair(scheduler, "four-times", "1")] = Decision(Verdict.HOLDS, None, 0.99, 8, True)
    decisions[_pair(scheduler, "four-times", "2")] = Decision(Verdict.HOLDS, None, 0.99, 8, True)
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    index = _chosen(scheduler, decisions)
    assert index == _pair(scheduler, "ten-times", "2")


def _comparison(scheduler: Scheduler, size: str) -> int:
    return next(i for i, item in enumerate(scheduler.plan.items) if item.claim is None
                and scheduler.plan.arms[item.numerator].param_map.get("size") == size)


def test_of_two_decisions_as_dear_the_one_whose_estimate_sits_nearer_its_bound_waits(tmp_path, db):
    """A decision's cost assumes its estimate is the truth. four-times at 4.9 (its bound 5, its interval
    wide) may well need far more rounds than projected; ten-times at 30 (≥ 10, a tight interval) will
    not: as dear by their projections, ten-times goes first. Replayed on the rounds of four make runs
    (`versus lab replay`), weighing by that chance raised the share of the oracle's claims decided
    in every one (docs/results.md, "What a sequential round is spent on")."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    decisions[_pair(scheduler, "four-times", "1")] = Decision(
        Verdict.INCONCLUSIVE, Interval(4.9, 3.0, 8.0), 0.99, 3, True, rounds_needed=8)
    decisions[_pair(scheduler, "ten-times", "1")] = Decision(
        Verdict.INCONCLUSIVE, Interval(30.0, 9.5, 95.0), 0.99, 3, True, rounds_needed=8)
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    assert _chosen(scheduler, decisions) == _pair(scheduler, "ten-times", "1")
    # with a tight interval of its own, four-times is as sure a decision again, and comes first
    decisions[_pair(scheduler, "four-times", "1")] = Decision(
        Verdict.INCONCLUSIVE, Interval(3.9, 3.6, 4.2), 0.99, 3, True, rounds_needed=8)
    assert _chosen(scheduler, decisions) == _pair(scheduler, "four-times", "1")


def test_a_claim_two_per_round_spreads_from_its_bound_goes_before_a_cheaper_one_near_it(tmp_path, db):
    """Issue 29: every claim whose truth lies ≥ 2 per-round SDs from its bound is decided in every run.
    Ranked by cost ÷ chance alone, rpc's `http-10x` (14× against ≥ 9×, 8.5 of its per-round SDs from
    the bound, 26 s a process) waited for cheaper claims near their bounds, and make runs #20, #22 and
    #23 ended with it 5 to 7 rounds short of its verdict: such a claim goes first, however dear."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    far = _pair(scheduler, "four-times", "2")  # 3×–5×, at 3.9 with a per-round spread of 2%: 5 rounds × 20 s
    decisions[far] = Decision(Verdict.INCONCLUSIVE, Interval(3.9, 1.3, 11.7), 0.99, 3, True, rounds_needed=8,
                              spread=0.02)
    near = _pair(scheduler, "ten-times", "1")  # ≥ 10×, at 12 with a spread of 0.5: 5 rounds × 2 s
    decisions[near] = dataclasses.replace(_open(12.0), spread=0.5)
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    assert _chosen(scheduler, decisions) == far
    # 1.2 of its spreads from its nearer bound, the dear claim waits for the cheap one again
    decisions[far] = dataclasses.replace(decisions[far], spread=0.2)
    assert _chosen(scheduler, decisions) == near


def test_a_comparison_two_times_from_one_ranks_with_the_claims_and_a_small_one_after_them(tmp_path, db):
    """Every comparison ≥ 2× from 1 must be decided; the small ones may wait for the claims."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    decisions[_pair(scheduler, "four-times", "2")] = _open(4.0)  # the only open claim: 5 rounds × 20 s
    decisions[_comparison(scheduler, "1")] = _open(1.2, more=5)  # small, 5 rounds × 2 s
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    assert _chosen(scheduler, decisions) == _pair(scheduler, "four-times", "2")
    decisions[_comparison(scheduler, "1")] = _open(0.3, more=5)  # large: as cheap, and now first
    assert _chosen(scheduler, decisions) == _comparison(scheduler, "1")


def test_a_comparison_two_times_from_one_goes_before_a_cheaper_claim(tmp_path, db):
    """Every comparison ≥ 2× from 1 must be decided: ranked with the claims by cost, uncontended
    JRuby 1.0 ÷ Jython 2.5.0 (0.215× after 3 rounds, about 65 s from a verdict) was left open when
    the budget of the 2026-11-26 06:23 run went to cheaper claims."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    decisions[_pair(scheduler, "four-times", "1")] = _open(4.0)  # the only open claim: 5 rounds × 2 s
    decisions[_comparison(scheduler, "2")] = _open(0.215, more=5)  # large: 5 rounds × 20 s
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    assert _chosen(scheduler, decisions) == _comparison(scheduler, "2")
    decisions[_comparison(scheduler, "2")] = _open(1.2, more=5)  # small: after the claim
    assert _chosen(scheduler, decisions) == _pair(scheduler, "four-times", "1")


def test_a_claim_far_from_its_bound_goes_before_a_comparison_two_times_from_one(tmp_path, db):
    """Issue 29: every claim ≥ 2 per-round SDs from its bound decided in every run. Behind the comparisons
    ≥ 2× (4.5 min of make run #60's sequential rounds), `jruby-compiler-2x` waited for cheaper far claims
    until the budget ended; #59 left three far claims open so. A far claim now goes first; a claim near
    its bound still waits for the comparison."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    claim = _pair(scheduler, "four-times", "2")  # 3×–5×, at 3.9 with a per-round spread of 2%: 5 rounds × 20 s
    decisions[claim] = Decision(Verdict.INCONCLUSIVE, Interval(3.9, 1.3, 11.7), 0.99, 3, True, rounds_needed=8,
                                spread=0.02)
    decisions[_comparison(scheduler, "1")] = _open(0.3, more=5)  # large and cheap: 5 rounds × 2 s
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    choice = scheduler._choose(decisions, {})
    assert choice is not None and choice.item == claim and choice.rank == 1  # stored as a claim's choice
    # 1.2 of its spreads from its nearer bound, the claim waits for the comparison again
    decisions[claim] = dataclasses.replace(decisions[claim], spread=0.2)
    choice = scheduler._choose(decisions, {})
    assert choice is not None and choice.item == _comparison(scheduler, "1") and choice.rank == 0


def test_quick_measures_only_the_arms_its_claims_compare(tmp_path):
    """A [quick] method's cases × runtimes make arms no claim names; they would cost the first rounds
    of `make run` (42 of 158 arms, 5 minutes of its 27 on 2026-11-24) and decide nothing."""
    folder = tmp_path / "claims"
    folder.mkdir()
    (folder / "work.py").write_text((FIXTURES / "claims" / "work.py").read_text())
    toml = (FIXTURES / "claims" / "experiment.toml").read_text()
    toml = toml.replace("[programs]", '[quick]\nprocesses = 3\n\n[programs]')
    (folder / "experiment.toml").write_text(toml + '\n[[cases]]\nname = "idle"\ncheck = "inner"\n')
    experiment = load(folder)
    quick = make_plan([experiment], None, None, True, {})
    assert sorted(a.case.name for a in quick.arms) == ["fast", "slow"]
    assert "--quick leaves out 1 arm that no claim compares (claims 1); --cases or --runtimes select them" in quick.notes
    chosen = make_plan([experiment], None, ["fast", "idle"], True, {})  # what --cases selects runs
    assert sorted(a.case.name for a in chosen.arms) == ["fast", "idle"]
    full = make_plan([experiment], None, None, False, {})
    assert sorted(a.case.name for a in full.arms) == ["fast", "idle", "slow"]
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "work.py").write_text((FIXTURES / "claims" / "work.py").read_text())
    unclaimed = (folder / "experiment.toml").read_text().replace('name = "claims"', 'name = "bare"')
    idle = '[[cases]]\nname = "idle"\ncheck = "inner"\n'
    (bare / "experiment.toml").write_text(unclaimed[:unclaimed.index("[[claims]]")] + idle)
    kept = make_plan([load(bare)], None, None, True, {})  # no claims: every arm of its [quick] method
    assert sorted(a.case.name for a in kept.arms) == ["fast", "idle", "slow"]


def test_progress_without_a_terminal_prints_a_plain_line_at_most_once_a_minute():
    """`make run > log`: the live bar draws nothing there, so a lab of half an hour said nothing until
    its report. A line at most every 60 s says how far it got, failures at once; one line each, not
    wrapped at the 80 columns a console assumes without a terminal, and no bar."""
    import io
    from types import SimpleNamespace
    from typing import Any, cast

    from rich.console import Console

    from versus.drivers.base import FAILED, OK
    from versus.progress import RichProgress
    from versus.scheduler import Batch

    out, now = io.StringIO(), [0.0]
    progress = RichProgress(Console(file=out, force_terminal=False, width=80), clock=lambda: now[0])
    progress.start(10, 0, 600.0)
    job = cast(Any, SimpleNamespace(arm=SimpleNamespace(key="fib/fib_recursive/cruby@3.1.7")))
    for second in (10.0, 50.0, 61.0, 90.0, 125.0):
        now[0] = second
        progress.advance(job, Batch(0, [0], 0), ProcessRun(OK), "budget left 9.0 min · 3 claims open")
    now[0] = 130.0
    progress.advance(job, Batch(1, [0], 0, sequential=True), ProcessRun(FAILED, reason="exit 1"), "")
    progress.stop()
    lines = [line for line in out.getvalue().splitlines() if line.startswith("versus:")]
    assert lines == ["versus: 3 process runs · round 1 · fib/fib_recursive/cruby@3.1.7 · budget left 9.0 min · "
                     "3 claims open",
                     "versus: 5 process runs · round 1 · fib/fib_recursive/cruby@3.1.7 · budget left 9.0 min · "
                     "3 claims open"]
    assert "failed fib/fib_recursive/cruby@3.1.7 round 2: exit 1" in out.getvalue()
    # and nothing else: the bar's last frame, cut at 80 columns ("budget left 0… el…"), ended real logs
    assert all(line.startswith(("versus:", "failed")) for line in out.getvalue().splitlines() if line.strip())


def test_a_claim_pair_not_yet_looked_at_gets_its_first_look_before_the_whole_claim(tmp_path, db):
    """make run, 2026-11-26: Jython 2.5.0 ÷ JRuby 1.0 (`jython-vs-jruby-2009`) kept 1 round after its
    warmup raise left 2 out, and never got the 2 more a look needs: its claim's other pair needed
    dozens of rounds, so the claim as a whole was dear. One look may settle the claim alone: here the
    unseen pair (2 rounds, 40 s) goes before four-times (60 s), which the whole of ten-times (120 s) would not."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    decisions[_pair(scheduler, "ten-times", "1")] = _open(12.0, more=40)  # inside, 40 cheap rounds
    decisions[_pair(scheduler, "ten-times", "2")] = Decision(Verdict.INCONCLUSIVE, None, 0.0, 1, True)  # 1 round
    decisions[_pair(scheduler, "four-times", "1")] = _open(4.0, more=30)  # 30 cheap rounds: 60 s
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    choice = scheduler._choose(decisions, {})
    assert choice is not None
    # 2 dear rounds (40 s) to its first look, one at a time: identical rounds decide at 2
    assert choice.item == _pair(scheduler, "ten-times", "2") and choice.rounds == 1 and choice.seconds == 40
    assert choice.target == 3 and choice.rank == 1  # its first look, as a pair that may settle its claim


def test_a_dear_pair_not_yet_looked_at_goes_before_a_cheap_claim_near_its_bound(tmp_path, db):
    """make run #35, 2026-12-06: rpc's 2008 pairs (26 s a process) kept the 1 round of the first phase
    to the end. With the chance of an unknown (½) their first looks (about 100 s each) weighed more than
    cheap claims near their bounds, each held to 20 rounds by the floor of few rounds, and those took the
    budget; in #37, ranked with the far claims, they waited for cheaper far claims. How far a pair lies
    is unknown until its first look, and no claim is decided without it: the look comes first, however dear."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    unseen = _pair(scheduler, "ten-times", "2")  # 1 round: 2 dear rounds (40 s) to its first look
    decisions[unseen] = Decision(Verdict.INCONCLUSIVE, None, 0.0, 1, True)
    near = _pair(scheduler, "four-times", "1")  # 3×–5×, at 4.9 with a wide interval: 5 cheap rounds (10 s)
    decisions[near] = Decision(Verdict.INCONCLUSIVE, Interval(4.9, 3.0, 8.0), 0.99, 3, True, rounds_needed=8,
                               spread=0.4)
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    assert _chosen(scheduler, decisions) == unseen
    # and before a cheap claim far from its bound (#37: in their tier, the first looks waited for those)
    decisions[near] = Decision(Verdict.INCONCLUSIVE, Interval(3.9, 3.6, 4.2), 0.99, 3, True, rounds_needed=8,
                               spread=0.02)
    assert _chosen(scheduler, decisions) == unseen
    decisions[near] = Decision(Verdict.INCONCLUSIVE, Interval(4.9, 3.0, 8.0), 0.99, 3, True, rounds_needed=8,
                               spread=0.4)
    # looked at, and near its bound too, the dear pair waits for the cheap one
    decisions[unseen] = Decision(Verdict.INCONCLUSIVE, Interval(10.5, 6.0, 18.0), 0.99, 3, True, rounds_needed=8,
                                 spread=0.4)
    assert _chosen(scheduler, decisions) == near


def _unseen(ratio: float) -> Decision:
    """A pair with the one round of a budgeted run's first phase, at this ratio."""
    return Decision(Verdict.INCONCLUSIVE, None, 0.0, 1, True, early=math.log(ratio))


def test_first_looks_go_to_the_claims_expected_to_cost_least_and_fit_in_the_budget_left(tmp_path, db):
    """make run #48: the first looks of fib's iterative-no-gain (four pairs, each inside its range by its
    one round; 100 minutes of process time at the oracle's own rounds, `versus lab oracle`)
    took 2.5 minutes before claims a few rounds from their verdicts. An unseen pair is priced by its
    claim's expected cost at its early mean and the rule's floor: a claim that cannot fit in the budget
    left has its first looks wait in tier 1; the others' go cheapest claim first."""
    scheduler = _swept_claims(tmp_path, db)  # 1000 s left; a round of size=1 costs 2 s, of size=2 20 s
    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    for size in ("1", "2"):  # ≥ 10×, both pairs one round at 10.3×: each needs hundreds of rounds to hold
        decisions[_pair(scheduler, "ten-times", size)] = _unseen(10.3)
    dear = _pair(scheduler, "four-times", "2")  # 3×–5×, one round at 4×: a few rounds at 20 s
    decisions[dear] = _unseen(4.0)
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    choice = scheduler._choose(decisions, {})
    assert choice is not None and choice.item == dear and choice.target == 3
    # the first look of a pair far from its bound, the rest of its claim settled, is cheaper still
    decisions[_pair(scheduler, "ten-times", "2")] = Decision(Verdict.HOLDS, None, 0.99, 3, True)
    decisions[_pair(scheduler, "ten-times", "1")] = _unseen(30.0)
    assert _chosen(scheduler, decisions) == _pair(scheduler, "ten-times", "1")
    # one pair outside its bound settles its claim alone: priced by its own rounds, it goes before `dear`
    decisions[_pair(scheduler, "ten-times", "1")] = _unseen(10.3)
    decisions[_pair(scheduler, "ten-times", "2")] = _unseen(3.0)
    assert _chosen(scheduler, decisions) == _pair(scheduler, "ten-times", "2")
    # without an early mean (rounds left out by a warmup raise), the cheapest first look goes first, as before
    for size in ("1", "2"):
        decisions[_pair(scheduler, "ten-times", size)] = Decision(Verdict.INCONCLUSIVE, None, 0.0, 1, True)
    assert _chosen(scheduler, decisions) == _pair(scheduler, "ten-times", "1")


def test_the_progress_line_counts_open_claims_not_their_open_pairs(tmp_path, db):
    """make run, 2026-11-26: "65 claims open" of 57 claims, counting pairs. Here 3 pairs are open but
    one claim: ten-times already does not hold by its size=1 pair."""
    scheduler = _swept_claims(tmp_path, db)
    decisions = {i: Decision(Verdict.SAME, None, 0.99, 3, True) for i in range(len(scheduler.plan.items))}
    decisions[_pair(scheduler, "four-times", "1")] = _open(4.0)
    decisions[_pair(scheduler, "four-times", "2")] = _open(4.0)
    decisions[_pair(scheduler, "ten-times", "1")] = Decision(Verdict.DOES_NOT_HOLD, None, 0.99, 3, True)
    decisions[_pair(scheduler, "ten-times", "2")] = _open(12.0)
    assert scheduler._claims_open(decisions) == 1
    decisions[_pair(scheduler, "ten-times", "1")] = _open(12.0)
    assert scheduler._claims_open(decisions) == 2


def test_open_claims_that_share_an_arm_run_in_the_same_rounds(tmp_path, db):
    """make run #7, 2026-11-26: four claims' pairs shared Jython 2.7.4's lock loop, and each pair's
    round ran it again (two processes a round each). A round of one now runs the other arm of the
    others too: three processes give two claims a round; a small comparison does not come along."""
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "work.py").write_text((FIXTURES / "claims" / "work.py").read_text())
    toml = (FIXTURES / "claims" / "experiment.toml").read_text()
    toml += ('\n[[cases]]\nname = "slower"\ncheck = "inner"\n\n[[claims]]\nid = "slower-than-fast"\n'
             'statement = "slower takes ≥ 2× the time of fast"\nsource = "the fixture itself"\n'
             'numerator = { case = "slower", runtime = "cpython" }\n'
             'denominator = { case = "fast", runtime = "cpython" }\nmin = 2\n')
    (folder / "experiment.toml").write_text(toml)
    plan = make_plan([load(folder)], None, None, False, {"processes": 3, "inner": 100})
    scheduler = Scheduler(plan, {}, 11, Budget(1000.0))
    for arm in range(len(plan.arms)):
        scheduler.record_wall(arm, int(1e9))

    def claim(name: str) -> int:
        return next(i for i, item in enumerate(plan.items) if item.claim is not None and item.claim.id == name)

    decisions = {i: Decision(Verdict.HOLDS, None, 0.99, 3, True) for i in range(len(plan.items))}
    decisions[claim("ten-times")] = _open(12.0, more=5)  # slow ÷ fast
    decisions[claim("slower-than-fast")] = _open(3.0, more=20)  # slower ÷ fast: dearer, so second
    scheduler.status.open_items = [i for i, d in decisions.items() if not d.decided]
    choice = scheduler._choose(decisions, {})
    assert choice is not None and choice.item == claim("ten-times")
    assert choice.partners == [claim("slower-than-fast")]
    assert {plan.arms[a].case.name for a in choice.arms} == {"fast", "slow", "slower"}
    # a pair stuck on its bound (no number of rounds expected to decide it) does not come along
    decisions[claim("slower-than-fast")] = Decision(Verdict.INCONCLUSIVE, Interval(2.0, 1.0, 4.0), 0.99, 3, True)
    choice = scheduler._choose(decisions, {})
    assert choice is not None and choice.partners == [] and len(choice.arms) == 2


class MetricOfModeA(FakeExecutor):
    """Only mode=a reports the metric `share`; mode=b never does (a mode without short strings)."""

    def execute(self, argv, env, timeout, cwd=None):  # noqa: ANN001, ANN201
        completed = super().execute(argv, env, timeout, cwd)
        if env.get("VERSUS_PARAM_MODE") != "a":
            return completed
        metric = '@versus {"type":"metric","name":"share","value":0.9}\n'
        return Completed(completed.exit_code, completed.stdout.replace('@versus {"type":"end"}',
                                                                       metric + '@versus {"type":"end"}'),
                         completed.stderr, completed.wall_ns)


def test_a_claim_whose_arm_never_reports_its_metric_takes_no_rounds(tmp_path, db):
    """users-65 applies to every strings write arm, and one mode reports no short_fraction: its pair
    was "not applicable" with 0 rounds, taken for one 3 rounds short of its first look, and a make
    run ran that arm alone 205 times."""
    folder = tmp_path / "metric"
    folder.mkdir()
    (folder / "work.py").write_text((FIXTURES / "claims" / "work.py").read_text())
    toml = (FIXTURES / "claims" / "experiment.toml").read_text()
    toml = toml.replace("[programs]", '[params]\nmode = ["a", "b"]\n\n[programs]')
    toml += ('\n[[claims]]\nid = "share"\nstatement = "every mode keeps a share ≥ 0.5"\nsource = "the test"\n'
             'metric = "share"\nnumerator = { case = "slow", runtime = "cpython" }\nmin = 0.5\n')
    (folder / "experiment.toml").write_text(toml)
    store = Store(db)
    plan = make_plan([load(folder)], None, None, False, {"processes": 3, "inner": 100})
    session = store.new_session(5, [], {}, {})
    method = plan.methods["claims"]
    jobs = [Job(arm, store.add_arm(session, i, arm_row(arm, method)), method, 0)
            for i, arm in enumerate(plan.arms)]
    scheduler = Scheduler(plan, {}, 11, Budget(600.0))
    run_session(store, jobs, scheduler, MetricOfModeA({"fast": 10.0, "slow": 40.0}))
    b = next(i for i, arm in enumerate(plan.arms) if arm.case.name == "slow" and dict(arm.params).get("mode") == "b")
    assert len(_rounds(store, jobs[b].arm_id)) <= 12, "mode=b ran on for a claim that cannot apply to it"
