"""C: gcc and clang from Debian. A program is one .c file, compiled once per (source, compiler) with
`-O2 -pthread` and the protocol helper's folder on the include path; the runtime is the compiler
(`gcc@12.2.0`, `clang@14.0.6`), the program family `c`."""
from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar

from ...errors import ExperimentError
from ..family import BuildContext, Family, digest, on_path, run_build
from ..model import Runtime
from ..sealed import beside, install, intact, making

CFLAGS = ("-O2", "-pthread", "-std=gnu11", "-Wall")


class _Compiler(Family):
    program = "c"
    command: ClassVar[str]
    pattern: ClassVar[str]

    def discover(self) -> list[Runtime]:
        return on_path(self.name, self.command, ["--version"], self.pattern)

    def build(self, runtime: Runtime, program: Path, context: BuildContext) -> Path | None:
        if program.suffix != ".c":
            raise ExperimentError(f"a c program is a .c file, not {program.name}", 'set [programs] c = "c/main.c"')
        headers = sorted((context.helpers / "c").glob("*.h")) + sorted(program.parent.glob("*.h"))
        includes = _includes(program)
        for folder in includes:
            headers += sorted(folder.glob("*.h"))
        key = digest(str(runtime.executable), runtime.version, " ".join(CFLAGS), program, *headers)
        binary = context.cache / "c" / key / program.stem
        if intact(binary, legacy=True):  # a damaged one (truncated, emptied) is compiled again
            return binary
        with making(binary):  # two workers of one host may want it at once: one compiles, the other waits
            if intact(binary):
                return binary
            flags = [*CFLAGS, "-I", str(context.helpers / "c"), *[f"-I{folder}" for folder in includes]]
            partial = beside(binary)
            run_build([str(runtime.executable), *flags, "-o", str(partial), str(program), "-lm"], context,
                      f"{runtime.name} of {program}", "fix the compile error in the program above")
            install(partial, binary)
        return binary

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        return [str(built)], {}


def _includes(program: Path) -> list[Path]:
    """Extra include folders a program names in a `// versus: include ../../subjects/x/src` line."""
    folders = []
    for line in program.read_text(errors="replace").splitlines()[:40]:
        match = re.match(r"\s*//\s*versus:\s*include\s+(\S+)", line)
        if match:
            folders.append((program.parent / match.group(1)).resolve())
    return folders


class Gcc(_Compiler):
    name = "gcc"
    command = "gcc"
    pattern = r"gcc[^\n]*?(\d+\.\d+\.\d+)"
    install_hint = "install it with: apt-get install -y gcc"


class Clang(_Compiler):
    name = "clang"
    command = "clang"
    pattern = r"clang version (\d+\.\d+\.\d+)"
    install_hint = "install it with: apt-get install -y clang"
