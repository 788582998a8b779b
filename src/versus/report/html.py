"""The report as one self-contained HTML page (`versus report N --html FILE`, `session-N/index.html`).

One file that works offline from a file:// URL: the styles, the charts (inline SVG from matplotlib,
figures.py) and the small optional script are all inside it, and its Content-Security-Policy lets the
page fetch nothing at all. In the order a reader asks: the claims with their verdicts; each
experiment's arms; warmup and steady state; failed runs and how the session was run; the experiments'
own charts. The words and numbers are those of tables.py, as in the terminal and Markdown reports.

Every string from an experiment, a program's output or the database goes through `_e` (HTML escape),
or through matplotlib, which escapes what it writes into SVG.

An experiment adds charts of its own to section 5 with `experiments/<name>/report.py` defining
`figures(doc) -> list[tuple[str, str]]`: (title, SVG text) pairs drawn from `doc`, the session's JSON
document (report/document.py, as `versus report N --format json` prints it). It is called inside the
report's matplotlib style (text as text, math on), so `figure.savefig(buffer, format="svg")` is all it
takes. It runs only where the folder stored with the session is one of this checkout's experiments (an
imported document may name any folder); an exception becomes a note in the page, and an SVG with
scripts or event handlers is shown as text.
"""
from __future__ import annotations

import base64
import datetime
import hashlib
import html
import importlib.util
import math
import re
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .. import paths, steady
from ..analyze import Analysis, ArmResult, ClaimResult, Judged
from ..errors import VersusError
from ..files import write_file
from ..printable import printable
from ..record import StoredRuntime
from ..store import SessionEntry
from . import figures, tables
from .document import document
from .tables import Table

HOOK = "report.py"  # experiments/<name>/report.py may define figures(doc) -> [(title, svg)]
MANY_ARMS = 40  # an experiment with more arms shows its tables folded
CHARTED_CLAIMS = 200  # claims with a chart of their own: each takes matplotlib ~50 ms (2,000 took minutes)
FOLDED_ROWS = 12  # a longer list of unsettled arms is folded: the charts below show the same


def _e(value: object) -> str:
    return html.escape(printable(value), quote=True)


def _slug(*parts: str) -> str:
    """An element id from untrusted text: letters, digits, '-' and '_' only, plus a hash against clashes."""
    text = "-".join(parts)
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:48]
    return f"{safe}-{hashlib.sha1(text.encode()).hexdigest()[:6]}"


# --- the page ----------------------------------------------------------------------------------

def write(target: Path, analysis: Analysis, doc: dict[str, Any] | None) -> None:
    page = render(analysis, doc)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_file(target, page)
    except OSError as error:
        raise VersusError(f"cannot write the HTML report {target}: {error.strerror or error}",
                          "give --html a path in a folder you can write; the session is stored: "
                          f"versus report {analysis.session.id} --html FILE") from None


def render(analysis: Analysis, doc: dict[str, Any] | None = None) -> str:
    session = analysis.session
    title = f"versus session {session.id}"
    experiments = list(dict.fromkeys(a.id.experiment for a in analysis.arms))
    body = [_masthead(analysis, experiments), _contents(analysis, experiments), _claims(analysis),
            _experiments(analysis, experiments), _warmup(analysis, experiments), _failures_and_setup(analysis),
            _own_charts(analysis, experiments, doc)]
    return _page(title, "".join(body))


def _page(title: str, body: str) -> str:
    script_hash = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    # Nothing may be fetched: no network, no file beside the page. Only our own inline script may run.
    policy = f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{script_hash}'"
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="referrer" content="no-referrer"><title>{_e(title)}</title>'
            f"<style>{CSS}</style></head><body>{body}"
            f'<footer>written by versus on {datetime.datetime.now().strftime("%Y-%m-%d %H:%M")}; '
            f"one file, nothing fetched: it works offline and as an attachment</footer>"
            f"<script>{SCRIPT}</script></body></html>\n")


_when = tables.when


def _masthead(analysis: Analysis, experiments: list[str]) -> str:
    session = analysis.session
    counts: dict[str, int] = {}
    for claim in analysis.claims:
        # counted apart, as the headline counts them: not one confident answer
        key = DEPENDS if claim.depends_on and claim.verdict.decided else str(claim.verdict)
        counts[key] = counts.get(key, 0) + 1
    chips = "".join(f'<span class="pill {_verdict_class(v)}">{n} {_e(_plural(v, n))}</span>'
                    for v, n in sorted(counts.items(), key=lambda kv: _ORDER.get(kv[0], 9)))
    runs = sum(len(a.processes) for a in analysis.arms)
    facts = (f"{len(experiments)} experiment{'s' if len(experiments) != 1 else ''} · {len(analysis.arms)} arms · "
             f"{runs} process runs" + (f" · {len(analysis.failed)} failed" if analysis.failed else ""))
    lines = "".join(f"<li>{_e(line)}</li>" for line in tables.header_lines(analysis))
    return (f'<header class="masthead"><p class="kicker">versus · session {_e(session.id)} · '
            f'{_e(", ".join(experiments) or "no arms")}</p>'
            f"<h1>{_e(_headline(analysis))}</h1><p class=\"facts\">{_e(facts)}</p>"
            f'<div class="chips">{chips}</div><ul class="header-lines">{lines}</ul></header>')


