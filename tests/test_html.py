"""The HTML report: one self-contained page, in the issue's order, every untrusted string escaped; and the
same page opened in headless Chromium (Debian's `chromium`), which must render it without console
errors, show every claim with its verdict, and request nothing.

The browser is driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON messages
ended by NUL on fds 3 and 4), so no driver package and no browser download is needed.
"""
from __future__ import annotations

import base64
import contextlib
import dataclasses
import fcntl
import itertools
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from versus import cli
from versus.analyze import Analysis, analyze
from versus.executor import Completed
from versus.interchange import import_file
from versus.record import Options, StoredDefinition
from versus.report import figures, html
from versus.report.document import document
from versus.session import start
from versus.store import SessionEntry, Store

EVIL_CASE = 'cost_$5_vs_$10 <script>window.pwned=5 <img src=x onerror="window.pwned=1"> & "q"'
EVIL_STATEMENT = "<script>window.pwned=2</script> is ≥ 1× & $x$ holds"
EVIL_LOG = "<script>window.pwned=3</script><iframe src=\"https://example.com\"></iframe>"
EVIL_SOURCE = '<a href="javascript:window.pwned=4">click</a>'


class FakeExecutor:
    """Protocol output without running anything: a case's time per iteration is `times[case]`; every
    `fail_every`-th process run exits 1 after printing EVIL_LOG."""

    def __init__(self, times: dict[str, float], fail_every: int = 0, shift: str = "") -> None:
        self.times, self.fail_every, self.shift, self.calls = times, fail_every, shift, 0

    def execute(self, argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None = None) -> Completed:
        self.calls += 1
        case, inner = env["VERSUS_CASE"], int(env["VERSUS_INNER"]) or 100
        if self.fail_every and self.calls % self.fail_every == 0:
            return Completed(1, f"starting\n{EVIL_LOG}\n", "", 1_000_000)
        warmup, samples = int(env["VERSUS_WARMUP"]), int(env["VERSUS_SAMPLES"])
        lines = [json.dumps({"v": 1, "type": "hello", "runtime": "fake", "version": "0", "clock": "none"})]
        for index in range(warmup + samples):
            slow = 1.3 if index < warmup else 1.0
            if case == self.shift and index >= warmup + samples // 2:
                slow = 1.25  # a JIT that moves during the measurement: no steady state
            ns = round(self.times.get(case, 10.0) * inner * slow * (1 + 0.003 * (index % 3)))
            lines.append(json.dumps({"type": "sample", "case": case, "ns": ns, "inner": inner, "warmup": index < warmup}))
        lines += [json.dumps({"type": "check", "case": case, "value": str(inner)}), json.dumps({"type": "end"})]
        return Completed(0, "\n".join("@versus " + line for line in lines), "", 1_000_000)

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path | None = None) -> Any:
        raise AssertionError("no servers here")


def _evil_experiment(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "work.py").write_text("# never run: the tests use a fake executor\n")
    case = json.dumps(EVIL_CASE, ensure_ascii=False)
    (folder / "experiment.toml").write_text(f"""
[experiment]
name = "evil"
title = {json.dumps("<b>bold?</b> " + EVIL_STATEMENT, ensure_ascii=False)}
runtimes = ["cpython@3.11"]
baseline = {{ case = "plain" }}

[method]
processes = 3
warmup = 2
samples = 6
inner = 100

[programs]
python3 = "work.py"

[[cases]]
name = {case}
check = "inner"

[[cases]]
name = "plain"
check = "inner"

[[claims]]
id = "evil-claim"
statement = {json.dumps(EVIL_STATEMENT, ensure_ascii=False)}
source = {json.dumps(EVIL_SOURCE)}
quote = {json.dumps(EVIL_LOG)}
numerator = {{ case = {case}, runtime = "cpython" }}
denominator = {{ case = "plain", runtime = "cpython" }}
min = 1
""", encoding="utf-8")
    return folder


