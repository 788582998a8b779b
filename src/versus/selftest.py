"""`versus selftest`: the decision rule `versus run --budget` uses, measured on this machine.

Each trial is a small session of three arms: `spin`, `spin_again` (the same arm: A/A) and
`spin_planted` (3% more work). It starts with `--start` processes per arm and then runs sequential
rounds, exactly as `make run` does, until both comparisons with `spin` are decided or the trial's
cap is reached. Over many trials it reports, each with its Clopper–Pearson 95% interval: how often
the A/A comparison was called faster or slower (false positives), how often its interval held 1
(coverage), how often it was called the same, how often the planted 3% was detected, and the
seconds each decision took. `--simulate` reports the same from the seeded noise model instead.
"""
from __future__ import annotations

import math
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import simulate, stats
from .analyze import Analysis, analyze
from .drivers import driver_for
from .executor import SubprocessExecutor
from .experiment import load
from .fleet.coordinator import coordinate
from .history import learn
from .host import host_name
from .paths import SELFTEST_PROGRAM
from .plan import Plan, make_plan
from .record import Options, arm_row, definitions_of, plan_record, versus_info
from .rule import CURRENT, Rule
from .runner import Job, run_one, run_session
from .scheduler import MAX_EXTRA_ROUNDS, Budget, Scheduler
from .store import Store, Target

PROGRAM = SELFTEST_PROGRAM
SLOW = 1.3  # a process value this many times its arm's median was caught by a slow spell
# Rounds per comparison at most, the first processes included: the noise model's trials
# (tests/test_calibration.py) and, within a round or so, `make run`'s cap of sequential rounds per item.
# Fewer would cut the rule short: under the model's one-arm spells a planted 3% is found within 40 rounds
# in fewer than 90% of trials, within 200 in ≥ 95%.
TRIAL_ROUNDS = MAX_EXTRA_ROUNDS


@dataclass
class Tally:
    trials: int = 0
    aa: dict[str, int] = field(default_factory=dict)
    planted: dict[str, int] = field(default_factory=dict)
    covered: int = 0
    seconds: list[float] = field(default_factory=list)  # to the planted decision
    seconds_same: list[float] = field(default_factory=list)
    spreads: list[float] = field(default_factory=list)  # per trial: the A/A per-round log ratio's spread
    values: dict[str, list[float]] = field(default_factory=dict)  # case → every process value, all trials
    two_states: dict[str, int] = field(default_factory=dict)  # the A/A pair of processes in two states
    two_state_rounds: list[int] = field(default_factory=list)  # the rounds that pair had when its trial ended
    two_state_learned: int = 0  # trials in which that pair's spread was learned from the earlier ones (history.py)


def _rate(label: str, count: int, trials: int) -> str:
    low, high = stats.clopper_pearson(count, trials)
    return f"  {label}: {count}/{trials} = {count / max(1, trials):.1%} (95% CI {low:.1%} to {high:.1%})"


def _median(values: list[float]) -> str:
    return f"{float(np.median(values)):.0f} s" if values else "–"


def run_selftest(seconds: float, db: Target | None, trials: int = 0, start: int = 3, rounds: int = TRIAL_ROUNDS,
                 rule: Rule = CURRENT) -> int:
    """On a PostgreSQL --db, the trials' rounds are handed out to that database's workers, as `versus
    run` hands out a session's: the rule's error rates with hosts that share the work (docs/fleet.md)."""
    plan = make_plan([load(PROGRAM), load(PROGRAM / "two_states")], None, None, False, {"processes": start})
    store = Store(db or Path(tempfile.mkdtemp(prefix="versus-selftest-")) / "selftest.db", patience=3600.0)
    store.acquire()
    executor = SubprocessExecutor()
    deadline = time.monotonic() + seconds
    tally = Tally()
    inner = _calibrate(plan, executor)
    while time.monotonic() < deadline and (not trials or tally.trials < trials):
        # as `versus run` does: each pair's spread in the earlier trials is a floor under its own (history.py)
        learned = learn(store, plan.arms, plan.items, rule, {name: m.model_dump() for name, m in plan.methods.items()})
        session = store.new_session(tally.trials, sys.argv, {}, {"selftest": True, "trial": tally.trials},
                                    definitions_of(plan), plan_record(plan, Options([str(PROGRAM)]), learned, sequential=True),
                                    versus_info())
        jobs = []
        for i, arm in enumerate(plan.arms):
            method = plan.methods[arm.experiment_name]
            jobs.append(Job(arm, store.add_arm(session, i, arm_row(arm, method)), method, inner))
        began = time.time()
        # Every trial gets the same rule, whenever it starts: a trial given only the selftest's time
        # left would set aside the items it projects it cannot decide in it, and stop short. No trial
        # starts after the deadline; one under way runs to its decisions or its `rounds`.
        scheduler = Scheduler(plan, {}, tally.trials, Budget(math.inf), max_extra_rounds=rounds - start,
                              rule=learned)
        if store.postgres:
            leg = store.new_leg(session, "start", sys.argv, host_name(), None, versus_info())
            coordinate(store, session, leg, jobs, scheduler)
        else:
            run_session(store, jobs, scheduler, executor, host=host_name(), leg=0)
        store.finish_session(session, "complete")
        inner = inner or next((j.inner for j in jobs if j.inner), 0)
        if _count(store, session, began, tally):
            tally.two_state_learned += any("two_states" in pair for pair, _ in learned.spreads)
            print(f"versus selftest: trial {tally.trials}: {_last(tally)}", file=sys.stderr)
    store.release()
    print(summary(tally, start, store.name, rounds, rule))
    return 0


