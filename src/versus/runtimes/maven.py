"""A Maven project built into a jar: the java family's `pom.xml` programs and the jmh driver's
benchmark jars. Not a family: any family or driver that needs a Maven build uses it."""
from __future__ import annotations

import fcntl
import re
import shutil
from pathlib import Path

from ..errors import VersusError
from .family import BuildContext, run_build
from .fetch import one_maven
from .sealed import intact, seal


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
        with one_maven():
            run_build([mvn, "-q", "-B", "-f", str(project / "pom.xml"), "package", "-DskipTests"], context,
                      f"building {project} with Maven", f"fix the build error above (try: mvn -f {project / 'pom.xml'} package)")
        if jar.exists():
            seal(jar)
    if not jar.exists():
        raise VersusError(f"building {project} with Maven made no {jar}",
                          f"set <finalName>{name}</finalName> in its pom.xml's shade plugin configuration")
    return jar
