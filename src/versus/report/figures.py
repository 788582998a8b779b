"""The HTML report's charts: matplotlib figures turned into small SVG fragments to inline in a page.

Every chart is drawn by matplotlib (never by hand) and comes out as SVG text that a page can hold
inline: text stays text (`svg.fonttype = none`, so the page's fonts draw it and it can be found and
copied), math parsing is off (a case may be called `cost_$5_vs_$10`), ids are made unique per figure
(one page holds hundreds of SVGs), and coordinates are rounded to 0.01 pt (a figure shrinks by a
third, nobody can see the difference). matplotlib escapes every string it writes into the SVG.
"""
from __future__ import annotations

import io
import itertools
import math
import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import escape
from typing import Any, cast

import matplotlib

matplotlib.use("Agg")  # no display: the report is written by a command, often on a server

from matplotlib import pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter  # noqa: E402

from ..printable import one_line, printable  # noqa: E402
from ..units import duration  # noqa: E402

# One colour per verdict, shared with the page's CSS so a chart and its table agree.
COLOURS = {
    "holds": "#1a7f37", "does not hold": "#cf222e", "inconclusive": "#b35900", "not measured": "#6e7781",
    "faster": "#1a7f37", "slower": "#cf222e", "same": "#0969da", "baseline": "#24292f", "": "#57606a",
}
PROCESS = "#8c959f"  # each process run's own value: quiet grey dots behind the estimate
BOUND = "#2da44e"
UNSTEADY = "#cf222e"
SLOWDOWN = "#b35900"
SETTLED = ("#0969da", "#8250df", "#1b7c83", "#4d2d00", "#6e7781", "#bf3989")
FONT = ["DejaVu Sans"]  # shipped with matplotlib, so its layout matches; the page falls back to sans-serif

_STYLE: dict[str, Any] = {
    "svg.fonttype": "none", "text.parse_math": False, "svg.hashsalt": "versus", "font.family": "sans-serif",
    "font.sans-serif": FONT,
    "font.size": 9, "axes.titlesize": 9.5, "axes.titleweight": "bold", "axes.titlelocation": "left",
    "axes.labelsize": 8.5, "xtick.labelsize": 8, "ytick.labelsize": 8.5, "axes.spines.top": False,
    "axes.spines.right": False, "axes.edgecolor": "#8c959f", "axes.linewidth": 0.6, "xtick.color": "#57606a",
    "ytick.color": "#24292f", "xtick.major.width": 0.6, "ytick.major.width": 0.6, "axes.grid": False,
    "grid.color": "#d0d7de", "grid.linewidth": 0.5, "figure.dpi": 72, "savefig.dpi": 72,
    "path.simplify": True, "lines.solid_capstyle": "butt", "axes.facecolor": "none", "figure.facecolor": "none",
    "savefig.facecolor": "none",
}
WIDTH = 10.5  # inches: 756 pt, shown 1:1 as 1008 px, the width of the page's column
LABEL_CHARS = 56  # longer row labels are cut (the tables beside the chart say them in full)


@contextmanager
def style(math: bool = False) -> Iterator[None]:
    """The report's matplotlib settings. The experiments' own charts (report.py hooks) get them with
    math on: their log axes label ticks as mathtext, and their strings are their own."""
    with matplotlib.rc_context(cast(Any, {**_STYLE, "text.parse_math": math})), warnings.catch_warnings():
        # A glyph DejaVu Sans lacks (an emoji in a name) is the page's fonts' to draw: the SVG keeps text
        # as text. matplotlib warned on stderr, with its source lines, for each.
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
        yield


_counter = itertools.count(1)


def svg(figure: Figure, title: str = "") -> str:
    """The figure as an `<svg>` element for a page (closes the figure)."""
    buffer = io.StringIO()
    try:
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    finally:
        plt.close(figure)
    return tidy(buffer.getvalue(), f"f{next(_counter)}-", title)


_ID = re.compile(r'\sid="([^"]+)"')
_REFERENCE = re.compile(r'(?:href="#|url\(#)([^")]+)')
_NUMBER = re.compile(r"(-?\d+\.\d\d)\d+")
_GEOMETRY = re.compile(r'(\s(?:d|x|y|x1|x2|y1|y2|width|height|transform|points|style|viewBox)=")([^"]*)(")')