def _session(db: Path, folder: Path, executor: FakeExecutor) -> tuple[Store, Analysis]:
    store = Store(db)
    session_id = start(store, Options([str(folder)]), 7, executor, argv=["versus", "run", str(folder)])
    return store, analyze(store, session_id)


@pytest.fixture
def evil(tmp_path: Path, db: Path) -> tuple[Analysis, Path]:
    folder = _evil_experiment(tmp_path / "evil")
    store, analysis = _session(db, folder, FakeExecutor({EVIL_CASE: 30.0, "plain": 10.0}, fail_every=5, shift="plain"))
    page = tmp_path / "evil.html"
    html.write(page, analysis, document(analysis, store.runs(analysis.session.id)))
    return analysis, page


@pytest.fixture
def claims_page(tmp_path: Path, db: Path) -> tuple[Analysis, Path]:
    store, analysis = _session(db, FIXTURES / "claims", FakeExecutor({"fast": 10.0, "slow": 40.0}))
    page = tmp_path / "claims.html"
    html.write(page, analysis, None)
    return analysis, page


# --- the page as text -------------------------------------------------------------------------------

def test_the_page_holds_the_sections_in_order_and_fetches_nothing(claims_page: tuple[Analysis, Path]) -> None:
    analysis, page = claims_page
    text = page.read_text()
    positions = [text.index(f'<section id="{anchor}"') for anchor in ("claims", "arms", "warmup", "setup", "charts")]
    assert positions == sorted(positions)
    for claim in analysis.claims:
        assert claim.claim.id in text and claim.verdict in ("holds", "does not hold")
    assert "four-times" in text[positions[0]:positions[1]]
    # Nothing outside the page: no links to style sheets, no src= anywhere, a policy that forbids fetching.
    assert not re.search(r"<link|\ssrc=|@import|url\((?!#)", text)
    assert "default-src 'none'" in text
    assert len(re.findall(r"<script", text)) == 1
    assert text.count("<svg") >= 3  # a forest plot per claim and the arms of the experiment


def test_the_tables_say_what_the_terminal_says(claims_page: tuple[Analysis, Path]) -> None:
    from versus.report.tables import claim_table

    analysis, page = claims_page
    text = page.read_text()
    table = claim_table(analysis)
    assert table is not None
    for row in table.rows:
        measured = row[4].split(": ")[0]
        assert html._e(measured) in text


def test_every_untrusted_string_is_text(evil: tuple[Analysis, Path]) -> None:
    analysis, page = evil
    text = page.read_text()
    assert analysis.failed, "the fixture has failed runs whose log tails hold markup"
    for payload in (EVIL_CASE, EVIL_STATEMENT, EVIL_LOG, EVIL_SOURCE, "<b>bold?</b>"):
        assert payload not in text
    assert "&lt;script&gt;window.pwned=2&lt;/script&gt;" in text
    assert "&lt;script&gt;window.pwned=3&lt;/script&gt;" in text
    assert "cost_$5_vs_$10 &lt;script&gt;" in text  # matplotlib drew the $…$ as text, not as math
    assert len(re.findall(r"<script", text)) == 1 and "<iframe" not in text and "<img" not in text


def test_figures_survive_dollars_and_markup_in_labels() -> None:
    row = figures.Estimate(EVIL_CASE, 2.0, 1.5, 3.0, note="$1$ <b>")
    svg = figures.forest([row], 1.0, None, "ratio, log scale")
    assert svg.startswith("<svg") and "<img" not in svg and "<script" not in svg and "&lt;script&gt;" in svg
    assert "cost_$5_vs_$10" in svg


def test_tidying_an_svg_leaves_the_text_alone() -> None:
    label = 'odd d="1.23456" id="x" transform="rotate(0 1 2)"'
    svg = figures.forest([figures.Estimate(label, 2.0, 1.5, 3.0)], 1.0, None, "ratio")
    assert html._e(label).replace("&quot;", '"') in svg.replace("&quot;", '"')


