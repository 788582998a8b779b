"""The rule as a value: stored with each session, read back as it was, changed only by asking
(`versus report N --rule …`); sessions stored before it judged by the rule they ran with; and a
verdict that hangs on an analysis choice flagged in every report format."""
from __future__ import annotations

import html
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from versus import stats
from versus.analyze import analyze
from versus.cli import main
from versus.executor import Completed
from versus.experiment import load
from versus.plan import make_plan
from versus.record import Options, arm_row, definitions_of, plan_record, versus_info
from versus.rule import CURRENT, Rule, with_overrides
from versus.runner import Job, run_session
from versus.scheduler import Budget, Scheduler
from versus.store import Store

LEGACY = FIXTURES / "db-0.1.0"  # versus 0.1.0 (eddfbcc, schema 3): its README


def _subset_diff(old: Any, new: Any, path: str = "") -> list[str]:
    """Where `new` differs from `old` in anything `old` has (new keys are allowed)."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{path}: not an object"]
        return [d for key in old for d in (_subset_diff(old[key], new[key], f"{path}.{key}") if key in new
                                           else [f"{path}.{key}: missing"])]
    if isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            return [f"{path}: a list of another length"]
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True)) for d in _subset_diff(a, b, f"{path}[{i}]")]
    return [] if old == new else [f"{path}: {old!r} became {new!r}"]


@pytest.mark.parametrize("session", [1, 2])
def test_a_session_stored_before_the_rule_was_a_value_reports_exactly_as_before(tmp_path, capsys, session):
    """A database written by main at eddfbcc (format 3, before rule.py): every figure and verdict of its
    report JSON then is in today's report, unchanged (today's report may add keys, never change one)."""
    db = tmp_path / "old.db"
    shutil.copy(LEGACY / "v3-eddfbcc.db", db)
    assert main(["report", str(session), "--db", str(db), "--format", "json"]) in (0, 4)
    today = json.loads(capsys.readouterr().out)
    then = json.loads((LEGACY / f"v3-eddfbcc-session-{session}.json").read_text())
    assert _subset_diff(then, today) == []
    assert today["rule"]["version"] == 1 and today["rule"]["spending"] == "harmonic"


RULE_V2 = FIXTURES / "rule-v2-6dea88d"  # main at 6dea88d: rule v2, the floor to 10 rounds, history: its README


@pytest.mark.parametrize("session", [1, 2, 3, 4])
def test_a_session_stored_before_the_floor_to_twenty_rounds_reports_byte_for_byte_as_then(tmp_path, capsys, session):
    """A database written by main at 6dea88d (2026-11-29): each session's JSON and Markdown reports by
    today's versus are the files that versus printed, byte for byte, learned spreads and all."""
    db = tmp_path / "v2.db"
    shutil.copy(RULE_V2 / "versus.db", db)
    for form, suffix in (("json", "json"), ("markdown", "md")):
        assert main(["report", str(session), "--db", str(db), "--format", form]) == 0
        assert capsys.readouterr().out == (RULE_V2 / f"report-{session}.{suffix}").read_text()


def test_the_rule_of_today_leaves_open_what_the_floor_to_ten_rounds_decided(tmp_path, capsys):
    db = tmp_path / "v2.db"
    shutil.copy(RULE_V2 / "versus.db", db)
    assert main(["report", "4", "--db", str(db), "--format", "json"]) == 0
    then = {c["id"]: c for c in json.loads(capsys.readouterr().out)["claims"]}
    assert then["four-times"]["verdict"] == "holds" and then["four-times"]["instances"][0]["rounds"] == 10
    assert main(["report", "4", "--db", str(db), "--format", "json", "--rule", "today"]) == 0
    today = json.loads(capsys.readouterr().out)
    claims = {c["id"]: c for c in today["claims"]}
    assert today["rule"]["floor_until"] == CURRENT.floor_until == 20
    assert claims["four-times"]["verdict"] == "inconclusive"  # 10 rounds: the floor still holds
    assert claims["ten-times"]["verdict"] == "does not hold"  # 4× against ≥ 10×: far enough for any floor


