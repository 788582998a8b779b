"""The `versus` command: a thin layer over plan → run → analyze → report.

Exit codes: 0 success; 1 `--fail-on-claims` and a claim does not hold; 2 bad usage or input; 3 an
error (the database, a fetch) or an internal error; 4 an arm had no successful process run;
130 interrupted by Ctrl-C, SIGTERM or SIGHUP (every finished process run is stored: `versus run
--resume`); 141 the reader of the output went away.

Each command imports what it needs inside its function (start-up time: `versus --help`, `versus
list` and a mistyped command answer without loading numpy, scipy and matplotlib).
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import io
import math
import os
import random
import re
import shlex
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn

from . import __version__, interrupts
from . import experiment as experiments
from . import rule as rules
from .errors import ClaimsFailed, UsageError, VersusError
from .printable import SafeStream
from .record import load_session
from .store import DEFAULT_DB, Store, Target, parse_target
from .store.postgres import shown

EXIT_INCOMPLETE = 4
EXIT_INTERNAL = 3
EXIT_PIPE = 141  # as a shell reports a process that SIGPIPE ended
MIN_BUDGET = 1.0  # seconds: a budget shorter runs nothing
# How long a coordinator or a worker keeps reconnecting to a PostgreSQL database that went away (a
# restart): long enough for an administrator's restart or a failover, short enough to end a lost cause.
PATIENCE = 3600.0
DB_HELP = f"results database: a SQLite file (default {DEFAULT_DB}) or postgresql://USER:PASSWORD@HOST/DATABASE"


class _Parser(argparse.ArgumentParser):
    """argparse, but its usage errors leave through our handler with a hint (exit 2)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, f"see `{self.prog} --help`")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="versus", description="Cross-runtime performance experiments.")
    parser.add_argument("--version", action="version", version=f"versus {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("list", help="experiments, their cases and claims")
    runtimes = sub.add_parser("runtimes", help="runtimes found here or fetchable")
    runtimes.add_argument("action", nargs="?", choices=["fetch"])
    runtimes.add_argument("specs", nargs="*", metavar="SPEC")
    run = sub.add_parser("run", help="run experiments")
    run.add_argument("experiments", nargs="*", metavar="EXPERIMENT|PATH",
                     help="experiment names or folders (default: every experiment of experiments/)")
    run.add_argument("--runtimes", help="comma-separated runtime specs (default: the experiment's list)")
    run.add_argument("--cases", help="comma-separated case names")
    run.add_argument("--baseline", help="compare with this runtime (a selector) or, as case:NAME, with this case")
    run.add_argument("--processes", type=int, help="process runs per arm before sequential rounds")
    run.add_argument("--warmup", type=int, help="warmup samples per process run")
    run.add_argument("--samples", type=int, help="measured samples per process run")
    run.add_argument("--inner", type=int, help="iterations per sample (0: calibrate)")
    run.add_argument("--timeout", type=float, help="seconds before a process run is killed")
    run.add_argument("--cpus", type=int, help="CPUs each process run may use (0: all the host gives)")
    run.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                     help="override a parameter; NAME=V1,V2 sweeps it")
    run.add_argument("--quick", action="store_true", help="each experiment's [quick] method, on the arms its claims compare")
    run.add_argument("--budget", metavar="DURATION",
                     help="time for the whole run (30m, 1h, 90s): sequential rounds until every comparison "
                          "and claim is decided or the time is spent")
    run.add_argument("--dry-run", action="store_true", help="print the plan and its estimated duration; run nothing")
    run.add_argument("--resume", nargs="?", const=-1, type=int, metavar="SESSION", help="finish an interrupted session")
    run.add_argument("--more", nargs="?", const=-1, type=int, metavar="SESSION",
                     help="go on with a finished session: more rounds under its design within --budget, refused where "
                          "its programs or runtimes changed; with EXPERIMENTS and no SESSION, the newest session of "
                          "the same experiments and options, or a new one")
    run.add_argument("--seed", type=int, help="seed of the run order (stored with the session)")
    run.add_argument("--fail-on-claims", action="store_true", help="exit 1 when a claim does not hold")
    _output_options(run)
    report = sub.add_parser("report", help="report a stored session")
    report.add_argument("session", nargs="?", type=int)
    report.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                        help="judge the session by its stored rule with this field changed (docs/method.md, "
                             '"The rule"); e.g. --rule value=median --rule floor=0')
    _output_options(report)
    sessions = sub.add_parser("sessions", help="the sessions of a database")
    sessions.add_argument("--db", type=parse_target, default=DEFAULT_DB, help=DB_HELP)
    compare = sub.add_parser("compare", help="compare two stored sessions arm by arm")
    compare.add_argument("session_a", type=int)
    compare.add_argument("session_b", type=int)
    compare.add_argument("--db", type=parse_target, default=DEFAULT_DB, help=DB_HELP)
    imports = sub.add_parser("import", help="a versus, JMH, hyperfine or pyperf JSON file as a new session")
    imports.add_argument("file", type=Path)
    imports.add_argument("--db", type=parse_target, default=DEFAULT_DB, help=DB_HELP)
    export = sub.add_parser("export", help="a stored session as versus JSON or pyperf JSON (.json or .json.gz)")
    export.add_argument("session", nargs="?", type=int)
    export.add_argument("--db", type=parse_target, default=DEFAULT_DB, help=DB_HELP)
    export.add_argument("--to", choices=["versus", "pyperf"], default="versus")
    export.add_argument("-o", "--output", type=Path, required=True, help="file to write")
    selftest = sub.add_parser("selftest", help="the decision rule on this machine: A/A and planted 3%% changes")
    selftest.add_argument("--seconds", type=float, default=600.0,
                          help="time budget: no trial starts after it (one under way runs to its end)")
    selftest.add_argument("--trials", type=int, default=0, help="stop after this many trials (0: the budget decides)")
    selftest.add_argument("--start", type=int, default=3, help="processes per arm before sequential rounds")
    selftest.add_argument("--rounds", type=int, default=None,
                          help="rounds per comparison at most, the first processes included (default 200: make run's cap "
                               "per item, and the noise model's)")
    selftest.add_argument("--simulate", action="store_true", help="the seeded simulation of this VM's noise instead")
    selftest.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                          help="the trials judged by today's rule with this field changed (docs/method.md, \"The rule\"); "
                               "e.g. --rule history_floor=true")
    selftest.add_argument("--db", type=parse_target, default=None,
                          help="where to keep its runs (default: a temp file); on postgresql://…, its workers run them")
    sub.add_parser("schema", help="every experiment.toml key, as Markdown (docs/experiment-toml.md)")
    worker = sub.add_parser("worker", help="run the rounds of sessions that a PostgreSQL database hands out (docs/fleet.md)")
    worker.add_argument("--db", type=parse_target, required=True, metavar="postgresql://…", help=DB_HELP)
    worker.add_argument("--name", help="this host's name in the reports (default: its hostname); one per host")
    worker.add_argument("--idle-exit", type=float, metavar="SECONDS",
                        help="stop after this long without work (default: serve until stopped)")
    db = sub.add_parser("db", help="a whole results database: copy it between SQLite and PostgreSQL")
    db_commands = db.add_subparsers(dest="db_command", required=True, parser_class=_Parser)
    copy = db_commands.add_parser("copy", help="every session of SRC into a new, empty DST, numbers kept")
    copy.add_argument("source", type=parse_target, metavar="SRC", help="a SQLite file or a postgresql:// URL")
    copy.add_argument("target", type=parse_target, metavar="DST", help="a SQLite file or a postgresql:// URL")
    from .lab import register as lab  # the analyses behind the method: versus lab …
    lab(sub)
    return parser


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=parse_target, default=DEFAULT_DB, help=DB_HELP)
    parser.add_argument("--format", choices=["table", "markdown", "json"], default="table")
    parser.add_argument("--html", type=Path, metavar="FILE", help="also write the report as one HTML page")