def _headline(analysis: Analysis) -> str:
    if not analysis.claims:
        return "No published claims in this session"
    return tables.claim_counts(analysis)[0].upper() + tables.claim_counts(analysis)[1:]


DEPENDS = "depends on an analysis choice"  # a decided verdict that another per-process value or warmup moves
_ORDER = {"holds": 0, "does not hold": 1, DEPENDS: 2, "inconclusive": 3, "not measured": 4}


def _plural(verdict: str, count: int) -> str:
    """'2 do not hold', '1 holds': the verdict as a verb for a count of claims."""
    if count == 1:
        return verdict
    return {"holds": "hold", "does not hold": "do not hold", DEPENDS: "depend on an analysis choice"}.get(verdict, verdict)


def _verdict_class(verdict: str) -> str:
    word = verdict.split(" (")[0].strip()
    return {"holds": "v-holds", "does not hold": "v-fails", "inconclusive": "v-open", "not measured": "v-none",
            "faster": "v-faster", "slower": "v-slower", "same": "v-same", DEPENDS: "v-depends"}.get(word, "v-none")


def _contents(analysis: Analysis, experiments: list[str]) -> str:
    links = [("claims", f"1 · Claims ({len(analysis.claims)})"), ("arms", "2 · Arms by experiment"),
             ("warmup", "3 · Warmup and steady state"), ("setup", "4 · Failed runs, host and runtimes"),
             ("charts", "5 · The experiments' own charts")]
    items = "".join(f'<li><a href="#{anchor}">{_e(text)}</a></li>' for anchor, text in links)
    sub = "".join(f'<li><a href="#{_slug("exp", name)}">{_e(name)}</a></li>' for name in experiments)
    return f'<nav><ol>{items}</ol><ul class="experiments">{sub}</ul></nav>'


# --- 1 · claims --------------------------------------------------------------------------------

def _claims(analysis: Analysis) -> str:
    if not analysis.claims:
        return ('<section id="claims"><h2>1 · Claims</h2><p>The experiments of this session state no claims, '
                "or none of their arms ran.</p></section>")
    ordered = _ordered(analysis.claims)
    beyond = (f" The first {CHARTED_CLAIMS} claims have their chart; the other {len(ordered) - CHARTED_CLAIMS} "
              "show their numbers in their tables.") if len(ordered) > CHARTED_CLAIMS else ""
    parts = ['<section id="claims"><h2>1 · Claims</h2><p class="lead">'
             "Each ratio is the first arm ÷ the second, with the interval that decided it at its level; "
             f"the green band is the claim's bound.{_e(beyond)}</p>", _budget_note(analysis), _claim_overview(analysis)]
    parts += [_claim_card(claim, index, charted=rank < CHARTED_CLAIMS) for rank, (index, claim) in enumerate(ordered)]
    return "".join(parts) + "</section>"


def _budget_note(analysis: Analysis) -> str:
    budget = tables.budget_text(analysis)
    undecided = [c for c in analysis.claims if c.verdict == "inconclusive"]
    if not budget and not analysis.stopped:
        return ""
    text = f"The run stopped because {analysis.stopped or 'it finished'}"
    if budget:
        text = f"Budget {budget}. " + text
    if undecided:
        text += (f"; {len(undecided)} claim{'s are' if len(undecided) > 1 else ' is'} undecided, each saying below "
                 "what would decide it")
    return f'<p class="budget">{_e(text)}.</p>'


def _claim_anchor(claim: ClaimResult, index: int) -> str:
    return _slug("claim", claim.experiment, claim.claim.id, str(index))


