"""The docs stay what they claim to be.

docs/experiment-toml.md is `versus schema`; docs/results.md is one page of today's results whose every
figure names its command, date and commit; every experiment README's claim table names the run it
comes from, the same run as results.md's; links between the docs lead somewhere; docs/method.md
describes the method as it is, its history in the dated log.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from versus.rule import Rule
from versus.schema_doc import markdown

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RESULTS = DOCS / "results.md"
READMES = sorted(ROOT.glob("experiments/*/README.md"))
CLAIMS_SECTION = "## Claims in `make run`"

# A command as the docs write one: a line of a fenced block, or an inline code span, that runs something.
COMMAND = re.compile(r"^(?:versus |\.venv/bin/|make |rm -rf |git |python3? |scripts/|time versus )", re.M)
INLINE_COMMAND = re.compile(r"`(?:versus |\.venv/bin/|make |scripts/\S+\.(?:py|sh))[^`]*`")
COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
# What makes a section one with figures: a table, a fenced block, or a measured quantity in prose.
QUANTITY = re.compile(r"\d(?:[\d.,]*\d)?\s?(?:%|×|ms\b|µs\b|ns\b|min\b|s\b)")


def sections(text: str) -> list[tuple[str, str]]:
    """The page's `##` and `###` sections as (heading, body); a `####` belongs to the section above it."""
    out: list[tuple[str, str]] = []
    heading, body = "(the page's opening)", list[str]()
    for line in text.split("\n"):
        if re.match(r"#{2,3} ", line):
            out.append((heading, "\n".join(body)))
            heading, body = line.lstrip("# ").strip(), []
        else:
            body.append(line)
    out.append((heading, "\n".join(body)))
    return out


def has_figures(body: str) -> bool:
    prose = re.sub(r"```.*?```", "", body, flags=re.S)
    return "```" in body or bool(re.search(r"^\|", body, re.M)) or bool(QUANTITY.search(prose))


def has_command(body: str) -> bool:
    fenced = "\n".join(re.findall(r"```\n(.*?)```", body, re.S))
    return bool(COMMAND.search(fenced)) or bool(INLINE_COMMAND.search(body))


def test_the_experiment_toml_reference_matches_the_schema():
    assert (DOCS / "experiment-toml.md").read_text() == markdown() + "\n", \
        "regenerate it: .venv/bin/versus schema > docs/experiment-toml.md"


def test_every_key_of_the_schema_is_documented_once():
    text = (DOCS / "experiment-toml.md").read_text()
    for key in ("processes", "min_sample_ns", "baseline", "jdks", "runtimes", "server", "programs", "metric"):
        assert f"`{key}`" in text


def test_the_results_page_stays_one_page():
    lines = RESULTS.read_text().count("\n")
    assert lines < 600, (f"docs/results.md has {lines} lines: move what is no longer today's to "
                         "docs/history/ (one file a day) and condense, so that the page stays under 600")


def test_every_figure_on_the_results_page_names_its_command_date_and_commit():
    missing = []
    for heading, body in sections(RESULTS.read_text()):
        if not has_figures(body):
            continue  # a section reserved for figures to come, or prose without figures
        lacks = [what for what, ok in (("a command", has_command(body)),
                                       ("a date (YYYY-MM-DD)", bool(DATE.search(heading + body))),
                                       ("a commit", "commit" in body.lower() and bool(COMMIT.search(body))))
                 if not ok]
        if lacks:
            missing.append(f"{heading!r}: no {', no '.join(lacks)}")
    assert not missing, "docs/results.md sections with figures but not where they come from:\n" + "\n".join(missing)


def test_the_check_of_figures_can_fail():
    bare = "## A figure\n\nThe lock costs 2.3× the other.\n"
    [(_, opening), (heading, body)] = sections(bare)
    assert not has_figures(opening) and has_figures(body) and not has_command(body)
    assert not COMMIT.search("seed 1708869582") and COMMIT.search("at commit 47212be")
    reserved = "## Reserved\n\n_Reserved for the figures of item 18, each with its command, date and commit._\n"
    assert not has_figures(sections(reserved)[1][1])


def _claims_section(readme: Path) -> str:
    text = readme.read_text()
    assert CLAIMS_SECTION in text, f"{readme.relative_to(ROOT)} has no section {CLAIMS_SECTION!r}"
    return text.split(CLAIMS_SECTION, 1)[1].split("\n## ", 1)[0]


