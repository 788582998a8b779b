"""Live progress on stderr: arm, round, process runs done, ETA."""
from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from .drivers import FAILED, ProcessRun
from .runner import Job


class RichProgress:
    def __init__(self) -> None:
        self.console = Console(file=sys.stderr)
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                            console=self.console, transient=False)
        self.task = self.bar.add_task("starting", total=1)
        self.failed = 0

    def start(self, total: int, done: int) -> None:
        self.bar.update(self.task, total=total, completed=done)
        self.bar.start()

    def advance(self, job: Job, round_: int, run: ProcessRun) -> None:
        if run.status == FAILED:
            self.failed += 1
            self.bar.console.print(f"[red]failed[/red] {job.arm.key} round {round_ + 1}: {run.reason}",
                                   highlight=False, markup=True)
        failed = f" · {self.failed} failed" if self.failed else ""
        self.bar.update(self.task, advance=1,
                        description=f"round {round_ + 1}/{job.method.processes} · {job.arm.key}{failed}")

    def stop(self) -> None:
        self.bar.stop()
