"""Cache entries that can be checked: a build (a compiled C program, a folder of classes, a jar) or an
unpacked Jython `Lib` is sealed once it is whole, with the size and SHA-256 of every file in it, and
used again only while it still matches. A truncated binary or an emptied `Lib` is built or unpacked
again, never run as it is (a run of it failed with no hint, in every later session).

The cache is shared (other checkouts, other users' runs, two workers or test processes of one
machine): an entry is made beside its place and moved into it whole (`install`), never removed in place
while another run may be reading it, and an entry from before seals that its old marker calls complete
is sealed as it is (`intact(…, legacy=True)`). One process at a time makes a given entry (`making`): the
others wait for it and use what it made, rather than build it twice and move a folder another run is
reading out from under it.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from ..files import write_file

SEAL = ".versus-seal"


def _seal_of(entry: Path) -> Path:
    return entry / SEAL if entry.is_dir() else entry.with_name(entry.name + SEAL)


def _manifest(entry: Path) -> dict[str, list[object]]:
    files = [entry] if entry.is_file() else sorted(p for p in entry.rglob("*") if p.is_file() and p.name != SEAL)
    manifest: dict[str, list[object]] = {}
    for file in files:
        digest = hashlib.sha256()
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        manifest[str(file.relative_to(entry)) if file != entry else "."] = [file.stat().st_size, digest.hexdigest()]
    return manifest


def seal(entry: Path) -> None:
    """Record what `entry` (a file or a folder) holds now that it is whole. The seal is written beside
    and renamed into place: a run checking the entry at that moment reads the old seal or the new one,
    never half of one (which would make it build the entry again)."""
    write_file(_seal_of(entry), json.dumps(_manifest(entry)))


def intact(entry: Path, legacy: bool = False) -> bool:
    """Whether `entry` exists and holds exactly what its seal says. `legacy`: an entry without a seal
    is from before seals and complete by its old marker; it is sealed as it is."""
    if not entry.exists() or (entry.is_dir() and not any(entry.iterdir())):
        return False
    try:
        sealed = json.loads(_seal_of(entry).read_text())
    except FileNotFoundError:
        if legacy:
            with contextlib.suppress(OSError):
                seal(entry)
        return legacy
    except (OSError, ValueError):
        return False
    try:
        return bool(sealed == _manifest(entry))
    except OSError:
        return False


@contextlib.contextmanager
def making(entry: Path) -> Iterator[None]:
    """Hold the lock on making `entry` (an `fcntl.flock` on a file beside it, released when the process
    ends however it ends): check the entry again inside, since another process may have made it while
    this one waited."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    lock = entry.with_name(f".{entry.name}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the last descriptor releases the lock; the file stays for the next one


def beside(entry: Path) -> Path:
    """A fresh path next to `entry` to make it in before `install`."""
    return entry.with_name(f".{entry.name}.{os.getpid()}.new")


def install(made: Path, entry: Path) -> None:
    """Seal `made` and move it to `entry`; a folder already there (damaged) is moved aside first and
    removed after, so a run reading it is not cut short mid-file."""
    seal(made)
    if made.is_dir():
        stale = entry.with_name(f".{entry.name}.{os.getpid()}.stale")
        with contextlib.suppress(FileNotFoundError):
            entry.rename(stale)
        made.rename(entry)
        shutil.rmtree(stale, ignore_errors=True)
    else:
        made.with_name(made.name + SEAL).replace(entry.with_name(entry.name + SEAL))
        made.replace(entry)
