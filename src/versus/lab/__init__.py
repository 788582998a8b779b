"""`versus lab …`: the analyses that justify the method, as subcommands over the stored format (as
pyperf's `stats`, `check` and `compare_to` are): a session's noise, the per-process value, what
deciding the claims would take, a fixed-size oracle, what a run's time was spent on, the scheduler
replayed offline, claims tables and verdicts across runs, the noise model's calibration, the
machine's slow spells, what contention explains, and the harness's own cost.

This module only declares the subcommands; each analysis lives in its own module of this package and
is imported when it runs, so that `versus --help` stays quick.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import UsageError
from ..store import parse_target

EXIT_PIPE = 141  # as a shell reports a process that SIGPIPE ended


def register(sub: argparse._SubParsersAction) -> None:
    """Add `lab` and its subcommands to the `versus` parser's subcommands."""
    lab = sub.add_parser("lab", help="the analyses behind the method (docs/method.md), over stored sessions and reports",
                         description=__doc__.split("\n\n")[0] if __doc__ else None)
    commands = lab.add_subparsers(dest="lab", required=True, metavar="ANALYSIS", parser_class=type(lab))

    def rule_option(parser: argparse.ArgumentParser, whose: str) -> None:
        parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                            help=f"{whose} with this field changed (docs/method.md, \"The rule\"); --rule today: today's")

    noise = commands.add_parser("noise", help="a stored session's noise: spreads between and within processes, "
                                "process time, per claim pair (--claims), warmup raises (--raises)")
    noise.add_argument("db", type=parse_target, metavar="DB")
    noise.add_argument("session", type=int, nargs="?", metavar="SESSION", help="default: the latest")
    noise.add_argument("--baseline", metavar="CASE", help="also set every other case of its runtime against this case")
    noise.add_argument("--samples", metavar="TEXT", help="every process of the arms whose key contains TEXT")
    noise.add_argument("--claims", action="store_true", help="the per-round spread of each claim pair over the first rounds")
    noise.add_argument("--raises", action="store_true", help="processes of rounds 0–1 flagged as still warming up")

    values = commands.add_parser("values", help="the per-process value: median against fastest sample, per experiment")
    values.add_argument("dbs", type=parse_target, nargs="*", metavar="DB", help="make run databases (their latest sessions)")
    values.add_argument("--model", action="store_true", help="the noise model with spells within a process instead")
    values.add_argument("--trials", type=int, default=2000, help="with --model: trials per row (default 2000)")
    values.add_argument("--first", type=int, default=5, metavar="K",
                        help="the spread with the minimum of each process's first 1 … K samples (default 5)")
    rule_option(values, "with --model: today's rule")

    feasibility = commands.add_parser("feasibility", help="from several make runs pooled: the process time deciding "
                                      "90%% of the claims would take")
    feasibility.add_argument("dbs", type=parse_target, nargs="+", metavar="DB", help="make run databases (their latest sessions)")
    what_if = feasibility.add_mutually_exclusive_group()
    what_if.add_argument("--alpha-times", type=float, metavar="F", help="each pair's α F times its share (what-if)")
    what_if.add_argument("--uncorrected", action="store_true", help="every pair alone at the rule's α (what-if)")
    rule_option(feasibility, "the first session's rule")

    oracle = commands.add_parser("oracle", help="the claims a fixed-size test that knew each pair's ratio and spread "
                                 "could decide within a run's budget, and how many the run decided")
    oracle.add_argument("db", type=parse_target, metavar="DB")
    oracle.add_argument("session", type=int, nargs="?", metavar="SESSION", help="default: the latest")
    oracle.add_argument("--truth", type=parse_target, action="append", default=[], metavar="DB",
                        help="other runs' databases: their pooled rounds are the truth of a pair this run has too few "
                        "rounds of (repeatable)")
    oracle.add_argument("--minutes", type=float, metavar="M", help="process time for the oracle (default: the run's "
                        "own, its budget less its set-up)")
    rule_option(oracle, "the session's own rule")

    schedule = commands.add_parser("schedule", help="what a run's process time was spent on: first and sequential "
                                   "rounds, each claim's pairs, the scheduler's choices in order")
    schedule.add_argument("db", type=parse_target, metavar="DB")
    schedule.add_argument("session", type=int, nargs="?", metavar="SESSION", help="default: the latest")
    rule_option(schedule, "the session's own rule")

    replay = commands.add_parser("replay", help="the scheduler run again offline on a session's own rounds drawn at "
                                 "random: how many claims it decides in the run's process time")
    replay.add_argument("db", type=parse_target, metavar="DB")
    replay.add_argument("session", type=int, nargs="?", metavar="SESSION", help="default: the latest")
    replay.add_argument("--truth", type=parse_target, action="append", default=[], metavar="DB",
                        help="other runs' databases: their rounds of the same arms join the world (repeatable)")
    replay.add_argument("--trials", type=int, default=5, metavar="N", help="replays, each with its own seed (default 5)")
    replay.add_argument("--seed", type=int, default=1, metavar="N", help="the first replay's seed (default 1)")
    replay.add_argument("--minutes", type=float, metavar="M", help="process time for each replay (default: the run's "
                        "own, its budget less its set-up)")
    rule_option(replay, "the session's own rule")

    claims = commands.add_parser("claims", help="a report's claims as the Markdown tables of docs/results.md")
    claims.add_argument("report", type=Path, metavar="REPORT.json", help="versus report N --format json > FILE")
    claims.add_argument("experiments", nargs="*", metavar="EXPERIMENT", help="default: every experiment")
    claims.add_argument("--counts", action="store_true", help="the decided claims per experiment instead")

    across = commands.add_parser("across", help="several runs' reports: verdicts per run, flips, deciding intervals "
                                 "against the estimate pooled over the runs")
    across.add_argument("reports", type=Path, nargs="+", metavar="REPORT.json")

    calibration = commands.add_parser("calibration", help="the noise model's scenarios: wrong verdicts under a rule")
    calibration.add_argument("--trials", type=int, default=1000, help="per scenario (default 1000; the tests take 3000)")
    calibration.add_argument("--items", type=int, default=2, help="items in each trial's family (default 2)")
    calibration.add_argument("--start", type=int, default=3, help="rounds before the first look (default 3)")
    calibration.add_argument("--rounds", type=int, default=200, help="rounds per trial at most (default 200)")
    calibration.add_argument("--scenario", action="append", default=[], metavar="NAME", help="only this one (repeatable)")
    calibration.add_argument("--futility", action="store_true",
                             help="stop a trial, as versus run does, where no look within --rounds is expected to decide it")
    calibration.add_argument("--history", type=int, default=0, metavar="N",
                             help="each trial's pair learns its spread from N earlier sessions first, as versus run "
                                  "does from its store (default 0: none)")
    calibration.add_argument("--history-rounds", type=int, default=0, metavar="N",
                             help="rounds of each of those sessions (default 20)")
    rule_option(calibration, "today's rule")

    spells = commands.add_parser("spells", help="the machine's slow spells, one CPU loop pinned to each CPU")
    spells.add_argument("seconds", type=float, nargs="?", default=20.0, metavar="SECONDS", help="default 20")

    contention = commands.add_parser("contention", help="whether what else the machine did while a process ran "
                                     "(preemptions, CPU pressure, steal) explains the rounds' residuals")
    contention.add_argument("dbs", type=parse_target, nargs="+", metavar="DB", help="databases (their latest sessions)")

    overhead = commands.add_parser("overhead", help="the time the harness adds to a process run")
    overhead.add_argument("count", type=int, nargs="?", default=100, metavar="N", help="interleaved pairs (default 100)")
    overhead.add_argument("--experiment", type=Path, default=None, metavar="PATH",
                          help="the empty program's experiment (default scripts/overhead)")


