"""The report says what else the machine did while the processes ran (steal, CPU pressure), and calls
a host busy where the hypervisor took enough of its CPUs to explain a session that decided little."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import FIXTURES
from versus.cli import main
from versus.contention import BUSY_STEAL, Contention, machine


def test_steal_is_shared_out_by_the_cores_and_left_out_when_they_are_unknown():
    runs: list[tuple[Contention | None, int]] = [(Contention(10, 0, 250, 400_000), 1_000_000),
                                                 (Contention(10, 0, 0, 0), 1_000_000), (None, 5_000_000)]
    two = machine(runs, cores=2)
    assert two is not None and two.runs == 2
    assert two.steal == pytest.approx(400_000 / (2_000_000 * 2)) and two.pressure == pytest.approx(250_000 / 2_000_000)
    unknown = machine(runs, cores=0)
    assert unknown is not None and unknown.steal is None and unknown.pressure == two.pressure
    assert machine([(None, 1000)], cores=2) is None


def test_a_counter_the_machine_does_not_offer_is_left_out_not_counted_as_zero():
    found = machine([(Contention(10, 0, -1, -1), 1000)], cores=2)
    assert found is not None and found.steal is None and found.pressure is None and not found.busy


@pytest.mark.parametrize("share", [BUSY_STEAL * 0.99, BUSY_STEAL])
def test_busy_from_the_threshold_on(share):
    found = machine([(Contention(1, 0, 0, round(1_000_000 * share)), 1_000_000)], cores=1)
    assert found is not None and found.busy == (share >= BUSY_STEAL)


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    """One real session of the claims fixture, copied by each test that changes its counters."""
    db = tmp_path_factory.mktemp("machine") / "versus.db"
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "3"]) == 0
    return db


def _session(db, capsys, steal_share: float | None, stored: Path) -> tuple[str, dict]:
    """The stored session, its counters set so that the hypervisor took `steal_share` of the host's
    CPUs (None: stored as before the counters were recorded)."""
    db.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(stored) as source, sqlite3.connect(db) as copy:
        source.backup(copy)
    capsys.readouterr()
    assert main(["report", "1", "--db", str(db), "--format", "json"]) == 0
    cores = json.loads(capsys.readouterr().out)["host"]["cores"]
    with sqlite3.connect(db) as con:
        if steal_share is None:
            con.execute("UPDATE process_runs SET contention = ''")
        else:
            con.execute("UPDATE process_runs SET contention = json_object('cpu_ns', wall_ns, 'preempted', 3, "
                        "'pressure_us', wall_ns / 4000, 'steal_ns', CAST(wall_ns * ? AS INTEGER))",
                        (steal_share * cores,))
    assert main(["report", "1", "--db", str(db), "--format", "markdown"]) == 0
    markdown = capsys.readouterr().out
    assert main(["report", "1", "--db", str(db), "--format", "json"]) == 0
    return markdown, json.loads(capsys.readouterr().out)


def test_a_busy_host_is_named_in_the_report_and_its_document(db, capsys, tmp_path, stored):
    markdown, doc = _session(db, capsys, 0.2, stored)
    assert "the hypervisor took 20.0% of the CPUs' time (steal)" in markdown
    assert "some task waited for a CPU 25.0% of the time" in markdown
    assert "busy: this host lost at least 5% of its CPUs' time" in markdown
    (state,) = doc["machine"].values()
    assert state["steal"] == pytest.approx(0.2, abs=1e-6) and state["runs"] == sum(len(a["runs"]) for a in doc["arms"])
    assert all(run["contention"]["preempted"] == 3 for arm in doc["arms"] for run in arm["runs"])
    page = tmp_path / "page.html"
    assert main(["report", "1", "--db", str(db), "--html", str(page)]) == 0
    assert "busy: this host lost" in page.read_text()


def test_a_quiet_host_gets_its_figures_without_the_warning(db, capsys, stored):
    markdown, doc = _session(db, capsys, 0.001, stored)
    assert "the hypervisor took 0.1% of the CPUs' time" in markdown and "busy:" not in markdown
    assert next(iter(doc["machine"].values()))["steal"] == pytest.approx(0.001, abs=1e-6)


def test_a_session_stored_before_the_counters_says_nothing_of_the_machine(db, capsys, stored):
    markdown, doc = _session(db, capsys, None, stored)
    assert "machine while" not in markdown and "busy:" not in markdown
    assert "machine" not in doc and all("contention" not in run for arm in doc["arms"] for run in arm["runs"])


def test_the_counters_survive_export_and_import(db, capsys, tmp_path, stored):
    _, doc = _session(db, capsys, 0.2, stored)
    out = tmp_path / "session.json"
    assert main(["export", "1", "--db", str(db), "-o", str(out)]) == 0
    other = tmp_path / "other.db"
    assert main(["import", str(out), "--db", str(other)]) == 0
    capsys.readouterr()
    assert main(["report", "1", "--db", str(other), "--format", "json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["machine"] == doc["machine"]
    assert [r.get("contention") for a in again["arms"] for r in a["runs"]] == \
        [r.get("contention") for a in doc["arms"] for r in a["runs"]]


def test_an_imported_counter_out_of_range_is_refused_with_the_field_named(db, capsys, tmp_path, stored):
    _, doc = _session(db, capsys, 0.2, stored)
    doc["arms"][0]["runs"][0]["contention"]["steal_ns"] = -7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["import", str(bad), "--db", str(tmp_path / "other.db")]) == 2
    err = capsys.readouterr().err
    assert "contention.steal_ns" in err and "Traceback" not in err
