"""The `versus` command: a thin layer over plan → run → analyze → report."""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from . import experiment as experiments
from .errors import ClaimsFailed, UsageError, VersusError
from .executor import SubprocessExecutor
from .store import DEFAULT_DB, Store


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="versus", description="Cross-runtime performance experiments.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="experiments, their cases and claims")
    runtimes = sub.add_parser("runtimes", help="runtimes found here or fetchable")
    runtimes.add_argument("action", nargs="?", choices=["fetch"])
    runtimes.add_argument("specs", nargs="*", metavar="SPEC")
    run = sub.add_parser("run", help="run experiments")
    run.add_argument("experiments", nargs="*", metavar="EXPERIMENT|PATH")
    run.add_argument("--runtimes", help="comma-separated runtime specs (default: the experiment's list)")
    run.add_argument("--cases", help="comma-separated case names")
    run.add_argument("--processes", type=int, help="process runs per arm")
    run.add_argument("--warmup", type=int, help="warmup samples per process run")
    run.add_argument("--samples", type=int, help="measured samples per process run")
    run.add_argument("--inner", type=int, help="iterations per sample (0: calibrate)")
    run.add_argument("--timeout", type=float, help="seconds before a process run is killed")
    run.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                     help="override a parameter; NAME=V1,V2 sweeps it")
    run.add_argument("--quick", action="store_true", help="the experiment's quick method: fewer processes and samples")
    run.add_argument("--resume", nargs="?", const=-1, type=int, metavar="SESSION", help="finish an interrupted session")
    run.add_argument("--seed", type=int, help="seed of the run order (stored with the session)")
    run.add_argument("--fail-on-claims", action="store_true", help="exit 1 when a claim does not hold")
    _output_options(run)
    report = sub.add_parser("report", help="report a stored session")
    report.add_argument("session", nargs="?", type=int)
    _output_options(report)
    compare = sub.add_parser("compare", help="compare two stored sessions arm by arm")
    compare.add_argument("session_a", type=int)
    compare.add_argument("session_b", type=int)
    compare.add_argument("--db", type=Path, default=DEFAULT_DB)
    imports = sub.add_parser("import", help="a JMH, hyperfine or pyperf JSON file as a new session")
    imports.add_argument("file", type=Path)
    imports.add_argument("--db", type=Path, default=DEFAULT_DB)
    export = sub.add_parser("export", help="a stored session as versus JSON or pyperf JSON")
    export.add_argument("session", nargs="?", type=int)
    export.add_argument("--db", type=Path, default=DEFAULT_DB)
    export.add_argument("--to", choices=["versus", "pyperf"], default="versus")
    export.add_argument("-o", "--output", type=Path, required=True, help="file to write")
    selftest = sub.add_parser("selftest", help="A/A runs: false-positive rate, noise floor, detection of a 3% change")
    selftest.add_argument("--seconds", type=float, default=300.0, help="time budget")
    selftest.add_argument("--db", type=Path, default=None, help="where to keep its runs (default: a temp file)")
    return parser


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help=f"results database (default {DEFAULT_DB})")
    parser.add_argument("--format", choices=["table", "markdown", "json"], default="table")
    parser.add_argument("--charts", type=Path, metavar="DIR", help="write PNG charts into DIR")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return int(_COMMANDS[args.command](args) or 0)
    except KeyboardInterrupt:
        print("versus: interrupted; every finished process run is stored. "
              "Continue with: versus run --resume" + (f" --db {args.db}" if getattr(args, "db", None) else ""),
              file=sys.stderr)
        return 130
    except VersusError as error:
        print(f"versus: error: {error.message}", file=sys.stderr)
        if error.hint:
            print(f"  hint: {error.hint}", file=sys.stderr)
        return error.exit_code


def _list(args: argparse.Namespace) -> int:
    for folder in experiments.all_experiments():
        loaded = experiments.load(folder)
        print(f"{loaded.name}: {loaded.title}")
        for case in loaded.cases:
            only = f"  (only on {', '.join(case.runtimes)})" if case.runtimes else ""
            print(f"  case  {case.name}{only}")
        for claim in loaded.claims:
            print(f"  claim {claim.id}: {claim.statement}")
    return 0