def _calibrate(plan: Plan, executor: SubprocessExecutor) -> int:
    """The iterations per sample every arm of every trial runs: `spin`'s, calibrated once. Calibrated
    per arm, a loaded machine gave the A/A arms 4.3 and 9.8 million iterations, and samples of 3 and 6 ms
    differ under preemption: the shorter one's fastest sample fits between two time slices more often,
    and the A/A pair measured 0.62× (docs/results.md). 0 where the calibration failed: each arm then
    calibrates its own, as before."""
    arm = plan.arms[0]
    run = run_one(driver_for(arm.driver), Job(arm, 0, plan.methods[arm.experiment_name], 0), {}, executor)
    return run.inner if run.status == "ok" and run.inner else 0


def _last(tally: Tally) -> str:
    return f"{sum(tally.aa.values())} A/A, {sum(tally.planted.values())} planted so far"


def _count(store: Store, session: int, began: float, tally: Tally) -> bool:
    analysis = analyze(store, session)
    case_of = {arm.row_id: arm.id.case for arm in analysis.arms}
    ended: dict[str, dict[int, float]] = {}  # case → round → when its process run ended
    for run in store.runs(session):
        ended.setdefault(case_of[run.arm_id], {})[run.round] = run.started + run.wall_ns / 1e9

    def decided_at(case: str, n: int) -> float:
        """When the n-th round in which both `spin` and this case ran was over."""
        pairs = sorted(set(ended.get("spin", {})) & set(ended.get(case, {})))
        r = pairs[min(n, len(pairs)) - 1] if pairs else -1
        return max(ended.get("spin", {}).get(r, began), ended.get(case, {}).get(r, began))
    by_case = {c.numerator.id.case: c for c in analysis.comparisons}
    aa, planted = by_case.get("spin_again"), by_case.get("spin_planted")
    if aa is None or planted is None or aa.decision.interval is None:
        return False  # the budget ended the trial before its first look: not a trial
    tally.trials += 1
    for arm in analysis.arms:
        if arm.id.experiment == "selftest":  # the two-state pair is slow half the time by design
            tally.values.setdefault(arm.id.case, []).extend(p.value for p in arm.processes if p.status == "ok" and p.value)
    spread = _aa_spread(analysis)
    if spread is not None:
        tally.spreads.append(spread)
    tally.aa[aa.verdict] = tally.aa.get(aa.verdict, 0) + 1
    two = by_case.get("two_states_again")
    if two is not None:
        tally.two_states[two.verdict] = tally.two_states.get(two.verdict, 0) + 1
        tally.two_state_rounds.append(two.decision.n)
    tally.planted[planted.verdict] = tally.planted.get(planted.verdict, 0) + 1
    shown = aa.decision.interval
    tally.covered += int(shown.low <= 1.0 <= shown.high)
    if planted.decision.decided:
        tally.seconds.append(decided_at("spin_planted", planted.decision.n) - began)
    if aa.verdict == "same":
        tally.seconds_same.append(decided_at("spin_again", aa.decision.n) - began)
    return True


def _aa_spread(analysis: Analysis) -> float | None:
    by_case = {arm.id.case: {p.round: p.value for p in arm.processes if p.status == "ok" and p.value}
               for arm in analysis.arms}
    base, again = by_case.get("spin", {}), by_case.get("spin_again", {})
    rounds = sorted(set(base) & set(again))
    if len(rounds) < 3:
        return None
    return stats.trimmed_location([float(np.log(again[r] / base[r])) for r in rounds]).unit_sd


