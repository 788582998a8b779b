"""Live progress on stderr: the arm running, rounds, failures, the budget left and the claims still open."""
from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .drivers import FAILED, ProcessRun
from .runner import Job
from .scheduler import Batch


class RichProgress:
    def __init__(self) -> None:
        self.console = Console(file=sys.stderr)
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("elapsed"), TimeElapsedColumn(), console=self.console, transient=False)
        self.task = self.bar.add_task("starting", total=1)
        self.failed = 0
        self.done = 0
        self.planned = 1

    def start(self, planned: int, done: int, budget: float | None) -> None:
        self.planned, self.done = max(1, planned), done
        self.bar.update(self.task, total=self.planned, completed=done)
        self.bar.start()

    def advance(self, job: Job, batch: Batch, run: ProcessRun, status: str) -> None:
        self.done += 1
        if run.status == FAILED:
            self.failed += 1
            self.bar.console.print(f"[red]failed[/red] {escape(job.arm.key)} round {batch.round + 1}: "
                                   f"{escape(run.reason)}", highlight=False)
        if self.done > self.planned:  # sequential rounds beyond the experiments' own processes
            self.planned = self.done
        failed = f" · {self.failed} failed" if self.failed else ""
        phase = "sequential " if batch.sequential else ""
        extra = f" · {status}" if status else ""
        self.bar.update(self.task, completed=self.done, total=self.planned,
                        description=escape(f"{phase}round {batch.round + 1} · {job.arm.key}{failed}{extra}"))

    def stop(self) -> None:
        self.bar.stop()
