"""The report on a terminal: what fits a screen or two. The Markdown and HTML reports hold the rest."""
from __future__ import annotations

from typing import Any, TextIO

from rich.markup import escape
from rich.table import Table as RichTable

from ..analyze import Analysis
from ..printable import console as safe_console
from .tables import Table, case_tables, claim_table, depends_text, experiment_summaries, failed_table, header_lines, host_table

_STYLES = {"holds": "green", "does not hold": "red", "faster": "green", "slower": "red", "same": "cyan",
           "hosts disagree": "magenta"}
SMALL = 40  # arms: a session this small shows its case tables in full
FAILED_SHOWN = 10


def render(analysis: Analysis, stream: TextIO, full_report: str = "") -> None:
    console = safe_console(stream, width=None if stream.isatty() else 160, highlight=False)
    for line in header_lines(analysis):
        console.print(escape(line))
    claims = claim_table(analysis)
    if claims:
        _table(console, claims)
    for claim in analysis.claims:
        if claim.depends_on:  # said again on a line of its own: a table cell wraps it out of sight
            console.print(escape(f"⚠ {claim.claim.id} ({claim.verdict}): {depends_text(claim)}"), style="yellow")
    for line in experiment_summaries(analysis):
        console.print(escape(line))
    if len(analysis.arms) <= SMALL:
        for table in case_tables(analysis):
            _table(console, table)
    split = host_table(analysis, only_disagreeing=True)
    if split:
        _table(console, split)
    failed = failed_table(analysis)
    if failed:
        shown = Table(failed.title, failed.headers, failed.rows[:FAILED_SHOWN], note=(
            f"{len(failed.rows) - FAILED_SHOWN} more in the full report" if len(failed.rows) > FAILED_SHOWN else ""))
        _table(console, shown)
    if full_report:
        console.print(escape(f"full report: {full_report}"))


def render_tables(lines: list[str], tables: list[Table], stream: TextIO) -> None:
    console = safe_console(stream, width=None if stream.isatty() else 160, highlight=False)
    for line in lines:
        console.print(escape(line))
    for table in tables:
        _table(console, table)


def _table(console: Any, table: Table) -> None:
    rich_table = RichTable(title=escape(table.title), caption=escape(table.note) if table.note else None,
                           title_justify="left")
    for header in table.headers:
        rich_table.add_column(escape(header))
    for row in table.rows:
        rich_table.add_row(*[_styled(cell) for cell in row])
    console.print(rich_table)


def _styled(cell: str) -> str:
    """Every string is escaped: `[/x]` in a log line or `[method]` in a reason is text, not markup."""
    for word, style in _STYLES.items():
        if cell.startswith(word) or cell.endswith(" " + word):
            return f"[{style}]{escape(cell)}[/{style}]"
    return escape(cell)