def _claim_overview(analysis: Analysis) -> str:
    rows = []
    for index, claim in _ordered(analysis.claims):
        estimates = [j.decision.interval.value for j in claim.instances if j.decision.interval is not None]
        approximate = not estimates
        if approximate:  # no interval yet anywhere: the arms' own estimates, marked ≈
            estimates = [r for r in (rough(j) for j in claim.instances) if r is not None]
        held = sum(1 for j in claim.instances if j.verdict == "holds")
        measured = ""
        if estimates:
            unit = "×" if claim.claim.denominator is not None else ""
            low, high = min(estimates), max(estimates)
            measured = ("≈" if approximate else "") + (f"{low:.3g}{unit}" if len(estimates) == 1
                                                      else f"{low:.3g}{unit} … {high:.3g}{unit}")
        count = f"{held}/{len(claim.instances)} hold" if claim.instances else ""
        note = f'<div class="muted">{_e(claim.note)}</div>' if claim.note else ""
        note += _depends(claim)
        rows.append(f'<tr class="{_verdict_class(claim.verdict)}"><td><a href="#{_claim_anchor(claim, index)}">'
                    f"<code>{_e(claim.claim.id)}</code></a><div class=\"statement\">{_e(claim.claim.statement)}</div>{note}"
                    f"</td><td>{_pill(claim.verdict)}</td><td>{_e(tables.expected(claim))}</td><td>{_e(measured)}</td>"
                    f"<td>{_e(count)}</td><td>{_e(claim.experiment)}</td></tr>")
    return ('<div class="table-wrap"><table class="overview sortable"><thead><tr><th>claim</th><th>verdict</th>'
            "<th>expected</th><th>measured</th><th>instances</th><th>experiment</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _ordered(claims: list[ClaimResult]) -> list[tuple[int, ClaimResult]]:
    """Decided claims first, then the undecided, then those not measured; the experiments' order within."""
    rank = {"holds": 0, "does not hold": 0, "inconclusive": 1}
    return sorted(enumerate(claims), key=lambda pair: rank.get(pair[1].verdict, 2))


def _depends(claim: ClaimResult) -> str:
    """A verdict that an analysis choice changes says so beside it, never as one confident answer."""
    text = tables.depends_text(claim)
    return f'<p class="depends">⚠ {_e(text)}</p>' if text else ""


def _pill(verdict: str) -> str:
    """The verdict word as a coloured pill; what follows it in parentheses (what would decide it) as text."""
    word, _, rest = verdict.partition(" (")
    detail = f' <span class="muted">({_e(rest)}</span>' if rest else ""
    return f'<span class="pill {_verdict_class(word)}">{_e(word)}</span>{detail}'


def _claim_card(claim: ClaimResult, index: int, charted: bool = True) -> str:
    spec = claim.claim
    what = (f"metric {spec.metric}" if spec.metric else "time per iteration")
    ratio = f"ratio of {what}, first arm ÷ second" if spec.denominator is not None else f"{spec.metric or 'value'}"
    source = f'<p class="source">Source: {_e(spec.source)}</p>' if spec.source else ""
    quote = f"<blockquote>{_e(spec.quote)}</blockquote>" if spec.quote else ""
    chart = (_forest(claim) if charted else "") if claim.instances else f'<p class="note">{_e(claim.note)}</p>'
    return (f'<article class="claim {_verdict_class(claim.verdict)}" id="{_claim_anchor(claim, index)}">'
            f'<div class="claim-head">{_pill(claim.verdict)}<code class="claim-id">{_e(spec.id)}</code>'
            f'<span class="experiment-name">{_e(claim.experiment)}</span></div>'
            f"<h3>{_e(spec.statement)}</h3>{_depends(claim)}{source}{quote}"
            f'<p class="expected">Expected: <strong>{_e(tables.expected(claim))}</strong> '
            f"<span class=\"muted\">({_e(ratio)})</span></p>{chart}{_instance_table(claim)}</article>")


def _instance_label(judged: Judged) -> str:
    top, bottom = judged.numerator, judged.denominator
    if bottom is None:
        return f"{top.id.runtime} {top.label}"
    if top.label == bottom.label:  # the swept values too: a claim over a sweep has a row per value
        return f"{top.id.runtime} ÷ {bottom.id.runtime}" + (f" [{top.id.variant}]" if top.id.variant else "")
    if top.id.runtime == bottom.id.runtime:
        return f"{top.id.runtime}: {top.label} ÷ {bottom.label}"
    return tables.instance_what(judged)


def rough(judged: Judged) -> float | None:
    """Numerator ÷ denominator of the arms' own estimates: what the data says before a verdict can
    (shown hollow and with ≈, never as a verdict or with an interval)."""
    def value(arm: ArmResult) -> float | None:
        if judged.item.metric:
            entry = arm.metrics.get(judged.item.metric)
            return entry[0].value if entry else None
        return arm.summary.value if arm.summary else None

    top = value(judged.numerator)
    if judged.denominator is None or top is None:
        return top
    bottom = value(judged.denominator)
    return top / bottom if bottom else None


def _judged_note(judged: Judged, unit: str, brief: bool = False) -> str:
    shown = judged.decision.interval
    if shown is not None:
        return f"{shown.value:.3g}{unit} {judged.verdict}"
    estimate = rough(judged)
    if estimate is None:
        return judged.verdict if brief else (judged.decision.note or judged.verdict)
    if brief:
        return f"≈{estimate:.3g}{unit} {judged.verdict}"
    return f"≈{estimate:.3g}{unit}, {judged.decision.n} round{'s' if judged.decision.n != 1 else ''}: no interval yet"


def _forest(claim: ClaimResult) -> str:
    rows = []
    for judged in claim.instances:
        shown = judged.decision.interval
        colour = figures.COLOURS.get(judged.verdict, figures.COLOURS[""])
        unit = "×" if judged.denominator is not None else ""
        rows.append(figures.Estimate(_instance_label(judged), shown.value if shown else None,
                                     shown.low if shown else None, shown.high if shown else None, colour,
                                     note=figures.short(_judged_note(judged, unit), 44),
                                     rough=None if shown else rough(judged)))
    spec = claim.claim
    label = "ratio, log scale" if spec.denominator is not None else f"{spec.metric}"
    return f'<figure class="forest">{figures.forest(rows, spec.min, spec.max, label, f"claim {spec.id}")}</figure>'


def _instance_table(claim: ClaimResult) -> str:
    if not claim.instances:
        return ""
    rows = "".join(f'<tr class="{_verdict_class(j.verdict)}"><td>{_e(tables.measured(j))}</td>'
                   f"<td>{_pill(tables.verdict_text(j))}</td><td>{_e(tables.instance_what(j))}</td>"
                   f"<td>{_e(j.decision.n)}</td></tr>" for j in claim.instances)
    return ('<table class="instances"><thead><tr><th>measured [interval at its level]</th><th>verdict</th>'
            f"<th>arms</th><th>rounds</th></tr></thead><tbody>{rows}</tbody></table>")


# --- 2 · arms by experiment ---------------------------------------------------------------------

def _experiments(analysis: Analysis, experiments: list[str]) -> str:
    parts = ['<section id="arms"><h2>2 · Arms by experiment</h2><p class="lead">Each arm\'s estimate '
             "(a dot) with its 95% interval over processes (a line), every process run's own value (the "
             "median of its samples, or their minimum where its method says so) as a "
             "small grey dot, on a log time axis; coloured by the comparison with the case's baseline. "
             "The tables hold the same numbers in words.</p>"]
    all_tables = tables.case_tables(analysis)
    metrics = tables.metric_table(analysis)
    summaries = dict(zip(list(dict.fromkeys(a.id.experiment for a in analysis.arms)), tables.experiment_summaries(analysis)))
    for name in experiments:
        arms = [a for a in analysis.arms if a.id.experiment == name]
        title = analysis.experiments[name].title if name in analysis.experiments else ""
        mine = [t for t in all_tables if t.title.startswith(f"{name} · ")]
        if metrics:
            rows = [r for r in metrics.rows if r[0].startswith(f"{name} · ")]
            if rows:
                mine.append(Table(metrics.title, metrics.headers, rows))
        folded = "" if len(arms) > MANY_ARMS else " open"
        body = "".join(_table(t) for t in mine)
        parts.append(f'<section class="experiment" id="{_slug("exp", name)}"><h3>{_e(name)}</h3>'
                     + (f'<p class="question">{_e(title)}</p>' if title else "")
                     + f'<p class="muted">{_e(summaries.get(name, ""))}</p>{_points(analysis, name)}'
                     f"<details{folded}><summary>the tables ({len(mine)})</summary>{body}</details></section>")
    return "".join(parts) + "</section>"


def _comparison_maps(analysis: Analysis) -> tuple[dict[int, Judged], dict[int, Judged]]:
    by_runtime = {c.numerator.index: c for c in analysis.comparisons if c.item.by == "runtime"}
    by_case = {c.numerator.index: c for c in analysis.comparisons if c.item.by == "case"}
    return by_runtime, by_case


def _row(arm: ArmResult, label: str, comparison: Judged | None, is_baseline: bool) -> figures.Estimate:
    dots = [p.value for p in arm.processes if p.status == "ok" and p.value is not None]
    summary = arm.summary
    if comparison is not None:
        colour = figures.COLOURS.get(comparison.verdict, figures.COLOURS[""])
        note = _judged_note(comparison, "×", brief=True)
    else:
        colour = figures.COLOURS["baseline" if is_baseline else ""]
        note = "baseline" if is_baseline else ""
    if summary is None:
        return figures.Estimate(label, None, colour=figures.COLOURS["does not hold"], note="no valid runs")
    low, high = (summary.interval.low, summary.interval.high) if summary.interval else (None, None)
    return figures.Estimate(label, summary.value, low, high, colour, dots, note)


def _points(analysis: Analysis, name: str) -> str:
    by_runtime, by_case = _comparison_maps(analysis)
    baselines = {c.denominator.index for c in analysis.comparisons if c.denominator is not None}
    mine = [a for a in analysis.arms if a.id.experiment == name]
    labels = list(dict.fromkeys(a.label for a in mine))
    panels, singles = [], []
    for label in labels:
        arms = [a for a in mine if a.label == label]
        if len(arms) == 1:
            singles.append(arms[0])
            continue
        arms.sort(key=lambda a: a.summary.value if a.summary else math.inf)
        panels.append(figures.Panel(label, [_row(a, a.id.runtime, by_runtime.get(a.index) or by_case.get(a.index),
                                                 a.index in baselines) for a in arms]))
    if singles:
        runtimes = {a.id.runtime for a in singles}
        panels.append(figures.Panel("cases with one arm" + (f" (on {next(iter(runtimes))})" if len(runtimes) == 1 else ""),
                                    [_row(a, a.label if len(runtimes) == 1 else f"{a.label} · {a.id.runtime}",
                                          by_case.get(a.index), a.index in baselines) for a in singles]))
    panels = [p for p in panels if any(r.value is not None for r in p.rows)]
    if not panels:
        return '<p class="note">No arm of this experiment has a time per iteration to draw (see its metrics).</p>'
    return f'<figure class="points">{figures.points(panels, f"{name}: arms by case")}</figure>'


def _table(table: Table, css: str = "") -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in table.headers)
    rows = "".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in table.rows)
    note = f"<caption class=\"note\">{_e(table.note)}</caption>" if table.note else ""
    return (f'<div class="table-wrap"><h4>{_e(table.title)}</h4><table class="sortable {css}">{note}<thead><tr>{head}'
            f"</tr></thead><tbody>{rows}</tbody></table></div>")


