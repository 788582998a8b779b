"""JVM-hosted runtimes versus can fetch from Maven Central, each pinned by SHA-256."""
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


_JYTHON_251 = Artifact("org.python", "jython-standalone", "2.5.1",
                       "615ae075739cd6ad21f9e565607315257360945c54c37636f2d971d9fe595ef5")

CATALOG: tuple[Fetchable, ...] = (
    Fetchable("jython", "2.5.0",
              Artifact("org.python", "jython", "2.5.0",
                       "1c15aab3c433bb1ca367e23062ffb1de567fce8749c1eb92533dbce4e0e9947b"),
              lib_from=_JYTHON_251, implied_flags=("pythreading",),
              note="runs with the 2.5.1 standalone jar's Lib and versus's 2.5.0-shaped threading module"),
    Fetchable("jython", "2.5.1", _JYTHON_251),
    Fetchable("jython", "2.5.2",
              Artifact("org.python", "jython-standalone", "2.5.2",
                       "81df6a44e89bcbe4967e1c9736b57c6fae290de7083988da437dd580fbf46b50")),
    Fetchable("jython", "2.7.4",
              Artifact("org.python", "jython-standalone", "2.7.4",
                       "1fba1769effcc8b19f5e10436bc8274a158ce988559f257927c24c73bb137f3c")),
    Fetchable("jruby", "1.0",
              Artifact("org.jruby", "jruby-complete", "1.0",
                       "e9ecaf913bf13555f482bd0372305dbd07d399eebe875185bd64e9de8dca3364")),
    Fetchable("jruby", "1.7.27",
              Artifact("org.jruby", "jruby-complete", "1.7.27",
                       "24823cf7bc0afb1fbdf2a70d5c34161af3b9b77523da58b74a16061450fbb070")),
    Fetchable("jruby", "9.4.14.0",
              Artifact("org.jruby", "jruby-complete", "9.4.14.0",
                       "d7779641a18c46af5ee502c4a936dde17d4c0c4e6c35544aebb3a8d096fd53c9")),
    Fetchable("jruby", "10.1.1.0",
              Artifact("org.jruby", "jruby-complete", "10.1.1.0",
                       "bc7cb1166c8bde609066695800339a9f58073b02999f3f7aea65237f71ab2d65"),
              min_jdk=21, note="JRuby 10 needs Java 21+"),
)


def fetchable(family: str) -> list[Fetchable]:
    return [f for f in CATALOG if f.family == family]
