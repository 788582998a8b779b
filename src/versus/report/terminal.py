"""The report on a terminal, with rich."""
from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.table import Table as RichTable

from ..analyze import Analysis
from .tables import Table, all_tables, header_lines

_STYLES = {"holds": "green", "does not hold": "red", "faster": "green", "slower": "red", "same": "cyan"}


def render(analysis: Analysis, stream: TextIO) -> None:
    render_tables(header_lines(analysis), all_tables(analysis), stream)


def render_tables(lines: list[str], tables: list[Table], stream: TextIO) -> None:
    console = Console(file=stream, width=200 if not stream.isatty() else None)
    for line in lines:
        console.print(line, highlight=False)
    for table in tables:
        rich_table = RichTable(title=table.title, caption=table.note or None, title_justify="left")
        for header in table.headers:
            rich_table.add_column(header)
        for row in table.rows:
            rich_table.add_row(*[_styled(cell) for cell in row])
        console.print(rich_table)


def _styled(cell: str) -> str:
    for word, style in _STYLES.items():
        if cell.startswith(word) or cell.endswith(" " + word):
            return f"[{style}]{cell.replace('[', chr(92) + '[')}[/{style}]"
    return cell.replace("[", "\\[")
