"""Content hashes: what decides whether more rounds may join a session's evidence.

A session continued with `versus run --more`, and a worker that joins a session on another host, run
the programs that the session ran, or nothing: an experiment's folder (its definition and every
program file, not its README or what builds leave there), the protocol helpers, and each runtime's
executable (and jar) are hashed when the session starts, and compared before a round is added.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from . import paths
from .errors import VersusError

# Not part of a program: documentation, and what running or building one leaves in its folder.
SKIPPED_DIRS = {"__pycache__", "target", "build", "node_modules", ".git", ".mvn", ".gradle", ".pytest_cache"}
SKIPPED_SUFFIXES = (".md", ".pyc", "$py.class")
CHUNK = 1 << 20


def _update(digest: hashlib._Hash, file: Path) -> None:
    with open(file, "rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)


def folder_hash(folder: Path) -> str:
    """sha256 over the folder's files (relative path and bytes, in sorted order), without the
    documentation and build outputs; '' if the folder cannot be read."""
    digest = hashlib.sha256()
    try:
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
            for name in sorted(files):
                if name.startswith(".") or name.endswith(SKIPPED_SUFFIXES):
                    continue
                path = Path(root) / name
                if path.is_symlink() or not path.is_file():
                    continue
                digest.update(str(path.relative_to(folder)).encode() + b"\0")
                _update(digest, path)
                digest.update(b"\0")
    except OSError:
        return ""
    return digest.hexdigest()


def experiment_hash(folder: Path) -> str:
    """An experiment's programs and definition, with the protocol helpers they speak through."""
    mine = folder_hash(folder)
    try:
        helpers = folder_hash(paths.helpers())
    except VersusError:  # no checkout (an experiment folder anywhere): its own files still count
        helpers = ""
    return "" if not mine else hashlib.sha256(f"{mine}:{helpers}".encode()).hexdigest()


def file_hash(*files: Path | str | None) -> str:
    """sha256 of these files' bytes (a runtime's executable, its jar), symlinks followed; '' if any is missing."""
    digest = hashlib.sha256()
    for file in files:
        if not file:
            continue
        try:
            _update(digest, Path(file).resolve())
        except OSError:
            return ""
    return digest.hexdigest()