def test_figure_ids_are_unique_across_figures() -> None:
    rows = [figures.Estimate("a", 2.0, 1.5, 3.0), figures.Estimate("b", 4.0, 3.0, 5.0)]
    first, second = figures.forest(rows, 1.0, 5.0, "ratio"), figures.forest(rows, 1.0, 5.0, "ratio")
    ids = re.findall(r'\sid="([^"]+)"', first + second)
    assert ids and len(ids) == len(set(ids))
    for reference in re.findall(r'(?:href="#|url\(#)([^")]+)', first + second):
        assert reference in ids


def test_log_ticks_read_well() -> None:
    assert figures.log_ticks(0.5, 200) == [1.0, 10.0, 100.0]
    assert figures.log_ticks(3, 5) == [3.0, 4.0, 5.0]
    assert figures.log_ticks(1.2, 30) == [2.0, 5.0, 10.0, 20.0]


def test_the_reproducing_command_carries_the_seed() -> None:
    assert html.reproduce_command(["/x/.venv/bin/versus", "run", "fib", "--quick"], 42) == "versus run fib --quick --seed 42"
    assert html.reproduce_command(["versus", "run", "a b", "--seed", "3"], 42) == "versus run 'a b' --seed 3"
    assert html.reproduce_command(["versus", "import", "x.json"], 0, {"import": "versus", "file": "x.json"}) == \
        "versus import x.json"


def test_the_sessions_index_links_each_session_and_escapes(tmp_path: Path) -> None:
    sessions = [(SessionEntry(1, 1.7e9, 1.7e9, "complete", ["versus", "run", "x"], "", 2, 8, 0, "<b>x</b>"), "session-1"),
                (SessionEntry(2, 1.7e9, None, "interrupted", [], "", 1, 0, 3, "y"), "other-session-2")]
    index = tmp_path / "index.html"
    html.write_index(index, sessions)
    text = index.read_text()
    assert 'href="session-1/index.html"' in text and 'href="other-session-2/index.html"' in text
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text
    assert text.index("session 2") < text.index("session 1")  # newest first


def test_hooks_run_only_from_this_checkouts_experiments(claims_page: tuple[Analysis, Path], tmp_path: Path) -> None:
    analysis, _ = claims_page
    marker = tmp_path / "ran"
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "report.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    text = html.render(_moved(analysis, tmp_path / "elsewhere"))
    assert not marker.exists()
    assert "None of this session's experiments draws a chart of its own" in text


def _moved(analysis: Analysis, folder: Path) -> Analysis:
    """The analysis as if its session had stored the claims experiment in `folder`."""
    definitions = analysis.session.definitions
    moved = StoredDefinition({**definitions["claims"].stored, "path": str(folder)})
    session = dataclasses.replace(analysis.session, definitions={**definitions, "claims": moved})
    return dataclasses.replace(analysis, session=session)


def _large_document(experiments: int = 3, cases: int = 25, runtimes: int = 4) -> dict[str, Any]:
    """A versus session document shaped like `make run`'s: 300 arms, about 700 process runs, a few of
    them failed or never settled."""
    arms = []
    for e, c, r in itertools.product(range(experiments), range(cases), range(runtimes)):
        ns = 1000.0 * (1 + c) * (1 + 0.4 * r)
        runs = []
        for round_ in range(2 + (c + r) % 2):
            shift = 1.2 if (c + round_) % 9 == 0 else 1.0  # the second half of the samples moved: no steady state
            samples = [[round(ns * 100 * (1.5 if i < 3 else shift if i >= 8 else 1.0) * (1 + 0.01 * (i % 3))), 100, i < 3]
                       for i in range(13)]
            failed = (e + c + r + round_) % 37 == 0
            runs.append({"round": round_, "status": "failed" if failed else "ok", "reason": "exit code 1" if failed else "",
                         "samples": [] if failed else samples, "log_tail": "Traceback …\nError: boom" if failed else "",
                         "wall_ns": 2_000_000_000})
        arms.append({"experiment": f"exp{e}", "case": f"case_{c}", "variant": "", "runtime": f"fake@{r}.0",
                     "runtime_info": {"family": "fake", "version": f"{r}.0"}, "params": {}, "method": {}, "runs": runs})
    return {"format": "versus.session", "version": 2, "session": {"seed": 1, "argv": ["versus", "run"], "status": "complete"},
            "host": {"cpu": "test", "cores": 2}, "definitions": {}, "arms": arms}


