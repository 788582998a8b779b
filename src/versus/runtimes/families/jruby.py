"""JRuby: jars fetched from Maven Central (pinned by SHA-256), run on a JDK of this machine."""
from __future__ import annotations

from pathlib import Path

from ..catalog import Artifact, Fetchable
from ..family import C1, Family
from ..model import Runtime


class JRuby(Family):
    name = "jruby"
    program = "ruby"
    jvm_hosted = True
    flags = {"int": "interpreter (-X-C)", "jit": "compiler (-X+C)", "c1": f"JVM with the C1 compiler only ({C1})"}
    catalog = (
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

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        jvm, mode = _mode(runtime)
        return [str(runtime.executable), *self.jvm_flags(runtime), *jvm, "-Xss4m", "-jar", str(runtime.jar), *mode,
                "-I", str(helpers / "ruby"), str(program)], {}


def _mode(runtime: Runtime) -> tuple[list[str], list[str]]:
    """(JVM options, JRuby options) for +int / +jit. JRuby 1.0 has no -X options: its JIT is a JVM
    property, and -C pre-compiles; from 1.7 on, -C means "cd", and -X-C / -X+C choose the mode."""
    old = runtime.version.split(".")[0] == "1" and runtime.version.split(".")[1:2] == ["0"]
    if "int" in runtime.flags:
        return (["-Djruby.jit.enabled=false"], []) if old else ([], ["-X-C"])
    if "jit" in runtime.flags:
        return ([], ["-C"]) if old else ([], ["-X+C"])
    return [], []