_VERDICT_WORDS = ("holds", "does not hold", "inconclusive", "faster", "slower", "same")


def _cell(text: str) -> str:
    if text.startswith(_VERDICT_WORDS) and len(text) < 160:
        return f"<td>{_pill(text)}</td>"
    return f"<td>{_e(text)}</td>"


# --- 3 · warmup and steady state ----------------------------------------------------------------

def _warmup(analysis: Analysis, experiments: list[str]) -> str:
    parts = ['<section id="warmup"><h2>3 · Warmup and steady state</h2><p class="lead">Per arm, every process run\'s '
             "samples against their index, relative to the arm's median measured sample, on a log scale fitted to the "
             "measured samples (warmup samples beyond it sit on the cell's edge): warmup samples dotted, measured "
             "samples solid. A process whose measured samples shift by ≥ 2% (no steady state) is red, one that slowed "
             "down during warmup orange; arms with such processes have coloured titles and come first.</p>"]
    unsettled = tables.steady_table(analysis)
    if unsettled and len(unsettled.rows) > FOLDED_ROWS:
        parts.append(f"<details><summary>{len(unsettled.rows)} arms with processes that did not settle (the table)"
                     f"</summary>{_table(unsettled)}</details>")
    elif unsettled:
        parts.append(_table(unsettled))
    for name in experiments:
        traces = _traces([a for a in analysis.arms if a.id.experiment == name])
        if not traces:
            parts.append(f'<p class="note">{_e(name)}: one sample per process run; nothing to show here.</p>')
            continue
        alarms = sum(1 for t in traces if t.alarm)
        summary = f"{name}: {len(traces)} arms" + (f", {alarms} with processes that did not settle" if alarms else
                                                   ", every process settled")
        chart = figures.warmup(traces, steady.UNSTEADY, steady.SLOWDOWN, f"{name}: samples of each process run")
        parts.append(f'<details class="warmup"{" open" if alarms else ""}><summary>{_e(summary)}</summary>'
                     f'<figure class="warmup">{chart}</figure></details>')
    return "".join(parts) + "</section>"


