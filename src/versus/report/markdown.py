"""The report as Markdown, with the charts linked."""
from __future__ import annotations

import os
from pathlib import Path

from ..analyze import Analysis
from .tables import all_tables, header_lines


def render(analysis: Analysis, charts: list[Path] | None = None, relative_to: Path | None = None) -> str:
    lines = [f"# versus session {analysis.session['id']}", ""]
    lines += [f"- {line}" for line in header_lines(analysis)] + [""]
    for table in all_tables(analysis):
        lines += [f"## {table.title}", "", "| " + " | ".join(table.headers) + " |",
                  "|" + "---|" * len(table.headers)]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in table.rows]
        lines += (["", f"_{table.note}_"] if table.note else []) + [""]
    for chart in charts or []:
        target = Path(os.path.relpath(chart, relative_to)) if relative_to else chart
        lines += [f"![{chart.stem}]({target})", ""]
    return "\n".join(lines)
