"""What a runtime family is: how its runtimes are found or fetched, built for and started.

A family is one module under `families/` holding one `Family` subclass; `families/__init__.py` lists
them. Adding a family is that module, its protocol helper and its tests (docs/extending.md).
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

from ..errors import VersusError
from ..executor import Executor
from ..paths import cache_dir
from ..quiet import as_given
from .catalog import Fetchable
from .fetch import fetch_artifact
from .model import Runtime

C1 = "-XX:TieredStopAtLevel=1"  # C1 only: the heir of the client compiler (-client) of Java 6

BUILD_TIMEOUT = 900.0  # seconds for one build (javac, cargo, mvn, cc) before it counts as failed


@dataclass
class BuildContext:
    """What a build may use: the executor (every process goes through it) and the cache folder."""

    executor: Executor
    cache: Path
    helpers: Path


class Family:
    name: ClassVar[str]
    program: ClassVar[str]  # the [programs] key its runtimes run: python3, python2, ruby, java, go, rust, c
    programs: ClassVar[tuple[str, ...]] = ()  # every [programs] key it may run, when more than `program`
    flags: ClassVar[dict[str, str]] = {}  # +flag → what it does, shown by `versus runtimes`
    jvm_hosted: ClassVar[bool] = False  # runs on a JDK: its runtime names carry /java@N
    catalog: ClassVar[tuple[Fetchable, ...]] = ()  # versions versus fetches from Maven Central
    install_hint: ClassVar[str] = "see `versus runtimes`"

    def program_family(self, runtime: Runtime) -> str:
        return self.program

    def described(self, runtime: Runtime) -> Runtime:
        """The runtime with what its family knows of it: whether it is JVM-hosted, which [programs]
        key it runs. Resolution passes every runtime through here."""
        return replace(runtime, hosted=self.jvm_hosted, program_family=self.program_family(runtime))

    def discover(self) -> list[Runtime]:
        """The runtimes of this family installed on this machine."""
        return []

    def fetched(self, entry: Fetchable, flags: tuple[str, ...], jdk: Runtime, fetch: bool = True) -> Runtime:
        """A JVM-hosted runtime of the catalog on `jdk`: its jar fetched into the cache and verified
        (`fetch=False`: only where it would be, for a plan that runs nothing)."""
        jar = fetch_artifact(entry.jar) if fetch else cache_dir() / "jars" / entry.jar.filename
        # Implied flags shape the launch but not the name: jython@2.5.0 always runs with them.
        details = {"implied": ",".join(entry.implied_flags)}
        return self.described(Runtime(self.name, entry.version, jdk.executable, f"maven:{entry.jar.coordinate}", flags,
                                      jdk.version, jar, details=details))

    def jvm_flags(self, runtime: Runtime) -> list[str]:
        """JVM options that the runtime's flags ask for: +c1 on every JVM family (and what a family adds)."""
        return [C1] if "c1" in runtime.flags else []

    def build(self, runtime: Runtime, program: Path, context: BuildContext) -> Path | None:
        """Compile `program` once for `runtime` (into the cache); what `launch` gets as `built`."""
        return None

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        """argv and extra environment that run `program` on `runtime`."""
        raise NotImplementedError


def probe(argv: list[str], timeout: float = 15) -> str | None:
    """stdout of a quick version probe, or None when the tool is absent or fails."""
    return _probe(tuple(argv), timeout)


@functools.cache
def _probe(argv: tuple[str, ...], timeout: float) -> str | None:
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout + done.stderr if done.returncode == 0 else None


def on_path(family: str, command: str, args: list[str], pattern: str) -> list[Runtime]:
    """The `command` on PATH as the runtime of `family` it is, its version the first group of
    `pattern` in what `command args` prints; [] where it is absent or names no version."""
    exe = shutil.which(command)
    out = probe([exe, *args]) if exe else None
    match = re.search(pattern, out or "")
    if not exe or not out or not match:
        return []
    return [Runtime(family, match.group(1), Path(exe), "PATH", details={"impl": out.splitlines()[0]})]


def digest(*parts: str | bytes | Path) -> str:
    """A short hash naming a build in the cache: of paths' contents, or of strings."""
    hashed = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            hashed.update(str(part).encode())
            hashed.update(part.read_bytes() if part.is_file() else b"")
        else:
            hashed.update(part.encode() if isinstance(part, str) else part)
    return hashed.hexdigest()[:16]


def run_build(argv: list[str], context: BuildContext, what: str, hint: str, cwd: Path | None = None) -> None:
    """A build step through the executor, with a timeout; its failure is an error that says what broke."""
    completed = context.executor.execute(argv, _build_env(), BUILD_TIMEOUT, cwd=cwd)
    if completed.timed_out:
        raise VersusError(f"{what} was stopped after {completed.wall_ns / 1e9:.0f} s: a build may take "
                          f"{BUILD_TIMEOUT:g} s, and no longer than the run's budget has left",
                          f"{hint}; under --budget, a build gets at most the budget left")
    if completed.exit_code != 0:
        tail = (completed.stdout + "\n" + completed.stderr).strip().splitlines()[-15:]
        raise VersusError(f"{what} failed:\n" + "\n".join(tail), hint)


def _build_env() -> dict[str, str]:
    return as_given(os.environ)
