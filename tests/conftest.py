from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "results" / "versus.db"


# PostgreSQL for the store's second backend and the fleet: one real server for the whole test run,
# started by the first test that asks for it and stopped at the end (pgserver.py).
_PG: dict[str, object] = {}


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


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001
    if "note" in _PG:
        terminalreporter.write_line(f"PostgreSQL tests: {_PG.get('databases', 0)} databases on one test server; "
                                    f"{_PG['note']}")
