"""Verdicts over hosts: each host's own decision, hosts that disagree beyond their noise said so, and a
claim that holds on one host and not on another never averaged into one verdict."""
from __future__ import annotations

import random

from conftest import FIXTURES
from versus import byhost, judge, stats
from versus.analyze import analyze
from versus.drivers.base import ProcessRun
from versus.experiment import load
from versus.items import Item
from versus.plan import make_plan
from versus.protocol import SampleRecord
from versus.record import Options, arm_row, definitions_of, plan_record
from versus.report import document, tables
from versus.store import Store

ALPHA = 0.05


def _observations(ratio: float, rounds: int, noise: float, rng: random.Random, first: int = 0) -> judge.Observations:
    """Arm 1 takes `ratio`× arm 0's time, each round's pair with its own noise (the host's drift cancels)."""
    observations: judge.Observations = {0: {}, 1: {}}
    for r in range(first, first + rounds):
        base = 100.0 * (1 + rng.uniform(-0.2, 0.2))  # the round's machine state: the same for both arms
        observations[0][r] = judge.Facts(base * (1 + rng.gauss(0, noise)))
        observations[1][r] = judge.Facts(base * ratio * (1 + rng.gauss(0, noise)))
    return observations


COMPARISON = Item("e", 1, 0)


def test_hosts_that_measure_different_ratios_disagree_and_each_keeps_its_own_verdict():
    rng = random.Random(1)
    # 24 rounds a host: from 20 on (`Rule.floor_until`), the rule trusts a host's own spread
    by_host = {"a": _observations(1.30, 24, 0.002, rng), "b": _observations(1.00, 24, 0.002, rng, first=24)}
    over = byhost.over_hosts(COMPARISON, by_host, ALPHA, 3)
    assert over is not None and over.disagree
    assert {h.host: h.decision.verdict for h in over.hosts} == {"a": "slower", "b": "same"}
    assert "different verdicts" in over.why


def test_hosts_whose_ratios_differ_beyond_their_noise_keep_a_verdict_each_reaches_alone():
    rng = random.Random(2)
    by_host = {"a": _observations(1.10, 20, 0.01, rng), "b": _observations(1.25, 20, 0.01, rng, first=20)}
    over = byhost.over_hosts(COMPARISON, by_host, ALPHA, 3, pooled="slower")
    assert over is not None and over.differ and not over.disagree and "beyond their noise" in over.why
    assert {h.decision.verdict for h in over.hosts} == {"slower"}  # both say slower: the verdict stands
    assert "each host alone reaches slower" in over.why


def test_hosts_that_measure_the_same_ratio_differ_at_the_error_rate_at_most():
    """The calibration of the comparison of hosts: with one true ratio on three hosts, the hosts are
    found to differ in α of the trials or fewer (Bonferroni over the three pairs of hosts): the rate's
    95% interval must reach down to α, and the rate itself stay below 1.5 α."""
    rng = random.Random(3)
    trials, differ = 1000, 0
    for _ in range(trials):
        by_host = {h: _observations(1.05, 10, 0.02, rng, first=10 * i) for i, h in enumerate("abc")}
        over = byhost.over_hosts(COMPARISON, by_host, ALPHA, 3)
        assert over is not None
        differ += over.differ
    low, _ = stats.clopper_pearson(differ, trials)
    assert low <= ALPHA and differ / trials <= 1.5 * ALPHA, f"{differ} of {trials}"


def test_one_host_is_no_comparison_of_hosts():
    assert byhost.over_hosts(COMPARISON, {"a": _observations(1.3, 8, 0.01, random.Random(4))}, ALPHA, 3) is None