def _machine(tally: Tally) -> str:
    """The noise the trials met against the model's: a rule tuned to the model cannot reach its
    targets on a machine whose rounds spread ten times as much, and the reader should know which."""
    if not tally.spreads:
        return "  this machine: too few rounds to measure its noise"
    measured, model = float(np.median(tally.spreads)), simulate.model_spread()
    line = (f"  this machine: A/A per-round spread {measured:.1%} (the winsorized SD the rule uses, median over "
            f"trials); the noise model's: {model:.1%}")
    slow, total = slow_spells(tally.values)
    if total:
        line += (f"\n    {slow / total:.0%} of the {total} process runs were caught by a slow spell (≥ {SLOW}× their arm's "
                 "median process)")
    if measured > 3 * model:
        line += (f"\n    {measured / model:.0f}× the model's here: the planted 3% needs about {(measured / model) ** 2:.0f}× "
                 "the model's rounds, so its detection rate says more about the machine than about the rule")
    return line


def slow_spells(values: dict[str, list[float]]) -> tuple[int, int]:
    """Process runs at SLOW× their arm's median or more, and all of them (arm → its process values):
    this VM's slow spells put a CPU loop at 1.8×, and the share of processes they catch is what the
    planted 3% is up against."""
    slow = sum(sum(v >= SLOW * float(np.median(vs)) for v in vs) for vs in values.values() if vs)
    return slow, sum(len(vs) for vs in values.values())


def summary(tally: Tally, start: int, where: Path | str, rounds: int = TRIAL_ROUNDS, rule: Rule = CURRENT) -> str:
    n = tally.trials
    if not n:
        return "versus selftest: not enough time for one trial; give it more --seconds"
    false = tally.aa.get("faster", 0) + tally.aa.get("slower", 0)
    return "\n".join([
        f"versus selftest: {n} trials, each starting from {start} processes per arm, then sequential rounds "
        f"(at most {rounds} rounds per comparison, fewer where no look within them is expected to decide it); "
        "the rule of `versus run --budget`: paired by round, Bonferroni over the 2 "
        f"comparisons, α = {rule.alpha}, threshold ±{rule.delta:.0%}; {rule.describe()}",
        _rate("A/A called faster or slower (false positives)", false, n),
        _rate("A/A interval holds 1 (coverage)", tally.covered, n),
        _rate("A/A called the same", tally.aa.get("same", 0), n),
        _rate("planted 3% slowdown detected (slower)", tally.planted.get("slower", 0), n),
        _rate("A/A of processes in one of two states 2× apart, called faster or slower",
              tally.two_states.get("faster", 0) + tally.two_states.get("slower", 0), sum(tally.two_states.values()))
        + (f"; it had {float(np.median(tally.two_state_rounds)):.0f} rounds (median), at most {max(tally.two_state_rounds)}"
           if tally.two_state_rounds else "")
        + (f"; its spread learned from the earlier trials in {tally.two_state_learned} of them (history.py)"
           if tally.two_state_learned else ""),
        f"  seconds to a decision, median: planted {_median(tally.seconds)}; A/A same {_median(tally.seconds_same)}",
        _machine(tally),
        f"  runs kept in {where}",
    ])


def simulated(start: int, trials: int = 2000, max_rounds: int = TRIAL_ROUNDS, rule: Rule = CURRENT) -> str:
    """The same rates from the seeded noise model (simulate.py), for a start of 2, 3, 5, 10 and `start`."""
    lines = [f"versus selftest --simulate: {trials} trials per row, at most {max_rounds} rounds each, the noise model "
             "of docs/method.md (process spread 1.5%, drift 2%/round, slow spells, heavy tails)"]
    for first in sorted({2, 3, 5, 10, start}):
        aa = simulate.calibrate(1.0, first, trials, max_rounds, seed=first, rule=rule)
        planted = simulate.calibrate(1.03, first, trials, max_rounds, seed=1000 + first, rule=rule)
        false = aa.count("faster", "slower")
        low, high = stats.clopper_pearson(false, trials)
        det = planted.count("slower")
        d_low, d_high = stats.clopper_pearson(det, trials)
        rounds = f"{float(np.median(planted.rounds)):.0f}" if planted.rounds else "–"
        lines.append(f"  start {first:>2}: A/A false positives {false / trials:.2%} [{low:.2%}, {high:.2%}], "
                     f"coverage {aa.covered / trials:.1%}, same {aa.rate('same'):.1%}; planted 3% detected "
                     f"{det / trials:.1%} [{d_low:.1%}, {d_high:.1%}] after a median of {rounds} rounds")
    return "\n".join(lines)