def _run_named(text: str) -> tuple[str, str, str]:
    run = re.search(r"`make run` #(\d+) of (20\d\d-\d\d-\d\d)", text)
    commit = re.search(r"commit ([0-9a-f]{7,40})\b", text)
    assert run and commit, "the claims must name their run: `make run` #N of YYYY-MM-DD … commit abcdef0"
    return run.group(1), run.group(2), commit.group(1)


def test_every_experiment_readme_names_the_run_its_claims_table_comes_from():
    runs = {}
    for readme in READMES:
        name = readme.parent.name
        section = _claims_section(readme)
        runs[name] = _run_named(section)
        assert f"versus lab claims run.json {name}" in section, f"{name}: the command that prints its table"
        assert re.search(r"^\| `", section, re.M), f"{name}: no claims table"
    today = RESULTS.read_text().split("\n## ", 2)[1]
    assert set(runs.values()) == {_run_named(today.replace("make run #", "`make run` #", 1))}, \
        f"the READMEs' claim tables and docs/results.md come from different runs: {runs}"


def test_the_claims_on_the_results_page_are_the_readmes_claims():
    page = re.split(r"\n#{2,3} ", re.split(r"### The \d+ claims", RESULTS.read_text(), maxsplit=1)[1], maxsplit=1)[0]
    rows = [line.split("|", 2)[2].strip() for line in page.split("\n")
            if re.match(r"\| [\w-]* +\| ", line) and not re.match(r"\| (experiment|-)", line)]
    readmes = [line.split("|", 1)[1].strip() for readme in READMES for line in _claims_section(readme).split("\n")
               if line.startswith("| ") and not re.match(r"\| (claim|-)", line)]
    assert len(rows) > 57
    assert rows == readmes, "docs/results.md's claims table and the experiment READMEs' tables differ: " \
                            "regenerate both from one run with versus lab claims"


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_the_docs_lead_somewhere():
    pages = [ROOT / "README.md", *DOCS.glob("*.md"), *DOCS.glob("history/*.md"), *READMES]
    broken = []
    for page in pages:
        text = page.read_text()
        anchors = {_slug(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            if path and not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif not path and anchor not in anchors:
                broken.append(f"{page.relative_to(ROOT)}: #{anchor}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)


def test_the_current_docs_name_files_that_exist():
    pages = [ROOT / "README.md", RESULTS, DOCS / "method.md", DOCS / "extending.md", *READMES]
    missing = []
    for page in pages:
        # a command run at an older commit (`git checkout abc1234 && …`) may name what is gone since
        text = re.sub(r"`[^`]*git (?:checkout|show) [^`]*`", "", page.read_text())
        named = re.findall(r"`((?:docs|scripts|experiments|src|tests|helpers|subjects)/[^`\s*{<…]+)`", text)
        named += re.findall(r"(?<![\w/.])((?:docs|scripts|experiments|src|tests)/[\w/.-]+\.(?:py|sh|md|toml|c))\b", text)
        for path in named:
            path = path.split("::")[0].rstrip("/.,")
            if not (ROOT / path).exists():
                missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert not missing, "the docs name files that are not there:\n" + "\n".join(missing)


def test_the_method_reads_as_today_s_truth():
    text = (DOCS / "method.md").read_text()
    notes = re.findall(r"[^.\n]*(?:\b(?:[Ss]ince|[Uu]ntil|[Bb]efore) 20\d\d-\d\d-\d\d|\*History:\*)[^.\n]*", text)
    assert not notes, ("docs/method.md says what the method does; its history goes to docs/history/ or "
                       "the CHANGELOG:\n" + "\n".join(notes))


def test_every_field_of_the_rule_has_a_row_in_the_method_s_table():
    """docs/extending.md, "Adding a statistic", step 4: a field of `Rule` is a row of the table in
    docs/method.md, "The rule". `version` names the rule's edition, and `learned` and `shift` are one
    pair's view of `spreads` and `between`, which have their rows."""
    rows = [line.split("|")[1] for line in (DOCS / "method.md").read_text().splitlines() if line.startswith("| `")]
    named = set(re.findall(r"`(\w+)`", " ".join(rows)))
    missing = [f.name for f in dataclasses.fields(Rule) if f.name not in named | {"version", "learned", "shift"}]
    assert not missing, f"fields of Rule without a row in docs/method.md's table: {missing}"
