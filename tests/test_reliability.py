"""The third hostile-input campaign (issue 33), written down: imports that could run code or break a
database, one writer per database file, signals, terminal escapes, bounded memory and time, bad input.
One test per defect, each failing before its fix."""
from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from conftest import FIXTURES
from versus import experiment, runner
from versus.analyze import Judged
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

    from versus.store import Store
    from versus.store.schema import MIGRATIONS, for_sqlite

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as connection:
        for number, script in enumerate(MIGRATIONS[:3]):
            connection.executescript(for_sqlite(script) + f"\nPRAGMA user_version={number + 1};")
        for sid, options, path in ((1, '{"experiments": ["x"]}', "/somewhere/x"), (2, '{"experiments": ["x"]}', ""),
                                   (3, '{"import": "jmh"}', ""), (4, "not json", "")):
            connection.execute("INSERT INTO sessions (id, created, status, seed, argv, host, options, upgrade)"
                               " VALUES (?, 0, 'interrupted', 0, '[]', '{}', ?, 0)", (sid, options))
            connection.execute("INSERT INTO arms (session_id, position, experiment, experiment_path, case_name,"
                               " runtime, runtime_info, params, method) VALUES (?, 0, 'x', ?, 'c', 'r', '{}', '{}', '{}')",
                               (sid, path))
    store = Store(db)
    marked = dict(store.backend.query("SELECT id, imported != '' FROM sessions"))
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
    assert [s.status for s in Store(db).sessions()] == ["complete"]


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


# --- 7, 8 · imports are checked whole; every stored value can be reported ----------------------------

def _set(doc: dict, path: str, value) -> None:
    *parents, last = path.split(".")
    node = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


BAD_DOCUMENTS = [  # (a field, its value): each made a database unreportable, or crashed the import
    ("session.created", 1e300), ("session.created", "yesterday"), ("session.finished", -5),
    ("session.plan.budget", "10m"), ("session.plan.methods", ["claims"]), ("arms.0.runtime_info.flags", 3),
    ("session.seed", 2**64), ("arms.0.runs.0.round", 2**64), ("arms.0.runs.0.exit_code", -(2**70)),
    ("arms.0.runs.0.started", "nan"), ("arms.0.runs.0.metrics", [["m", "nan", "x"]]),
    ("arms.0.runs.0.wall_ns", 1e400), ("arms.0.case", "a\ud800b"), ("session.argv", ["versus", "\udfff"]),
    ("arms.0.runs.1.round", 0), ("host.load", {"deep": [[[[1]]]]}), ("session.plan.methods.claims.processes", "x"),
]


@pytest.mark.parametrize("field,value", BAD_DOCUMENTS, ids=[f"{f}={str(v)[:12]!r}" for f, v in BAD_DOCUMENTS])
def test_a_versus_document_with_a_bad_value_is_refused_whole(field, value, tmp_path, db, capsys):
    """Regression: a timestamp out of range or of the wrong type, a string budget, methods as a list,
    flags as a number imported with exit 0 and then made `sessions`, `report` and every later `run` on
    the database end in an internal error; lone surrogates, integers beyond SQLite's, 1e400, "nan" and
    two runs of one round ended in exit 3 with a traceback."""
    doc = exported(tmp_path, capsys, processes=2)
    _set(doc, field, value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc).replace("1e+400", "1e400"), encoding="utf-8", errors="surrogatepass")
    code, _, err = run(capsys, "import", str(path), "--db", str(db))
    assert code == 2 and "versus: error:" in err and "hint:" in err, err
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0


def test_a_hello_nested_950_deep_and_surrogates_in_every_format_are_refused(tmp_path, db, capsys):
    doc = exported(tmp_path, capsys)
    # 951 objects deep, written as text: json.dumps would recurse once a level, on top of the test's own
    # stack (deeper in an xdist worker than in a plain pytest), and reach the recursion limit first
    doc["arms"][0]["runs"][0]["hello"] = "NESTED"
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps(doc).replace('"NESTED"', '{"x": ' * 950 + "{}" + "}" * 950, 1))
    files = [deep]
    for name, content in (("jmh", '[{"benchmark": "b\\ud800", "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[1]]}}]'),
                          ("hf", '{"results": [{"command": "\\udc00", "times": [0.1]}]}'),
                          ("pyperf", '{"version": "1.0", "benchmarks": [{"metadata": {"name": "\\ud800"}, '
                                     '"runs": [{"values": [1e-6]}]}]}')):
        files.append(tmp_path / f"{name}.json")
        files[-1].write_text(content)
    for path in files:
        code, _, err = run(capsys, "import", str(path), "--db", str(db))
        assert code == 2 and "hint:" in err, (path.name, err)
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0