def test_report_rule_judges_the_same_rounds_by_another_rule(tmp_path, capsys):
    db = tmp_path / "old.db"
    shutil.copy(LEGACY / "v3-eddfbcc.db", db)
    assert main(["report", "1", "--db", str(db), "--format", "json", "--rule", "today"]) in (0, 4)
    today = json.loads(capsys.readouterr().out)
    assert today["rule"] == CURRENT.replace(sequential=True).to_dict()
    assert main(["report", "1", "--db", str(db), "--format", "json", "--rule", "value=median",
                 "--rule", "alpha=0.01"]) in (0, 4)
    changed = json.loads(capsys.readouterr().out)["rule"]
    assert (changed["value"], changed["alpha"], changed["version"]) == ("median", 0.01, 1)


@pytest.mark.parametrize("bad, said", [
    ("floor=zero", "floor must be a number, not 'zero'"), ("colour=red", "KEY one of alpha"),
    ("alpha=2", "alpha must lie between 0 and 1"), ("settle=yes", "settle must be true or false"),
    ("looks=[5, 3]", "looks must be increasing"), ("value=mean", "value must be one of median, min"),
    ("weights=[2, 1]", "weights must give one number > 0 for each of the"),
])
def test_a_bad_rule_field_is_a_usage_error_that_says_how_to_fix_it(tmp_path, capsys, bad, said):
    db = tmp_path / "old.db"
    shutil.copy(LEGACY / "v3-eddfbcc.db", db)
    assert main(["report", "1", "--db", str(db), "--rule", bad]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_the_rule_round_trips_and_a_stored_one_wins_over_today():
    assert Rule.from_dict(CURRENT.to_dict()) == CURRENT
    stored = CURRENT.replace(alpha=0.01, floor=0.3, trims=((0, 0.0), (30, 0.25)))
    assert Rule.of({"rule": json.loads(json.dumps(stored.to_dict()))}) == stored
    assert Rule.of({"methods": {"x": {}}, "settled": True}).version == 1  # no stored rule: the legacy one
    assert with_overrides(stored, ["floor=0"]).floor == 0.0
    with pytest.raises(ValueError, match="unknown rule field"):
        Rule.from_dict({**CURRENT.to_dict(), "colour": "red"})


def test_weighted_looks_spend_alpha_in_proportion_and_no_more_than_alpha():
    weights = (2.0,) * 4 + (1.0,) * 11 + (0.2,) * 5
    rule = CURRENT.replace(weights=weights)
    assert Rule.from_dict(json.loads(json.dumps(rule.to_dict()))) == rule
    equal = CURRENT.replace(weights=())
    assert "weights" not in equal.to_dict()  # a stored rule without them shares α equally, as before
    stored = {k: v for k, v in CURRENT.to_dict().items() if k != "weights"}
    assert Rule.from_dict(stored) == equal
    assert CURRENT.weights and CURRENT.replace(spending="joint").weights == ()  # only uniform spending uses them
    assert CURRENT.replace(spending="joint").weights == ()  # only uniform spending uses them
    bound = stats.Bound(0.0, None)
    for start, spent in ((3, 0), (3, 2), (8, 0)):
        design = stats.Design(rule, bound, 0.01, start, spent)
        tails = [design.tails(k)[1] for k in range(1, len(rule.design(start)) + 1)]
        assert sum(tails) + spent * max(tails) <= 0.01 * (1 + 1e-12)
        if not spent:
            assert sum(tails) == pytest.approx(0.01)
    first, late = stats.Design(rule, bound, 0.01, 3).tails(1)[1], stats.Design(rule, bound, 0.01, 3).tails(16)[1]
    assert first == pytest.approx(10 * late) and first == pytest.approx(0.01 * 2 / 20)
    with pytest.raises(ValueError, match="spending = uniform only"):
        rule.replace(spending="harmonic", weights=weights).check()


def test_a_run_stores_its_rule_and_judges_once_without_a_budget(tmp_path):
    plan = make_plan([load(FIXTURES / "claims")], None, None, False, {"processes": 3})
    with_budget = plan_record(plan, Options(["claims"], budget=60.0))
    fixed = plan_record(plan, Options(["claims"]))
    assert Rule.of(with_budget) == CURRENT and Rule.of(fixed) == CURRENT.replace(sequential=False)


class TwoFaces:
    """`slow` processes whose fastest sample is 1.5× `fast` and whose median is 2.5×: whether the claim
    "slow ≥ 2× fast" holds depends on the per-process value."""

    def __init__(self) -> None:
        self.calls = 0

    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        self.calls += 1
        case, inner = env["VERSUS_CASE"], int(env["VERSUS_INNER"]) or 100
        wobble = 1 + 0.002 * (self.calls % 5)
        times = [1.5, 2.5, 2.5, 2.5, 2.5] if case == "slow" else [1.0] * 5
        lines = [{"v": 1, "type": "hello", "runtime": "fake", "version": "0", "clock": "none"}]
        lines += [{"type": "sample", "case": case, "ns": round(t * wobble * inner * 10), "inner": inner, "warmup": False}
                  for t in times]
        lines += [{"type": "check", "case": case, "value": str(inner)}, {"type": "end"}]
        return Completed(0, "\n".join("@versus " + json.dumps(line) for line in lines), "", 1_000_000)

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path | None = None) -> Any:
        raise AssertionError("no servers here")


