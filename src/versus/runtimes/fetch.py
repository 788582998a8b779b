"""Fetch Maven artifacts into the cache with Maven itself, then verify their SHA-256."""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from ..errors import FetchError
from ..paths import cache_dir
from .catalog import Artifact
from .sealed import making


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _local_repository() -> Path:
    return Path(os.environ.get("VERSUS_M2_REPO") or Path.home() / ".m2" / "repository")


def one_maven() -> contextlib.AbstractContextManager[None]:
    """Hold the lock that lets one Maven at a time fetch into the local repository (a file beside it,
    `~/.m2/.repository.lock`). Debian 12's Maven 3.8 takes no lock of its own across processes there
    (named locks came with Maven 3.9's resolver), and two workers or test processes of one machine may
    run Maven at once; a build whose dependencies are all there holds it for the build's few seconds."""
    return making(_local_repository())


def fetch_artifact(artifact: Artifact) -> Path:
    """The verified jar in the cache, fetched through `mvn dependency:get` when missing."""
    target = cache_dir() / "jars" / artifact.filename
    if target.exists() and sha256_of(target) == artifact.sha256:
        return target
    repo = _local_repository()
    source = repo / artifact.group.replace(".", "/") / artifact.artifact / artifact.version / artifact.filename
    if not source.exists():
        mvn = shutil.which("mvn")
        if not mvn:
            raise FetchError(f"cannot fetch {artifact.coordinate}: Maven is not installed",
                             "install it with: apt-get install -y maven")
        command = [mvn, "-q", "-B", "-C", "dependency:get", f"-Dartifact={artifact.coordinate}",
                   "-Dtransitive=false", f"-Dmaven.repo.local={repo}"]
        try:
            with one_maven():
                result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise FetchError(f"mvn could not fetch {artifact.coordinate}: {error}",
                             "check that Maven Central is reachable (mvn -v; ~/.m2/settings.xml)") from None
        if result.returncode != 0 or not source.exists():
            tail = (result.stdout + result.stderr).strip().splitlines()[-5:]
            raise FetchError(f"mvn could not fetch {artifact.coordinate}: " + " / ".join(tail),
                             "check that Maven Central is reachable (mvn -v; ~/.m2/settings.xml)")
    actual = sha256_of(source)
    if actual != artifact.sha256:
        raise FetchError(f"{artifact.coordinate}: SHA-256 {actual} does not match the pinned {artifact.sha256}",
                         f"delete {source} and fetch again; if it persists, the artifact changed upstream")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")  # two versus of one host may fetch at once
    shutil.copyfile(source, partial)
    partial.replace(target)
    return target