_TAG = re.compile(r"<[^>]*>")  # matplotlib escapes '>' in attribute values and '<' in text, so this is a whole tag


def tidy(text: str, prefix: str, title: str = "") -> str:
    """matplotlib's SVG file → an element to inline: no prolog, unique ids, short numbers, responsive size.
    Only tags are rewritten, never the text between them (a label may read ` id="x"` or ` d="1.23456"`)."""
    start = text.find("<svg")
    # the markup itself holds no control characters: any there came from a label (an experiment's own chart's too)
    text = re.sub(r"<metadata>.*?</metadata>", "", printable(text[start:]), flags=re.S)
    tags = "".join(_TAG.findall(text))
    # ids: only those something refers to, renamed short and unique within the page
    short_ids = {name: f"{prefix}{index:x}" for index, name in enumerate(dict.fromkeys(_REFERENCE.findall(tags)))}

    def rewrite(tag: str) -> str:
        tag = _ID.sub(lambda m: f' id="{short_ids[m[1]]}"' if m[1] in short_ids else "", tag)
        tag = _REFERENCE.sub(lambda m: m[0].replace(f"#{m[1]}", f"#{short_ids[m[1]]}"), tag)
        tag = _GEOMETRY.sub(lambda m: m[1] + _NUMBER.sub(r"\1", m[2]) + m[3], tag)
        # what a browser does not need: unrotated rotations, the font the page's CSS gives every svg, blanks
        tag = re.sub(r' transform="rotate\(-?0 [\d.-]+ [\d.-]+\)"', "", tag)
        tag = tag.replace(f"font-family: '{FONT[0]}', sans-serif; ", "").replace(f"; font-family: '{FONT[0]}', sans-serif", "")
        return re.sub(r"\s*\n\s*", " ", tag)

    text = _TAG.sub(lambda m: rewrite(m[0]), text)
    text = re.sub(r">\s+<", "><", text)  # indentation between tags
    size = re.search(r'<svg[^>]*?width="([\d.]+)pt"', text)
    width_px = round(float(size[1]) * 4 / 3) if size else 800
    text = re.sub(r'(<svg[^>]*?)\swidth="[\d.]+pt" height="[\d.]+pt"',
                  rf'\1 width="{width_px}" style="max-width:100%;height:auto" role="img"', text, count=1)
    if title:
        text = re.sub(r"(<svg[^>]*>)", lambda m: f"{m[1]}<title>{escape(one_line(title))}</title>", text, count=1)
    return text.strip()


def short(label: str, limit: int = LABEL_CHARS) -> str:
    """A label as a chart shows it: printable, on one line but where it breaks it itself, cut at `limit`."""
    label = "\n".join(one_line(part) for part in str(label).split("\n"))
    return label if len(label) <= limit else label[: limit - 1] + "…"


def log_ticks(low: float, high: float, most: int = 9) -> list[float]:
    """Readable ticks for a log axis from low to high: 1-2-5 steps, or 1…9 within a short range."""
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    for steps in ((1,), (1, 2, 5), (1, 2, 3, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9)):
        ticks = [float(f"{s * 10.0 ** k:.6g}") for k in range(first, last + 1) for s in steps]
        ticks = [t for t in ticks if low <= t <= high]
        if len(ticks) >= 3:
            break
    while len(ticks) > most:
        ticks = ticks[::2]
    return ticks


def _log_axis(axes: Any, low: float, high: float, label: Any) -> None:
    """A log x axis with our own tick labels: matplotlib's defaults are mathtext, which is off here."""
    axes.set_xscale("log")
    axes.set_xlim(low, high)
    axes.xaxis.set_major_locator(FixedLocator(log_ticks(low, high)))
    axes.xaxis.set_major_formatter(FuncFormatter(lambda v, _: label(v)))
    axes.xaxis.set_minor_locator(LogLocator(base=10, subs="auto"))
    axes.xaxis.set_minor_formatter(NullFormatter())
    axes.grid(True, axis="x", which="major")