def _attached(argv: list[str]) -> list[str]:
    """`--budget -5m` as `--budget=-5m`: argparse takes a value that starts with '-' and is not a number
    for an option and says only "expected one argument"; attached, the value reaches its own check,
    which says what a budget must be."""
    out: list[str] = []
    for token in argv:
        if out and out[-1] == "--budget" and token.startswith("-") and token != "--":
            out[-1] = f"--budget={token}"
        else:
            out.append(token)
    return out


def main(argv: list[str] | None = None) -> int:
    """Every line versus prints goes through one sanitizer (printable.py): names, a program's output and
    imported text never reach the terminal as control sequences."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(out), SafeStream(err)
    previous = interrupts.install()
    try:
        code = _main(argv)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # `versus report | head`: the reader went away; what it read is all it wanted
        _to_devnull(out, err)
        return EXIT_PIPE
    finally:
        sys.stdout, sys.stderr = out, err
        interrupts.restore(previous)


def _to_devnull(*streams: Any) -> None:
    """Point the streams whose reader is gone at /dev/null: Python flushes them again at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in streams:
        with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
            try:
                stream.flush()
            except BrokenPipeError:
                os.dup2(devnull, stream.fileno())
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        os.dup2(devnull, streams[0].fileno())
    os.close(devnull)


