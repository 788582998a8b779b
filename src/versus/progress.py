"""Live progress on stderr: the arm running, rounds, failures, the budget left and the claims still open."""
from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .drivers import FAILED, ProcessRun
from .printable import console as safe_console
from .printable import one_line
from .runner import Job
from .scheduler import Batch

QUIET_LINE_EVERY = 60.0  # seconds between plain progress lines where stderr is not a terminal


class RichProgress:
    """A live bar on a terminal; elsewhere (`make run > log`, CI) a plain line at most once a minute,
    where the bar would print nothing for the half hour a lab takes."""

    def __init__(self, console: Console | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console or safe_console(sys.stderr)
        self.clock = clock
        self.last_line = clock()
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("elapsed"), TimeElapsedColumn(), console=self.console, transient=False)
        self.task = self.bar.add_task("starting", total=1)
        self.failed = 0
        self.done = 0
        self.planned = 1
        self._watch: tuple[str, float] | None = None  # the arm being built, and since when
        self._timer: threading.Timer | None = None

    def start(self, planned: int, done: int, budget: float | None) -> None:
        self.planned, self.done = max(1, planned), done
        self.bar.update(self.task, total=self.planned, completed=done)
        if self.console.is_terminal:  # elsewhere the bar's last frame, cut at 80 columns, ended the log
            self.bar.start()

    def preparing(self, job: Job) -> None:
        """The live line says an arm is being prepared (its build may take minutes); where stderr is
        not a terminal, a plain line says so once a build has taken a minute, and each minute after."""
        self._building(None)
        description = escape(one_line(f"building {job.arm.key} (its first process run follows)"))
        self.bar.update(self.task, description=description)
        if not self.console.is_terminal:
            self._watch = (job.arm.key, self.clock())
            self._timer = threading.Timer(QUIET_LINE_EVERY, self._still_building)
            self._timer.daemon = True
            self._timer.start()

    def _still_building(self) -> None:
        if self._watch is None:
            return
        key, since = self._watch
        self.console.print(escape(one_line(f"versus: still building {key} after {(self.clock() - since) / 60:.0f} min")),
                           highlight=False, soft_wrap=True)
        self._timer = threading.Timer(QUIET_LINE_EVERY, self._still_building)
        self._timer.daemon = True
        self._timer.start()

    def _building(self, watch: tuple[str, float] | None) -> None:
        self._watch = watch
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def advance(self, job: Job, batch: Batch, run: ProcessRun, status: str) -> None:
        self._building(None)
        self.done += 1
        if run.status == FAILED:
            self.failed += 1
            self.bar.console.print(f"[red]failed[/red] {escape(one_line(job.arm.key))} round {batch.round + 1}: "
                                   f"{escape(one_line(run.reason))}", highlight=False)
        if self.done > self.planned:  # sequential rounds beyond the experiments' own processes
            self.planned = self.done
        failed = f" · {self.failed} failed" if self.failed else ""
        phase = "sequential " if batch.sequential else ""
        extra = f" · {status}" if status else ""
        description = f"{phase}round {batch.round + 1} · {job.arm.key}{failed}{extra}"
        # the bar's text is not a console string: it is made printable here, on one line
        self.bar.update(self.task, completed=self.done, total=self.planned, description=escape(one_line(description)))
        if not self.console.is_terminal and self.clock() - self.last_line >= QUIET_LINE_EVERY:
            self.last_line = self.clock()
            # soft_wrap: one line however long (a log is read with grep), not wrapped at 80 columns
            self.console.print(escape(one_line(f"versus: {self.done} process runs · {description}")), highlight=False,
                               soft_wrap=True)

    def stop(self) -> None:
        self._building(None)
        if self.console.is_terminal:
            self.bar.stop()