def _runtimes(args: argparse.Namespace) -> int:
    from .runtimes import parse_spec, resolve
    from .runtimes.catalog import CATALOG
    from .runtimes.discover import find_all, find_debian_jvm_hosted
    from .runtimes.fetch import cache_dir

    if args.action == "fetch":
        if not args.specs:
            raise UsageError("nothing to fetch", "name a spec, e.g. versus runtimes fetch jython@2.5.0")
        for text in args.specs:
            result = resolve(parse_spec(text), ["17"])
            for runtime in result.runtimes:
                print(f"{runtime.name}: {runtime.jar}")
            for note in result.notes:
                print(f"note: {note}", file=sys.stderr)
        return 0
    print("found on this machine:")
    for runtime in [*find_all(), *find_debian_jvm_hosted()]:
        print(f"  {runtime.family + '@' + runtime.version:<18} {runtime.executable}  ({runtime.source})")
    jdks = [r for r in find_all() if r.family == "java"]
    print(f"fetchable from Maven Central (cache {cache_dir()}):")
    for entry in CATALOG:
        cached = (cache_dir() / "jars" / entry.jar.filename).exists()
        runs_on = [f"java@{j.jdk_major}" for j in jdks if int(j.jdk_major) >= entry.min_jdk]
        skipped = [f"java@{j.jdk_major}" for j in jdks if int(j.jdk_major) < entry.min_jdk]
        line = f"  {entry.family + '@' + entry.version:<18} {entry.jar.coordinate:<40} {'cached' if cached else 'not fetched'}"
        line += f"; runs on {', '.join(runs_on) or 'no JDK here'}"
        if skipped:
            line += f"; not paired with {', '.join(skipped)} (needs Java {entry.min_jdk}+)"
        if entry.note:
            line += f"; {entry.note}"
        print(line)
    return 0


def _options(args: argparse.Namespace) -> dict[str, Any]:
    if not args.experiments:
        raise UsageError("no experiment named", "give a name from `versus list` or a path to a folder with experiment.toml")
    params: dict[str, str | list[str]] = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"bad --param {item!r}", "write --param NAME=VALUE or NAME=V1,V2 for a sweep")
        # A comma makes a sweep, as a list in experiment.toml does.
        params[name.lower()] = value.split(",") if "," in value else value
    names = [str(experiments.find(e)) for e in args.experiments]
    method = {k: getattr(args, k) for k in ("processes", "warmup", "samples", "inner", "timeout")
              if getattr(args, k) is not None}
    for key in ("processes", "samples"):
        if key in method and method[key] < 1:
            raise UsageError(f"--{key} must be at least 1", f"give --{key} 1 or more")
    return {"experiments": names, "runtimes": args.runtimes.split(",") if args.runtimes else None,
            "cases": args.cases.split(",") if args.cases else None, "quick": args.quick, "method": method,
            "params": params}


def _run(args: argparse.Namespace) -> int:
    from . import session
    from .progress import RichProgress

    store = Store(args.db)
    if args.resume is not None:
        session_id = session.resume(store, None if args.resume < 0 else args.resume, SubprocessExecutor(), RichProgress())
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        session_id = session.start(store, _options(args), seed, SubprocessExecutor(), RichProgress())
    args.session = session_id
    return _report(args, store, write_files=True)


def _report(args: argparse.Namespace, store: Store | None = None, write_files: bool = False) -> int:
    from .analyze import analyze
    from .report import charts, document, markdown, terminal

    store = store or Store(args.db, create=False)
    analysis = analyze(store, args.session)
    folder = args.db.parent / f"session-{analysis.session['id']}"
    drawn: list[Path] = []
    if args.charts or write_files:
        drawn = charts.draw(analysis, args.charts or folder / "charts")
    if write_files:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "report.md").write_text(markdown.render(analysis, drawn, folder))
        (folder / "session.json").write_text(json.dumps(document.document(analysis), indent=1))
        print(f"versus: report written to {folder}/report.md", file=sys.stderr)
    if args.format == "json":
        json.dump(document.document(analysis), sys.stdout, indent=1)
        print()
    elif args.format == "markdown":
        print(markdown.render(analysis, drawn, Path.cwd()))
    else:
        terminal.render(analysis, sys.stdout)
    if getattr(args, "fail_on_claims", False) and any(c.verdict == "does not hold" for c in analysis.claims):
        failing = [c.claim.id for c in analysis.claims if c.verdict == "does not hold"]
        raise ClaimsFailed(f"claims that do not hold: {', '.join(failing)}", "see the claims table above")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from .report.compare import render_compare

    print(render_compare(Store(args.db, create=False), args.session_a, args.session_b))
    return 0


def _import(args: argparse.Namespace) -> int:
    from .interchange import import_file

    session_id = import_file(Store(args.db), args.file, sys.argv)
    print(f"versus: imported {args.file} as session {session_id}; see it with: versus report {session_id}",
          file=sys.stderr)
    return 0


def _export(args: argparse.Namespace) -> int:
    from .interchange import export_json, export_pyperf

    store = Store(args.db, create=False)
    (export_pyperf if args.to == "pyperf" else export_json)(store, args.session, args.output)
    return 0


def _selftest(args: argparse.Namespace) -> int:
    from .selftest import run_selftest

    return run_selftest(args.seconds, args.db)


_COMMANDS = {"list": _list, "runtimes": _runtimes, "run": _run, "report": _report, "compare": _compare,
             "import": _import, "export": _export, "selftest": _selftest}
