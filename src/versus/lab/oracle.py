"""`versus lab oracle DB [SESSION]`: which claims an all-knowing fixed-size test could decide within a
stored run's budget from that run's own spread, how many of those the run decided, and how many rounds
its decisions took against what that test needs (docs/method.md, "The fixed-size oracle").

For each claim pair the run's own rounds (those the rule analyses: `stored.pair_rounds`) give the truth:
the rule's trimmed location of them is the ratio, and its per-round spread the spread. The oracle
knows both, but must still be a valid test: ONE test after a number of rounds fixed in advance, at the
pair's α (its Bonferroni share of its experiment's claims, with the claim's intersection–union share,
as `judge.Shares` gives them; one-sided for one bound), with the rule's degrees of freedom (its trim)
and its floor on the per-round spread below `floor_until` rounds, and at least `first_look` rounds.
Its n is the least number of rounds at which, the estimate landing on the truth (the median case: it
decides with 50% power), the interval decides. Its cost is n rounds of each arm at the median wall
time of the arm's processes; the claims are then taken cheapest-first (`claimset`) within the
process time the run really had.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass

from scipy import stats as distributions

from .. import judge, stats
from ..analyze import Analysis, Judged, analyze
from ..errors import UsageError
from ..items import items_of
from ..record import load_session
from ..rule import Rule
from ..store import Target
from ..verdict import Verdict
from . import claimset
from .feasibility import Pooled, collect
from .stored import Rounds, initial_of, open_store, pair_rounds, round_seconds, session_rule, start_of

TARGET_SHARE = 0.9  # the target: 90% of the claims the oracle decides
TARGET_RATIO = 1.5  # and rounds to a decision at most 1.5× the oracle's on average
FAR = 2.0  # per-round SDs between a claim's truth and its bound past which every run must decide it
LIMIT = 1_000_000  # rounds past which a fixed-size test is said not to decide at all


def fixed_size_rounds(center: float, spread: float, criterion: stats.Criterion, alpha: float, rule: Rule,
                      scale: str = "log", exact: bool = False, limit: int = LIMIT) -> int | None:
    """The least n at which one fixed-size test at `alpha` decides when its estimate is `center` and
    the per-round spread `spread` (on the analysis scale); None where no n up to `limit` does (an
    estimate on its threshold). The rule's trim sets the degrees of freedom, and below `floor_until`
    rounds the spread is at least the rule's floor (log scale only, and not for exact rounds, as
    stats.sequential does); exact rounds decide at 2."""
    tails = criterion.tails(alpha)
    if exact or spread <= 0:
        decided = criterion.verdict(center, center) is not None
        if not decided:
            return None
        if exact:
            return 2
    margin = criterion.margin(center)
    if margin <= 0:
        return None
    # A t quantile exceeds the normal one and the floor only widens: n cannot be below the z-test's n.
    z = float(distributions.norm.ppf(1 - max(tails)))
    least = max(rule.first_look, math.floor((z * spread / margin) ** 2) if spread > 0 else rule.first_look)
    for n in range(least, limit + 1):
        unit = max(spread, rule.floor_at(n)) if scale == "log" else spread
        location = stats.Location(center, unit / math.sqrt(n), stats.trimmed_df(n, rule), n)
        if criterion.verdict(*stats.bounds(location, *tails)) is not None:
            return n
    return None


@dataclass(frozen=True)
class Pair:
    """One claim pair: the run's truth for it, the oracle's n, and what the run decided."""

    claim: str  # "experiment claim-id"
    label: str
    arms: tuple[str, ...]
    rounds: int  # the rounds behind the truth
    estimate: float | None  # on the ratio (or value) scale
    spread: float  # per round, on the analysis scale
    n: int | None  # the oracle's rounds; None: no fixed-size test decides it
    outside: bool  # the estimate lies outside the claim's bound
    decision: stats.Decision
    note: str = ""  # why it has no truth
    truth: str = ""  # where its truth came from, when not from this run
    distance: float = 0.0  # from the truth to the nearest edge of a deciding region, in per-round SDs
    next_look: int | None = None  # the rule's first look past its rounds (None: past the design's end)

    @property
    def need(self) -> claimset.Need:
        return claimset.Need(self.arms, self.n, self.outside)


@dataclass(frozen=True)
class Oracle:
    session: int
    rule: Rule
    budget: float  # seconds: the stored plan's, or the sum of its legs' (a session continued with --more)
    setup: float  # the run's time outside process runs
    first: float  # process seconds of every arm's first rounds
    pairs: list[Pair]
    order: list[tuple[str, float]]  # every claim, cheapest first, with the seconds it adds
    chosen: list[str]  # the claims the oracle decides within the budget
    verdicts: dict[str, Verdict]  # the run's verdict of every measured claim
    minutes: float | None = None  # the process time asked for (`--minutes`), where not the run's own
    # Under a rule other than the session's own (--rule): the pairs its own rule decided that this one
    # leaves open on the rounds stored. The run stopped feeding them once decided, so how many rounds this
    # rule would have taken is unknown, and leaving them out of the average would flatter a stricter rule.
    censored: tuple[Pair, ...] = ()

    @property
    def available(self) -> float:
        return process_time(self.budget, self.setup, self.minutes)

    @property
    def decided(self) -> list[str]:
        return [c for c in self.chosen if self.verdicts[c].decided]

    def far(self) -> list[str]:
        """Claims whose truth lies ≥ FAR per-round SDs from their bound: one that does not hold by a
        pair that far outside, or one whose every pair is that far inside (the issue's "decided in
        every run"). A claim with a pair lacking a truth is not weighed."""
        pairs: dict[str, list[Pair]] = {}
        for pair in self.pairs:
            pairs.setdefault(pair.claim, []).append(pair)
        out = []
        for claim, members in pairs.items():
            if any(p.note for p in members):
                continue
            outside = [p for p in members if p.outside]
            if (any(p.distance >= FAR for p in outside) if outside
                    else all(p.distance >= FAR for p in members)):
                out.append(claim)
        return out

    def ratios(self) -> list[tuple[Pair, float | None]]:
        """Every pair the run decided, with its rounds ÷ the oracle's n (None where the oracle has none)."""
        return [(p, p.decision.n / p.n if p.n else None) for p in self.pairs if p.decision.decided]

    def censored_ratios(self) -> list[float | None]:
        """Each censored pair at the least it could have taken: its rule's first look past the rounds
        stored, ÷ the oracle's n (None where the design has no later look, or the oracle no n)."""
        return [p.next_look / p.n if p.next_look and p.n else None for p in self.censored]


def process_time(budget: float, setup: float, minutes: float | None) -> float:
    """The process time the run really had (its budget less its set-up), or the minutes asked for."""
    return budget - setup if minutes is None else minutes * 60


def oracle(path: Target, session: int | None, changes: list[str], truths: list[Target] | None = None,
           minutes: float | None = None) -> Oracle:
    """`truths`: other runs' databases, whose pooled rounds stand in for a pair's truth and an arm's
    cost where this run has too few rounds of it (a budgeted run looks only where it chooses to).
    `minutes`: the process time the oracle gets, where not the run's own (what a larger or smaller
    budget would have allowed: the measure of `versus lab replay --minutes`)."""
    for other in truths or []:
        open_store(other)  # every database is there before any is analysed
    store = open_store(path)
    stored = load_session(store, session)
    plan = stored.plan
    if not plan.budget:
        raise UsageError(f"session {stored.id} ran without a budget: the oracle asks what its budget allowed",
                         "give a session of `make run` (or of `versus run --budget`)")
    rule = session_rule(plan, changes)
    analysis = analyze(store, stored.id, rule)
    if not any(claim.instances for claim in analysis.claims):
        raise UsageError(f"session {stored.id} measured no claim: the oracle weighs a run's claims",
                         "give a session of `make run`; `versus sessions --db DB` lists them")
    runs = store.runs(stored.id)
    walls = sum(r.wall_ns for r in runs) / 1e9
    end = max((r.started + r.wall_ns / 1e9 for r in runs), default=float(stored.created or 0.0))
    # A session continued with --more had each leg's budget and the time its legs ran, not the time
    # between them; a --resume leg goes on within the budget of the leg it resumes.
    legs = store.legs(stored.id)
    budget = sum(g.budget for g in legs if g.kind != "resume" and g.budget) or float(plan.budget)
    spans = sum((g.finished or end) - g.started for g in legs) if len(legs) > 1 else end - float(stored.created or 0.0)
    setup = max(0.0, spans - walls)
    # what the run's design spends before it chooses (every arm's first round, or before the scheduler
    # chose, all its processes), at what it really cost; an arm that did not get all of them owes the rest
    initial = {arm.row_id: initial_of(plan, arm.id.experiment, rule) for arm in analysis.arms}
    first = sum(r.wall_ns / 1e9 for r in runs if r.round < initial[r.arm_id])
    pooled: dict[tuple[str, str], Pooled] = {}
    elsewhere: dict[str, list[float]] = {}  # each arm's wall times in the --truth runs
    if truths:
        pooled, elsewhere, _, _ = collect(truths, rule)
    pairs = _pairs(analysis, rule, pooled)
    seconds = {arm.key: round_seconds(arm) if arm.processes or arm.key not in elsewhere
               else statistics.median(elsewhere[arm.key]) for arm in analysis.arms}
    ran = {arm.key: float(min(initial[arm.row_id], sum(1 for p in arm.processes if p.round < initial[arm.row_id])))
           for arm in analysis.arms}
    claims: dict[str, list[claimset.Need]] = {}
    for pair in pairs:
        claims.setdefault(pair.claim, []).append(pair.need)
    order = list(claimset.cheapest_first(claims, ran, seconds))
    chosen, total = [], first
    available = process_time(budget, setup, minutes)
    for claim, cost in order:
        if total + cost > available:
            break
        chosen.append(claim)
        total += cost
    verdicts = {f"{c.experiment} {c.claim.id}": c.verdict for c in analysis.claims if c.instances}
    censored: tuple[Pair, ...] = ()
    own = session_rule(plan, [])
    if rule != own:
        decided = {(f"{c.experiment} {c.claim.id}", " ÷ ".join(_arms(j)))
                   for c in analyze(store, stored.id, own).claims for j in c.instances if j.decision.decided}
        censored = tuple(p for p in pairs if not p.decision.decided and (p.claim, p.label) in decided)
    return Oracle(stored.id, rule, budget, setup, first, pairs, order, chosen, verdicts, minutes, censored)


def _arms(judged: Judged) -> tuple[str, ...]:
    """A claim pair's arms, numerator first (one for a claim on one arm's value)."""
    return tuple(a.key for a in (judged.numerator, judged.denominator) if a is not None)


def _pairs(analysis: Analysis, rule: Rule, pooled: Mapping[tuple[str, str], Pooled]) -> list[Pair]:
    plan = analysis.session.plan
    shares = judge.Shares.of(items_of(analysis.arms, analysis.experiments), rule)
    out = []
    for claim in analysis.claims:
        for judged in claim.instances:
            item = judged.item
            arms = _arms(judged)
            label = " ÷ ".join(arms)
            name = f"{claim.experiment} {claim.claim.id}"
            found = pair_rounds(judged, start_of(plan, item.experiment, rule), rule)
            other = pooled.get((name, label))
            truth = ""
            if found is None or len(found.units) < rule.first_look and not (found.exact and len(found.units) >= 2):
                if other is not None and len(other.units) >= rule.first_look:
                    found = Rounds(tuple(other.units), other.scale)
                    truth = f"truth from --truth runs ({len(other.units)} rounds)"
                else:
                    note = "no ratio (a value ≤ 0)" if found is None else \
                        f"{len(found.units)} round{'s' if len(found.units) != 1 else ''} analysed: too few for a truth"
                    out.append(Pair(name, label, arms, 0 if found is None else len(found.units), None, 0.0, None, False,
                                    judged.decision, note))
                    continue
            later = [n for n in rule.design(start_of(plan, item.experiment, rule)) if n > len(found.units)]
            location = stats.trimmed_location(found.units, rule=rule)
            spread = 0.0 if found.exact else location.unit_sd
            if truth and other is not None and not found.exact and len(other.residuals) > 2:
                spread = stats.trimmed_location(other.residuals, rule=rule).unit_sd  # within a session
            criterion = judge.criterion_of(item, found.scale, shares.pairs(item), rule.delta)
            n = fixed_size_rounds(location.center, spread, criterion, shares.alpha_of(item), rule, found.scale,
                                  found.exact)
            estimate = math.exp(location.center) if found.scale == "log" else location.center
            outside = criterion.verdict(location.center, location.center) == Verdict.DOES_NOT_HOLD
            margin = criterion.margin(location.center)
            distance = margin / spread if spread > 0 else (math.inf if margin > 0 else 0.0)
            out.append(Pair(name, label, arms, len(found.units), estimate, spread, n, outside, judged.decision, "", truth,
                            distance, later[0] if later else None))
    return out


def render(result: Oracle) -> str:
    lines = [f"session {result.session}, {result.rule.describe()}",
             f"budget {result.budget / 60:.1f} min, set-up (time outside process runs) {result.setup / 60:.1f} min: "
             f"{(result.budget - result.setup) / 60:.1f} min of process time, of which every arm's first rounds took "
             f"{result.first / 60:.1f} min" + ("" if result.minutes is None else
                                               f"; the oracle here gets {result.available / 60:.1f} min (--minutes)"),
             "",
             "claim | pair | rounds | estimate | per-round SD | oracle's n | the run: verdict after rounds"]
    for pair in result.pairs:
        estimate = f"{pair.estimate:.4g}" if pair.estimate is not None else pair.note
        n = str(pair.n) if pair.n is not None else ("–" if pair.note else "none (on its bound)")
        lines.append(f"{pair.claim} | {pair.label} | {pair.rounds} | {estimate} | {pair.spread:.3f} | {n} | "
                     f"{pair.decision.verdict} after {pair.decision.n}" + (f" ({pair.truth})" if pair.truth else ""))
    lines += ["", "claims cheapest first: process minutes each adds (arms shared with claims before it run once), "
              "and the total with every arm's first rounds"]
    total = result.first
    chosen = set(result.chosen)
    untold = {p.claim for p in result.pairs if p.note}
    for rank, (claim, cost) in enumerate(result.order, 1):
        if math.isinf(cost):
            why = ("too few rounds for a truth" if claim in untold else
                   "its truth sits on its bound: no fixed-size test decides it")
            lines.append(f"{rank:3d} {claim}: {why}; the run: {result.verdicts[claim]}")
            continue
        total += cost
        mark = "" if claim in chosen else "  (beyond the budget)"
        lines.append(f"{rank:3d} {claim}: {cost / 60:.2f} min, total {total / 60:.2f} min; the run: "
                     f"{result.verdicts[claim]}{mark}")
    decided = result.decided
    share = f"{len(decided) / len(result.chosen):.0%}" if result.chosen else "–"
    lines += ["", f"the oracle decides {len(result.chosen)} of {len(result.verdicts)} claims within "
              f"{result.available / 60:.1f} min of process time: {', '.join(result.chosen) or 'none'}"]
    without = sorted({p.claim for p in result.pairs if p.note})
    if without:
        lines.append(f"{len(without)} claims have a pair with too few rounds here for a truth: the oracle cannot weigh "
                     f"them (give other runs' databases with --truth): {', '.join(without)}")
    missed = [c for c in result.chosen if c not in decided]
    lines.append(f"the run decided {len(decided)} of them: {share} (target ≥ {TARGET_SHARE:.0%})"
                 + (f"; not: {', '.join(missed)}" if missed else ""))
    far = result.far()
    left = [c for c in far if not result.verdicts[c].decided]
    unweighed = [c for c in without if not result.verdicts[c].decided]
    lines.append(f"claims whose truth lies ≥ {FAR:g} per-round SDs from their bound: {len(far)}; the run decided "
                 f"{len(far) - len(left)} of them (target: all)" + (f"; not: {', '.join(left)}" if left else "")
                 # an open claim the run starved below a truth is not in the set: say so beside the count it flatters
                 + (f"; open and not weighed (too few rounds for a truth): {', '.join(unweighed)}" if unweighed else ""))
    beyond = [c for c, v in result.verdicts.items() if v.decided and c not in chosen]
    if beyond:
        lines.append(f"decided by the run beyond the oracle's set: {', '.join(beyond)}")
    ratios = result.ratios()
    lines += ["", "claim pairs the run decided: its rounds ÷ the oracle's n"]
    for pair, ratio in ratios:
        shown = f"{ratio:.2f}×" if ratio is not None else "– (no oracle n)"
        lines.append(f"{pair.claim} | {pair.label} | {pair.decision.n} ÷ {pair.n if pair.n else '–'} = {shown}")
    known = [r for _, r in ratios if r is not None]
    if known:
        lines.append(f"average {statistics.fmean(known):.2f}× over {len(known)} decided pairs (median "
                     f"{statistics.median(known):.2f}×; target ≤ {TARGET_RATIO:g}×)")
    else:
        lines.append("no decided pair has an oracle n")
    if result.censored:
        at_least = [r for r in result.censored_ratios() if r is not None]
        lines += ["", f"{len(result.censored)} pairs the session's own rule decided are open under this rule on the "
                  "rounds stored (the run stopped feeding them once decided): each at least its next look ÷ the oracle's n"]
        for pair, ratio in zip(result.censored, result.censored_ratios()):
            shown = f"≥ {ratio:.2f}×" if ratio is not None else "– (no later look, or no oracle n)"
            lines.append(f"{pair.claim} | {pair.label} | {pair.next_look or '–'} ÷ {pair.n or '–'} = {shown}")
        if known:
            counted = known + at_least
            lines.append(f"average with them: at least {statistics.fmean(counted):.2f}× over {len(counted)} pairs "
                         f"(target ≤ {TARGET_RATIO:g}×); only a run under this rule says how many rounds they take")
    return "\n".join(lines)