def test_every_stored_value_can_be_reported(tmp_path, db, capsys):
    """The other half of the class: a database written by an older versus or edited by hand holds
    values no import lets in now; `sessions`, `report` in every format, the index and a later `run`
    show what they can and say what the session lacks."""
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "2"]) == 0
    capsys.readouterr()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE sessions SET created = 1e300, finished = 'soon', host = '{\"load\": 3}',"
                           " plan = json_set(plan, '$.budget', 'x', '$.methods', json('[1]')), versus = 'nope'")
        connection.execute("UPDATE arms SET runtime_info = json_set(runtime_info, '$.flags', 3), params = '[]'")
    for argv in (["sessions"], ["report", "--format", "table"], ["report", "--format", "markdown"],
                 ["report", "--format", "json"], ["report", "--html", str(tmp_path / "p.html")],
                 ["export", "-o", str(tmp_path / "x.json")]):
        code, out, err = run(capsys, *argv, "--db", str(db))
        assert code == 0, (argv, err)
    code, out, err = run(capsys, "report", "--db", str(db))
    assert "lacks its versus, plan's methods, plan's budget" in out and "session 1 (complete)" in out
    code, _, err = run(capsys, "run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1")
    assert code == 0, err
    assert "session 1" in (db.parent / "index.html").read_text()


# --- 9 · reading commands only read ---------------------------------------------------------------------

def _unshare() -> bool:
    import shutil
    import subprocess

    return bool(shutil.which("unshare")) and subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _unshare(), reason="needs `unshare -rm` (user and mount namespaces) to mount file systems")
