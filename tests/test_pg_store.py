"""PostgreSQL as a store, against a real server (conftest's pg_server): one schema with SQLite, the
same values back, a lab copied both ways that reports identically, and bad input that says what to do."""
from __future__ import annotations

import shutil

import psycopg
import pytest

from conftest import FIXTURES
from pgserver import PASSWORD
from versus.cli import main
from versus.drivers.base import ProcessRun
from versus.errors import StoreError
from versus.protocol import SampleRecord
from versus.record import load_session
from versus.store import SCHEMA_VERSION, Chosen, Store
from versus.store.copy import columns
from versus.store.postgres import PostgresBackend
from versus.store.schema import TABLES

OLD = FIXTURES / "db-0.1.0"


def _run(store: Store) -> tuple[int, int]:
    session = store.new_session(7, ["versus", "run"], {"hostname": "h"}, {"quick": True})
    arm = store.add_arm(session, 0, {"experiment": "e", "experiment_path": "/x", "case": "c", "runtime": "r@1",
                                     "runtime_info": {"family": "r"}, "params": {"n": "1"}, "method": {"value": "min"}})
    run = ProcessRun("ok", "", [SampleRecord(2**62 + 5, 3, True), SampleRecord(123456789, 1000, False)],
                     [("4950", "4950", True)], [("size", 0.1 + 0.2, "bytes")], {"v": 1, "runtime": "ü"},
                     "log\x00with a NUL and ünïcode", 10**12, 0)
    store.save_run(arm, 0, run, "host-a", 1)
    return session, arm


def test_both_backends_have_one_schema(pg_url, tmp_path):
    lite, pg = Store(tmp_path / "v.db"), Store(pg_url)
    assert lite.backend.version() == pg.backend.version() == SCHEMA_VERSION
    for table in TABLES:
        assert columns(lite, table) == columns(pg, table), table


def test_values_come_back_as_they_went_in(pg_url, tmp_path):
    for store in (Store(tmp_path / "v.db"), Store(pg_url)):
        session, _ = _run(store)
        (run,) = store.runs(session)
        assert run.samples == [(0, 2**62 + 5, 3, True), (1, 123456789, 1000, False)]
        assert run.metrics == [("size", 0.1 + 0.2, "bytes")] and run.checks == [("4950", "4950", True)]
        assert run.hello == {"v": 1, "runtime": "ü"} and run.wall_ns == 10**12 and run.exit_code == 0
        assert run.log_tail == "log\ufffdwith a NUL and ünïcode"  # PostgreSQL's text holds no NUL: no store does
        assert (run.host, run.leg) == ("host-a", 1)
        assert load_session(store, session).options == {"quick": True}
        chosen = Chosen(1.8e9 + 0.25, "e c: e/a/r ÷ e/b/r", ["e d: e/a/r ÷ e/c/r"], 2, 4, None, 12.5, 1, 600.0, 7)
        store.add_choice(session, 1, chosen)
        assert store.choices(session) == [(1, chosen)]  # the scheduler's trace, on either backend


def _reports(capsys, db: str, sessions: list[int]) -> dict[int, str]:
    found = {}
    for number in sessions:
        main(["report", str(number), "--db", db, "--format", "json"])
        found[number] = capsys.readouterr().out
    return found


def test_a_lab_copied_to_postgresql_and_back_reports_identically(pg_server, pg_url, tmp_path, capsys, monkeypatch):
    """A database of 0.1.0 (an upgraded run with claims, one with failed arms, an import) copied into
    PostgreSQL and back: every session's report JSON the same, byte for byte, from all three."""
    old = tmp_path / "old.db"
    shutil.copy(OLD / "versus.db", old)
    sessions = [1, 2, 3]
    expected = _reports(capsys, str(old), sessions)
    assert main(["db", "copy", str(old), pg_url]) == 0
    assert "copied 3 sessions" in capsys.readouterr().err
    assert _reports(capsys, pg_url, sessions) == expected
    back = tmp_path / "back.db"
    assert main(["db", "copy", pg_url, str(back)]) == 0
    assert _reports(capsys, str(back), sessions) == expected
    # and a store written on PostgreSQL goes on where the copy left it: ids continue
    store = Store(pg_url)
    assert store.new_session(1, [], {}, {}) == 4


def test_the_lab_reads_a_postgresql_database_as_it_reads_the_same_lab_in_sqlite(pg_url, tmp_path, capsys):
    """`versus lab` took only a file: its analyses of a lab on PostgreSQL are those of its SQLite copy,
    and a URL is printed without its password."""
    from test_lab import oracle_session

    lite = tmp_path / "o.db"
    oracle_session(lite)
    assert main(["db", "copy", str(lite), pg_url]) == 0
    capsys.readouterr()
    for analysis in (["oracle"], ["schedule"], ["noise", "--claims"]):
        outputs = []
        for db in (str(lite), pg_url):
            assert main(["lab", analysis[0], db, *analysis[1:]]) == 0, (analysis, db)
            outputs.append(capsys.readouterr().out)
        assert outputs[0] == outputs[1], analysis
    assert main(["lab", "values", pg_url]) == 0
    out = capsys.readouterr().out
    assert PASSWORD not in out and "postgresql://" in out


