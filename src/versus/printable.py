"""The one sanitizer for every string versus prints: names, a program's output and imported text are
data, and a terminal must never take them for commands.

C0 and C1 control characters (ESC starts the sequences that set a terminal's title, write its
clipboard, clear its screen or hide text; CR overwrites a line), the bidirectional overrides and
isolates (which make text read other than it is stored) and lone surrogates (which no encoder
writes) are shown as visible escapes: `\\x1b`, `\\u202e`. Tab and newline stay.

Every format uses it: the CLI wraps stdout and stderr in `SafeStream` for plain output, rich's
consoles come from `console()` (rich escapes its markup but passes ESC through), Markdown and HTML
cells and the labels of charts call `printable()`, and JSON escapes the same characters as
`\\uXXXX` (`json_safe`), which reads back to the same text.
"""
from __future__ import annotations

import re
from typing import IO, Any

from rich.console import Console
from rich.text import Text

# C0 but tab and newline; DEL and C1; ALM, LRM, RLM; the bidi embeddings, overrides and isolates;
# lone surrogates.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """`text` as it may be shown: every unsafe character a visible escape."""
    return UNSAFE.sub(_escape, str(text))


def one_line(text: object) -> str:
    """For a table cell or a live line: printable, and newlines as spaces."""
    return printable(text).replace("\n", " ").replace("\t", " ")


def json_safe(text: str) -> str:
    """JSON text (from json.dumps, whose strings escape C0 already) with the other unsafe characters
    escaped as \\uXXXX: the same JSON value, safe to print or `cat`."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


class SafeStream:
    """A text stream that writes everything through `printable()`; `raw` is the stream beneath it
    (rich writes its own styles there, after sanitizing the text it is given)."""

    def __init__(self, raw: IO[str]) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(printable(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def __getattr__(self, name: str) -> Any:  # fileno, encoding, errors …
        return getattr(self.raw, name)


def raw(stream: IO[str]) -> IO[str]:
    return stream.raw if isinstance(stream, SafeStream) else stream


class SafeConsole(Console):
    """A rich console whose every string (printed, or a table's cell, title and caption) is made
    printable before rich parses its markup."""

    def render_str(self, text: str, *args: Any, **kwargs: Any) -> Text:
        return super().render_str(printable(text), *args, **kwargs)

    def on_broken_pipe(self) -> None:
        """rich exits 1 here (the failed-claims code); the CLI ends quietly with its own."""
        raise BrokenPipeError


def console(stream: IO[str], **options: Any) -> Console:
    return SafeConsole(file=raw(stream), **options)
