"""Find the runtimes installed on this machine: PATH, pyenv, /usr/lib/jvm."""
from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess
from pathlib import Path

from .model import Runtime
from .spec import version_key

_PY_PROBE = ("import sys, platform; print(platform.python_implementation()); "
             "print('.'.join(map(str, sys.version_info[:3]))); print(sys.version.replace(chr(10), ' '))")


def _run(argv: list[str], timeout: float = 15) -> str | None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def _pyenv_root() -> Path:
    return Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")


def _python_candidates() -> list[Path]:
    found: list[Path] = []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not directory or "shims" in directory or "/.venv" in directory or os.environ.get("VIRTUAL_ENV", "\0") in directory:
            continue
        for name in ("python", "python2", "python3", "pypy", "pypy3", *[f"python3.{m}" for m in range(6, 15)]):
            exe = Path(directory) / name
            if exe.is_file() and os.access(exe, os.X_OK):
                found.append(exe)
    found += [Path(p) for p in sorted(glob.glob(str(_pyenv_root() / "versions" / "*" / "bin" / "python")))]
    return found


@functools.cache
def _probe_python(exe: str) -> tuple[str, str, str] | None:
    out = _run([exe, "-c", _PY_PROBE])
    if not out:
        return None
    lines = out.splitlines()
    return (lines[0], lines[1], lines[2]) if len(lines) >= 3 else None


def find_pythons() -> list[Runtime]:
    by_key: dict[tuple[str, str], Runtime] = {}
    for exe in _python_candidates():
        probe = _probe_python(str(exe))
        if not probe:
            continue
        impl, version, text = probe
        family = {"CPython": "cpython", "PyPy": "pypy"}.get(impl)
        if family is None:
            continue
        source = "pyenv" if str(_pyenv_root()) in str(exe) else "PATH"
        key = (family, version)
        # pyenv's build wins over a PATH duplicate of the same version: it is the one users name.
        if key not in by_key or source == "pyenv":
            by_key[key] = Runtime(family, version, exe, source, details={"impl": text})
    return sorted(by_key.values(), key=lambda r: (r.family, version_key(r.version)))


@functools.cache
def find_rubies() -> list[Runtime]:
    found = []
    exe = shutil.which("ruby")
    if exe:
        out = _run([exe, "-e", "print RUBY_VERSION, ' ', RUBY_DESCRIPTION"])
        if out:
            version, _, text = out.partition(" ")
            found.append(Runtime("cruby", version, Path(exe), "PATH", details={"impl": text}))
    return found


def _jdk_version(home: Path) -> str | None:
    release = home / "release"
    if release.exists():
        match = re.search(r'^JAVA_VERSION="([^"]+)"', release.read_text(errors="replace"), re.M)
        if match:
            return match.group(1)
    return None


@functools.cache
def find_jdks() -> list[Runtime]:
    homes: dict[Path, Path] = {}
    roots = [Path(p) for p in glob.glob("/usr/lib/jvm/*")]
    if os.environ.get("JAVA_HOME"):
        roots.append(Path(os.environ["JAVA_HOME"]))
    for home in roots:
        real = home.resolve()
        if (real / "bin" / "java").exists() and (real / "bin" / "javac").exists():
            homes.setdefault(real, home)
    found = []
    for real in homes:
        version = _jdk_version(real)
        if version:
            found.append(Runtime("java", version, real / "bin" / "java", str(real), jdk_version=version))
    return sorted(found, key=lambda r: version_key(r.version))


@functools.cache
def find_go() -> list[Runtime]:
    exe = shutil.which("go")
    out = _run([exe, "version"]) if exe else None
    match = re.search(r"go(\d+\.\d+(?:\.\d+)?)", out or "")
    return [Runtime("go", match.group(1), Path(str(exe)), "PATH")] if match else []


@functools.cache
def find_rust() -> list[Runtime]:
    cargo = shutil.which("cargo")
    out = _run([cargo, "--version"]) if cargo else None
    match = re.search(r"cargo (\d+\.\d+\.\d+)", out or "")
    return [Runtime("rust", match.group(1), Path(str(cargo)), "PATH")] if match else []


def find_all() -> list[Runtime]:
    return [*find_pythons(), *find_rubies(), *find_jdks(), *find_go(), *find_rust()]


@functools.cache
def find_debian_jvm_hosted() -> list[Runtime]:
    """Debian's `jython` and `jruby` launchers, when installed (they bring their own JDK choice)."""
    found = []
    for family, name, pattern in (("jython", "jython", r"Jython (\S+)"), ("jruby", "jruby", r"jruby (\S+)")):
        exe = shutil.which(name)
        out = _run([exe, "--version"]) if exe else None
        match = re.search(pattern, out or "")
        if exe and match:
            found.append(Runtime(family, match.group(1), Path(exe), "PATH (Debian)", jdk_version="0"))
    return found