def _main(argv: list[str] | None) -> int:
    try:
        args = _parser().parse_args(_attached(sys.argv[1:] if argv is None else argv))
    except VersusError as error:
        return _error(error)
    except SystemExit as done:  # --help and --version
        return int(done.code or 0)
    try:
        return int(_COMMANDS[args.command](args) or 0)
    except KeyboardInterrupt as stop:
        why = f" ({stop})" if isinstance(stop, interrupts.Terminated) else ""
        if args.command == "worker":
            print(f"versus: worker stopped{why}; every process run it finished is stored, and the round it was "
                  "running went back to its coordinator", file=sys.stderr)
            return 130
        print(f"versus: interrupted{why}; {getattr(args, 'advice', '') or 'nothing was changed'}", file=sys.stderr)
        return 130
    except VersusError as error:
        return _error(error)
    except BrokenPipeError:
        raise  # the reader of stdout or stderr went away: main() ends quietly
    except Exception as error:  # a bug: say so plainly, keep the session resumable (session.py marked it)
        print(f"versus: internal error: {type(error).__name__}: {error}; please report it with the lines below",
              file=sys.stderr)
        print("".join(traceback.format_exception(error)[-6:]).rstrip(), file=sys.stderr)
        return EXIT_INTERNAL


def _error(error: VersusError) -> int:
    print(f"versus: error: {error.message}", file=sys.stderr)
    if error.hint:
        print(f"  hint: {error.hint}", file=sys.stderr)
    return error.exit_code


def _list(args: argparse.Namespace) -> int:
    for folder in experiments.all_experiments():
        try:
            loaded = experiments.load(folder)
        except VersusError as error:
            print(f"{folder.name}: cannot be loaded: {error.message}")
            continue
        print(f"{loaded.name}: {loaded.title}")
        for case in loaded.cases:
            only = f"  (only on {', '.join(case.runtimes)})" if case.runtimes else ""
            print(f"  case  {case.name}{only}")
        for claim in loaded.claims:
            print(f"  claim {claim.id}: {claim.statement}")
    return 0


def _runtimes(args: argparse.Namespace) -> int:
    from .paths import cache_dir
    from .runtimes import FAMILIES, found_here, parse_spec, resolve
    from .runtimes.resolve import jdks as installed_jdks

    if args.action == "fetch":
        if not args.specs:
            raise UsageError("nothing to fetch", "name a spec, e.g. versus runtimes fetch jython@2.5.0")
        fetched = 0
        for text in args.specs:
            result = resolve(parse_spec(text), ["17"])
            for runtime in result.runtimes:
                print(f"{runtime.name}: {runtime.jar or runtime.executable}")
                fetched += 1
            for note in result.notes:
                print(f"versus: note: {note}", file=sys.stderr)
        if not fetched:
            raise UsageError("nothing matched: " + ", ".join(args.specs), "see `versus runtimes` for what can be fetched")
        return 0
    print("found on this machine:")
    for runtime in found_here():
        print(f"  {runtime.family + '@' + runtime.version:<18} {runtime.executable}  ({runtime.source})")
    jdks = list(installed_jdks())
    print(f"fetchable from Maven Central (cache {cache_dir()}):")
    for family in FAMILIES.values():
        for entry in family.catalog:
            cached = (cache_dir() / "jars" / entry.jar.filename).exists()
            runs_on = [f"java@{j.jdk_major}" for j in jdks if int(j.jdk_major) >= entry.min_jdk]
            skipped = [f"java@{j.jdk_major}" for j in jdks if int(j.jdk_major) < entry.min_jdk]
            state = "cached" if cached else "not fetched"
            line = f"  {entry.family + '@' + entry.version:<18} {entry.jar.coordinate:<40} {state}"
            line += f"; runs on {', '.join(runs_on) or 'no JDK here'}"
            if skipped:
                line += f"; not paired with {', '.join(skipped)} (needs Java {entry.min_jdk}+)"
            if entry.note:
                line += f"; {entry.note}"
            print(line)
    print("flags:")
    for name, family in FAMILIES.items():
        for flag, meaning in family.flags.items():
            print(f"  {name}+{flag:<14} {meaning}")
    return 0