def _near(bound: float, data: list[float]) -> bool:
    """Whether a claim's bound belongs on the chart's axis: within 100× (or 10 spans) of the data,
    and a number a chart can place at all."""
    if not math.isfinite(bound) or abs(bound) > 1e100 or 0 < abs(bound) < 1e-100:
        return False
    if not data:
        return True
    low, high = min(data), max(data)
    if low > 0 and bound > 0:
        return low / 100 <= bound <= high * 100
    span = max(high - low, abs(high), 1e-9)
    return low - 10 * span <= bound <= high + 10 * span


def _padded(low: float, high: float, factor: float = 1.35) -> tuple[float, float]:
    """Log-axis limits around [low, high], at least a little wider than one decade's tenth."""
    if high <= low:
        low, high = low / 1.5, high * 1.5
    return low / factor, high * factor


# --- claims ----------------------------------------------------------------------------------

@dataclass
class Estimate:
    """One row of a forest or points chart."""

    label: str
    value: float | None
    low: float | None = None
    high: float | None = None
    colour: str = COLOURS[""]
    dots: Sequence[float] = ()  # each process run's value
    note: str = ""  # at the right: the ratio and verdict, or why there is no interval
    rough: float | None = None  # no value to judge yet: a plain estimate, drawn hollow


def forest(rows: list[Estimate], bound_low: float | None, bound_high: float | None, axis_label: str,
           title: str = "") -> str:
    """A claim's instances as ratios with the intervals that decided them, against the bound (shaded)."""
    with style():
        data = [v for r in rows for v in (r.value, r.low, r.high, r.rough) if v is not None and math.isfinite(v)]
        numbers = data + [b for b in (bound_low, bound_high) if b is not None and _near(b, data)]
        logarithmic = bool(numbers) and min(numbers) > 0
        figure, axes = plt.subplots(figsize=(WIDTH, 0.55 + 0.28 * len(rows)))
        ratio = axis_label.startswith("ratio")
        if logarithmic:
            left, right = _padded(min(numbers), max(numbers))
            _log_axis(axes, left, right, (lambda v: f"{v:g}×") if ratio else (lambda v: f"{v:g}"))
        else:
            span = (max(numbers) - min(numbers)) if numbers else 1.0
            left, right = (min(numbers, default=0.0) - 0.1 * span - 1e-9, max(numbers, default=1.0) + 0.1 * span + 1e-9)
            axes.set_xlim(left, right)
        # a bound far off the data (max = 1.7e308) is off the chart: its band runs to the chart's edge
        band_low = left if bound_low is None else min(max(bound_low, left), right)
        band_high = right if bound_high is None else min(max(bound_high, left), right)
        if band_low < band_high:
            axes.axvspan(band_low, band_high, color=BOUND, alpha=0.12, lw=0)
        for bound in (bound_low, bound_high):
            if bound is not None and left < bound < right:
                axes.axvline(bound, color=BOUND, lw=1, ls=(0, (3, 2)))
        if logarithmic and left < 1 < right:
            axes.axvline(1, color="#8c959f", lw=0.6)
        _rows(axes, rows, left)
        axes.set_xlabel(one_line(axis_label), color="#57606a")
        axes.grid(True, axis="x", which="major")
        # margins from the labels' lengths, as points() does: tight_layout measured every text and took
        # half of a chart's time (2,000 claims took minutes)
        height = 0.55 + 0.28 * len(rows)
        longest_note = max((len(r.note) for r in rows), default=0)
        figure.subplots_adjust(left=_left_margin([Panel("", rows)]),
                               right=1 - min(3.2, 0.15 + 0.068 * longest_note) / WIDTH,
                               top=1 - 0.08 / height, bottom=0.42 / height)
        return svg(figure, title)