def _fib_document() -> dict[str, Any]:
    arms = []
    for version, mode, ms in (("1.0", "int", 400), ("1.0", "jit", 300), ("10.1.1.0", "jit", 20), ("10.1.1.0", "int", 90)):
        arms.append({"experiment": "fib", "case": "fib_recursive", "runtime": f"jruby@{version}+{mode}/java@25",
                     "runtime_info": {"family": "jruby", "version": version, "flags": [mode], "jdk_version": "25.0.1"},
                     "estimate": {"value": ms * 1e6, "low": ms * 0.9e6, "high": ms * 1.1e6}})
    arms.append({"experiment": "fib", "case": "fib_recursive", "runtime": "cruby@3.1",
                 "runtime_info": {"family": "cruby", "version": "3.1.2", "flags": []},
                 "estimate": {"value": 80e6, "low": 75e6, "high": 85e6}})
    return {"format": "versus.session", "session": {"id": 1}, "arms": arms}


def test_an_experiments_report_py_adds_its_charts(claims_page: tuple[Analysis, Path]) -> None:
    """fib's report.py, found through the folder the session stored, draws its then-and-now chart into section 5."""
    from versus.paths import experiments

    analysis, _ = claims_page
    text = html.render(_moved(analysis, experiments() / "fib"), _fib_document())
    charts = text[text.index('<section id="charts"'):]
    assert "fib_recursive on JRuby, then and now" in charts and "<svg" in charts


