"""The arguments every script over a stored session takes: DB [SESSION], with the errors that say
how to fix them (rejudge_claims.py, rejudge_trim.py, spending_alternatives.py); and `run`, which every
script's entry point goes through so that its output can be piped into `head`."""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path


def run(main: Callable[[], int | None]) -> int:
    """main's exit code; where the reader of standard output went away (`script | head`), exit quietly
    instead of a BrokenPipeError traceback (which `rejudge_trim.py DB | head -1` used to end in)."""
    try:
        code = main()
        sys.stdout.flush()
        return code or 0
    except BrokenPipeError:
        # Python would try to flush stdout again at exit and print the error; point it at /dev/null
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def db_and_session(argv: list[str], script: str, doc: str) -> tuple[Path, int | None] | int:
    """(database, session or None) or the exit code to return: 0 after --help, 2 after a usage error."""
    if not argv or argv[0] in ("-h", "--help"):
        print(doc.strip())
        return 0 if argv else 2
    db = Path(argv[0])
    if not db.is_file():
        print(f"{script}: no database at {db}; give a versus.db (versus-results/versus.db, or a selftest's --db)",
              file=sys.stderr)
        return 2
    if len(argv) > 1 and not argv[1].isdigit():
        print(f"{script}: the session is a number (versus sessions lists them), not {argv[1]!r}", file=sys.stderr)
        return 2
    return db, int(argv[1]) if len(argv) > 1 else None