def _two_hosts(tmp_path) -> tuple[Store, int]:
    """A session of the claims fixture whose rounds ran on two hosts: 4× on a, 7× on b."""
    store = Store(tmp_path / "v.db")
    experiment = load(FIXTURES / "claims")
    plan = make_plan([experiment], None, None, False, {"processes": 6, "inner": 100})
    session = store.new_session(1, [], {"hostname": "a"}, {}, definitions_of(plan),
                                plan_record(plan, Options([str(FIXTURES / "claims")], budget=60.0)), {})
    method = plan.methods["claims"]
    arms = [store.add_arm(session, i, arm_row(arm, method)) for i, arm in enumerate(plan.arms)]
    slow = [a.case.name for a in plan.arms].index("slow")
    rng = random.Random(5)
    for round_ in range(48):  # 24 rounds a host: from 20 on (`Rule.floor_until`), the rule trusts a host's own spread
        host, ratio = ("a", 4.0) if round_ % 2 else ("b", 7.0)  # 4×: within [3, 5] on a; 7× beyond it on b
        for index, arm in enumerate(arms):
            ns = 100 * (ratio if index == slow else 1.0) * (1 + rng.uniform(-0.01, 0.01))
            samples = [SampleRecord(int(ns * 100), 100, False) for _ in range(3)]
            store.save_run(arm, round_, ProcessRun("ok", samples=samples), host, 1)
    store.new_leg(session, "start", ["versus", "run"], "a", None, {})
    for host in ("a", "b"):
        store.add_host(session, host, {"cpu": f"cpu of {host}", "cores": 2}, {})
    store.finish_session(session, "complete")
    return store, session


def test_a_claim_that_holds_on_one_host_and_not_on_another_is_reported_so(tmp_path):
    store, session = _two_hosts(tmp_path)
    analysis = analyze(store, session)
    four = next(c for c in analysis.claims if c.claim.id == "four-times")
    assert four.verdict == byhost.DISAGREE and "different verdicts" in four.note
    (instance,) = four.instances
    assert instance.hosts is not None and {h.host: h.decision.verdict for h in instance.hosts.hosts} == \
        {"a": "holds", "b": "does not hold"}
    assert "hosts disagree" in tables.verdict_text(instance) and "on 1 the hosts disagree" in tables.claim_counts(analysis)
    shown = document.document(analysis, store.runs(session))
    claim = next(c for c in shown["claims"] if c["id"] == "four-times")
    assert claim["verdict"] == byhost.DISAGREE and claim["instances"][0]["hosts_disagree"] is True
    assert [h["verdict"] for h in claim["instances"][0]["hosts"]] == ["holds", "does not hold"]
    # the claim that fails on each host (≥ 10×: 4× on one, 7× on the other) keeps its verdict, and says
    # that the hosts measure different ratios
    ten = next(c for c in analysis.claims if c.claim.id == "ten-times")
    assert ten.verdict == "does not hold"
    (other,) = ten.instances
    assert other.hosts is not None and other.hosts.differ and not other.hosts.disagree



def test_a_session_of_several_hosts_exports_and_imports_with_its_hosts_and_legs(tmp_path, capsys):
    from versus.cli import main

    store, session = _two_hosts(tmp_path)
    out, other = tmp_path / "s.json", tmp_path / "other.db"
    assert main(["export", str(session), "--db", str(store.name), "-o", str(out)]) == 0
    assert main(["import", str(out), "--db", str(other)]) == 0
    capsys.readouterr()
    reports = []
    for database in (store.name, str(other)):
        main(["report", "1", "--db", database, "--format", "markdown"])
        reports.append(capsys.readouterr().out)
    assert reports[0] == reports[1]
    assert "hosts: 2, each a block of the paired rounds (b (cpu of b, 2 cores, 48 process runs); a (cpu of a" in reports[0]
    assert "estimates per host" in reports[0] and "hosts disagree" in reports[0]
    page = tmp_path / "report.html"
    assert main(["report", "1", "--db", str(other), "--html", str(page)]) == 0
    assert "<h3>Hosts</h3>" in page.read_text() and "estimates per host" in page.read_text()
