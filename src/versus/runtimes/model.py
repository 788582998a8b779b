"""A resolved runtime: what it is exactly. How to build for it and start it is its family's business."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

C1 = "-XX:TieredStopAtLevel=1"  # C1 only: the heir of the client compiler (-client) of Java 6


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

    @property
    def jdk_major(self) -> str:
        first = self.jdk_version.split(".")[0]
        return first if first != "1" else self.jdk_version.split(".")[1]

    @property
    def name(self) -> str:
        return runtime_name(self.family, self.version, self.flags, self.jdk_major if self.hosted else "")

    @property
    def hosted(self) -> bool:
        from .families import family

        return family(self.family).jvm_hosted

    @property
    def program_family(self) -> str:
        """Which program file of an experiment this runtime runs."""
        from .families import family

        return family(self.family).program_family(self)

    def jvm_flags(self) -> list[str]:
        """JVM options that the runtime's flags ask for: +int on java, +c1 on every JVM family."""
        flags = ["-Xint"] if self.family == "java" and "int" in self.flags else []
        return flags + ([C1] if "c1" in self.flags else [])


def runtime_name(family: str, version: str, flags: tuple[str, ...] | list[str], jdk_major: str = "") -> str:
    """`family@version+flag/java@N`: the one spelling of a runtime's name."""
    text = f"{family}@{version}" + "".join("+" + f for f in flags)
    return text + (f"/java@{jdk_major}" if jdk_major else "")