def run(args: argparse.Namespace) -> int:
    """Run the chosen analysis and print what it found."""
    return piped(lambda: print(_analysis(args)))


def piped(main: Callable[[], int | None]) -> int:
    """main's exit code (the lab's, a script's of scripts/). A reader that goes away (`versus lab … |
    head`) ends it quietly with EXIT_PIPE: what it read is all it wanted."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes stdout again at exit, and would print the error: point it at /dev/null
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(devnull)
        return EXIT_PIPE
    return code or 0


def _analysis(args: argparse.Namespace) -> str:
    if args.lab == "noise":
        from .noise import noise
        return noise(args.db, args.session, args.baseline, args.samples, args.claims, args.raises)
    if args.lab == "values":
        from .noise import model, values
        from .stored import open_store
        if args.model:
            if args.dbs:
                raise UsageError("--model takes no database", "give either databases or --model")
            from ..rule import CURRENT, with_overrides
            if args.trials < 1:
                raise UsageError(f"--trials {args.trials} must be at least 1", "e.g. --trials 2000")
            return model(with_overrides(CURRENT, args.rule), args.trials)
        if not args.dbs:
            raise UsageError("no database given", "give the versus.db of one or more make runs, or --model")
        if args.first < 1:
            raise UsageError(f"--first {args.first} must be at least 1", "e.g. --first 20")
        for db in args.dbs:
            open_store(db)  # every database is there before any is analysed
        return values(args.dbs, args.first)
    if args.lab == "feasibility":
        from .feasibility import feasibility
        return feasibility(args.dbs, args.rule, None if args.uncorrected else
                           (1.0 if args.alpha_times is None else args.alpha_times))
    if args.lab == "contention":
        from .contention import contention
        return contention(args.dbs)
    if args.lab in ("oracle", "replay") and args.minutes is not None and not 0 < args.minutes < math.inf:
        raise UsageError(f"--minutes {args.minutes:g} must be a number of minutes more than 0", "e.g. --minutes 30")
    if args.lab == "oracle":
        from .oracle import oracle, render
        return render(oracle(args.db, args.session, args.rule, args.truth, args.minutes))
    if args.lab == "schedule":
        from .schedule import render as render_schedule
        from .schedule import schedule
        return render_schedule(schedule(args.db, args.session, args.rule))
    if args.lab == "replay":
        if args.trials < 1:
            raise UsageError(f"--trials {args.trials} must be at least 1", "e.g. --trials 5")
        from .replay import render as render_replay
        from .replay import replay
        return render_replay(replay(args.db, args.session, args.rule, args.truth, args.trials, args.seed, args.minutes))
    if args.lab == "claims":
        from .claims import claims
        return claims(args.report, args.experiments, args.counts)
    if args.lab == "across":
        from .claims import across, render_across
        return render_across(across(args.reports))
    if args.lab == "calibration":
        from .calibration import calibration
        return calibration(args.trials, args.items, args.start, args.rounds, args.scenario, args.rule, args.futility,
                           args.history, args.history_rounds)
    if args.lab == "spells":
        from .machine import spells
        return spells(args.seconds)
    from .machine import overhead
    return overhead(args.count, args.experiment)
