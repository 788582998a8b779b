"""The third hostile-input campaign (issue 33), written down: imports that could run code or break a
database, one writer per database file, signals, terminal escapes, bounded memory and time, bad input.
One test per defect, each failing before its fix."""
from __future__ import annotations

import json
import re
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


# --- 2 · terminal control sequences never reach the terminal --------------------------------------

HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[8mhidden\x1b[0m\u009b31m\u202etxt.exe\r"


def _unsafe(text: str) -> list[str]:
    from versus.printable import UNSAFE

    return sorted({repr(c) for c in UNSAFE.findall(text)})


def hostile_experiment(tmp_path: Path) -> Path:
    folder = tmp_path / f"exp{HOSTILE[:8]}"  # its name is the folder's: a name, never a command
    folder.mkdir()
    (folder / "experiment.toml").write_text(f'''
[experiment]
title = {json.dumps(HOSTILE)}
runtimes = ["cpython@3.11"]
[method]
processes = 1
warmup = 0
samples = 1
inner = 5
[programs]
python3 = "p.py"
[[cases]]
name = "ok\\u009b2J\\u202e"
[[cases]]
name = "bad"
''')
    (folder / "p.py").write_text(f'''
import os, sys, versus_helper as vh
if os.environ["VERSUS_CASE"] == "bad":
    sys.stdout.write({HOSTILE!r} + "\\n")
    sys.stderr.write({HOSTILE!r} + "\\n")
    sys.exit(3)
vh.run({{"ok\\u009b2J\\u202e": vh.timed(lambda n: None)}})
''')
    return folder


def test_control_characters_in_names_and_program_output_are_escaped_in_every_format(tmp_path, db, capsys):
    """Regression: ESC sequences (title, clipboard, clear-screen, hidden text), C1 controls and bidi
    overrides from a program's stderr, a case name and an experiment's folder name reached the
    terminal (the failed-runs table, the live line) and report.md."""
    folder = hostile_experiment(tmp_path)
    code, out, err = run(capsys, "run", str(folder), "--db", str(db))
    assert code == 4 and "\\x1b]0;owned" in out + err
    assert _unsafe(out + err) == []
    for form in ("table", "markdown", "json"):
        code, out, err = run(capsys, "report", "--db", str(db), "--format", form)
        assert _unsafe(out + err) == [], form
    code, out, err = run(capsys, "sessions", "--db", str(db))
    assert _unsafe(out + err) == []
    for written in db.parent.rglob("*"):
        if written.suffix in (".md", ".html", ".json"):
            assert _unsafe(written.read_text()) == [], written
    code, out, _ = run(capsys, "report", "--db", str(db), "--format", "json")
    doc = json.loads(out)  # the JSON escapes them, and reads back to the very text stored
    assert any(HOSTILE in f["log_tail"] for f in doc["failed_runs"])


def test_control_characters_in_imported_names_are_escaped_in_every_format(tmp_path, db, capsys):
    """The same class through imports: names of JMH, hyperfine, pyperf and versus files."""
    files = {
        "jmh": [{"benchmark": f"b{HOSTILE}", "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[1.0, 2.0]]}}],
        "hyperfine": {"results": [{"command": f"c{HOSTILE}", "times": [0.1, 0.2]},
                                  {"command": "plain", "times": [0.1, 0.2]}]},
        "pyperf": {"version": "1.0", "benchmarks": [{"metadata": {"name": f"p{HOSTILE}"},
                                                      "runs": [{"values": [1e-6, 2e-6]}]}]},
    }
    for kind, content in files.items():
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(content))
        assert run(capsys, "import", str(path), "--db", str(db))[0] == 0
    doc = exported(tmp_path, capsys)
    doc["arms"][0]["case"] = f"v{HOSTILE}"
    doc["session"]["argv"] = ["versus", "run", HOSTILE]
    path = tmp_path / "versus.json"
    path.write_text(json.dumps(doc))
    assert run(capsys, "import", str(path), "--db", str(db))[0] == 0
    for session in ("1", "2", "3", "4"):
        for form in ("table", "markdown", "json"):
            code, out, err = run(capsys, "report", session, "--db", str(db), "--format", form,
                                 "--html", str(tmp_path / "page.html"))
            assert code == 0 and _unsafe(out + err) == [], (session, form)
            assert _unsafe((tmp_path / "page.html").read_text()) == []
    code, out, err = run(capsys, "compare", "4", "4", "--db", str(db))
    assert _unsafe(out + err) == []


# --- 3 · no file beside the database is written through a link -------------------------------------

def test_links_planted_at_the_lock_and_the_report_files_are_never_written_through(tmp_path, db, capsys):
    """Regression: `<db>.lock` and `session-N/report.md` were opened following symbolic links, so a
    link planted there truncated and overwrote its target."""
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1"]) == 0
    victims = {name: tmp_path / f"victim-{name}" for name in ("lock", "report.md", "session.json", "index.html", "idx")}
    for victim in victims.values():
        victim.write_text("precious")
    (db.parent / "versus.db.lock").symlink_to(victims["lock"])
    folder = db.parent / "session-2"
    folder.mkdir()
    for name in ("report.md", "session.json", "index.html"):
        (folder / name).symlink_to(victims[name])
    (db.parent / "index.html").unlink()
    (db.parent / "index.html").symlink_to(victims["idx"])
    code, _, err = run(capsys, "run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1")
    assert code == 0, err
    assert all(v.read_text() == "precious" for v in victims.values())
    assert "# versus session 2" in (folder / "report.md").read_text() and not (folder / "report.md").is_symlink()
    # a session folder that is a link to a folder elsewhere is refused, not written into
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (db.parent / "session-3").symlink_to(elsewhere)
    code, _, err = run(capsys, "run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1")
    assert code == 3 and "is a symbolic link" in err and "versus report 3" in err
    assert list(elsewhere.iterdir()) == []


# --- 6 · one writer per database file ---------------------------------------------------------------

def test_a_database_held_by_a_run_is_refused_through_a_hard_or_a_symbolic_link(tmp_path, db, capsys):
    """Regression: the lock was per path name: two runs on one database reached through a hard link
    both ran (one session silently lost), and a --resume through a symbolic link ran beside the live
    run, marked it interrupted and ended in a UNIQUE-constraint error."""
    from versus.store import Store

    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1"]) == 0
    capsys.readouterr()
    hard, soft = tmp_path / "hard.db", tmp_path / "soft.db"
    hard.hardlink_to(db)
    soft.symlink_to(db)
    holder = Store(db)
    holder.acquire()
    try:
        for argv in (["run", str(FIXTURES / "claims"), "--db", str(hard)], ["run", "--resume", "--db", str(soft)],
                     ["import", str(tmp_path / "any.json"), "--db", str(hard)]):
            code, _, err = run(capsys, *argv)
            assert code == 3 and "is in use by a running versus (pid" in err, (argv, err)
    finally:
        holder.release()
    assert [s["status"] for s in Store(db).sessions()] == ["complete"]


# --- 4 · the Markdown report escapes names -----------------------------------------------------------

MARKUP_NAMES = ["a|b", "a\\|b", "<script>alert(1)</script>", "[x](javascript:alert(1))", "<javascript:alert(1)>",
                "![i](javascript:alert(1))", "[r]: javascript:alert(1)", "`a|b`", "x &lt;b&gt; y"]


def test_the_markdown_report_shows_names_as_text_never_as_markup(tmp_path, db, capsys):
    """Regression: a `|` in a case name broke the report's table, and raw `<script>` and `javascript:`
    links went into report.md as markup (the HTML page escaped them)."""
    import markdown_it

    data = {"results": [{"command": name, "times": [0.01 * (i + 1), 0.0101 * (i + 1), 0.0102 * (i + 1)]}
                        for i, name in enumerate(MARKUP_NAMES)]}
    path = tmp_path / "hf.json"
    path.write_text(json.dumps(data))
    assert run(capsys, "import", str(path), "--db", str(db))[0] == 0
    code, text, _ = run(capsys, "report", "--db", str(db), "--format", "markdown")
    assert code == 0
    renderer = markdown_it.MarkdownIt("commonmark").enable("table")
    renderer.validateLink = lambda url: True  # type: ignore[method-assign]  # as a trusting renderer would
    page = renderer.render(text)
    assert "<script" not in page and "<a " not in page and "<img" not in page and "<code" not in page
    import html as html_module

    cells = [html_module.unescape(c) for c in re.findall(r"<td>(.*?)</td>", page)]
    for name in MARKUP_NAMES:  # each a whole cell of its own, as written: not split, not markup
        assert name in cells, (name, [c for c in cells if name[:2] in c])
