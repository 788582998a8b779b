"""A resolved runtime: what it is exactly, as plain data, and how versions compare. How to build
for it and start it is its family's business (`family.py`); this module imports nothing of versus."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Runtime:
    family: str
    version: str  # exact, e.g. 3.11.7
    executable: Path  # python, ruby, cc, or the java that hosts a jar
    source: str  # where it was found or fetched from
    flags: tuple[str, ...] = ()
    jdk_version: str = ""  # for java and JVM-hosted runtimes
    jar: Path | None = None
    home: Path | None = None  # Jython's python.home when its jar has no Lib
    details: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    # What its family says of it (`Family.described`): a JVM-hosted runtime's name carries /java@N;
    # `program_family` is the [programs] key it runs.
    hosted: bool = False
    program_family: str = ""

    @property
    def jdk_major(self) -> str:
        first = self.jdk_version.split(".")[0]
        return first if first != "1" else self.jdk_version.split(".")[1]

    @property
    def name(self) -> str:
        return runtime_name(self.family, self.version, self.flags, self.jdk_major if self.hosted else "")


def runtime_name(family: str, version: str, flags: tuple[str, ...] | list[str], jdk_major: str = "") -> str:
    """`family@version+flag/java@N`: the one spelling of a runtime's name."""
    text = f"{family}@{version}" + "".join("+" + f for f in flags)
    return text + (f"/java@{jdk_major}" if jdk_major else "")


def version_matches(prefix: str, version: str) -> bool:
    """`3.11` matches `3.11.7`; `1.0` matches `1.0` but not `1.0.3`-less `10.0`."""
    want = prefix.split(".")
    have = version.split(".")
    return have[: len(want)] == want


def version_key(version: str) -> tuple[int | str, ...]:
    parts: list[int | str] = []
    for piece in re.split(r"[.\-]", version):
        parts.append(int(piece) if piece.isdigit() else -1)
    return tuple(parts)