_DURATION = re.compile(r"^(?:(?P<h>\d+(?:\.\d+)?)h)?(?:(?P<m>\d+(?:\.\d+)?)m(?:in)?)?(?:(?P<s>\d+(?:\.\d+)?)s)?$")


def parse_duration(text: str) -> float:
    """`30m`, `1h30m`, `90s`, `45` (seconds) → seconds."""
    text = text.strip().lower()
    if text.startswith("-"):
        raise UsageError(f"--budget {text!r} must be a positive duration of at most 30 days", "e.g. --budget 30m")
    try:
        seconds = float(text)
    except ValueError:
        match = _DURATION.match(text)
        if not match or not any(match.groupdict().values()):
            raise UsageError(f"--budget {text!r} is not a duration", "write it like 30m, 1h30m, 90s or 600") from None
        seconds = sum(float(match[k] or 0) * f for k, f in (("h", 3600), ("m", 60), ("s", 1)))
    if not math.isfinite(seconds) or seconds <= 0 or seconds > 30 * 86400:
        raise UsageError(f"--budget {text!r} must be a positive duration of at most 30 days", "e.g. --budget 30m")
    if seconds < MIN_BUDGET:  # 0s was refused and 1e-300 accepted, then ran nothing and exited 4
        raise UsageError(f"--budget {text!r} is less than {MIN_BUDGET:g} s, too short to run anything",
                         "e.g. --budget 30m; without --budget every arm runs its processes")
    return seconds


def _options(args: argparse.Namespace) -> Any:
    from .experiment import Method
    from .record import Options

    if not args.experiments:  # as `make run` does: every experiment of experiments/
        args.experiments = [folder.name for folder in experiments.all_experiments()]
        if not args.experiments:
            raise UsageError("no experiment named, and no experiments/ folder here",
                             "give a path to a folder with experiment.toml, or run from the versus checkout")
    params: dict[str, str | list[str]] = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"bad --param {item!r}", "write --param NAME=VALUE or NAME=V1,V2 for a sweep")
        # A comma makes a sweep, as a list in experiment.toml does.
        values = value.split(",")
        again = next((v for i, v in enumerate(values) if v in values[:i]), None) if len(set(values)) < len(values) else None
        if again is not None:
            raise UsageError(f"--param {item!r} names {again!r} more than once", "each value makes one arm: name it once")
        params[name.lower()] = values if "," in value else value
    method = {k: getattr(args, k) for k in ("processes", "warmup", "samples", "inner", "timeout", "cpus")
              if getattr(args, k) is not None}
    try:
        Method.model_validate({**Method().model_dump(), **method})
    except Exception as error:  # pydantic's ValidationError: say which option, in its words
        first = error.errors()[0] if hasattr(error, "errors") else {"loc": ["?"], "msg": str(error)}
        option = f"--{first['loc'][0]}" if first.get("loc") else "an option"
        raise UsageError(f"{option}: {str(first['msg']).lower()}", "see `versus run --help`") from None
    names = [str(experiments.find(e)) for e in args.experiments]
    return Options(names, args.runtimes.split(",") if args.runtimes else None,
                   args.cases.split(",") if args.cases else None, args.quick, method, params,
                   parse_duration(args.budget) if args.budget else None, args.baseline)


