"""The report as Markdown: every table.

Every string is text, never markup: names, reasons and log lines may hold `|` (which would end a
cell), raw HTML (`<script>`, `<img onerror=…>`), autolinks (`<javascript:…>`) and links
(`[x](javascript:…)`), and a renderer must show them as written. `_cell` escapes what would make
them markup: backslash, `|` and backquote with a backslash, `<`, `>` and `&` as entities, and a `]`
that would close a link (before `(`, `[` or `:`).
"""
from __future__ import annotations

import re

from ..analyze import Analysis
from ..printable import one_line
from .tables import all_tables, header_lines

_MARKUP = re.compile(r"[\\|`<>&]|\](?=[(\[:])")
_ESCAPED = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def _cell(text: str) -> str:
    return _MARKUP.sub(lambda m: _ESCAPED.get(m[0], "\\" + m[0]), one_line(text))


def render(analysis: Analysis) -> str:
    lines = [f"# versus session {analysis.session.id}", ""]
    lines += [f"- {_cell(line)}" for line in header_lines(analysis)] + [""]
    for table in all_tables(analysis):
        lines += [f"## {_cell(table.title)}", "", "| " + " | ".join(map(_cell, table.headers)) + " |",
                  "|" + "---|" * len(table.headers)]
        lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in table.rows]
        lines += (["", f"_{_cell(table.note)}_"] if table.note else []) + [""]
    return "\n".join(lines)
