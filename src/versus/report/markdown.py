"""The report as Markdown: every table."""
from __future__ import annotations

from ..analyze import Analysis
from .tables import all_tables, header_lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(analysis: Analysis) -> str:
    lines = [f"# versus session {analysis.session['id']}", ""]
    lines += [f"- {_cell(line)}" for line in header_lines(analysis)] + [""]
    for table in all_tables(analysis):
        lines += [f"## {_cell(table.title)}", "", "| " + " | ".join(map(_cell, table.headers)) + " |",
                  "|" + "---|" * len(table.headers)]
        lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in table.rows]
        lines += (["", f"_{_cell(table.note)}_"] if table.note else []) + [""]
    return "\n".join(lines)