def report_folder(db: Target, session_id: int) -> Path:
    """Reports of a session live beside its database, named after both: two databases never share one.
    A PostgreSQL database's go to versus-results/ here, named after the database."""
    if isinstance(db, str):
        return DEFAULT_DB.parent / f"{_database_name(db)}-session-{session_id}"
    stem = "" if db.name == DEFAULT_DB.name else f"{db.stem}-"
    return db.parent / f"{stem}session-{session_id}"


def _database_name(url: str) -> str:
    """The database of a postgresql:// URL, as a file name: `lab` of postgresql://u@host:5432/lab?x=y."""
    tail = url.split("://", 1)[-1].split("?", 1)[0]
    name = tail.split("/", 1)[1] if "/" in tail else ""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "postgres"


def _index_path(db: Target) -> Path:
    if isinstance(db, str):
        return DEFAULT_DB.parent / f"{_database_name(db)}-index.html"
    stem = "" if db.name == DEFAULT_DB.name else f"{db.stem}-"
    return db.parent / f"{stem}index.html"


def _run(args: argparse.Namespace) -> int:
    from . import record, session
    from .executor import SubprocessExecutor
    from .progress import RichProgress

    if args.dry_run and args.resume is not None:  # the session that would be resumed, not every experiment
        print(session.resume_dry_run(Store(args.db, readonly=True), None if args.resume < 0 else args.resume))
        return 0
    if args.dry_run:
        options = _options(args)
        store = Store(args.db, readonly=True) if isinstance(args.db, str) or args.db.exists() else None
        print(session.dry_run(store, options))
        if store is not None and options.budget is not None:
            from .outlook import beyond_budget

            for line in beyond_budget(store, [e.name for e in record.plan_of(options, fetch=False).experiments.values()],
                                      options.budget):
                print(line)
        return 0
    if args.resume is not None and args.more is not None:
        raise UsageError("--resume and --more cannot go together",
                         "--resume finishes an interrupted session; --more goes on with a finished one")
    budget = parse_duration(args.budget) if args.budget else None
    db = "" if args.db == DEFAULT_DB else f" --db {shlex.quote(shown(args.db) if isinstance(args.db, str) else str(args.db))}"
    resumed = before = None
    going_on = args.resume is not None or (args.more is not None and (args.more >= 0 or not args.experiments))
    if args.resume is not None:
        store = Store(args.db, create=False, patience=PATIENCE)
        resumed = None if args.resume < 0 else args.resume
        start = functools.partial(session.resume, store, resumed)
    elif going_on:
        store = Store(args.db, create=False, patience=PATIENCE)
        resumed = None if args.more < 0 else args.more
        start = functools.partial(session.more, store, resumed, budget=budget)
    else:
        options = _options(args)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        if not 0 <= seed <= session.MAX_SEED:
            raise UsageError(f"--seed {seed} is out of range", f"give a seed from 0 to {session.MAX_SEED}")
        store = Store(args.db, patience=PATIENCE)
        before = store.newest_run()
        start = functools.partial(session.continue_or_start if args.more is not None else session.start, store,
                                  options, seed)
    args.advice = "nothing was stored"
    try:
        session_id = start(SubprocessExecutor(), RichProgress())
    except KeyboardInterrupt:
        with contextlib.suppress(VersusError):
            newest = store.newest_run()
            stopped = (resumed if resumed is not None else newest) if going_on else \
                (newest if newest != before else None)
            args.advice = _advice(store, stopped, db)
            if stopped is None and args.more is not None:  # it went on with an earlier session: which, `sessions` says
                args.advice = (f"every finished process run is stored; see versus sessions{db}, and continue the "
                               f"interrupted one with: versus run --resume N{db}")
        raise
    args.session = session_id
    args.advice = f"session {session_id} is complete and stored; its reports: versus report {session_id}{db}"
    return _report(args, store, write_files=True)