def _rows(axes: Any, rows: list[Estimate], left: float) -> None:
    """Rows from the top: interval as a line, estimate as a dot, process values as small grey dots, a note
    at the right. One collection per kind of mark: an Artist per mark would make a big session slow."""
    count = len(rows)
    ys = [count - 1 - index for index in range(count)]
    dots = [(v, y) for row, y in zip(rows, ys) for v in row.dots]
    if dots:
        axes.scatter([d[0] for d in dots], [d[1] for d in dots], s=11, color=PROCESS, linewidths=0, zorder=2,
                     clip_on=False)
    spans = [(y, r.low, r.high, r.colour) for r, y in zip(rows, ys) if r.low is not None and r.high is not None]
    if spans:
        axes.hlines([s[0] for s in spans], [s[1] for s in spans], [s[2] for s in spans], colors=[s[3] for s in spans],
                    linewidths=2.2, zorder=3, clip_on=False)
    shown = [(r.value, y, r.colour) for r, y in zip(rows, ys) if r.value is not None]
    if shown:
        axes.scatter([s[0] for s in shown], [s[1] for s in shown], s=40, c=[s[2] for s in shown], edgecolors="white",
                     linewidths=0.8, zorder=4, clip_on=False)
    rough = [(r.rough, y, r.colour) for r, y in zip(rows, ys) if r.value is None and r.rough is not None]
    if rough:
        axes.scatter([s[0] for s in rough], [s[1] for s in rough], s=36, facecolors="white",
                     edgecolors=[s[2] for s in rough], linewidths=1.4, zorder=4, clip_on=False)
    missing = [y for r, y in zip(rows, ys) if r.value is None and r.rough is None]
    if missing:
        axes.scatter([left] * len(missing), missing, s=30, marker="x", color=COLOURS["does not hold"], zorder=4,
                     clip_on=False)
    for row, y in zip(rows, ys):
        if row.note:
            axes.annotate(one_line(row.note), (1.0, y), xycoords=("axes fraction", "data"), xytext=(6, 0),
                          textcoords="offset points", va="center", fontsize=8.5, color=row.colour)
    axes.set_yticks(range(count))
    axes.set_yticklabels([short(r.label) for r in reversed(rows)])
    axes.set_ylim(-0.6, count - 0.4)
    axes.tick_params(axis="y", length=0)
    axes.spines["left"].set_visible(False)


# --- arms of an experiment ------------------------------------------------------------------

@dataclass
class Panel:
    title: str
    rows: list[Estimate] = field(default_factory=list)


def points(panels: list[Panel], title: str = "") -> str:
    """One figure per experiment: a panel per case, the arms as estimates with intervals (log time axis)
    and every process run's value as a grey dot, so processes that disagree show."""
    with style():
        heights = [0.62 + 0.24 * len(p.rows) for p in panels]
        figure, axes_list = plt.subplots(len(panels), 1, figsize=(WIDTH, sum(heights) + 0.1), squeeze=False,
                                         gridspec_kw={"height_ratios": heights})
        for axes, panel in zip(axes_list[:, 0], panels):
            values = [v for r in panel.rows for v in (r.value, r.low, r.high, *r.dots) if v is not None and v > 0]
            left, right = _padded(min(values), max(values), 1.25) if values else (1.0, 10.0)
            _log_axis(axes, left, right, duration)
            _rows(axes, panel.rows, left)
            axes.set_title(short(panel.title, 110), pad=4)
        total = sum(heights) + 0.1
        longest_note = max((len(r.note) for p in panels for r in p.rows), default=0)
        figure.subplots_adjust(left=_left_margin(panels), right=1 - min(3.0, 0.2 + 0.068 * longest_note) / WIDTH,
                               top=1 - 0.25 / total,
                               bottom=0.3 / total, hspace=0.62 * len(panels) / sum(heights))
        return svg(figure, title)


def _left_margin(panels: list[Panel]) -> float:
    """Room for the longest row label: about 0.07 in per character at 8.5 pt."""
    longest = max((len(short(r.label)) for p in panels for r in p.rows), default=10)
    return min(0.42, max(0.08, (0.15 + 0.07 * longest) / WIDTH))


# --- warmup ----------------------------------------------------------------------------------

@dataclass
class Series:
    """One process run's samples (ns per iteration), the first `warmup` of them warmup samples."""

    values: list[float]
    warmup: int
    steady: str


@dataclass
class Trace:
    title: str
    series: list[Series]
    alarm: str = ""  # a colour for the title when a process did not settle


COLUMNS = 6
GAP_X, GAP_Y = 0.16, 0.62  # between cells, in cell widths and heights (the title sits in GAP_Y)
FRAME, WARM, MEASURED = "frame", "warmup", "measured"
MARKED = 8  # series of up to this many samples get a dot per measured sample (a lone one shows only so)


