"""Evidence that accumulates: `versus run --more` goes on with a finished session under its own design,
as another leg, and refuses where a program or a runtime changed (content hash); `versus run
EXPERIMENTS --more` (what `make run` does) goes on with the newest session of the same plan, or starts
one and says why."""
from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import FIXTURES
from versus.arms import ArmId
from versus.cli import main
from versus.record import row


@pytest.fixture(autouse=True)
def _here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # reports go beside the test's database, never into the checkout


def _experiment(tmp_path: Path) -> Path:
    """The claims fixture (slow takes 4× fast, by a synthetic clock), in a folder of its own."""
    folder = tmp_path / "claims"
    shutil.copytree(FIXTURES / "claims", folder)
    return folder


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def _versus(capsys, *args: str) -> Done:
    code = main(list(args))
    out, err = capsys.readouterr()
    return Done(code, out, err)


SLOW = ["--inner", "500000"]


def _legs(db: Path) -> list[tuple[int, int, str]]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT session_id, number, kind FROM legs ORDER BY id").fetchall()


def _runs(db: Path) -> list[tuple[int, int, int, str]]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT a.session_id, p.leg, p.id, p.host FROM process_runs p JOIN arms a"
                                  " ON a.id = p.arm_id ORDER BY p.id").fetchall()


def test_more_goes_on_with_a_finished_session_and_refuses_changed_programs(tmp_path, capsys):
    folder, db = _experiment(tmp_path), tmp_path / "lab.db"
    # processes of most of a second, and a budget that ends the first leg long before the 10 rounds a
    # verdict needs here (the rule trusts a spread from 10 rounds on)
    first = _versus(capsys, "run", str(folder), *SLOW, "--budget", "2s", "--seed", "1", "--db", str(db), "--format", "json")
    assert first.returncode in (0, 4), first.stderr  # 4: the budget ended before an arm ran at all
    before = _runs(db)
    assert {leg for _, leg, _, _ in before} <= {1}

    more = _versus(capsys, "run", "--more", "1", "--budget", "180s", "--db", str(db), "--format", "json")
    assert more.returncode == 0, more.stderr
    doc = json.loads(more.stdout)
    after = _runs(db)
    assert doc["session"]["id"] == 1 and [leg["kind"] for leg in doc["legs"]] == ["start", "more"]
    assert after[: len(before)] == before and len(after) > len(before)  # the first leg's runs kept, more added
    assert {leg for _, leg, _, _ in after[len(before):]} == {2}
    assert {c["id"]: c["verdict"] for c in doc["claims"]} == {"four-times": "holds", "ten-times": "does not hold"}
    header = _versus(capsys, "report", "1", "--db", str(db)).stdout
    assert "legs: 2" in header
    assert "budget: 2 s + 3 min over 2 legs" in header  # each leg's budget, not the first's alone

    again = _versus(capsys, "run", str(folder), *SLOW, "--budget", "1s", "--db", str(db), "--more")  # as make run does
    assert again.returncode == 0, again.stderr
    assert _legs(db) == [(1, 1, "start"), (1, 2, "more"), (1, 3, "more")] and {s for s, _, _, _ in _runs(db)} == {1}

    program = folder / "work.py"
    program.write_text(program.read_text() + "\n# changed\n")
    refused = _versus(capsys, "run", "--more", "1", "--budget", "60s", "--db", str(db))
    assert refused.returncode == 2
    assert "the files of experiment claims" in refused.stderr and "changed since it ran" in refused.stderr
    assert "hint: evidence of changed programs is never pooled" in refused.stderr
    assert len(_legs(db)) == 3  # nothing ran

    fresh = _versus(capsys, "run", str(folder), *SLOW, "--budget", "60s", "--db", str(db), "--more")
    assert fresh.returncode == 0, fresh.stderr
    assert "a new session starts" in fresh.stderr and {s for s, _, _, _ in _runs(db)} == {1, 2}


def test_more_refuses_a_fixed_size_session_and_a_changed_runtime(tmp_path, capsys):
    folder, db = _experiment(tmp_path), tmp_path / "lab.db"
    assert _versus(capsys, "run", str(folder), "--processes", "3", "--db", str(db)).returncode == 0
    fixed = _versus(capsys, "run", "--more", "--budget", "60s", "--db", str(db))
    assert fixed.returncode == 2 and "was judged once, at that size" in fixed.stderr
    assert _versus(capsys, "run", str(folder), "--processes", "3", "--budget", "30s", "--db", str(db)).returncode == 0
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE arms SET runtime_info = json_set(runtime_info, '$.hash', 'another build')"
                           " WHERE session_id = 2")
    changed = _versus(capsys, "run", "--more", "2", "--budget", "60s", "--db", str(db))
    assert changed.returncode == 2 and "runtime cpython@" in changed.stderr and "changed since it ran" in changed.stderr


def test_more_refuses_a_changed_definition(tmp_path, capsys):
    """A claim's bound moved in experiment.toml: the session's evidence was judged against the old
    definition, so it is not continued under the new one (the content hash covers the definition)."""
    folder, db = _experiment(tmp_path), tmp_path / "lab.db"
    assert _versus(capsys, "run", str(folder), "--processes", "3", "--budget", "30s", "--db", str(db)).returncode == 0
    definition = folder / "experiment.toml"
    definition.write_text(definition.read_text().replace("min = 10", "min = 2"))
    refused = _versus(capsys, "run", "--more", "1", "--budget", "60s", "--db", str(db))
    assert refused.returncode == 2, refused.stderr
    assert "the files of experiment claims" in refused.stderr and "changed since it ran" in refused.stderr
    assert _legs(db) == [(1, 1, "start")]  # nothing ran


def test_a_continued_session_knows_what_each_arm_costs_from_the_legs_before(tmp_path):
    """A --more leg that did not know the earlier legs' wall times priced every arm it had not run yet
    at the median of those it had (fib's 9 s), and never went back to condvar's 0.4 s arms."""
    from versus.drivers.base import ProcessRun
    from versus.protocol import SampleRecord
    from versus.record import load_arms
    from versus.rule import CURRENT
    from versus.session import _observed
    from versus.store import Store

    store = Store(tmp_path / "lab.db")
    session = store.new_session(1, [], {}, {})
    cheap = store.add_arm(session, 0, row(ArmId("e", "cheap", "", "r"), "", {}, {}, {}))
    dear = store.add_arm(session, 1, row(ArmId("e", "dear", "", "r"), "", {}, {}, {}))
    for round_ in range(3):
        store.save_run(cheap, round_, ProcessRun("ok", samples=[SampleRecord(1, 1, False)], wall_ns=400_000_000))
        store.save_run(dear, round_, ProcessRun("ok", samples=[SampleRecord(1, 1, False)], wall_ns=9_000_000_000))
    _, done, walls = _observed(store, session, load_arms(store, session), CURRENT)
    assert done == {0: {0, 1, 2}, 1: {0, 1, 2}}
    assert walls == {0: [400_000_000] * 3, 1: [9_000_000_000] * 3}
