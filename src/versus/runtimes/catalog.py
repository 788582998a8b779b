"""Maven artifacts that a family fetches (its `catalog`), each pinned by SHA-256."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Artifact:
    group: str
    artifact: str
    version: str
    sha256: str
    classifier: str = ""

    @property
    def coordinate(self) -> str:
        tail = f":jar:{self.classifier}" if self.classifier else ""
        return f"{self.group}:{self.artifact}:{self.version}{tail}"

    @property
    def filename(self) -> str:
        tail = f"-{self.classifier}" if self.classifier else ""
        return f"{self.artifact}-{self.version}{tail}.jar"


@dataclass(frozen=True)
class Fetchable:
    family: str
    version: str
    jar: Artifact
    min_jdk: int = 8
    # Jython 2.5.0's jar carries no standard library: its Lib comes from this jar.
    lib_from: Artifact | None = None
    implied_flags: tuple[str, ...] = ()
    note: str = ""
