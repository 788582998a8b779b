"""Java: JDKs under /usr/lib/jvm (and $JAVA_HOME). A program is a .java file compiled with the
JDK's javac together with the protocol helper, or a Maven project (pom.xml) shaded into
`target/program.jar` with a Main-Class."""
from __future__ import annotations

import glob
import os
import re
import shutil
from pathlib import Path

from ...errors import ExperimentError
from ..family import C1, BuildContext, Family, digest, run_build
from ..maven import maven_jar
from ..model import Runtime, version_key
from ..sealed import beside, install, intact, making


def jdk_version(home: Path) -> str | None:
    release = home / "release"
    if release.exists():
        match = re.search(r'^JAVA_VERSION="([^"]+)"', release.read_text(errors="replace"), re.M)
        if match:
            return match.group(1)
    return None


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
        version = jdk_version(real)
        if version:
            found.append(Runtime("java", version, real / "bin" / "java", str(real), jdk_version=version))
    return sorted(found, key=lambda r: version_key(r.version))


class Java(Family):
    name = "java"
    program = "java"
    flags = {"int": "-Xint (bytecode interpreter only)", "c1": f"C1 compiler only ({C1})"}
    install_hint = "install a JDK under /usr/lib/jvm, e.g. apt-get install -y openjdk-17-jdk-headless"

    def discover(self) -> list[Runtime]:
        return find_jdks()

    def build(self, runtime: Runtime, program: Path, context: BuildContext) -> Path | None:
        if program.name == "pom.xml":
            return maven_jar(program.parent, "program", context)
        if program.suffix != ".java":
            raise ExperimentError(f"a java program is a .java file or a pom.xml, not {program.name}",
                                  'set [programs] java = "java/Main.java" or "client/pom.xml"')
        javac = runtime.executable.parent / "javac"
        sources = sorted(program.parent.glob("*.java")) + sorted((context.helpers / "java").rglob("*.java"))
        target = context.cache / "classes" / digest(str(javac.resolve()), *sources)
        if intact(target, legacy=(target / ".complete").exists()):  # a damaged one is compiled again
            return target
        # One compiles, another process wanting it waits: a second install would move aside (and remove)
        # the folder the first one's JVM is loading classes from.
        with making(target):
            if intact(target):
                return target
            made = beside(target)
            shutil.rmtree(made, ignore_errors=True)
            made.mkdir(parents=True)
            run_build([str(javac), "-nowarn", "-d", str(made), *map(str, sources)], context,
                      f"javac of {program}", "fix the compile error in the program above")
            (made / ".complete").write_text("ok")  # what versions before seals look for
            install(made, target)
        return target

    def jvm_flags(self, runtime: Runtime) -> list[str]:
        return (["-Xint"] if "int" in runtime.flags else []) + super().jvm_flags(runtime)

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        if built is not None and built.suffix == ".jar":
            return [str(runtime.executable), *self.jvm_flags(runtime), "-jar", str(built)], {}
        return [str(runtime.executable), *self.jvm_flags(runtime), "-cp", str(built), program.stem], {}