def _traces(arms: list[ArmResult]) -> list[figures.Trace]:
    traces = []
    for arm in arms:
        series = [figures.Series([v for v, _ in p.samples], sum(1 for _, warm in p.samples if warm), p.steady)
                  for p in arm.processes if p.status == "ok" and len(p.samples) > 1 and all(v > 0 for v, _ in p.samples)]
        if not series:
            continue
        bad = any(s.steady == steady.UNSTEADY for s in series)
        slow = any(s.steady == steady.SLOWDOWN for s in series)
        alarm = figures.UNSTEADY if bad else figures.SLOWDOWN if slow else ""
        traces.append(figures.Trace(f"{figures.short(arm.id.runtime, 28)}\n{figures.short(arm.label, 28)}", series, alarm))
    traces.sort(key=lambda t: 0 if t.alarm == figures.UNSTEADY else 1 if t.alarm else 2)
    return traces


# --- 4 · failed runs and how the session ran -----------------------------------------------------

def _failures_and_setup(analysis: Analysis) -> str:
    return ('<section id="setup"><h2>4 · Failed runs, host and runtimes</h2>' + _failed(analysis)
            + _reproduce(analysis) + _host(analysis) + _hosts(analysis) + _runtimes(analysis) + _methods(analysis)
            + "</section>")


def _hosts(analysis: Analysis) -> str:
    """A session of several hosts (docs/fleet.md): each item's estimate and verdict on each of them."""
    table = tables.host_table(analysis)
    return f"<h3>Hosts</h3>{_table(table)}" if table else ""


def _failed(analysis: Analysis) -> str:
    if not analysis.failed:
        return "<h3>Failed process runs</h3><p>None: every process run succeeded.</p>"
    rows = []
    for failed in analysis.failed:
        tail = failed.log_tail.strip()
        last = (tail.split("\n") or [""])[-1][:160]
        log = (f"<details><summary>{_e(last) or 'log'}</summary><pre>{_e(tail)}</pre></details>" if tail
               else '<span class="muted">no output</span>')
        rows.append(f"<tr><td>{_e(failed.arm_key)}</td><td>{_e(failed.round)}</td><td>{_e(failed.reason)}</td>"
                    f"<td>{log}</td></tr>")
    return (f"<h3>Failed process runs ({len(analysis.failed)})</h3><p class=\"muted\">A failed process run costs "
            "only its own arm a round; its reason and the end of its log are kept.</p>"
            '<table class="failed sortable"><thead><tr><th>arm</th><th>round</th><th>reason</th><th>log tail</th></tr>'
            f"</thead><tbody>{''.join(rows)}</tbody></table>")


