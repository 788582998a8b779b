"""`versus lab replay DB [SESSION]`: the scheduler run again, offline, on a world made of stored rounds,
to weigh a change to the scheduler or the rule before a make run spends an hour on it.

The world is the stored session's own process runs (and, with `--truth`, other runs' of the same arms):
each replayed round of a batch draws one stored round at random and gives every arm of the batch its
facts from that round (its time, metrics and wall time), so the arms of a pair stay paired as they ran;
an arm that did not run in the drawn round takes one of its own rounds. Only the rounds the rule judges
are drawn (those at each arm's latest warmup). The clock is the drawn processes' wall time, and the
budget the process time the run really had (`versus lab oracle`'s: its budget less its set-up), or
`--minutes`: what another budget would have bought on the same world.

It answers "how many claims would this scheduler decide with these arms' noise and costs", as a
bootstrap: a world of a few stored rounds per arm has less variety than the machine, so compare two
schedulers or rules on the same world and seeds (`--rule`, or a changed scheduler on a branch), not a
replay with a make run.
"""
from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, replace
from typing import cast

from .. import judge
from ..analyze import Analysis, ArmResult, analyze
from ..definitions import Arm, Method
from ..errors import UsageError
from ..items import groups_of, items_of
from ..plan import Plan
from ..record import load_session
from ..rule import Rule
from ..scheduler import Budget, Scheduler, large
from ..store import Target
from ..verdict import Verdict
from .oracle import oracle
from .stored import open_store, session_rule

# (facts, wall ns) of one process run
Drawn = tuple[judge.Facts, int]


@dataclass(frozen=True)
class _Arm:
    """What the scheduler reads of an arm: its key and its experiment."""

    key: str
    experiment_name: str


@dataclass(frozen=True)
class _Method:
    processes: int


class World:
    """Each arm's judged process runs by round (a round: one session's round number; `--truth` runs'
    rounds are numbered apart), drawn from at random."""

    def __init__(self, arms: list[ArmResult], others: list[Analysis]) -> None:
        self.rounds: list[dict[int, Drawn]] = []
        for arm in arms:
            found = _judged(arm, 0)
            for number, other in enumerate(others, start=1):
                for twin in other.arms:
                    if twin.key == arm.key:
                        found.update(_judged(twin, number))
            self.rounds.append(found)

    def thin(self) -> list[int]:
        """Arms with fewer than 3 rounds to draw from: their spread in the replay is the draw's, not the machine's."""
        return [i for i, found in enumerate(self.rounds) if len(found) < 3]

    def draw(self, arms: list[int], rng: random.Random) -> dict[int, Drawn]:
        common = set.intersection(*(set(self.rounds[a]) for a in arms)) if arms else set()
        shared = rng.choice(sorted(common)) if common else None
        out = {}
        for arm in arms:
            own = self.rounds[arm]
            if not own:
                continue  # never ran ok: the replay has nothing to give it, as the run had not
            out[arm] = own[shared] if shared is not None else own[rng.choice(sorted(own))]
        return out


def _judged(arm: ArmResult, source: int) -> dict[int, Drawn]:
    """The arm's ok process runs at its latest warmup (the rounds the rule judges), keyed apart by source."""
    ok = [p for p in arm.processes if p.status == "ok" and p.value is not None]
    latest = max((p.warmup for p in ok), default=0)
    return {source * 1_000_000 + p.round: (judge.Facts(p.value, p.metrics, p.wall_ns, 0), p.wall_ns)
            for p in ok if p.warmup == latest}


@dataclass(frozen=True)
class Trial:
    decided: frozenset[str]  # claims ("experiment claim-id") decided
    seconds: float  # process time spent
    processes: int
    large_open: int = 0  # comparisons estimated ≥ 2× from 1 left undecided (every one should be decided)


@dataclass(frozen=True)
class Replay:
    session: int
    rule: Rule
    available: float  # the process time each replay had: the run's, or `--minutes`
    claims: list[str]  # every measured claim
    run: frozenset[str]  # the claims the stored run decided
    chosen: frozenset[str]  # the oracle's
    trials: list[Trial]
    thin: list[str]  # arms the world has fewer than 3 rounds of
    far: frozenset[str] = frozenset()  # claims whose truth lies ≥ 2 per-round SDs from their bound (`Oracle.far`)

    def mean_decided(self) -> float:
        return statistics.fmean(len(t.decided) for t in self.trials)

    def far_share(self) -> float:
        """The mean share of the claims ≥ 2 per-round SDs from their bound that a trial decided."""
        if not self.far:
            return 0.0
        return statistics.fmean(len(t.decided & self.far) / len(self.far) for t in self.trials)

    def oracle_share(self) -> float:
        """The mean share of the oracle's claims a trial decided."""
        if not self.chosen:
            return 0.0
        return statistics.fmean(len(t.decided & self.chosen) / len(self.chosen) for t in self.trials)