def warmup(traces: list[Trace], unsteady: str, slowdown: str, title: str = "") -> str:
    """Small multiples, one cell per arm: each process run's samples against their index, relative to the
    arm's median measured sample, on a log scale fitted to the cell; warmup samples dotted, a process that
    never settled in red. All cells share one matplotlib Axes: 300 Axes would take a minute to draw."""
    with style():
        rows = math.ceil(len(traces) / COLUMNS)
        figure, axes = plt.subplots(figsize=(WIDTH, 0.15 + 1.25 * rows))
        axes.set_axis_off()
        axes.set_xlim(-0.02, COLUMNS * (1 + GAP_X) - GAP_X + 0.02)
        axes.set_ylim(-rows * (1 + GAP_Y), 0.02)
        lines: dict[str, tuple[list[Any], list[str]]] = {FRAME: ([], []), WARM: ([], []), MEASURED: ([], [])}
        dots: tuple[list[float], list[float], list[str]] = ([], [], [])
        for index, trace in enumerate(traces):
            x0, y0 = (index % COLUMNS) * (1 + GAP_X), -(index // COLUMNS + 1) * (1 + GAP_Y)
            _cell(axes, trace, x0, y0, unsteady, slowdown, lines, dots)
        for kind, (segments, colours) in lines.items():
            axes.add_collection(LineCollection(segments, colors=colours, linewidths={FRAME: 0.5, WARM: 0.8}.get(kind, 1.1),
                                               linestyles=(0, (1, 1.3)) if kind == WARM else "solid", clip_on=False))
        axes.scatter(dots[0], dots[1], s=3.5, c=dots[2], linewidths=0, clip_on=False)
        figure.subplots_adjust(left=0.005, right=0.995, top=0.995, bottom=0.005)
        return svg(figure, title)


def _cell(axes: Any, trace: Trace, x0: float, y0: float, unsteady: str, slowdown: str,
          lines: dict[str, tuple[list[Any], list[str]]], dots: tuple[list[float], list[float], list[str]]) -> None:
    measured = sorted(v for s in trace.series for v in s.values[s.warmup:])
    middle = measured[len(measured) // 2] if measured else 1.0
    relative = [[v / middle for v in s.values] for s in trace.series]
    # The range is the measured samples' (where a JIT that never settled shows), with at least ±3% of room
    # so a quiet process stays a flat line; warmup samples beyond it sit on the cell's edge.
    kept = [v / middle for v in measured] or [1.0]
    low, high = min(min(kept) / 1.02, 0.97), max(max(kept) * 1.02, 1.03)
    span = math.log(high / low)
    width = max(len(r) for r in relative) - 1 or 1

    def place(i: int, v: float) -> tuple[float, float]:
        v = min(max(v, low), high)
        return x0 + i / width, y0 + 0.04 + 0.92 * math.log(v / low) / span

    frame = [(x0, y0), (x0 + 1, y0), (x0 + 1, y0 + 1), (x0, y0 + 1), (x0, y0)]
    one = place(0, 1.0)[1]
    lines[FRAME][0].extend([frame, [(x0, one), (x0 + 1, one)]])
    lines[FRAME][1].extend(["#d0d7de", "#8c959f"])
    palette = itertools.cycle(SETTLED)
    for series, values in zip(trace.series, relative):
        colour = UNSTEADY if series.steady == unsteady else SLOWDOWN if series.steady == slowdown else next(palette)
        points = [place(i, v) for i, v in enumerate(values)]
        cut = series.warmup
        if cut:
            lines[WARM][0].append(points[: cut + 1])
            lines[WARM][1].append(colour)
        lines[MEASURED][0].append(points[cut:])
        lines[MEASURED][1].append(colour)
        for x, y in points[cut:] if len(points) <= MARKED else []:  # beyond that, the line shows the samples
            dots[0].append(x)
            dots[1].append(y)
            dots[2].append(colour)
    # one text per cell (texts are what takes matplotlib the time): the title and the cell's y range
    axes.text(x0, y0 + 1.04, f"{trace.title}\nmeasured {low:.3g}× to {high:.3g}×", fontsize=7.4, va="bottom", ha="left",
              color=trace.alarm or "#24292f", linespacing=1.2)