def reproduce_command(argv: Sequence[str], seed: int, options: Mapping[str, object] | None = None) -> str:
    """The command that runs a session again (its argv, seed and options), with its seed: `versus run … --seed N`."""
    options = options or {}
    if options.get("import"):
        return f"versus import {options.get('file', 'FILE')}"
    args = list(argv[1:] if argv and Path(argv[0]).name in ("versus", "__main__.py", "-m") else argv)
    if not args:
        return ""
    if not any(a == "--seed" or a.startswith("--seed=") for a in args) and "--resume" not in args:
        args += ["--seed", str(seed)]
    return shlex.join(["versus", *args])


def _reproduce(analysis: Analysis) -> str:
    session = analysis.session
    made = session.versus
    command = reproduce_command(session.argv, session.seed, session.options)
    commits = ", ".join(f"{name} at {spec.commit or 'an unknown commit'}" for name, spec in session.definitions.items()
                        if spec.real)
    items = [("seed", str(session.seed)),
             ("versus", f"{made.get('version', '?')} at commit {made.get('commit') or 'unknown'}" if made else "unknown"),
             ("experiments as run", commits or "not stored with this session"),
             ("started", _when(session.created)), ("finished", _when(session.finished)),
             ("status", session.status)]
    if analysis.stopped:
        items.append(("stopped because", analysis.stopped))
    facts = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in items)
    shown = (f'<pre class="command">{_e(command)}</pre>' if command else "<p>The command is not stored.</p>")
    return f"<h3>Reproduce</h3>{shown}<dl>{facts}</dl>"


def _host(analysis: Analysis) -> str:
    host = analysis.session.host
    if not host:
        return "<h3>Host</h3><p>Not recorded (an imported session).</p>"
    order = ["cpu", "cores", "load", "governor", "kernel", "os", "memory_gb", "python", "hostname"]
    keys = [k for k in order if k in host] + [k for k in host if k not in order]
    facts = "".join(f"<dt>{_e(k)}</dt><dd>{_e(_shown(host[k]))}</dd>" for k in keys)
    return f"<h3>Host</h3><dl>{facts}</dl>"


def _shown(value: object) -> object:
    """A recorded host detail: a list (the load averages) as its items."""
    return " ".join(map(str, value)) if isinstance(value, list) else value


