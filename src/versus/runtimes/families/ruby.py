"""CRuby: the `ruby` on PATH; programs run with the protocol helper on the load path."""
from __future__ import annotations

import shutil
from pathlib import Path

from ..family import Family, probe
from ..model import Runtime


class CRuby(Family):
    name = "cruby"
    program = "ruby"
    flags = {"yjit": "--yjit"}
    install_hint = "install it with: apt-get install -y ruby"

    def discover(self) -> list[Runtime]:
        exe = shutil.which("ruby")
        out = probe([exe, "-e", "print RUBY_VERSION, ' ', RUBY_DESCRIPTION"]) if exe else None
        if not exe or not out:
            return []
        version, _, text = out.partition(" ")
        return [Runtime("cruby", version, Path(exe), "PATH", details={"impl": text})]

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        flags = ["--yjit"] if "yjit" in runtime.flags else []
        return [str(runtime.executable), *flags, "-I", str(helpers / "ruby"), str(program)], {}
