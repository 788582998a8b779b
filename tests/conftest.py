import os
import subprocess
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "results" / "versus.db"


def processes_left(pattern: str) -> list[int]:
    """The processes `pgrep -f PATTERN` finds that this test process started: its descendants, those
    re-parented to it included (the executor makes it their subreaper). A test on another xdist worker
    may run the same fixture's server at that moment, and its processes are not this test's leftovers."""
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split()
    return [int(pid) for pid in found if _descends(int(pid), os.getpid())]


def _descends(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False  # it ended meanwhile: left nothing behind
    return False


def maven_jar(project: Path, name: str = "benchmarks") -> Path:
    """`project/target/NAME.jar`, built (when a source of it is newer) as the harness builds it: one build of
    a project at a time and one Maven at a time on the local repository (versus.runtimes.maven), so that two
    test processes (xdist workers) wanting the same jar never build it at once."""
    from versus.executor import SubprocessExecutor
    from versus.paths import cache_dir, helpers
    from versus.runtimes.family import BuildContext
    from versus.runtimes.maven import maven_jar as build

    return build(project, name, BuildContext(SubprocessExecutor(), cache_dir(), helpers()))


# PostgreSQL for the store's second backend and the fleet: one real server for the whole test run of
# this process, started by the first test that asks for it and stopped at the end (pgserver.py). Under
# xdist each worker that runs such a test has its own (a test restarts its server mid-session, which must
# not cut another worker's connections): its own directory, port, namespaces and veths (pgserver.py).
_PG: dict[str, object] = {}
_PG_WORKERS: list[dict[str, object]] = []  # on xdist's controller: what each worker's server served


@pytest.fixture(scope="session")
def pg_server():
    from pgserver import PgServer

    server = PgServer()
    try:
        server.make_namespaces(3)
        _PG["note"] = server.namespace_note or f"workers in {len(server.namespaces)} network namespaces over veth pairs"
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def pg_url(pg_server, request) -> str:
    """A new, empty database of the test server for this test."""
    count = int(_PG.get("databases", 0)) + 1  # type: ignore[call-overload]
    _PG["databases"] = count
    return pg_server.create_database(f"t{count}_{request.node.name[:40].lower()}".replace("[", "_").replace("]", "_")
                                     .replace("-", "_").replace(".", "_"))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On an xdist worker: hand what its server served to the controller, which prints the summary."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None and "note" in _PG:
        output["pg"] = {"databases": int(_PG.get("databases", 0)), "note": str(_PG["note"])}  # type: ignore[call-overload]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # noqa: ANN001
    """On xdist's controller, as each worker ends (a hook of xdist's, absent without it)."""
    served = getattr(node, "workeroutput", {}).get("pg")
    if served:
        _PG_WORKERS.append(served)


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001
    if hasattr(terminalreporter.config, "workerinput"):
        return  # an xdist worker: its controller sums up
    servers = _PG_WORKERS or ([{"databases": _PG.get("databases", 0), "note": _PG["note"]}] if "note" in _PG else [])
    if not servers:
        return
    databases = sum(int(s["databases"]) for s in servers)  # type: ignore[call-overload]
    notes = "; ".join(dict.fromkeys(str(s["note"]) for s in servers))
    where = "one test server" if len(servers) == 1 else f"{len(servers)} test servers (one for each xdist worker)"
    each = "" if len(servers) == 1 else "each server's "
    terminalreporter.write_line(f"PostgreSQL tests: {databases} databases on {where}; {each}{notes}")