def _runtimes(analysis: Analysis) -> str:
    seen: dict[str, StoredRuntime] = {}
    for arm in analysis.arms:
        seen.setdefault(arm.id.runtime, arm.runtime)
    rows = []
    for name, info in seen.items():
        flags = " ".join(info.flags)
        where = info.shown("jar") or info.shown("executable")
        rows.append(f"<tr><td>{_e(name)}</td><td>{_e(info.family)}</td><td>{_e(info.version)}</td>"
                    f"<td>{_e(flags)}</td><td>{_e(info.jdk_version)}</td><td>{_e(info.shown('impl'))}</td>"
                    f"<td><code>{_e(where)}</code></td><td>{_e(info.shown('source'))}</td></tr>")
    return ('<h3>Runtimes</h3><table class="runtimes sortable"><thead><tr><th>runtime</th><th>family</th>'
            "<th>version</th><th>flags</th><th>JDK</th><th>implementation</th><th>executable or jar</th><th>source</th>"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _methods(analysis: Analysis) -> str:
    methods = analysis.session.plan.methods
    if not methods:
        return ""
    keys = ["processes", "warmup", "samples", "inner", "timeout"]
    rows = "".join(f"<tr><td>{_e(name)}</td>" + "".join(f"<td>{_e(m.stored.get(k, ''))}</td>" for k in keys) + "</tr>"
                   for name, m in methods.items())
    head = "".join(f"<th>{k}</th>" for k in keys)
    return (f"<h3>Method</h3><table class=\"methods\"><thead><tr><th>experiment</th>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table>")


# --- 5 · the experiments' own charts -------------------------------------------------------------

Figures = Callable[[dict[str, Any]], list[tuple[str, str]]]


def _hook(analysis: Analysis, name: str) -> Figures | None:
    """`figures(doc)` from experiments/<name>/report.py, where the session's stored folder is one of this
    checkout's experiments: a document imported from elsewhere names folders whose code we do not run."""
    spec = analysis.session.definitions.get(name)
    if spec is None or not spec.path:
        return None
    try:
        folder = Path(spec.path).resolve()
        root = paths.experiments().resolve()
    except (OSError, VersusError):
        return None
    file = folder / HOOK
    if folder.parent != root or not file.is_file():
        return None
    module_name = f"versus_report_hook_{re.sub(r'[^A-Za-z0-9_]', '_', name)}"
    loader = importlib.util.spec_from_file_location(module_name, file)
    if loader is None or loader.loader is None:
        return None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    function = getattr(module, "figures", None)
    return function if callable(function) else None


def _own_charts(analysis: Analysis, experiments: list[str], doc: dict[str, Any] | None) -> str:
    parts = ['<section id="charts"><h2>5 · The experiments\' own charts</h2>']
    shown = 0
    for name in experiments:
        try:
            hook = _hook(analysis, name)
            if hook is None:
                continue
            if doc is None:
                doc = document(analysis, [])
            with figures.style(math=True):
                charts = list(hook(doc))
        except (Exception, SystemExit) as error:  # an experiment's chart code must never cost the report
            parts.append(f'<p class="note">{_e(name)}/{HOOK} failed: {_e(type(error).__name__)}: {_e(error)}</p>')
            continue
        for title, svg in charts:
            shown += 1
            parts.append(f'<figure class="own"><figcaption>{_e(name)}: {_e(title)}</figcaption>'
                         f"{_own_svg(svg, shown)}</figure>")
    if not shown:
        parts.append("<p>None of this session's experiments draws a chart of its own "
                     f"(an experiment may: <code>experiments/NAME/{HOOK}</code> with <code>figures(doc)</code>).</p>")
    return "".join(parts) + "</section>"


def _own_svg(text: str, index: int) -> str:
    """An experiment's SVG, tidied like ours; anything that is not one SVG element is shown as text."""
    tidied = figures.tidy(text, f"own{index}-")
    if not tidied.startswith("<svg") or re.search(r"<\s*(script|foreignObject|iframe)|<[^>]*\son\w+\s*=", tidied, re.I):
        return f'<p class="note">not an SVG chart: {_e(tidied[:200])}</p>'
    return tidied


# --- the sessions index --------------------------------------------------------------------------

def write_index(path: Path, sessions: list[tuple[SessionEntry, str]]) -> None:
    """`sessions`: each with the name of its report's folder beside the index."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, render_index(sessions))
    except OSError as error:
        print(f"versus: note: cannot write {path}: {error.strerror or error}", file=sys.stderr)


def render_index(sessions: list[tuple[SessionEntry, str]]) -> str:
    rows = []
    for entry, folder in sorted(sessions, key=lambda s: -s[0].id):
        link = f'<a href="{_e(_href(folder or f"session-{entry.id}"))}/index.html">session {_e(entry.id)}</a>'
        command = shlex.join(["versus", *entry.argv[1:]]) if entry.argv else ""
        failed = entry.failed
        failed_cell = f'<td class="bad">{failed}</td>' if failed else f"<td>{failed}</td>"
        rows.append(f"<tr><td>{link}</td><td>{_e(_when(entry.created))}</td><td>{_e(_when(entry.finished))}</td>"
                    f"<td>{_e(entry.status)}</td><td>{_e(entry.experiments.replace(',', ', '))}</td>"
                    f"<td>{_e(entry.arms)}</td><td>{_e(entry.runs)}</td>"
                    f"{failed_cell}<td><code>{_e(command)}</code></td></tr>")
    body = ('<header class="masthead"><p class="kicker">versus</p><h1>Sessions</h1>'
            f'<p class="facts">{len(sessions)} session{"s" if len(sessions) != 1 else ""} in this database, newest first; '
            "each links its own report.</p></header>"
            '<table class="sessions sortable"><thead><tr><th>session</th><th>started</th><th>finished</th><th>status</th>'
            "<th>experiments</th><th>arms</th><th>process runs</th><th>failed</th><th>command</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")
    return _page("versus sessions", body)


def _href(folder: str) -> str:
    """A relative link to a folder beside the index: its name only, percent-encoded."""
    return quote(Path(folder).name)


CSS = """
:root{--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--holds:#1a7f37;--fails:#cf222e;--open:#b35900;
--none:#6e7781;--same:#0969da;--accent:#0969da;--depends:#8250df}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1072px;padding:28px 32px 60px;color:var(--ink);background:#fff;
font:15px/1.5 system-ui,-apple-system,"Segoe UI","DejaVu Sans","Liberation Sans",sans-serif}
h1{font-size:30px;line-height:1.2;margin:4px 0 6px;letter-spacing:-.01em}
h2{font-size:22px;margin:44px 0 8px;padding-bottom:6px;border-bottom:2px solid var(--ink)}
h3{font-size:17px;margin:26px 0 6px}
h4{font-size:14px;margin:18px 0 4px}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code,pre{font:13px/1.45 ui-monospace,"DejaVu Sans Mono","Liberation Mono",monospace}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow-x:auto;
white-space:pre-wrap;word-break:break-word}
.masthead{border-bottom:1px solid var(--line);padding-bottom:14px}
.kicker{margin:0;color:var(--muted);font-size:13px;text-transform:uppercase;letter-spacing:.06em}
.facts{margin:0 0 10px;color:var(--muted)}
.header-lines{margin:10px 0 0;padding-left:18px;color:var(--muted);font-size:13px}
.chips{display:flex;gap:8px;flex-wrap:wrap}
.chips .pill{font-size:14px;padding:3px 12px}
nav{margin:14px 0 0;font-size:14px}
nav ol{display:flex;flex-wrap:wrap;gap:4px 20px;margin:0;padding:0;list-style:none}
nav ul.experiments{display:flex;flex-wrap:wrap;gap:2px 14px;margin:6px 0 0;padding:0;list-style:none;font-size:13px}
nav ul.experiments:before{content:"experiments:";color:var(--muted)}
.lead{color:var(--muted);max-width:820px}
.muted,.note{color:var(--muted)}
.budget{background:#fff8c5;border:1px solid #d4a72c66;border-radius:6px;padding:8px 12px}
.depends{background:#fbefff;border-left:3px solid var(--depends);padding:4px 8px;margin:6px 0;font-size:.9em}
.pill{display:inline-block;border-radius:999px;padding:1px 9px;font-size:12.5px;font-weight:600;color:#fff;
background:var(--none);white-space:nowrap;max-width:100%;overflow:hidden;text-overflow:ellipsis;vertical-align:middle}
td .pill{white-space:normal;text-align:left}
.v-holds .pill,.pill.v-holds,.pill.v-faster{background:var(--holds)}
.pill.v-fails,.pill.v-slower{background:var(--fails)}
.pill.v-open{background:var(--open)}
.pill.v-same{background:var(--same)}
.pill.v-none{background:var(--none)}
.pill.v-depends{background:var(--depends)}
table{border-collapse:collapse;width:100%;margin:6px 0 10px;font-size:13px}
th,td{text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid var(--line)}
th{background:var(--soft);font-weight:600;white-space:nowrap}
caption{caption-side:bottom;text-align:left;font-size:12px;padding-top:4px}
tr:hover td{background:#f6f8fa80}
.table-wrap{overflow-x:auto}
table.overview td{padding-top:6px;padding-bottom:6px}
table.overview .statement{font-size:13px;color:#424a53;margin-top:1px}
table.overview .pill,table.overview td:nth-child(n+3):nth-child(-n+5){white-space:nowrap}
table.overview tr.v-fails td:first-child{box-shadow:inset 3px 0 var(--fails)}
table.overview tr.v-holds td:first-child{box-shadow:inset 3px 0 var(--holds)}
table.overview tr.v-open td:first-child{box-shadow:inset 3px 0 var(--open)}
article.claim{border:1px solid var(--line);border-left:5px solid var(--none);border-radius:8px;padding:12px 16px 6px;
margin:16px 0;break-inside:avoid}
article.claim.v-holds{border-left-color:var(--holds)}article.claim.v-fails{border-left-color:var(--fails)}
article.claim.v-open{border-left-color:var(--open)}
article.claim h3{margin:6px 0 4px;font-size:17px}
.claim-head{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.claim-id{font-weight:600}
.experiment-name{color:var(--muted);font-size:13px;margin-left:auto}
.source{margin:2px 0;color:var(--muted);font-size:13.5px}
blockquote{margin:6px 0;padding:2px 12px;border-left:3px solid var(--line);color:#424a53;font-style:italic}
.expected{margin:6px 0}
figure{margin:8px 0}
figure svg{display:block;max-width:100%;height:auto;font-family:"DejaVu Sans",sans-serif}
figure.warmup svg{width:100%}
details{margin:6px 0}
summary{cursor:pointer;color:var(--accent);font-size:14px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;font-size:14px}
dt{color:var(--muted)}dd{margin:0}
pre.command{font-size:14px;background:#0d1117;color:#e6edf3;border:0}
table.runtimes code{word-break:break-all}
td.bad{color:var(--fails);font-weight:600}
table.sessions td:nth-child(-n+3){white-space:nowrap}
.question{font-style:italic;margin:0 0 2px}
th.sorted-up:after{content:" ▲"}th.sorted-down:after{content:" ▼"}
.sortable th{cursor:pointer}
footer{margin-top:48px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:8px}
@media print{nav,summary{display:none}details>*{display:block}body{max-width:none}}
""".replace("\n", "")

# Optional: click a column header to sort a table. The page reads the same without it.
SCRIPT = """
var UNITS={ns:1,'µs':1e3,ms:1e6,s:1e9};
function sortKey(text){var m=/^\\s*≈?(-?[0-9.]+(?:e[+-]?[0-9]+)?)\\s*(ns|µs|ms|s)?(?![a-z])/i.exec(text);
return m?parseFloat(m[1])*(UNITS[m[2]]||1):text.toLowerCase()}
document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',function(){
var table=th.closest('table'),body=table.tBodies[0],i=Array.prototype.indexOf.call(th.parentNode.children,th);
var up=!th.classList.contains('sorted-up');table.querySelectorAll('th').forEach(function(h){
h.classList.remove('sorted-up','sorted-down')});th.classList.add(up?'sorted-up':'sorted-down');
var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){
var x=sortKey((a.children[i]||{}).textContent||''),y=sortKey((b.children[i]||{}).textContent||'');
if(typeof x!==typeof y){x=String(x);y=String(y)}return (x<y?-1:x>y?1:0)*(up?1:-1)});
rows.forEach(function(r){body.appendChild(r)})})});
""".strip().replace("\n", "")