def test_a_failing_report_py_costs_only_its_charts(claims_page: tuple[Analysis, Path], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    analysis, _ = claims_page
    root = tmp_path / "experiments"
    (root / "claims").mkdir(parents=True)
    (root / "claims" / "report.py").write_text("import sys\ndef figures(doc):\n    sys.exit('<b>no</b>')\n")
    monkeypatch.setattr("versus.paths.experiments", lambda: root)
    text = html.render(_moved(analysis, root / "claims"))
    assert "claims/report.py failed: SystemExit: &lt;b&gt;no&lt;/b&gt;" in text
    assert '<section id="charts"' in text and text.rstrip().endswith("</html>")


def test_an_experiments_svg_that_could_run_code_is_shown_as_text() -> None:
    assert html._own_svg('<svg><script>window.pwned=1</script></svg>', 1).startswith('<p class="note">')
    assert html._own_svg('<svg><rect onclick="window.pwned=1"/></svg>', 2).startswith('<p class="note">')
    assert html._own_svg('<svg><text>one = 1</text></svg>', 3).startswith("<svg")


def test_a_large_session_stays_small(tmp_path: Path, db: Path) -> None:
    """make run's session: ~300 arms and ~700 process runs; the page must stay attachable (a few MB)."""
    source = tmp_path / "large.json"
    source.write_text(json.dumps(_large_document()))
    store = Store(db)
    analysis = analyze(store, import_file(store, source, ["versus", "import"]))
    assert len(analysis.arms) == 300 and sum(len(a.processes) for a in analysis.arms) >= 700
    began = time.monotonic()
    page = tmp_path / "large.html"
    html.write(page, analysis, None)
    size = page.stat().st_size
    print(f"300 arms, {sum(len(a.processes) for a in analysis.arms)} process runs: {size / 1e6:.2f} MB in "
          f"{time.monotonic() - began:.1f} s")
    assert size < 3_000_000
    assert page.read_text().count("<svg") == 6  # one chart of arms and one of warmup per experiment


def test_cli_writes_the_page_and_the_index(tmp_path: Path, db: Path) -> None:
    store, analysis = _session(db, FIXTURES / "claims", FakeExecutor({"fast": 10.0, "slow": 40.0}))
    store.close()
    target = tmp_path / "out" / "report.html"
    assert cli.main(["report", "--db", str(db), "--html", str(target)]) == 0
    assert "four-times" in target.read_text()


# --- in a real browser --------------------------------------------------------------------------------

def _chromium() -> str:
    """Debian's chromium; missing only where it cannot be installed (not root). On CI it must be there."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI") or os.geteuid() == 0:
        pytest.fail("chromium is not installed although we are root or on CI: scripts/system-packages.sh installs it "
                    "(apt-get install chromium)")
    pytest.skip("chromium is not installed and we are not root: sudo apt-get install chromium")


class Browser:
    """Headless Chromium over the DevTools protocol on a pipe: no driver, no download."""

    def __init__(self, executable: str, profile: Path) -> None:
        browser_reads, ours_to_browser = os.pipe()
        ours_from_browser, browser_writes = os.pipe()
        # The browser reads commands on fd 3 and writes answers on fd 4. Lift our ends above 10 first, so
        # that placing one on 3 cannot overwrite the other.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (browser_reads, browser_writes)]
        for fd in (browser_reads, browser_writes):
            os.close(fd)

        def plumb() -> None:
            os.dup2(high[0], 3)  # dup2 makes 3 and 4 inheritable; every other descriptor of ours is not (PEP 446)
            os.dup2(high[1], 4)

        command = [executable, "--headless", "--remote-debugging-pipe", "--disable-gpu", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync",
                   "--hide-scrollbars", "--mute-audio", f"--user-data-dir={profile}", "about:blank"]
        if os.geteuid() == 0:
            command.insert(1, "--no-sandbox")  # Chromium's sandbox refuses to run as root
        self.process = subprocess.Popen(command, preexec_fn=plumb, close_fds=False, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for fd in high:
            os.close(fd)
        self.out, self.inp = ours_to_browser, ours_from_browser
        self.buffer = b""
        self.events: list[dict[str, Any]] = []
        self.next_id = 0
        self.session = ""

    def send(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._receive(timeout)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return dict(answer.get("result", {}))
            self.events.append(answer)

    def _receive(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.inp], [], [], left)[0]:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self.inp, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return dict(json.loads(message))

    def open(self, url: str, width: int = 1280) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1,
                                                          "mobile": False})
        self.events.clear()
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + 30
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._receive(deadline - time.monotonic()))

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def screenshot(self, target: Path) -> None:
        size = self.send("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 6000), "scale": 1}
        shot = self.send("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})
        target.write_bytes(base64.b64decode(shot["data"]))

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, and log entries (CSP refusals, failed loads)."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params.get('exceptionDetails', {}).get('text')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
                found.append(f"log: {params['entry'].get('text')}")
        return found

    def requests(self, page: str) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"
                and e["params"]["request"]["url"] != page]

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except (OSError, RuntimeError, TimeoutError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.out)
        os.close(self.inp)


@contextlib.contextmanager
def chromium(tmp_path: Path) -> Iterator[Browser]:
    """A browser for one test. Opened after any `versus run` in the test: the executor stops every child
    of the harness's process that a benchmark may have left behind, and a browser started earlier is one."""
    opened = Browser(_chromium(), tmp_path / "profile")
    try:
        yield opened
    finally:
        opened.close()


@pytest.mark.slow
def test_make_runs_report_in_chromium(tmp_path: Path) -> None:
    """A real `versus run` (CPython on the claims fixture), as `make run` does it: the session's page and the
    index render without errors, show every claim id with its verdict first, and request nothing."""
    db = tmp_path / "versus-results" / "versus.db"
    code = cli.main(["run", str(FIXTURES / "claims"), "--db", str(db), "--processes", "3", "--samples", "4", "--seed", "5"])
    assert code == 0
    page = tmp_path / "versus-results" / "session-1" / "index.html"
    index = tmp_path / "versus-results" / "index.html"
    assert page.is_file() and index.is_file()
    analysis = analyze(Store(db, create=False), 1)
    with chromium(tmp_path) as browser:
        _check_session_page(browser, page, analysis, tmp_path / "report.png")
        browser.open(index.as_uri())
        assert browser.problems() == [] and browser.requests(index.as_uri()) == []
        assert browser.evaluate("document.querySelector('a[href=\"session-1/index.html\"]') !== null")


def _check_session_page(browser: Browser, page: Path, analysis: Analysis, screenshot: Path) -> None:
    browser.open(page.as_uri())
    assert browser.problems() == []
    assert browser.requests(page.as_uri()) == []
    claims = browser.evaluate("""Array.from(document.querySelectorAll('#claims article.claim')).map(a => [
        a.querySelector('.claim-id').textContent, a.querySelector('.pill').textContent])""")
    assert sorted(map(tuple, claims)) == sorted((c.claim.id, c.verdict) for c in analysis.claims)
    first = browser.evaluate("document.querySelector('section').id")
    assert first == "claims"
    top = browser.evaluate("document.querySelector('#claims').getBoundingClientRect().top")
    assert top < 900, "the claims start on the first screen"
    assert browser.evaluate("document.querySelectorAll('svg').length") >= 3
    browser.screenshot(screenshot)
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"screenshot: {screenshot}")