def replay(path: Target, session: int | None, changes: list[str], truths: list[Target], trials: int, seed: int,
           minutes: float | None = None) -> Replay:
    """`minutes`: the process time each replay gets, where not the run's own (what a larger or smaller
    budget would have bought on the same world)."""
    store = open_store(path)
    stored = load_session(store, session)
    rule = session_rule(stored.plan, changes)
    if not stored.plan.budget:
        raise UsageError(f"session {stored.id} ran without a budget: a replay runs the scheduler within a run's budget",
                         "give a session of `make run` (or of `versus run --budget`)")
    known = oracle(path, stored.id, changes, truths or None, minutes)  # the oracle of the replays' time
    analysis = analyze(store, stored.id, rule)
    others = [analyze(open_store(other), None, rule) for other in truths]
    world = World(analysis.arms, others)
    arms = [_Arm(a.key, a.id.experiment) for a in analysis.arms]
    items = items_of(analysis.arms, analysis.experiments)
    methods = {name: _Method(stored.plan.first_look(name, rule)) for name in analysis.experiments}
    plan = Plan(cast(list[Arm], arms), cast(dict[str, Method], methods), [], dict(analysis.experiments), {}, items,
                groups_of(len(arms), items, [a.experiment_name for a in arms]))
    claims = sorted({f"{c.experiment} {c.claim.id}" for c in analysis.claims if c.instances})
    available = known.available
    out = [_trial(plan, world, rule, available, seed + number) for number in range(trials)]
    thin = [analysis.arms[i].key for i in world.thin()]
    return Replay(stored.id, rule, available, claims, frozenset(c for c in claims if known.verdicts[c].decided),
                  frozenset(known.chosen), out, thin, frozenset(known.far()))


def _trial(plan: Plan, world: World, rule: Rule, seconds: float, seed: int) -> Trial:
    rng = random.Random(seed)
    now = [0.0]
    observations: judge.Observations = {}
    scheduler = Scheduler(plan, observations, seed, Budget(seconds, started=0.0, clock=lambda: now[0]), rule=rule)
    processes = 0
    for batch in scheduler.batches():
        drawn = world.draw(batch.arms, rng)
        for arm in batch.arms:
            scheduler.done[arm].add(batch.round)
            if arm not in drawn:
                continue
            facts, wall = drawn[arm]
            now[0] += wall / 1e9
            processes += 1
            scheduler.record_wall(arm, wall)
            observations.setdefault(arm, {})[batch.round] = replace(facts)
    decisions = dict(scheduler.evaluate())
    verdicts: dict[str, set[Verdict]] = {}
    for index, item in enumerate(plan.items):
        if item.claim is not None and decisions[index].verdict != judge.NOT_APPLICABLE:
            verdicts.setdefault(f"{item.experiment} {item.claim.id}", set()).add(decisions[index].verdict)
    decided = frozenset(c for c, v in verdicts.items() if judge.claim_verdict(v) != Verdict.INCONCLUSIVE)
    large_open = sum(1 for index, item in enumerate(plan.items)
                     if item.claim is None and not decisions[index].decided and large(item, decisions[index]))
    return Trial(decided, now[0], processes, large_open)


def render(result: Replay) -> str:
    lines = [f"session {result.session}, {result.rule.describe()}",
             f"{len(result.trials)} replays of the scheduler within {result.available / 60:.1f} min of process time, "
             "on the session's own rounds drawn at random (docs/method.md, \"Replaying the scheduler\")",
             "",
             "replay | claims decided | of the oracle's | of those ≥ 2 SDs from their bound, decided | process minutes | "
             "process runs | comparisons ≥ 2× left open"]
    for number, trial in enumerate(result.trials, start=1):
        share = len(trial.decided & result.chosen)
        far = len(trial.decided & result.far)
        lines.append(f"{number} | {len(trial.decided)} of {len(result.claims)} | {share} of {len(result.chosen)} | "
                     f"{far} of {len(result.far)} | {trial.seconds / 60:.1f} | {trial.processes} | {trial.large_open}")
    lines += ["", f"mean: {result.mean_decided():.1f} claims decided, {result.oracle_share():.0%} of the oracle's "
                  f"{len(result.chosen)}; the run itself decided {len(result.run)}",
              f"claims ≥ 2 per-round SDs from their bound decided: {result.far_share():.0%} of {len(result.far)} "
              f"(the run itself: {len(result.run & result.far)})"]
    counts = {c: sum(c in t.decided for t in result.trials) for c in result.claims}
    lines += ["", "claim | replays that decided it | the run"]
    lines += [f"{c} | {counts[c]} of {len(result.trials)} | {'decided' if c in result.run else 'open'}"
              for c in result.claims]
    if result.thin:
        lines += ["", f"{len(result.thin)} arms have fewer than 3 rounds to draw from (their spread here is the "
                      "draw's; give other runs' databases with --truth): " + ", ".join(result.thin)]
    return "\n".join(lines)
