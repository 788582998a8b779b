"""Specs, selectors, check expressions, and protocol parsing."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from versus.errors import ExperimentError, UsageError
from versus.expr import evaluate
from versus.protocol import ProtocolViolation, parse
from versus.rule import CURRENT
from versus.runtimes import family
from versus.runtimes.model import Runtime, version_matches
from versus.runtimes.spec import parse_spec
from versus.selectors import matches


def test_specs_round_trip():
    for text in ("cpython@3.11", "jython@2.7.4/java@25", "cruby@3.1+yjit", "jruby@9.4.14.0+int/java@17", "pypy"):
        assert str(parse_spec(text)) == text


@pytest.mark.parametrize("bad,hint", [("cpython@@3", "family@version"), ("cobol@1", "families are"),
                                      ("cruby@3.1+turbo", "flags for cruby"), ("cpython@3.11/java@17", "drop")])
def test_bad_specs_say_how_to_fix(bad, hint):
    with pytest.raises(UsageError) as error:
        parse_spec(bad)
    assert hint in str(error.value)


def test_version_prefix_is_by_component():
    assert version_matches("3.1", "3.1.2") and not version_matches("3.1", "3.11.7")
    assert version_matches("1", "1.7.27") and not version_matches("1", "10.1.1.0")


def runtime(name: str, version: str, flags: tuple[str, ...] = (), jdk: str = "17.0.15") -> Runtime:
    return Runtime(name, version, Path("/x"), "test", flags, jdk)


def test_selectors():
    assert matches("jruby@1", runtime("jruby", "1.7.27"))
    assert not matches("jruby@1", runtime("jruby", "10.1.1.0"))
    assert matches("jython@>=2.5.1", runtime("jython", "2.7.4"))
    assert not matches("jython@>=2.5.1", runtime("jython", "2.5.0"))
    assert not matches("jython@>=2.5.1", runtime("jython", "2.5.1", ("pythreading",)))
    assert matches("jython", runtime("jython", "2.5.1", ("pythreading",)), strict_flags=False)
    assert matches("jruby/java@25", runtime("jruby", "10.1.1.0", jdk="25.0.3"))
    assert not matches("jruby/java@25", runtime("jruby", "10.1.1.0", jdk="17.0.15"))


def test_expressions():
    assert evaluate("tasks * rounds * calls", {"tasks": "40", "rounds": 5, "calls": "10000"}) == 2_000_000
    with pytest.raises(ExperimentError, match="not a parameter"):
        evaluate("tasks * nope", {"tasks": 1})
    with pytest.raises(ExperimentError, match="other than arithmetic"):
        evaluate("__import__('os')", {})


HELLO = '@versus {"v":1,"type":"hello","runtime":"x","version":"1","clock":"c"}'


def test_parse_keeps_log_lines_and_reads_messages():
    out = parse("\n".join([HELLO, "hi", '@versus {"type":"sample","case":"a","ns":5,"inner":2,"warmup":true}',
                           '@versus {"type":"metric","case":"a","name":"size","value":242,"unit":"bytes"}',
                           '@versus {"type":"end"}']), "a")
    assert out.ended and out.log == ["hi"] and out.samples[0].warmup and out.metrics == [("size", 242.0, "bytes")]


@pytest.mark.parametrize("line,reason", [
    ('@versus {"type":"sample","case":"a","ns":-1,"inner":1}', "0 ≤ ns < 2"),
    ('@versus {"type":"sample","case":"a","ns":9223372036854775808,"inner":1}', "0 ≤ ns < 2"),
    ('@versus {"type":"sample","case":"a","ns":1,"inner":9223372036854775808}', "1 ≤ inner < 2"),
    ('@versus {"type":"metric","case":"a","name":"m","value":NaN}', "malformed JSON"),
    ('@versus {"type":"metric","case":"a","name":"m","value":1e400}', "finite"),
    ('@versus {"type":"metric","case":"a","name":"m","value":' + "9" * 400 + '}', "finite"),
    ('@versus ' + "[" * 100000 + "]" * 100000, "malformed JSON"),
    ('@versus {"type":"sample","case":"a","ns":1.5,"inner":1}', "must be an integer"),
    ('@versus {"type":"sample","case":"b","ns":1,"inner":1}', "expected 'a'"),
    ('@versus {"type":"bogus","case":"a"}', "unknown message type"),
    ('@versus [1]', "not an object"),
])
def test_parse_rejects(line, reason):
    with pytest.raises(ProtocolViolation, match=reason):
        parse(HELLO + "\n" + line, "a")


def test_messages_before_hello_and_after_end_are_violations():
    with pytest.raises(ProtocolViolation, match="before `hello`"):
        parse('@versus {"type":"end"}', None)
    with pytest.raises(ProtocolViolation, match="after `end`"):
        parse(HELLO + '\n@versus {"type":"end"}\n@versus {"type":"end"}', None)


@pytest.mark.parametrize("version,flag,jvm,mode", [("1.0", "int", ["-Djruby.jit.enabled=false"], []),
                                                   ("1.0", "jit", [], ["-C"]),
                                                   ("1.7.27", "int", [], ["-X-C"]),
                                                   ("10.1.1.0", "jit", [], ["-X+C"])])
def test_jruby_modes_are_spelled_per_version(version, flag, jvm, mode):
    """Regression: JRuby 1.0 rejects -X-C/-X+C ("unknown option X"); in 1.7+ -C means cd."""
    rt = Runtime("jruby", version, Path("/java"), "test", (flag,), "17.0.15", jar=Path("/jruby.jar"))
    argv, _ = family("jruby").launch(rt, Path("/p.rb"), None, Path("/helpers"))
    assert argv[1 : 1 + len(jvm)] == jvm
    jar_at = argv.index("/jruby.jar")
    assert argv[jar_at + 1 : jar_at + 1 + len(mode)] == mode and argv[jar_at + 1 + len(mode)] == "-I"


def test_a_case_can_leave_out_a_flagged_runtime():
    from versus.selectors import selected

    assert selected(("jython",), runtime("jython", "2.5.0", ("c1",)))
    assert not selected(("jython", "!jython+c1"), runtime("jython", "2.5.0", ("c1",)))
    assert selected(("jython", "!jython+c1"), runtime("jython", "2.5.0"))
    assert selected(("!java",), runtime("jython", "2.7.4"))


def test_an_arm_that_never_reports_the_metric_is_not_a_pair_of_the_claim():
    from versus.experiment import Claim, Side
    from versus.items import Item
    from versus.judge import NOT_APPLICABLE, Facts, judge

    claim = Claim(id="c", statement="", source="", numerator=Side(case="w", runtime="rust"), metric="short", min=0.65)
    item = Item("e", 0, None, claim)
    assert judge(item, {0: {0: Facts(1.0, {"other": 1.0})}}, 0.05, 3).verdict == NOT_APPLICABLE
    assert judge(item, {0: {r: Facts(1.0, {"short": 0.8}) for r in range(3)}}, 0.05, 3).verdict == "holds"


def _pair(ratios: list[float], warmups: list[int]):
    from versus.judge import Facts

    top = {r: Facts(ratio, {}, 0, w) for r, (ratio, w) in enumerate(zip(ratios, warmups))}
    bottom = {r: Facts(1.0, {}, 0, w) for r, w in enumerate(warmups)}
    return {0: top, 1: bottom}


def test_rounds_before_the_last_warmup_raise_are_left_out_of_a_verdict():
    """Jython 2.5.1 against 2.5.0 (make run, 2026-11-24): 7× in the rounds after 2 warmup samples,
    about 25× after 16. Pooled, the rounds disagree and nothing is decided; the settled rounds decide."""
    from versus.experiment import Claim, Side
    from versus.items import Item
    from versus.judge import judge

    claim = Claim(id="c", statement="", source="", numerator=Side(case="a", runtime="x"),
                  denominator=Side(case="a", runtime="y"), min=20)
    item = Item("e", 0, 1, claim)
    after = [25.0, 26.0, 24.5, 25.5, 24.0, 26.5, 25.0, 25.2, 24.8, 25.6]
    observations = _pair([7.0, 6.5, *after], [2, 8] + [16] * len(after))
    # the floor of few rounds ended at 10 rounds then: what settling does is what this test is about
    rule = CURRENT.replace(floor_until=10)
    settled = judge(item, observations, 0.05, 3, rule)
    # its first look past the floor of few rounds (docs/method.md)
    assert settled.verdict == "holds" and settled.n == 10 and settled.left_out == 2
    pooled = judge(item, observations, 0.05, 3, rule.replace(settle=False))  # every round, as before the rule
    assert pooled.verdict == "inconclusive" and pooled.n == 12 and pooled.left_out == 0
    early = judge(item, _pair([7.0, 6.5, 25.0], [2, 8, 16]), 0.05, 3)
    assert early.interval is None and "(2 earlier rounds, before a warmup raise, left out)" in early.note


def test_looks_taken_on_left_out_rounds_keep_their_alpha_spent():
    """A segment long enough to be looked at spent its share of α: the settled rounds' first look gets
    what the next look may spend, so the error rate over every look still sums to at most α."""
    from versus import stats
    from versus.judge import settled

    levels = dict(enumerate([1, 1, 1, 1, 4, 4, 4, 4, 4, 8, 8, 8]))
    kept, spent = settled([levels], 3)
    assert kept == [9, 10, 11]
    assert spent == 2 + 3  # 4 rounds at warmup 1 reached the looks at 3 and 4; 5 at warmup 4, those at 3, 4, 5
    units = [0.1, 0.12, 0.11]
    fresh = stats.sequential(units, stats.Comparison(), 0.05, 3)
    after = stats.sequential(units, stats.Comparison(), 0.05, 3, spent=spent)
    weights = CURRENT.weights or (1.0,) * len(CURRENT.design(3))  # the looks from 3 rounds on: all of them
    assert fresh.level == pytest.approx(1 - 0.05 * weights[0] / sum(weights))
    # each look left out is charged the design's largest share
    assert after.level == pytest.approx(1 - 0.05 * weights[0] / (sum(weights) + spent * max(weights)))


def test_a_raise_costs_only_the_pairs_of_the_arm_raised():
    """Arm 0 raised after round 1, arm 1 never: the pair keeps the rounds in which both ran their
    latest warmup; a round where one arm failed counts for neither segment."""
    from versus.judge import settled

    raised = {0: 2, 1: 8, 2: 16, 3: 16, 4: 16}
    steady_ = {0: 2, 1: 2, 2: 2, 4: 2}  # round 3 failed
    assert settled([raised, steady_], 3) == ([2, 3, 4], 0)
    assert settled([steady_, {r: 2 for r in range(5)}], 3) == ([0, 1, 2, 3, 4], 0)


def test_a_claims_pairs_share_its_alpha_and_test_holds_at_their_sum():
    """Intersection–union (judge.Shares): an experiment with a claim over 3 pairs and one over 1
    splits α over its 4 pairs, but the first claim's end that can only say "holds" is tested at its
    3 pairs' share. The same rounds decide "holds" for the 3-pair claim, not for a lone pair."""
    from versus.experiment import Claim, Side
    from versus.items import Item
    from versus.judge import Facts, Shares, judge

    def claim(name: str) -> Claim:
        return Claim(id=name, statement="", source="", numerator=Side(case="a", runtime="x"),
                     denominator=Side(case="a", runtime="y"), min=1.5)

    wide, lone = claim("wide"), claim("lone")
    items = [Item("e", 0, 1, wide), Item("e", 2, 3, wide), Item("e", 4, 5, wide), Item("e", 6, 7, lone),
             Item("other", 0, 1, claim("wide")), Item("e", 0, 1)]
    shares = Shares.of(items)
    assert [shares.pairs(i) for i in items] == [3, 3, 3, 1, 1, 1]
    assert shares.alpha_of(items[0]) == shares.alpha_of(items[3]) == 0.05 / 4 and shares.alpha_of(items[5]) == 0.05
    stored = CURRENT.replace(intersection_union=False)  # sessions stored before it
    assert [Shares.of(items, stored).pairs(i) for i in items] == [1] * 6
    # ten rounds around 2.3× with a spread of 0.33: at the look of 10 the claim's "holds" end, tested
    # at 3 pairs' share, clears 1.5; a lone pair's does not
    spread = [-1.5, -1.0, -0.6, -0.3, 0.0, 0.0, 0.3, 0.6, 1.0, 1.5]
    ratios = [2.3 * math.exp(0.33 * z) for z in spread]
    observations = {0: {r: Facts(v) for r, v in enumerate(ratios)}, 1: {r: Facts(1.0) for r in range(10)}}
    as_wide = judge(items[0], observations, shares.alpha_of(items[0]), 3, pairs=3)
    as_lone = judge(items[0], observations, shares.alpha_of(items[0]), 3, pairs=1)
    assert (as_wide.verdict, as_lone.verdict) == ("holds", "inconclusive")
    assert as_wide.sides is not None and as_wide.sides[0] < as_wide.sides[1] and as_wide.asymmetric