def test_a_database_on_a_read_only_file_system_or_a_full_disk_can_be_reported(tmp_path):
    """Regression: `report`, `sessions` and `export` opened the database to write, so on a read-only
    file system they failed ("unable to open database file"), and on a full disk `report` failed with a
    disk I/O error."""
    import subprocess
    import sys

    folder, full, out = tmp_path / "ro", tmp_path / "full", tmp_path / "out"
    for made in (folder, full, out):
        made.mkdir()
    versus = [sys.executable, "-m", "versus"]
    done = subprocess.run([*versus, "run", str(FIXTURES / "claims"), "--db", str(folder / "versus.db"),
                           "--processes", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not (folder / "versus.db-wal").exists()
    command = " ".join(versus)
    script = f"""
set -e
mount --bind {folder} {folder}; mount -o remount,bind,ro {folder}
mount -t tmpfs -o size=1m tmpfs {full}; cp {folder}/versus.db {full}/
dd if=/dev/zero of={full}/fill bs=4k 2>/dev/null || true
for db in {folder}/versus.db {full}/versus.db; do
  {command} report --db $db --format json > {out}/report.json
  {command} sessions --db $db > /dev/null
  {command} export 1 --db $db -o {out}/export.json
done
"""
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert json.loads((out / "report.json").read_text())["session"]["status"] == "complete"


# --- 10 · advice that fits -------------------------------------------------------------------------------

def test_an_interrupt_advises_what_the_state_allows(tmp_path, db, capsys, monkeypatch):
    """Regression: Ctrl-C during `report`, or after a session had completed, printed "Continue with:
    versus run --resume", which then refused."""
    from versus import cli
    from versus.report import terminal

    def interrupt(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_write_reports", interrupt)
    code, _, err = run(capsys, "run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1")
    assert code == 130 and "--resume" not in err and "session 1 is complete" in err and "versus report 1" in err
    monkeypatch.setattr(terminal, "render", interrupt)
    code, _, err = run(capsys, "report", "--db", str(db))
    assert code == 130 and "--resume" not in err and "nothing was changed" in err


# --- 12 · signals: the session is kept, nothing of a benchmark outlives the harness --------------------

# The sleeps' lengths carry a mark of the test that started them (TAG): a test beside it (another xdist
# worker's) may have sleeps of its own running, and they are not this benchmark's leftovers.
FORKING = '''
import os, subprocess, sys, time
child = subprocess.Popen(["sleep", "300.TAG"])
if os.fork() == 0:  # a daemon: its own session, re-parented, its environment cleared
    os.setsid()
    if os.fork() == 0:
        os.execve("/bin/sleep", ["sleep", "301.TAG"], {})
    os._exit(0)
time.sleep(0.3)
with open(os.environ["VERSUS_PARAM_PIDS"], "a") as f:
    f.write(f"{child.pid}\\n")
time.sleep(300)
'''


def _sleeps(tag: str) -> set[int]:
    import subprocess

    found = subprocess.run(["pgrep", "-f", rf"^sleep 30[01]\.{tag}$"], capture_output=True, text=True).stdout.split()
    return {int(p) for p in found}


@pytest.mark.parametrize("number,target", [("SIGTERM", "versus"), ("SIGKILL", "versus"), ("SIGKILL", "harness")])
def test_a_signal_to_versus_keeps_the_session_and_leaves_no_benchmark_process(number, target, tmp_path):
    """Regression: SIGTERM was not handled (exit 143, the session left `running`), and a process the
    benchmark forked survived re-parented to init, on SIGKILL of the harness too."""
    import subprocess
    import sys
    import time

    pids = tmp_path / "pids"
    folder = tmp_path / "forks"
    folder.mkdir()
    (folder / "experiment.toml").write_text(BASE_TOML.replace("[params]", f'[params]\npids = "{pids}"'))
    tag = f"{os.getpid()}{time.monotonic_ns() % 10**6:06d}"  # digits: a fraction of a second more to sleep
    (folder / "p.py").write_text(FORKING.replace("TAG", tag))
    before = _sleeps(tag)
    db = tmp_path / "v.db"
    versus = subprocess.Popen([sys.executable, "-m", "versus", "run", str(folder), "--db", str(db)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(_sleeps(tag) - before) < 2 and time.monotonic() < deadline:  # the child and the daemon
            time.sleep(0.1)
        assert len(_sleeps(tag) - before) == 2
        victim = versus.pid
        if target == "harness":
            victim = int(subprocess.run(["pgrep", "-P", str(versus.pid)], capture_output=True, text=True).stdout.split()[0])
        subprocess.run(["kill", f"-{number.removeprefix('SIG')}", str(victim)], check=True)
        _, err = versus.communicate(timeout=60)
    finally:
        if versus.poll() is None:
            versus.kill()
    deadline = time.monotonic() + 10
    while _sleeps(tag) - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _sleeps(tag) - before, "a benchmark's process outlived the harness"
    if number == "SIGTERM":
        assert versus.returncode == 130 and "Traceback" not in err and "--resume" in err, err
    from versus.record import load_session
    from versus.store import Store

    assert load_session(Store(db, readonly=True)).status == "interrupted"  # or shown so, after a SIGKILL


BASE_TOML = '''
[experiment]
runtimes = ["cpython@3.11"]
[method]
processes = 1
warmup = 0
samples = 1
inner = 1
timeout = 200
[params]
[programs]
python3 = "p.py"
[[cases]]
name = "job"
'''


# --- 11 · an import keeps what the session was -----------------------------------------------------------

def test_an_export_of_a_running_session_imports_as_interrupted_and_keeps_what_it_lacks(tmp_path, db, capsys):
    """Regression: an export of a running session imported as `complete`, and an import dropped `lacks`."""
    doc = exported(tmp_path, capsys)
    doc["session"]["status"] = "running"
    doc["session"]["lacks"] = "the definitions of x"
    path = tmp_path / "running.json"
    path.write_text(json.dumps(doc))
    assert run(capsys, "import", str(path), "--db", str(db))[0] == 0
    code, out, _ = run(capsys, "report", "--db", str(db), "--format", "json")
    session = json.loads(out)["session"]
    assert session["status"] == "interrupted" and session["lacks"] == "the definitions of x"
    assert run(capsys, "run", "--resume", "--db", str(db))[0] == 2  # and, imported, it is never resumed


# --- 22 · a reader that goes away -----------------------------------------------------------------------

def test_a_reader_that_goes_away_ends_versus_quietly(tmp_path, db, capsys):
    """Regression: `versus report --format json | head -c 20` ended in a BrokenPipeError traceback and
    exit 3; the table format exited 1 (the failed-claims code). The read end is closed before versus
    starts, so its first write meets a closed pipe."""
    import os
    import subprocess
    import sys

    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1"]) == 0
    for form in ("json", "table", "markdown"):
        read, write = os.pipe()
        os.close(read)
        try:
            done = subprocess.run([sys.executable, "-m", "versus", "report", "--db", str(db), "--format", form],
                                  stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
        finally:
            os.close(write)
        assert done.returncode == 141 and done.stderr == "", (form, done.returncode, done.stderr)


# --- 13 · a build within the budget, and said so ---------------------------------------------------------

def test_a_build_stops_when_the_budget_is_spent_and_the_live_line_says_it_builds(tmp_path, db, capsys, monkeypatch):
    """Regression: a build ignored --budget (its own limit is 900 s) and waited silently."""
    import time

    from versus.runtimes.families import c
    from versus.runtimes.family import run_build

    def slow(self, runtime, program, context):  # noqa: ANN001, ANN202
        run_build(["sleep", "60"], context, f"the build of {program.name}", "fix it")

    monkeypatch.setattr(c._Compiler, "build", slow)
    folder = tmp_path / "cexp"
    folder.mkdir()
    (folder / "experiment.toml").write_text(BASE_TOML.replace('runtimes = ["cpython@3.11"]', 'runtimes = ["gcc"]')
                                            .replace('python3 = "p.py"', 'c = "p.c"'))
    (folder / "p.c").write_text("int main(void) { return 0; }\n")
    began = time.monotonic()
    code, out, err = run(capsys, "run", str(folder), "--db", str(db), "--budget", "3s")
    assert time.monotonic() - began < 40
    assert code == 4 and "was stopped after" in out + err and "budget" in out + err


def test_the_live_line_says_an_arm_is_building():
    import io

    from rich.console import Console

    from versus.progress import RichProgress

    class Arm:
        key = "exp/case/java@17"

    class Job:
        arm = Arm()

    progress = RichProgress(Console(file=io.StringIO()))
    progress.preparing(cast(runner.Job, Job()))
    assert "building exp/case/java@17" in progress.bar.tasks[0].description
    progress.stop()


# --- 14 · a damaged cache entry is made again ---------------------------------------------------------------

C_PROGRAM = '''#include "versus.h"
static int job(versus_ctx *ctx, uint64_t inner) { return versus_check_u64(ctx, inner); }
static const versus_case cases[] = {VERSUS_TIMED("job", job)};
int main(void) { return versus_run(cases, sizeof cases / sizeof cases[0]); }
'''


def test_a_damaged_build_in_the_cache_is_built_again(tmp_path, db, capsys, monkeypatch):
    """Regression: a truncated compiled C program in the cache failed every later run, with no hint,
    and was never rebuilt."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("VERSUS_CACHE", str(cache))
    folder = tmp_path / "cexp"
    folder.mkdir()
    (folder / "experiment.toml").write_text(BASE_TOML.replace('runtimes = ["cpython@3.11"]', 'runtimes = ["gcc"]')
                                            .replace('python3 = "p.py"', 'c = "p.c"').replace("inner = 1", "inner = 10"))
    (folder / "p.c").write_text(C_PROGRAM)
    assert run(capsys, "run", str(folder), "--db", str(db))[0] == 0
    binaries = [p for p in (cache / "c").rglob("p") if p.is_file()]
    assert len(binaries) == 1
    binaries[0].write_bytes(binaries[0].read_bytes()[:100])  # truncated
    code, _, err = run(capsys, "run", str(folder), "--db", str(db))
    assert code == 0, err


def test_two_processes_wanting_one_build_compile_it_once_and_both_run_it(tmp_path):
    """Regression: two workers (or xdist's test processes) of one machine wanting the same build each
    compiled it and installed it over the other's; for a folder of classes the second install moved aside
    and removed the folder the first one's JVM was loading from. One compiles now, the other waits."""
    import threading

    from versus.executor import SubprocessExecutor
    from versus.runtimes.families.c import Gcc
    from versus.runtimes.family import BuildContext

    compilers = Gcc().discover()
    if not compilers:
        pytest.skip("gcc is not installed (scripts/system-packages.sh installs it)")
    program = tmp_path / "p.c"
    program.write_text(C_PROGRAM)
    compiles: list[list[str]] = []
    started = threading.Barrier(2)

    class Counting(SubprocessExecutor):
        def execute(self, argv, env, timeout, cwd=None):  # noqa: ANN001, ANN202
            compiles.append(argv)
            return super().execute(argv, env, timeout, cwd)

    context = BuildContext(Counting(), tmp_path / "cache", Path(__file__).resolve().parents[1] / "helpers")
    built: list[Path | None] = []

    def build() -> None:
        started.wait()
        built.append(Gcc().build(compilers[0], program, context))

    threads = [threading.Thread(target=build) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(built) == 2 and built[0] == built[1] and built[0] is not None
    assert len(compiles) == 1, compiles
    listed = subprocess.run([str(built[0])], capture_output=True, text=True, timeout=60, env={"VERSUS_LIST": "1"})
    assert listed.returncode == 0 and "job" in listed.stdout, listed


def _cargo_project(folder: Path, says: str) -> Path:
    (folder / "src").mkdir(parents=True)
    (folder / "Cargo.toml").write_text('[package]\nname = "hello"\nversion = "0.1.0"\nedition = "2021"\n')
    (folder / "src" / "main.rs").write_text(f'fn main() {{ println!("{says}"); }}\n')
    return folder / "Cargo.toml"


def test_checkouts_of_a_rust_project_share_its_target_when_their_sources_agree(tmp_path):
    """A fresh clone compiled a Rust program's dependencies again (the target folder was keyed by the
    program's path: 2–3 min of a make run's lab). Copies with the same sources share a target now; a
    copy that differs gets its own, even with older file times (cargo judges local crates by file
    times: sharing by path or manifest ran the other copy's binary); each runs its own binary."""
    from versus.executor import SubprocessExecutor
    from versus.runtimes.families.rust import Rust
    from versus.runtimes.family import BuildContext

    runtimes = Rust().discover()
    if not runtimes:
        pytest.skip("cargo is not installed")
    context = BuildContext(SubprocessExecutor(), tmp_path / "cache", Path(__file__).resolve().parents[1] / "helpers")
    changed = _cargo_project(tmp_path / "changed", "second")  # written first: its files are the oldest
    first = _cargo_project(tmp_path / "clone1", "first")
    again = _cargo_project(tmp_path / "clone2", "first")
    built = [(Rust().build(runtimes[0], manifest, context), says)
             for manifest, says in ((first, "first"), (again, "first"), (changed, "second"), (first, "first"))]
    assert len({binary for binary, _ in built}) == 3  # one binary for each program location
    targets = [entry for entry in (tmp_path / "cache" / "cargo-target").iterdir() if not entry.name.startswith(".")]
    assert len(targets) == 2
    for binary, says in built:
        assert binary is not None
        assert subprocess.run([str(binary)], capture_output=True, text=True, timeout=60).stdout == says + "\n"


def test_an_emptied_jython_lib_is_unpacked_again(tmp_path, monkeypatch):
    """Regression: an emptied Jython `Lib` in the cache was used as it was, by every later run."""
    import zipfile

    from versus.runtimes.families.jython import extract_lib

    monkeypatch.setenv("VERSUS_CACHE", str(tmp_path / "cache"))
    jar = tmp_path / "jython.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("Lib/os.py", "x = 1\n" * 100)
        archive.writestr("Lib/encodings/utf_8.py", "y = 2\n")
        archive.writestr("org/python/Main.class", "not Lib")
    home = extract_lib(jar, "2.5.1")
    assert (home / "Lib" / "os.py").stat().st_size == 600
    for file in (home / "Lib").rglob("*.py"):
        file.unlink()
    assert extract_lib(jar, "2.5.1") == home and (home / "Lib" / "os.py").stat().st_size == 600
    (home / "Lib" / "os.py").write_text("")
    assert extract_lib(jar, "2.5.1") == home and (home / "Lib" / "os.py").stat().st_size == 600


# --- 15 · imports are read within bounds ------------------------------------------------------------------------

def test_an_import_is_read_within_bounds(tmp_path, db, capsys):
    """Regression: a 4.2 MB gzip that expands to 4 GiB took 8.5 GB of memory, /dev/zero was read until
    memory ran out, and a FIFO blocked forever."""
    import os
    import subprocess
    import sys
    import zlib

    bomb = tmp_path / "bomb.json.gz"
    with open(bomb, "wb") as out:
        packer = zlib.compressobj(1, zlib.DEFLATED, 31)
        block = b" " * (1 << 20)
        for _ in range(320):  # 320 MiB of blanks in a few MB of gzip: more than the 256 MiB bound
            out.write(packer.compress(block))
        out.write(packer.flush())
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path, words in ((bomb, "expands to more than"), (Path("/dev/zero"), "not a regular file"),
                        (fifo, "not a regular file")):
        probe = ("import resource, sys\nfrom versus.cli import main\ncode = main(sys.argv[1:])\n"
                 "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\nsys.exit(code)\n")
        done = subprocess.run([sys.executable, "-c", probe, "import", str(path), "--db", str(db)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr
        peak_kib = int(done.stderr.strip().split("\n")[-1])
        assert peak_kib < 1 << 20, f"{path.name}: {peak_kib >> 10} MB"  # within the 256 MiB bound, plus Python


# --- 16, 17 · a program's output and a command template cost bounded memory -------------------------------

# VmHWM, not getrusage's ru_maxrss: Linux carries ru_maxrss across exec from the forking process, so
# a probe started from a pytest of 386 MB measured 386 MB whatever it did (CI, 2026-11-27).
MEMORY_PROBE = ("import re, sys\nfrom versus.cli import main\ncode = main(sys.argv[1:])\n"
                "status = open('/proc/self/status').read()\n"
                "print(re.search(r'VmHWM:\\s*(\\d+)', status).group(1), file=sys.stderr)\nsys.exit(code)\n")


def _peak_mb(tmp_path: Path, *argv: str) -> tuple[int, int, str]:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", MEMORY_PROBE, *argv], capture_output=True, text=True, timeout=300)
    return done.returncode, int(done.stderr.strip().split("\n")[-1]) >> 10, done.stderr


def test_a_line_without_a_newline_costs_disk_not_memory(tmp_path, db):
    """Regression: a program line without a newline was read whole (1 GiB → 2.24 GB of harness memory),
    against executor.py's promise that a gigabyte of output costs disk, not memory."""
    folder = tmp_path / "long"
    folder.mkdir()
    (folder / "experiment.toml").write_text(BASE_TOML)
    (folder / "p.py").write_text("import sys\nblock = 'x' * (1 << 20)\nfor _ in range(400):\n"
                                 "    sys.stdout.write(block)\nsys.stdout.flush()\n")
    code, peak, err = _peak_mb(tmp_path, "run", str(folder), "--db", str(db))
    assert code == 4 and "Traceback" not in err, err
    assert peak < 300, f"{peak} MB for a 400 MB line"


def test_a_format_spec_in_a_command_template_is_refused_not_filled(tmp_path, db, capsys):
    """Regression: `{runtime:>300000000}` in a command template took 4.8 GB (in a run, and in the
    report of an imported document whose definition held it)."""
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "p.py").write_text("")
    (folder / "experiment.toml").write_text(BASE_TOML.replace('name = "job"', 'name = "job"\ndriver = "command"\n'
                                                              'command = "{runtime:>300000000} -c pass"'))
    code, peak, err = _peak_mb(tmp_path, "run", str(folder), "--db", str(db))
    assert code == 2 and "is not a plain field" in err and peak < 300, (peak, err)
    for template in ("{runtime.__class__}", "{runtime!r}", "{runtime[0]}"):
        (folder / "experiment.toml").write_text(BASE_TOML.replace(
            'name = "job"', f'name = "job"\ndriver = "command"\ncommand = "{template} -c pass"'))
        code, _, err = run(capsys, "run", str(folder), "--db", str(db))
        assert code == 2 and "is not a plain field" in err, err
    doc = exported(tmp_path, capsys)
    doc["definitions"]["claims"]["raw"]["cases"][0].update(driver="command", command="{runtime:>300000000} x")
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(doc))
    assert run(capsys, "import", str(path), "--db", str(db))[0] == 0
    code, peak, err = _peak_mb(tmp_path, "report", "--db", str(db), "--format", "json")
    assert code == 0 and peak < 300, (peak, err)


# --- 18 · linear in arms, samples and claims ----------------------------------------------------------------

def test_the_comparisons_of_many_arms_are_found_in_one_pass():
    """Regression: `--dry-run` of 10,000 arms took 92 s: each case label scanned every arm (2,000 arms
    took 13 s). Counted, not timed: each arm's identity is asked for a bounded number of times."""
    from versus.arms import ArmId
    from versus.experiment import Baseline
    from versus.items import items_of

    asked = {"n": 0}

    class Runtime:
        family, version, flags, jdk_version = "cpython", "3.11", (), ""

    class Arm:
        def __init__(self, index: int) -> None:
            self._id = ArmId("e", "job", f"n={index}", "cpython@3.11")
            self.runtime, self.param_map = Runtime(), {"n": str(index)}

        @property
        def id(self) -> ArmId:
            asked["n"] += 1
            return self._id

    class Experiment:
        name, claims, baseline = "e", [], Baseline(runtime="cpython")

    arms = [Arm(i) for i in range(3000)]
    items_of(arms, {"e": cast(experiment.Experiment, Experiment())})
    assert asked["n"] < 10 * len(arms), asked


def test_the_steady_state_of_a_long_process_is_judged_in_one_pass(monkeypatch):
    """Regression: reporting 3 process runs of 100,000 samples took 27 s (4 minutes on a busy machine):
    the steady-state test tried every cut one by one, each over every sample."""
    import random

    from versus import steady

    calls = {"n": 0}
    real = steady.shift

    def counted(left, right):  # noqa: ANN001, ANN202
        calls["n"] += 1
        return real(left, right)

    monkeypatch.setattr(steady, "shift", counted)
    rng = random.Random(3)
    flat = [1000.0 * (1 + rng.gauss(0, 0.002)) for _ in range(100_000)]
    assert steady.classify(flat, 10) == steady.FLAT and calls["n"] <= 2
    stepped = flat[:50_000] + [v * 1.05 for v in flat[50_000:]]
    assert steady.classify(stepped, 10) == steady.UNSTEADY and calls["n"] < 100


def test_a_session_of_many_claims_draws_a_bounded_number_of_charts(tmp_path, db, capsys, monkeypatch):
    """Regression: 2,000 claims on 2 arms took 103 s for the HTML page against 1 s for JSON: one
    matplotlib chart each, each laid out by measuring every text."""
    from versus.report import html

    drawn = {"n": 0}

    def forest(claim):  # noqa: ANN001, ANN202
        drawn["n"] += 1
        return "<svg></svg>"

    monkeypatch.setattr(html, "_forest", forest)
    folder = tmp_path / "many"
    folder.mkdir()
    toml = (FIXTURES / "claims" / "experiment.toml").read_text().split("[[claims]]")[0]
    toml += "".join(f'[[claims]]\nid = "c{i}"\nstatement = "s"\nsource = "x"\nnumerator = {{ case = "slow", '
                    f'runtime = "cpython" }}\ndenominator = {{ case = "fast", runtime = "cpython" }}\nmin = {1 + i / 100}\n'
                    for i in range(html.CHARTED_CLAIMS + 50))
    (folder / "experiment.toml").write_text(toml)
    (folder / "work.py").write_text((FIXTURES / "claims" / "work.py").read_text())
    code, _, err = run(capsys, "run", str(folder), "--db", str(db), "--processes", "2")
    assert code == 0, err
    assert drawn["n"] == html.CHARTED_CLAIMS
    assert "have their chart; the other 50" in (db.parent / "session-1" / "index.html").read_text()


# --- 20 · a bound far off the chart -----------------------------------------------------------------------

def test_a_huge_finite_claim_bound_still_gets_its_page(tmp_path, db, capsys):
    """Regression: `max = 1.7e308` made the chart's axis infinite: the HTML page was not written and
    `report --html` exited 3."""
    folder = tmp_path / "claims"
    folder.mkdir()
    (folder / "experiment.toml").write_text((FIXTURES / "claims" / "experiment.toml").read_text()
                                            .replace("max = 5", "max = 1.7e308").replace("min = 10", "min = 1e-300"))
    (folder / "work.py").write_text((FIXTURES / "claims" / "work.py").read_text())
    code, _, err = run(capsys, "run", str(folder), "--db", str(db), "--processes", "2")
    assert code == 0 and "could not be written" not in err, err
    page = tmp_path / "page.html"
    code, _, err = run(capsys, "report", "--db", str(db), "--html", str(page))
    assert code == 0 and page.read_text().count("<svg") >= 2, err


# --- 19, 26 · an experiment.toml that cannot be read says why --------------------------------------------

def _toml_case(tmp_path: Path, name: str, content: bytes) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "experiment.toml").write_bytes(content)
    (folder / "p.py").write_text("")
    return folder


@pytest.mark.parametrize("name,content,words", [
    ("arrays", b"[params]\nx = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested"),
    ("tables", b"[params]\nx = " + b"{a = " * 3000 + b"1" + b"}" * 3000 + b"\n", "nested"),
    ("bom", b"\xef\xbb\xbf" + BASE_TOML.encode(), "byte-order mark"),
    ("utf16", BASE_TOML.encode("utf-16"), "UTF-16"),
    ("latin1", BASE_TOML.replace('name = "job"', 'name = "caf\u00e9"').encode("latin-1"), "not UTF-8"),
])
def test_an_experiment_toml_that_cannot_be_read_names_the_real_problem(name, content, words, tmp_path, db, capsys):
    """Regression: deeply nested TOML ended in a RecursionError (exit 3); a BOM, UTF-16 or Latin-1 file
    got a hint about TOML syntax or permissions."""
    code, _, err = run(capsys, "run", str(_toml_case(tmp_path, name, content)), "--db", str(db), "--dry-run")
    assert code == 2 and words in err and "hint:" in err and "permissions" not in err, err


def test_a_db_that_is_not_a_file_is_named_so(tmp_path, capsys):
    """Regression: `--db /dev/null` got a hint about permissions or disk space."""
    for argv in (["run", str(FIXTURES / "claims")], ["report"], ["sessions"]):
        code, _, err = run(capsys, *argv, "--db", "/dev/null")
        assert code == 2 and "is not a file (a device)" in err, err


# --- 21, 23, 24, 25 · arguments ----------------------------------------------------------------------------

def test_a_session_number_beyond_any_database_is_no_such_session(db, capsys):
    """Regression: `versus report 99999999999999999999` (and export, compare, --resume N) ended in an
    OverflowError."""
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "1"]) == 0
    huge = "99999999999999999999"
    for argv in (["report", huge], ["export", huge, "-o", str(db.parent / "x.json")], ["compare", huge, "1"],
                 ["run", "--resume", huge]):
        code, _, err = run(capsys, *argv, "--db", str(db))
        assert code in (2, 3) and f"no session {huge}" in err, (argv, err)


def test_a_sweep_that_names_a_value_twice_is_refused(tmp_path, db, capsys):
    """Regression: `n = [5, 5, 5]`, `[1, "1", 1.0]` and `--param n=5,5` made arms with one key, compared
    against each other."""
    folder = tmp_path / "sweep"
    folder.mkdir()
    (folder / "p.py").write_text("")
    for values in ("[5, 5, 5]", '[1, "1", 1.0]', '[true, "true"]'):
        (folder / "experiment.toml").write_text(BASE_TOML.replace("[params]", f"[params]\nn = {values}"))
        code, _, err = run(capsys, "run", str(folder), "--db", str(db), "--dry-run")
        assert code == 2 and "more than once" in err, (values, err)
    (folder / "experiment.toml").write_text(BASE_TOML.replace("[params]", "[params]\nn = 1"))
    code, _, err = run(capsys, "run", str(folder), "--db", str(db), "--dry-run", "--param", "n=5,5")
    assert code == 2 and "more than once" in err, err


def test_a_budget_too_short_to_run_anything_is_refused(tmp_path, db, capsys):
    """Regression: `--budget 0.0001` ran nothing and exited 4 ("no successful process run") though
    nothing failed; `0s` was refused but `1e-300` accepted."""
    for budget in ("0.0001", "1e-300", "0.5s"):
        code, _, err = run(capsys, "run", str(FIXTURES / "claims"), "--db", str(db), "--budget", budget)
        assert code == 2 and "too short to run anything" in err, (budget, err)


def test_a_case_with_a_comma_can_be_selected_and_a_flag_is_named_once(tmp_path, db, capsys):
    """Regression: a case named `a,b` could not be selected with --cases; `java@17+int+int` was taken for
    another runtime."""
    folder = tmp_path / "comma"
    folder.mkdir()
    (folder / "experiment.toml").write_text(BASE_TOML.replace('name = "job"', 'name = "a,b"') + '[[cases]]\nname = "c"\n')
    (folder / "p.py").write_text("import versus_helper as vh\nvh.run({'a,b': vh.timed(lambda n: None), "
                                 "'c': vh.timed(lambda n: None)})\n")
    code, out, err = run(capsys, "run", str(folder), "--db", str(db), "--cases", "a,b", "--format", "json")
    assert code == 0, err
    assert [a["case"] for a in json.loads(out)["arms"]] == ["a,b"]
    code, _, err = run(capsys, "run", str(folder), "--db", str(db), "--runtimes", "cpython@3.11+nope+nope", "--dry-run")
    assert code == 2 and "twice" in err, err
    code, _, err = run(capsys, "runtimes", "fetch", "java@17+int+int")
    assert code == 2 and "+int twice" in err, err


def test_a_dry_run_of_a_resume_plans_the_session_resumed(tmp_path, db, capsys, monkeypatch):
    """Regression: `run --resume --dry-run` planned every experiment instead of the session it would resume."""
    from versus import runner

    real = runner.run_one
    calls = {"n": 0}

    def interrupted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "run_one", interrupted)
    assert main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "2"]) == 130
    monkeypatch.setattr(runner, "run_one", real)
    capsys.readouterr()
    code, out, err = run(capsys, "run", "--resume", "--dry-run", "--db", str(db))
    assert code == 0, err
    assert "session 1 (interrupted) has 2 process runs stored" in out and "2 arms" in out
    assert "synchronization" not in out


# --- 27 · labels and glyphs ---------------------------------------------------------------------------------

def test_a_claims_rows_over_a_sweep_say_their_swept_value():
    """Regression: in a 2,000-arm page, 1,000 claim-chart rows carried the same label."""
    from types import SimpleNamespace

    from versus.arms import ArmId
    from versus.report.html import _instance_label

    def arm(runtime: str, variant: str) -> SimpleNamespace:
        identity = ArmId("e", "job", variant, runtime)
        return SimpleNamespace(id=identity, label=identity.label)

    labels = {_instance_label(cast(Judged, SimpleNamespace(numerator=arm("pypy@3.9", f"n={n}"),
                                                           denominator=arm("cpython@3.11", f"n={n}")))) for n in range(50)}
    assert len(labels) == 50


def test_an_emoji_in_a_name_draws_without_a_warning():
    """Regression: an emoji in a name printed matplotlib's missing-glyph warning with its source lines."""
    import warnings

    from versus.report import figures

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figures.points([figures.Panel("case \U0001f600", [figures.Estimate("arm \U0001f680", 1.0, 0.9, 1.1)])])
    assert not [w for w in caught if "Glyph" in str(w.message)]


def test_the_harness_keeps_to_one_thread_and_its_programs_get_the_environment_as_given():
    """A worker's harness had 3 threads while it measured (numpy's and scipy's OpenBLAS pools, seen
    once by test_fleet when the workers shared the loopback): the harness now holds them to one thread
    before they load, and the programs it runs never see that setting, unless the user gave it."""
    probe = ("import os, types\n"
             "from versus import quiet\n"
             "quiet.single_threaded()\n"
             "import versus.fleet.worker, numpy, scipy.stats\n"
             "from versus.drivers.base import base_env\n"
             "env = base_env(types.SimpleNamespace(params=()))\n"
             "print(len(os.listdir('/proc/self/task')), env.get('OPENBLAS_NUM_THREADS'), env.get('OMP_NUM_THREADS'))\n")
    clean = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", probe], env=clean, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "None", "None"]
    done = subprocess.run([sys.executable, "-c", probe], env={**clean, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "3"},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "1", "3"]  # the user's own settings reach the programs
