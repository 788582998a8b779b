"""Go: the `go` on PATH; a program is run with `go run`."""
from __future__ import annotations

from pathlib import Path

from ..family import Family, on_path
from ..model import Runtime


class Go(Family):
    name = "go"
    program = "go"
    install_hint = "install it with: apt-get install -y golang"

    def discover(self) -> list[Runtime]:
        return on_path(self.name, "go", ["version"], r"go(\d+\.\d+(?:\.\d+)?)")

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        return [str(runtime.executable), "run", str(program)], {}
