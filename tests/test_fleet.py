"""Hosts that share a session through a real PostgreSQL server: workers (each in a network namespace
of its own where the machine allows), a worker killed with -9 mid-round, PostgreSQL restarted
mid-session, a coordinator killed and resumed, two coordinators on one database, and a session that
reports the same from PostgreSQL and from SQLite.

The experiment is tests/fixtures/claims: a synthetic clock (slow is 4× fast), so the verdicts are
known whatever the load, and its loops still run, so a process takes real time."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from conftest import FIXTURES
from pgserver import PgServer
from versus import __version__
from versus.store import Store
from versus.store.work import WorkQueue

CLAIMS = str(FIXTURES / "claims")
LONG = ["--inner", "600000"]  # each process a few tenths of a second: long enough to be killed mid-round


def _versus(*args: str, timeout: float = 300, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "versus", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd)


_COORDINATORS: list[subprocess.Popen[str]] = []


@pytest.fixture(autouse=True)
def _no_coordinator_outlives_its_test() -> Iterator[None]:
    """A test that fails before its coordinator ends left it running, reconnecting to a server that was
    gone (one was still at it 2 h later): whatever a test started is stopped when it ends."""
    yield
    for process in _COORDINATORS:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    _COORDINATORS.clear()


def _coordinator(url: str, *args: str, log: Path) -> subprocess.Popen[str]:
    """`versus run` of the claims fixture on PostgreSQL; its reports go to versus-results/ beside its log."""
    process = subprocess.Popen([sys.executable, "-m", "versus", "run", CLAIMS, "--db", url, "--format", "json", *args],
                               stdout=subprocess.PIPE, stderr=open(log, "w"), text=True, cwd=log.parent)  # noqa: SIM115
    _COORDINATORS.append(process)
    return process


@contextmanager
def workers(server: PgServer, database: str, names: list[str], tmp_path: Path) -> Iterator[dict[str, subprocess.Popen[str]]]:
    """Workers with these names, each in its own network namespace (reaching PostgreSQL over its veth)
    where there is one, else on the loopback; stopped at the end, whatever happened."""
    started: dict[str, subprocess.Popen[str]] = {}
    try:
        for index, name in enumerate(names):
            namespace = server.namespaces[index] if index < len(server.namespaces) else None
            url = server.url(database, host=namespace.host_address if namespace else "127.0.0.1")
            argv = [sys.executable, "-m", "versus", "worker", "--db", url, "--name", name, "--idle-exit", "120"]
            started[name] = subprocess.Popen(namespace.argv(argv) if namespace else argv, stdout=subprocess.DEVNULL,
                                             stderr=open(tmp_path / f"worker-{name}.log", "w"), text=True)  # noqa: SIM115
        yield started
    finally:
        for process in started.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in started.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def _rows(url: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with psycopg.connect(url, autocommit=True) as connection:
        return connection.execute(sql, params).fetchall()


def _wait_for(url: str, sql: str, check, timeout: float = 90, what: str = "") -> list[tuple[object, ...]]:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    rows: list[tuple[object, ...]] = []
    while time.monotonic() < deadline:
        try:
            rows = _rows(url, sql)
        except psycopg.Error:
            rows = []
        if check(rows):
            return rows
        time.sleep(0.2)
    pytest.fail(f"waited {timeout} s for {what or sql}; last rows {rows}")


def _done(coordinator: subprocess.Popen[str], log: Path, timeout: float = 240) -> dict[str, Any]:
    try:
        out, _ = coordinator.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        coordinator.kill()
        pytest.fail(f"the coordinator did not finish in {timeout} s:\n{log.read_text()[-3000:]}")
    assert coordinator.returncode == 0, log.read_text()[-3000:]
    return json.loads(out)


def _pooled(doc: dict[str, Any]) -> dict[str, str]:
    """Each claim's verdict over every host's rounds. (Hosts of one machine measure one ratio, and are
    found to differ at the error rate of that comparison: then the report's verdict is "hosts disagree",
    which a test of the rounds' plumbing must not mistake for a failure.)"""
    return {c["id"]: c["instances"][0].get("pooled_verdict", c["verdict"]) for c in doc["claims"]}


def _runs(url: str, session: int) -> list[tuple[object, ...]]:
    return _rows(url, "SELECT a.case_name, p.round, p.status, p.host FROM process_runs p JOIN arms a ON a.id = p.arm_id"
                      " WHERE a.session_id = %s ORDER BY p.id", (session,))


def _dbname(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_three_hosts_share_a_session_and_it_reports_the_same_from_sqlite(pg_server, pg_url, tmp_path, capsys):
    log = tmp_path / "coordinator.log"
    with workers(pg_server, _dbname(pg_url), ["host-a", "host-b", "host-c"], tmp_path):
        doc = _done(_coordinator(pg_url, "--processes", "8", "--seed", "3", log=log), log)
    runs = _runs(pg_url, 1)
    assert len(runs) == 16 and {status for _, _, status, _ in runs} == {"ok"}
    assert len({(case, round_) for case, round_, _, _ in runs}) == 16  # each process run stored once
    hosts = {host for _, _, _, host in runs}
    assert len(hosts) >= 2, f"one host ran every round: {runs}"
    for round_ in {r for _, r, _, _ in runs}:  # a round runs all its arms on one host: pairing holds
        assert len({host for _, r, _, host in runs if r == round_}) == 1
    assert _pooled(doc)["ten-times"] == "does not hold"
    assert set(doc["hosts"]) == hosts and [leg["kind"] for leg in doc["legs"]] == ["start"]
    # the same stored data, in SQLite, reports the same: every byte of the JSON
    copied = tmp_path / "copied.db"
    assert _versus("db", "copy", pg_url, str(copied)).returncode == 0
    from_pg = _versus("report", "1", "--db", pg_url, "--format", "json")
    from_sqlite = _versus("report", "1", "--db", str(copied), "--format", "json")
    assert from_pg.returncode == from_sqlite.returncode == 0 and from_pg.stdout == from_sqlite.stdout
    assert from_pg.stdout.strip() == json.dumps(doc, indent=1, ensure_ascii=False)


def test_a_worker_killed_mid_round_loses_its_lease_and_another_host_runs_the_round(pg_server, pg_url, tmp_path):
    log = tmp_path / "coordinator.log"
    with workers(pg_server, _dbname(pg_url), ["victim", "survivor"], tmp_path) as started:
        coordinator = _coordinator(pg_url, "--processes", "5", "--seed", "5", *LONG, log=log)
        leased = _wait_for(pg_url, "SELECT w.id, w.round, k.name, w.stored FROM work w JOIN workers k ON k.id = w.worker_id"
                                   " WHERE w.state = 'leased' AND k.name = 'victim'", bool, what="a round leased to victim")
        os.kill(_harness(started["victim"].pid), signal.SIGKILL)  # the worker itself dies, not its supervisor
        killed_at = time.time()
        started["victim"].wait()
        doc = _done(coordinator, log)
    item, round_, _, stored_then = leased[0]
    assert _rows(pg_url, "SELECT state FROM work WHERE id = %s", (item,)) == [("lost",)]
    assert "was taken back (its worker's connection ended)" in log.read_text()
    runs = _runs(pg_url, 1)
    victim = [r for r in runs if r[3] == "victim"]
    late = _rows(pg_url, "SELECT COUNT(*) FROM process_runs WHERE host = 'victim' AND started > %s", (killed_at,))
    assert late == [(0,)] and len([r for r in victim if r[1] == round_]) <= int(str(stored_then)) + 1
    ok = [r for r in runs if r[2] == "ok"]
    assert len({(case, r) for case, r, _, _ in runs}) == len(runs)  # stored once, retried or not
    for case in ("fast", "slow"):  # every arm still has its five processes in paired rounds, from the survivor
        paired = {r for c, r, _, h in ok if c == case and h == "survivor"}
        assert len(paired) >= 5 - len([r for r in victim if r[0] == case])
    assert _pooled(doc)["ten-times"] == "does not hold"


def test_a_worker_that_hangs_loses_its_lease_when_it_runs_out_and_drops_its_late_run(pg_server, pg_url, tmp_path):
    """A hung worker keeps its connection (its advisory lock says it lives), so only its lease can free
    its round. The worker is stopped (SIGSTOP) mid-round; the lease's end is brought forward in the
    database rather than waited for (a process's timeout + 60 s); the round goes to the other host, and
    the worker, continued, finds its lease gone and stores nothing of that round."""
    log = tmp_path / "coordinator.log"
    with workers(pg_server, _dbname(pg_url), ["sleeper", "survivor"], tmp_path) as started:
        coordinator = _coordinator(pg_url, "--processes", "5", "--seed", "6", *LONG, log=log)
        sql = ("SELECT w.id, w.round FROM work w JOIN workers k ON k.id = w.worker_id"
               " WHERE w.state = 'leased' AND k.name = 'sleeper'")
        harness = _harness(started["sleeper"].pid)
        for _ in range(20):  # stopped while it holds a lease (not between two rounds)
            _wait_for(pg_url, sql, bool, what="a round leased to sleeper")
            os.kill(harness, signal.SIGSTOP)
            leased = _rows(pg_url, sql)
            if leased:
                break
            os.kill(harness, signal.SIGCONT)
        try:
            assert leased, "the worker was never stopped holding a lease"
            item, round_ = leased[0]
            stored_then = _rows(pg_url, "SELECT COUNT(*) FROM process_runs WHERE host = 'sleeper' AND round = %s",
                                (round_,))[0][0]
            _rows(pg_url, "UPDATE work SET lease_until = 0 WHERE id = %s RETURNING id", (item,))
            _wait_for(pg_url, f"SELECT state FROM work WHERE id = {int(str(item))}", lambda rows: rows == [("lost",)],
                      what="the hung worker's round taken back")
        finally:
            os.kill(harness, signal.SIGCONT)
        doc = _done(coordinator, log)
    assert "was taken back (its lease ran out)" in log.read_text()
    late = _rows(pg_url, "SELECT COUNT(*) FROM process_runs WHERE host = 'sleeper' AND round = %s", (round_,))
    assert late == [(stored_then,)]  # the run it finished after its lease ran out was dropped
    assert "the lease was taken back" in (tmp_path / "worker-sleeper.log").read_text()
    runs = _runs(pg_url, 1)
    assert len({(case, r) for case, r, _, _ in runs}) == len(runs)  # stored once
    assert _pooled(doc)["ten-times"] == "does not hold"


def test_postgresql_restarted_and_the_coordinator_killed_mid_session_lose_nothing(pg_server, pg_url, tmp_path):
    """PostgreSQL restarts under a running session: workers and coordinator reconnect and go on. Then
    the coordinator is killed with -9: the workers keep what they were given, and `versus run --resume`
    takes over and finishes the session, every finished run kept, none stored twice."""
    log = tmp_path / "coordinator.log"
    with workers(pg_server, _dbname(pg_url), ["host-a", "host-b"], tmp_path):
        coordinator = _coordinator(pg_url, "--processes", "8", "--seed", "8", *LONG, log=log)
        before = _wait_for(pg_url, "SELECT id, arm_id, round FROM process_runs", lambda rows: len(rows) >= 2,
                           what="two stored runs")
        pg_server.restart(pause=2)
        restarted = _wait_for(pg_url, "SELECT id, arm_id, round FROM process_runs", lambda rows: len(rows) >= len(before) + 4,
                              what="four runs stored after the restart")
        assert coordinator.poll() is None, log.read_text()  # it reconnected and goes on
        coordinator.kill()
        coordinator.wait()
        resumed = _versus("run", "--resume", "1", "--db", pg_url, "--format", "json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    after = _rows(pg_url, "SELECT id, arm_id, round FROM process_runs")
    assert set(before) <= set(restarted) <= set(after)  # nothing finished is lost
    assert len(after) >= 16 and len({(a, r) for _, a, r in after}) == len(after)
    assert "was lost" in log.read_text()
    doc = json.loads(resumed.stdout)
    assert doc["session"]["status"] == "complete" and [leg["kind"] for leg in doc["legs"]] == ["start", "resume"]
    assert _pooled(doc)["ten-times"] == "does not hold"


def test_two_coordinators_share_a_database_and_its_workers(pg_server, pg_url, tmp_path):
    first, second = tmp_path / "first.log", tmp_path / "second.log"
    with workers(pg_server, _dbname(pg_url), ["host-a", "host-b"], tmp_path):
        # the longer session's processes take seconds: with LONG's tenths, its 16 runs were once all done
        # (the session complete, its coordinator writing its report) before `--resume` had started
        one = _coordinator(pg_url, "--processes", "8", "--seed", "1", "--inner", "3000000", log=first)
        two = _coordinator(pg_url, "--processes", "5", "--seed", "2", *LONG, log=second)
        _wait_for(pg_url, "SELECT DISTINCT a.session_id FROM process_runs p JOIN arms a ON a.id = p.arm_id",
                  lambda rows: len(rows) == 2, what="runs of both sessions")
        # the two started at once: either may have made session 1, so the longer one is found by its plan
        ((longer,),) = _rows(pg_url, "SELECT id FROM sessions WHERE (options::jsonb -> 'method' ->> 'processes') = '8'")
        held = _versus("run", "--resume", str(longer), "--db", pg_url, cwd=tmp_path)  # one coordinator a session at a time
        assert one.poll() is None, f"session {longer} ended before a second coordinator could be refused"
        docs = [_done(one, first), _done(two, second)]
    assert held.returncode == 3 and "is being run by another coordinator" in held.stderr, held.stderr
    assert sorted(d["session"]["id"] for d in docs) == [1, 2] and docs[0]["session"]["id"] == longer
    for doc, processes in ((docs[0], 8), (docs[1], 5)):
        runs = _runs(pg_url, doc["session"]["id"])
        assert len(runs) == 2 * processes and {s for _, _, s, _ in runs} == {"ok"}


def test_a_worker_measures_in_silence(pg_server, pg_url, tmp_path):
    """While a process runs, its worker is one thread and sends PostgreSQL nothing: its connection
    has been idle since before the process started."""
    log = tmp_path / "coordinator.log"
    with workers(pg_server, _dbname(pg_url), ["quiet"], tmp_path) as started:
        coordinator = _coordinator(pg_url, "--processes", "2", "--seed", "4", "--inner", "3000000", log=log)
        pid = _harness(started["quiet"].pid)
        checked = 0
        deadline = time.monotonic() + 120
        while checked < 2 and time.monotonic() < deadline and coordinator.poll() is None:
            children = Path(f"/proc/{pid}/task/{pid}/children")
            if not children.exists() or not children.read_text().split():
                time.sleep(0.05)
                continue
            child = int(children.read_text().split()[0])
            started_at = time.time() - _age(child)
            time.sleep(0.5)
            if not _alive(pid, child):
                continue
            threads = os.listdir(f"/proc/{pid}/task")
            # no thread beside the one waiting for the process (and the message names any that is)
            assert len(threads) == 1, [(t, _comm(pid, t)) for t in threads] + [Path(f"/proc/{pid}/cmdline").read_bytes()]
            idle = _rows(pg_url, "SELECT state, EXTRACT(EPOCH FROM state_change)::float8 FROM pg_stat_activity"
                                 " WHERE application_name LIKE %s", (f"%pid {pid}",))
            if not _alive(pid, child):
                continue  # it ended before the query: the worker may already be storing it ("idle in transaction")
            assert idle and idle[0][0] == "idle" and float(str(idle[0][1])) < started_at + 0.05, (idle, started_at)
            checked += 1
        _done(coordinator, log)
    assert checked >= 1


def _alive(parent: int, child: int) -> bool:
    """Whether `child` is still a running child of `parent` (not ended, not yet reaped)."""
    listed = Path(f"/proc/{parent}/task/{parent}/children")
    try:
        state = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return str(child) in listed.read_text().split() and state != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def _harness(supervisor: int) -> int:
    """The worker's harness: the process the `versus` command's supervisor forked (supervisor.py)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
            if children:
                return int(children[0])
        time.sleep(0.05)
    pytest.fail(f"the supervisor {supervisor} forked no harness")


def _comm(pid: int, thread: str) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/task/{thread}/comm").read_text().strip()
    return "?"


def _age(pid: int) -> float:
    """Seconds since the process started, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    start = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]) / ticks
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - start


def test_a_worker_of_another_versus_is_told_which_to_install(pg_url, capsys):
    from versus.cli import main

    store = Store(pg_url)
    session = store.new_session(1, [], {}, {"experiments": [CLAIMS]}, {}, {}, {"version": "9.9.9"})
    arm = store.add_arm(session, 0, {"experiment": "claims", "case": "fast", "runtime": "cpython@3"})
    WorkQueue(store).enqueue(session, 1, 0, 0, False, [{"arm": arm, "index": 0, "method": {}, "inner": 0}])
    assert main(["worker", "--db", pg_url, "--name", "old", "--idle-exit", "5"]) == 2
    err = capsys.readouterr().err
    assert f"planned by versus 9.9.9; this worker is versus {__version__}" in err and "hint: install versus 9.9.9" in err


def test_an_arm_no_host_can_run_is_reported_as_such(pg_server, pg_url, tmp_path):
    """The worker's copy of the experiment differs from the session's (its content hash): it enlists
    able to run none of the arms, and the session says why each failed instead of waiting for ever."""
    folder = tmp_path / "claims"
    shutil.copytree(FIXTURES / "claims", folder)
    log = tmp_path / "coordinator.log"
    coordinator = subprocess.Popen([sys.executable, "-m", "versus", "run", str(folder), "--db", pg_url, "--format", "json",
                                    "--processes", "3"], stdout=subprocess.PIPE, stderr=open(log, "w"), text=True,  # noqa: SIM115
                                   cwd=tmp_path)
    _wait_for(pg_url, "SELECT id FROM work", bool, what="the session's first round")
    (folder / "work.py").write_text((folder / "work.py").read_text() + "\n# another version\n")
    with workers(pg_server, _dbname(pg_url), ["elsewhere"], tmp_path):
        out, _ = coordinator.communicate(timeout=240)
    assert coordinator.returncode == 4, log.read_text()
    failed = json.loads(out)["failed_runs"]
    assert len(failed) == 6 and all("no host of this session can run it" in f["reason"] for f in failed)
    assert "elsewhere: this host has no experiment claims with the session's files" in failed[0]["reason"]