def _two_faces(tmp_path: Path) -> tuple[Store, int]:
    folder = tmp_path / "faces"
    folder.mkdir()
    (folder / "work.py").write_text("# never run: a fake executor answers\n")
    (folder / "experiment.toml").write_text("""
[experiment]
name = "faces"
title = "a claim that hangs on the per-process value"
runtimes = ["cpython@3.11"]
baseline = { case = "fast" }

[method]
value = "min"
processes = 12
warmup = 0
samples = 5
inner = 100

[programs]
python3 = "work.py"

[[cases]]
name = "fast"
check = "inner"

[[cases]]
name = "slow"
check = "inner"

[[claims]]
id = "twice"
statement = "slow takes at least twice the time of fast"
source = "this test"
numerator = { case = "slow", runtime = "cpython" }
denominator = { case = "fast", runtime = "cpython" }
min = 2
""")
    experiment = load(folder)
    plan = make_plan([experiment], None, None, False, {})
    store = Store(tmp_path / "faces.db")
    store.acquire()
    method = plan.methods[experiment.name]
    session = store.new_session(1, ["test"], {}, {}, definitions_of(plan), plan_record(plan, Options([str(folder)])),
                                versus_info())
    jobs = [Job(arm, store.add_arm(session, i, arm_row(arm, method)), method, 100)
            for i, arm in enumerate(plan.arms)]
    run_session(store, jobs, Scheduler(plan, {}, 1, Budget(None), rule=CURRENT.replace(sequential=False)), TwoFaces())
    store.finish_session(session, "complete")
    store.release()
    return store, session


def test_a_verdict_that_the_per_process_value_changes_is_flagged_in_every_format(tmp_path, capsys):
    store, session = _two_faces(tmp_path)
    claim = analyze(store, session).claims[0]
    assert claim.verdict == "does not hold"
    assert [(a.choice, a.verdict) for a in claim.depends_on] == [("value", "holds")]
    db = str(store.path)
    assert main(["report", str(session), "--db", db, "--format", "json", "--html", str(tmp_path / "r.html")]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["claims"][0]["depends_on"] == [
        {"choice": "value", "alternative": "the median of each process's samples", "verdict": "holds"}]
    flag = "depends on the per-process value: holds with the median of each process's samples"
    page = (tmp_path / "r.html").read_text()
    assert html.escape(flag) in page
    # the masthead's chips count it apart too, as its headline does, not among those that do not hold
    chips = page.split('<div class="chips">', 1)[1].split("</div>", 1)[0]
    assert chips == '<span class="pill v-depends">1 depends on an analysis choice</span>'
    for fmt in ("table", "markdown"):
        assert main(["report", str(session), "--db", db, "--format", fmt]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "depends on the per-process value" in out
        assert "0 of 1 measured claims decided: 0 hold, 0 do not hold; 1 more depends on an analysis choice" in out


def test_a_dry_run_names_the_claims_its_budget_is_not_expected_to_decide(tmp_path, capsys):
    """Non-binding futility, said before the run: the latest stored session of the experiment, judged
    by today's rule, needs more rounds for `four-times` than two seconds hold."""
    db = tmp_path / "old.db"
    shutil.copy(LEGACY / "v3-eddfbcc.db", db)
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--budget", "2s", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "claims the budget is not expected to decide" in out
    assert "claims/four-times: needs about" in out and "more than the budget" in out
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--budget", "1h", "--dry-run"]) == 0
    assert "not expected to decide" not in capsys.readouterr().out
