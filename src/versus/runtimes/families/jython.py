"""Jython: jars fetched from Maven Central (pinned by SHA-256), run on a JDK of this machine."""
from __future__ import annotations

import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

from ...errors import FetchError
from ...paths import cache_dir
from ..catalog import Artifact, Fetchable
from ..family import C1, Family
from ..fetch import fetch_artifact
from ..model import Runtime
from ..sealed import beside, install, making

# Jython 2.5.0's threading module is written in Python around ReentrantLock; versus keeps a copy
# shaped like it here, so that +pythreading can put it in front of a later Jython's Java one.
PYTHREADING = Path(__file__).parent / "pythreading"

_JYTHON_251 = Artifact("org.python", "jython-standalone", "2.5.1",
                       "615ae075739cd6ad21f9e565607315257360945c54c37636f2d971d9fe595ef5")


class Jython(Family):
    name = "jython"
    program = "python2"
    jvm_hosted = True
    flags = {"pythreading": "a threading module in Python around ReentrantLock, shaped like 2.5.0's",
             "c1": f"JVM with the C1 compiler only ({C1})"}
    catalog = (
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
    )

    def fetched(self, entry: Fetchable, flags: tuple[str, ...], jdk: Runtime, fetch: bool = True) -> Runtime:
        """Its jar, and where the jar has no standard library, the Lib of another jar as python.home;
        a cache folder per version and JDK for the classes Jython writes."""
        runtime = super().fetched(entry, flags, jdk, fetch)
        home = extract_lib(fetch_artifact(entry.lib_from), entry.lib_from.version) if fetch and entry.lib_from else None
        cachedir = cache_dir() / "jython-cachedir" / f"{entry.version}-java{jdk.jdk_major}"
        return replace(runtime, home=home, details={**runtime.details, "cachedir": str(cachedir)})

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        path = [str(helpers / "python"), str(program.parent)]
        if "pythreading" in runtime.flags or "pythreading" in runtime.details.get("implied", ""):
            path.insert(0, str(PYTHREADING))
        argv = [str(runtime.executable), *self.jvm_flags(runtime), "-Xss2m", "-cp", str(runtime.jar),
                f"-Dpython.path={':'.join(path)}", f"-Dpython.cachedir={runtime.details.get('cachedir', '')}",
                "-Dpython.console.encoding=UTF-8"]
        if runtime.home:
            argv.append(f"-Dpython.home={runtime.home}")
        return argv + ["org.python.util.jython", str(program)], {}


def extract_lib(jar: Path, name: str) -> Path:
    """Unpack `Lib/` of a Jython standalone jar once; returns the folder to use as python.home."""
    home = cache_dir() / "jython-home" / name
    try:
        with zipfile.ZipFile(jar) as archive:
            members = [m for m in archive.infolist() if m.filename.startswith("Lib/") and not m.is_dir()]
            if _whole(home, members):
                return home
            with making(home):  # one process unpacks; another wanting it waits, then finds it whole
                if _whole(home, members):
                    return home
                made = beside(home)
                shutil.rmtree(made, ignore_errors=True)
                made.mkdir(parents=True)
                archive.extractall(made, [m.filename for m in members])
                (made / ".complete").write_text(jar.name)
                install(made, home)
    except (OSError, zipfile.BadZipFile) as error:
        raise FetchError(f"cannot unpack Lib/ of {jar}: {error}", f"delete {jar} and {home}, then run again") from None
    return home


def _whole(home: Path, members: list[zipfile.ZipInfo]) -> bool:
    """Every file of Lib/ there at its size: an emptied or truncated Lib is unpacked again."""
    return (home / ".complete").exists() and all(_size(home / m.filename) == m.file_size for m in members)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1
