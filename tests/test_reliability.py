"""The third hostile-input campaign (issue 33), written down: imports that could run code or break a
database, one writer per database file, signals, terminal escapes, bounded memory and time, bad input.
One test per defect, each failing before its fix."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import FIXTURES
from versus.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err, captured.err
    return code, captured.out, captured.err


def exported(tmp_path: Path, capsys, processes: int = 1) -> dict:
    """A real session's versus document, to tamper with."""
    db = tmp_path / "source" / "versus.db"
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", str(processes)]) == 0
    out = tmp_path / "session.json"
    assert main(["export", "1", "--db", str(db), "-o", str(out)]) == 0
    capsys.readouterr()
    return json.loads(out.read_text())


# --- 1 · an imported document never decides what runs ---------------------------------------------

def test_an_imported_interrupted_session_is_never_resumed_and_its_commands_never_run(tmp_path, db, capsys):
    """Regression: `import` took a session's status, options and definitions from the file, so a
    document with status "interrupted" and a case `command = "/bin/sh -c …"` became the newest session
    and `versus run --resume` ran that command."""
    doc = exported(tmp_path, capsys)
    marker = tmp_path / "PWNED"
    doc["session"]["status"] = "interrupted"
    raw = doc["definitions"]["claims"]["raw"]
    raw["experiment"]["driver"] = "command"
    for case in raw["cases"]:
        case["command"] = f"/bin/sh -c 'touch {marker}'"
        case["check"] = ""
    doc["session"]["options"] = {"experiments": [str(tmp_path)], "method": {"processes": 3}}
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps(doc))
    code, _, err = run(capsys, "import", str(evil), "--db", str(db))
    assert code == 0, err
    for argv in (["run", "--resume"], ["run", "--resume", "1"]):
        code, _, err = run(capsys, *argv, "--db", str(db))
        assert code == 2 and "imported" in err and "hint:" in err, err
    assert not marker.exists()
    code, out, _ = run(capsys, "sessions", "--db", str(db))
    assert code == 0 and "(imported)" in out
    code, _, err = run(capsys, "report", "1", "--db", str(db), "--format", "markdown")
    assert code == 0 and not marker.exists()


def test_a_database_of_before_imports_were_marked_keeps_its_imports_from_resuming(tmp_path):
    """Regression (the same class, in databases written before): sessions imported under schema 3 are
    known by their options or by arms without a folder, and are never resumed."""
    import sqlite3

    from versus.store import MIGRATIONS, Store

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as connection:
        for number, script in enumerate(MIGRATIONS[:3]):
            connection.executescript(script + f"\nPRAGMA user_version={number + 1};")
        for sid, options, path in ((1, '{"experiments": ["x"]}', "/somewhere/x"), (2, '{"experiments": ["x"]}', ""),
                                   (3, '{"import": "jmh"}', ""), (4, "not json", "")):
            connection.execute("INSERT INTO sessions (id, created, status, seed, argv, host, options, upgrade)"
                               " VALUES (?, 0, 'interrupted', 0, '[]', '{}', ?, 0)", (sid, options))
            connection.execute("INSERT INTO arms (session_id, position, experiment, experiment_path, case_name,"
                               " runtime, runtime_info, params, method) VALUES (?, 0, 'x', ?, 'c', 'r', '{}', '{}', '{}')",
                               (sid, path))
    store = Store(db)
    marked = dict(store.db.execute("SELECT id, imported != '' FROM sessions").fetchall())
    assert marked == {1: False, 2: True, 3: True, 4: True}
    assert store.newest_run() == 1
