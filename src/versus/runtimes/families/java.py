"""Java: JDKs under /usr/lib/jvm (and $JAVA_HOME). A program is a .java file compiled with the
JDK's javac together with the protocol helper, or a Maven project (pom.xml) shaded into
`target/program.jar` with a Main-Class."""
from __future__ import annotations

import fcntl
import glob
import os
import re
import shutil
from pathlib import Path

from ...errors import ExperimentError, VersusError
from ..family import BuildContext, Family, digest, run_build
from ..model import C1, Runtime
from ..sealed import beside, install, intact, seal
from ..spec import version_key


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


def _inputs(project: Path, helpers: Path) -> list[Path]:
    """Every file the build reads: the project's own, the helper's, and those under each folder or file
    its pom names as `${project.basedir}/…` (build-helper source folders, proto roots)."""
    files = [p for p in project.rglob("*") if p.is_file() and "target" not in p.relative_to(project).parts]
    files += list((helpers / "java").rglob("*.java"))
    try:
        pom = (project / "pom.xml").read_text(errors="replace")
    except OSError:
        return files
    for relative in re.findall(r"\$\{project\.basedir\}/([^<\s]+)", pom):
        named = (project / relative).resolve()
        if named.is_file():
            files.append(named)
        elif named.is_dir():
            files += [p for p in named.rglob("*") if p.is_file() and "target" not in p.parts]
    return files


def maven_jar(project: Path, name: str, context: BuildContext) -> Path:
    """`mvn package` of a Maven project into `target/NAME.jar`; rebuilt when anything it reads is newer."""
    jar = project / "target" / f"{name}.jar"
    # Two builds of one project at once (two runs, a run and a test) overwrite each other's jar: one at a time.
    (project / "target").mkdir(exist_ok=True)
    with open(project / "target" / ".versus-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        sources = _inputs(project, context.helpers)
        if intact(jar) and all(p.stat().st_mtime <= jar.stat().st_mtime for p in sources):
            return jar
        mvn = shutil.which("mvn")
        if not mvn:
            raise VersusError(f"building {project} needs Maven", "install it with: apt-get install -y maven")
        run_build([mvn, "-q", "-B", "-f", str(project / "pom.xml"), "package", "-DskipTests"], context,
                  f"building {project} with Maven", f"fix the build error above (try: mvn -f {project / 'pom.xml'} package)")
        if jar.exists():
            seal(jar)
    if not jar.exists():
        raise VersusError(f"building {project} with Maven made no {jar}",
                          f"set <finalName>{name}</finalName> in its pom.xml's shade plugin configuration")
    return jar


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
        made = beside(target)
        shutil.rmtree(made, ignore_errors=True)
        made.mkdir(parents=True)
        run_build([str(javac), "-nowarn", "-d", str(made), *map(str, sources)], context,
                  f"javac of {program}", "fix the compile error in the program above")
        (made / ".complete").write_text("ok")  # what versions before seals look for
        install(made, target)
        return target

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        if built is not None and built.suffix == ".jar":
            return [str(runtime.executable), *runtime.jvm_flags(), "-jar", str(built)], {}
        return [str(runtime.executable), *runtime.jvm_flags(), "-cp", str(built), program.stem], {}