def _advice(store: Store, stopped: int | None, db: str) -> str:
    """What to do after an interrupted `run`: what the state of the session it stopped allows."""
    if stopped is None:
        return "nothing was stored"
    if load_session(store, stopped).status == "complete":
        return f"session {stopped} is complete and stored; its reports: versus report {stopped}{db}"
    return f"every finished process run of session {stopped} is stored. Continue with: versus run --resume {stopped}{db}"


def _report(args: argparse.Namespace, store: Store | None = None, write_files: bool = False) -> int:
    from .analyze import analyze
    from .report import document, markdown, terminal

    store = store or Store(args.db, readonly=True)
    changes = getattr(args, "rule", None) or []
    rule = None
    if changes:
        rule = rules.with_overrides(load_session(store, args.session).plan.rule, changes)
    analysis = analyze(store, args.session, rule)
    folder = report_folder(args.db, analysis.session.id)
    doc = None
    if write_files or args.format == "json" or args.html:  # the HTML page hands it to experiments' report.py
        doc = document.document(analysis, store.runs(analysis.session.id))
    if write_files:
        _write_reports(folder, analysis, doc)
        _write_index(store, args.db)
    if args.html:
        _write_html(args.html, analysis, doc)
    if args.format == "json":
        print(document.dumps(doc or {}))
    elif args.format == "markdown":
        print(markdown.render(analysis))
    else:
        terminal.render(analysis, sys.stdout, str(folder / "report.md") if write_files else "")
    failing = [c.claim.id for c in analysis.claims if c.verdict == "does not hold"]
    empty = [a.key for a in analysis.arms if a.ok_runs == 0 and a.processes]
    unrun = [a.key for a in analysis.arms if not a.processes]
    if (empty or unrun) and write_files:
        if empty:
            print(f"versus: {_arms(empty)} had no successful process run: {_shown(empty)}", file=sys.stderr)
        if unrun:  # nothing failed: the budget (or an interruption) ended the session before their turn
            print(f"versus: {_arms(unrun)} did not run: {analysis.stopped or 'the session ended first'}: {_shown(unrun)}",
                  file=sys.stderr)
            print("  hint: give a larger --budget, or run without one (every arm runs its processes)", file=sys.stderr)
        return EXIT_INCOMPLETE
    if getattr(args, "fail_on_claims", False) and failing:
        raise ClaimsFailed(f"claims that do not hold: {', '.join(failing)}", "see the claims table above")
    return 0


def _arms(keys: list[str]) -> str:
    return f"{len(keys)} arm{'s' if len(keys) > 1 else ''}"


def _shown(keys: list[str]) -> str:
    return ", ".join(keys[:5]) + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")


def _write_reports(folder: Path, analysis: Any, doc: Any) -> None:
    from .files import real_folder, write_file
    from .report import document, markdown

    try:
        real_folder(folder)  # a folder beside the database: never a link to one elsewhere
        write_file(folder / "report.md", markdown.render(analysis))
        write_file(folder / "session.json", document.dumps(doc))
    except VersusError as error:
        raise VersusError(error.message, f"{error.hint}; the session is stored: versus report {analysis.session.id}"
                          ) from None
    except OSError as error:
        raise VersusError(f"cannot write the report into {folder}: {error.strerror or error}",
                          "free some space or fix the folder's permissions; the session is stored: "
                          f"versus report {analysis.session.id}") from None
    try:
        _write_html(folder / "index.html", analysis, doc)
    except Exception as error:  # the session and the other reports are safe: say so, do not stop here
        print(f"versus: note: the HTML report could not be written ({type(error).__name__}: {error}); "
              f"the session is stored, try: versus report {analysis.session.id} --html FILE", file=sys.stderr)
    print(f"versus: report written to {folder}/", file=sys.stderr)


def _write_html(target: Path, analysis: Any, doc: Any) -> None:
    from .report import html

    html.write(target, analysis, doc)


def _write_index(store: Store, db: Target) -> None:
    """`versus-results/index.html`: every session of the database, each linking its own page."""
    from .report import html

    listed = [(entry, report_folder(db, entry.id).name) for entry in store.sessions()]
    html.write_index(_index_path(db), listed)


