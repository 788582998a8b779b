"""CPython and PyPy: found on PATH and in pyenv; programs run with the protocol helper on PYTHONPATH."""
from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import ClassVar

from ..family import Family, probe
from ..model import Runtime, version_key

_PROBE = ("import sys, platform; print(platform.python_implementation()); "
          "print('.'.join(map(str, sys.version_info[:3]))); print(sys.version.replace(chr(10), ' '))")
_NAMES = ("python", "python2", "python3", "pypy", "pypy3", *[f"python3.{m}" for m in range(6, 15)])


def _pyenv_root() -> Path:
    return Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")


def _candidates() -> list[Path]:
    found: list[Path] = []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        # shims and virtual environments are not runtimes of their own
        if not directory or "shims" in directory or "/.venv" in directory or \
                os.environ.get("VIRTUAL_ENV", "\0") in directory:
            continue
        for name in _NAMES:
            exe = Path(directory) / name
            if exe.is_file() and os.access(exe, os.X_OK):
                found.append(exe)
    found += [Path(p) for p in sorted(glob.glob(str(_pyenv_root() / "versions" / "*" / "bin" / "python")))]
    return found


def find_pythons(implementation: str) -> list[Runtime]:
    """Every interpreter of one implementation (CPython, PyPy), one per exact version."""
    family = {"CPython": "cpython", "PyPy": "pypy"}[implementation]
    by_version: dict[str, Runtime] = {}
    for exe in _candidates():
        out = probe([str(exe), "-c", _PROBE])
        lines = (out or "").splitlines()
        if len(lines) < 3 or lines[0] != implementation:
            continue
        version, text = lines[1], lines[2]
        source = "pyenv" if str(_pyenv_root()) in str(exe) else "PATH"
        # pyenv's build wins over a PATH duplicate of the same version: it is the one users name.
        if version not in by_version or source == "pyenv":
            by_version[version] = Runtime(family, version, exe, source, details={"impl": text})
    return sorted(by_version.values(), key=lambda r: version_key(r.version))


class _Python(Family):
    implementation: ClassVar[str]

    def program_family(self, runtime: Runtime) -> str:
        return "python2" if runtime.version.startswith("2.") else "python3"

    def discover(self) -> list[Runtime]:
        return find_pythons(self.implementation)

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        return [str(runtime.executable), str(program)], {"PYTHONPATH": str(helpers / "python"),
                                                         "PYTHONDONTWRITEBYTECODE": "1"}


class CPython(_Python):
    name = "cpython"
    program = "python3"
    programs = ("python2", "python3")
    implementation = "CPython"
    install_hint = "install it with pyenv, or apt-get install -y python3"


class PyPy(_Python):
    name = "pypy"
    program = "python3"
    implementation = "PyPy"
    install_hint = "install it with: apt-get install -y pypy3"