def test_untrusted_strings_stay_text_in_chromium(evil: tuple[Analysis, Path], tmp_path: Path) -> None:
    with chromium(tmp_path) as browser:
        _check_untrusted_page(browser, evil[1])


def _check_untrusted_page(browser: Browser, page: Path) -> None:
    browser.open(page.as_uri())
    assert browser.evaluate("typeof window.pwned") == "undefined"
    assert browser.evaluate("document.querySelectorAll('script').length") == 1
    assert browser.evaluate("document.querySelectorAll('img, iframe, object, embed, a[href^=\"javascript\"]').length") == 0
    body = browser.evaluate("document.body.innerText")
    assert "<script>window.pwned=2</script>" in body
    assert EVIL_LOG in browser.evaluate("document.body.textContent")
    assert "cost_$5_vs_$10 <script>window.pwned=5 <img" in body
    assert browser.problems() == []
    assert browser.requests(page.as_uri()) == []
    # the optional script works: sorting the claims overview by a column
    browser.evaluate("document.querySelector('table.sortable th').click()")
    assert browser.evaluate("document.querySelector('table.sortable th').className") == "sorted-up"


def test_the_serialization_chart_says_which_operations_the_session_did_not_measure(tmp_path: Path) -> None:
    """`--quick` measures only the claims' arms: no deserialize arm. The panel says so instead of
    showing empty axes, which read as a broken chart (seen in the `make run` of 2026-11-24)."""
    import importlib.util

    from versus.paths import experiments

    spec = importlib.util.spec_from_file_location("serialization_charts", experiments() / "serialization" / "charts.py")
    assert spec is not None and spec.loader is not None
    charts = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = charts  # its dataclass looks its module up there
    spec.loader.exec_module(charts)
    rows = [charts.Row("java", "jdk17", {"create": (50.0, 40.0, 60.0), "serialize": (5e3, 4e3, 6e3)}, 900.0, 300.0)]
    drawn = charts.draw(rows, tmp_path / "standard.svg", "standard", 1).read_text()
    assert drawn.count("not measured in this session") == 1


def test_the_analysis_notes_reach_every_format_once(claims_page):
    """Notes (rounds left out before a warmup raise, definitions that did not load) were shown only in
    the HTML page's reproduce section; a terminal reader never saw them."""
    import io

    from versus.report import html as html_report
    from versus.report import markdown, terminal

    analysis, _ = claims_page
    analysis.notes.append("3 process runs ran before their arm's warmup was last raised")
    shown = io.StringIO()
    terminal.render(analysis, shown)
    assert shown.getvalue().count("note: 3 process runs ran before") == 1
    assert markdown.render(analysis).count("note: 3 process runs ran before") == 1
    assert html_report.render(analysis).count("3 process runs ran before") == 1
