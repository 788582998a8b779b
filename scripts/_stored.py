"""The arguments every script over a stored session takes: DB [SESSION], with the errors that say
how to fix them (rejudge_claims.py, rejudge_trim.py, spending_alternatives.py)."""
from __future__ import annotations

import sys
from pathlib import Path


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
