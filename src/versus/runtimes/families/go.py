"""Go: the `go` on PATH; a program is run with `go run`."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from ..family import Family, probe
from ..model import Runtime


class Go(Family):
    name = "go"
    program = "go"
    install_hint = "install it with: apt-get install -y golang"

    def discover(self) -> list[Runtime]:
        exe = shutil.which("go")
        match = re.search(r"go(\d+\.\d+(?:\.\d+)?)", (probe([exe, "version"]) if exe else None) or "")
        return [Runtime("go", match.group(1), Path(str(exe)), "PATH")] if match else []

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        return [str(runtime.executable), "run", str(program)], {}