def test_a_database_given_up_on_is_not_waited_for_again(pg_url):
    """A coordinator whose PostgreSQL never came back waited its hour, then waited an hour more for each
    write its interrupted session still wanted (the stop's reason, the leg, the session's status): a
    test's orphaned coordinator was still "trying again" 2 h 17 min later. Once the patience is spent,
    the next statement fails at once."""
    import time as clock

    from pgserver import free_port

    store = Store(pg_url, patience=3.0)
    backend = store.backend
    assert isinstance(backend, PostgresBackend)
    backend.url = backend.url.rsplit(":", 1)[0] + f":{free_port()}/" + backend.url.rsplit("/", 1)[1]  # nothing there
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                      " AND pid <> pg_backend_pid()")
    started = clock.monotonic()
    with pytest.raises(StoreError):
        store.sessions()
    assert clock.monotonic() - started >= 1.0  # it waited its patience, once
    started = clock.monotonic()
    with pytest.raises(StoreError, match="was lost"):
        store.sessions()
    assert clock.monotonic() - started < 0.5  # and not again


def test_a_copy_into_a_lab_that_is_not_empty_is_refused(pg_url, tmp_path, capsys):
    store = Store(pg_url)
    _run(store)
    old = tmp_path / "old.db"
    shutil.copy(OLD / "versus.db", old)
    assert main(["db", "copy", str(old), pg_url]) == 3
    err = capsys.readouterr().err
    assert "already holds a lab" in err and "hint: copy into a new, empty database" in err


def test_bad_postgresql_input_is_a_clear_error(pg_server, pg_url, capsys):
    cases = [
        (pg_server.url(password="wrong"), "password authentication failed", "check the user and password"),
        (pg_server.url().replace(f":{pg_server.port}/", ":1/"), "cannot reach", "start PostgreSQL there"),
        (pg_server.url("no_such_lab"), 'database "no_such_lab" does not exist', "create the database first"),
    ]
    for url, message, hint in cases:
        assert main(["sessions", "--db", url]) == 3
        err = capsys.readouterr().err
        assert err.startswith("versus: error: ") and message in err and f"hint: {hint}" in err, err
        assert "wrong" not in err and "versus-test" not in err  # a password is never printed
    Store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as connection:
        connection.execute("UPDATE versus_schema SET version = %s", (SCHEMA_VERSION + 1,))
    assert main(["sessions", "--db", pg_url]) == 3
    err = capsys.readouterr().err
    assert f"schema version {SCHEMA_VERSION + 1}, newer than this versus" in err and "hint: upgrade versus" in err


def test_a_worker_needs_postgresql(tmp_path, capsys):
    assert main(["worker", "--db", str(tmp_path / "v.db")]) == 2
    assert "workers share sessions only through PostgreSQL" in capsys.readouterr().err


def test_the_stores_guards_hold_on_postgresql_too(pg_url, tmp_path, capsys):
    """Issue 33's guards of the store, on PostgreSQL: an import is marked imported by the import and
    never resumed, a session that says running while no coordinator holds it shows as interrupted,
    and a reading command's store writes nothing."""
    old = tmp_path / "old.db"
    shutil.copy(OLD / "versus.db", old)
    document = tmp_path / "session-1.json"
    assert main(["export", "1", "--db", str(old), "-o", str(document)]) == 0
    assert main(["import", str(document), "--db", pg_url]) == 0
    capsys.readouterr()
    store = Store(pg_url)
    (imported,) = [s.id for s in store.sessions() if s.imported]
    assert load_session(store, imported).imported.endswith("session-1.json") and store.newest_run() is None
    assert main(["run", "--resume", str(imported), "--db", pg_url]) == 2
    assert "an imported session is never resumed" in capsys.readouterr().err
    assert main(["sessions", "--db", pg_url]) == 0 and capsys.readouterr().out.rstrip().endswith("(imported)")
    running, _ = _run(store)  # stored as running, and no coordinator holds it
    assert load_session(store, running).status == "interrupted" and store.newest_run() == running
    store.hold(running)
    assert load_session(store, running).status == "running"
    assert [s.status for s in Store(pg_url, readonly=True).sessions()] == ["complete", "running"]
    reader = Store(pg_url, readonly=True)
    with pytest.raises(StoreError, match="read-only"):
        reader.finish_session(running, "complete")
    assert load_session(store, running).status == "running"