def _sessions(args: argparse.Namespace) -> int:
    from .report.tables import when

    store = Store(args.db, readonly=True)
    rows = store.sessions()
    if not rows:
        print(f"{store.name} has no sessions yet")
        return 0
    for entry in rows:
        failed = f", {entry.failed} failed" if entry.failed else ""
        imported = " (imported)" if entry.imported else ""
        print(f"{entry.id:>4}  {when(entry.created):<16}  {entry.status:<11}  {entry.arms} arms, "
              f"{entry.runs} process runs"
              f"{failed}  {entry.experiments}{imported}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from .report.compare import render_compare

    print(render_compare(Store(args.db, readonly=True), args.session_a, args.session_b))
    return 0


def _import(args: argparse.Namespace) -> int:
    from .interchange import import_file

    store = Store(args.db)
    store.acquire()  # one writer per database file: a run on it through another path included
    try:
        session_id = import_file(store, args.file, sys.argv)
    finally:
        store.release()
    print(f"versus: imported {args.file} as session {session_id}; see it with: versus report {session_id}",
          file=sys.stderr)
    return 0


def _export(args: argparse.Namespace) -> int:
    from .interchange import export_json, export_pyperf

    store = Store(args.db, readonly=True)
    (export_pyperf if args.to == "pyperf" else export_json)(store, args.session, args.output)
    return 0


def _selftest(args: argparse.Namespace) -> int:
    from .selftest import TRIAL_ROUNDS, run_selftest, simulated

    if args.seconds <= 0 or not math.isfinite(args.seconds):
        raise UsageError(f"--seconds {args.seconds:g} must be positive", "e.g. --seconds 600")
    rounds = TRIAL_ROUNDS if args.rounds is None else args.rounds
    if not 2 <= args.start <= 100 or args.trials < 0 or not args.start <= rounds <= 1000:
        raise UsageError("--start must be 2 to 100, --rounds from --start to 1000 and --trials 0 or more",
                         "e.g. --start 3 --rounds 200 --trials 120")
    rule = rules.with_overrides(rules.CURRENT, args.rule)
    if args.simulate:
        print(simulated(args.start, max_rounds=rounds, rule=rule))
        return 0
    return run_selftest(args.seconds, args.db, args.trials, args.start, rounds, rule)


def _lab(args: argparse.Namespace) -> int:
    from .lab import run

    return run(args)


def _schema(args: argparse.Namespace) -> int:
    from .schema_doc import markdown

    print(markdown())
    return 0


def _worker(args: argparse.Namespace) -> int:
    from .executor import SubprocessExecutor
    from .fleet.worker import Worker
    from .host import host_name

    if not isinstance(args.db, str):
        raise UsageError(f"--db {args.db} is a SQLite file: workers share sessions only through PostgreSQL",
                         "give --db postgresql://USER:PASSWORD@HOST/DATABASE, the database the coordinator runs on")
    if args.idle_exit is not None and not (math.isfinite(args.idle_exit) and args.idle_exit > 0):
        raise UsageError(f"--idle-exit {args.idle_exit:g} must be a positive number of seconds", "e.g. --idle-exit 600")

    # SIGTERM and SIGHUP stop a worker as Ctrl-C does (interrupts.Terminated): its round goes back at once
    store = Store(args.db, patience=PATIENCE)
    return Worker(store, args.name or host_name(), SubprocessExecutor()).serve(args.idle_exit)


def _db(args: argparse.Namespace) -> int:
    from .store.copy import copy_lab

    source = Store(args.source, create=False)
    target = Store(args.target)
    copied = copy_lab(source, target)
    runs = copied.rows.get("process_runs", 0)
    print(f"versus: copied {copied.rows.get('sessions', 0)} sessions ({runs} process runs, "
          f"{copied.rows.get('samples', 0)} samples) from {source.name} to {target.name}"
          + (f"; {copied.nul} texts held NUL characters, which PostgreSQL cannot store: they became U+FFFD"
             if copied.nul else ""), file=sys.stderr)
    return 0


_COMMANDS = {"list": _list, "runtimes": _runtimes, "run": _run, "report": _report, "sessions": _sessions,
             "compare": _compare, "import": _import, "export": _export, "selftest": _selftest, "schema": _schema,
             "worker": _worker, "db": _db, "lab": _lab}
