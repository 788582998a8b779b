"""Rust: `cargo` on PATH; a program is a Cargo project (its Cargo.toml), built in release mode."""
from __future__ import annotations

import hashlib
import os
import shutil
import tomllib
from pathlib import Path

from ...errors import ExperimentError
from ..family import BuildContext, Family, digest, on_path, run_build
from ..model import Runtime
from ..sealed import intact, making, seal


class Rust(Family):
    name = "rust"
    program = "rust"
    install_hint = "install it with: apt-get install -y cargo"

    def discover(self) -> list[Runtime]:
        return on_path(self.name, "cargo", ["--version"], r"cargo (\d+\.\d+\.\d+)")

    def build(self, runtime: Runtime, program: Path, context: BuildContext) -> Path | None:
        if program.name != "Cargo.toml":
            raise ExperimentError(f"a rust program is a Cargo.toml, not {program.name}",
                                  'set [programs] rust = "…/Cargo.toml"')
        try:
            name = str(tomllib.loads(program.read_text())["package"]["name"])
        except (OSError, tomllib.TOMLDecodeError, KeyError) as error:
            raise ExperimentError(f"cannot read the package name of {program}: {error}",
                                  "give it a [package] table with a name") from None
        # The target folder is shared by every checkout whose copy of the project (and of its path
        # dependencies) has the same content: a fresh clone compiled every dependency again (2–3 min of
        # a make run's lab) when it was keyed by the project's path. Not by path alone, nor by manifest:
        # cargo judges a local crate by file times, and took another checkout's older sources for built.
        # Each program location gets its own copy of the binary, made under the lock.
        target = context.cache / "cargo-target" / digest(str(runtime.executable), runtime.version, name,
                                                          _sources(program))
        built = target / "release" / name
        binary = context.cache / "cargo-bin" / digest(str(program.resolve())) / name
        # cargo locks its target folder while it builds, but not the check and the seal around it: a
        # binary another process is linking or sealing at that moment would look damaged and be removed.
        with making(target):
            if built.exists() and not intact(built, legacy=True):
                built.unlink()  # cargo checks its sources, not its output: a damaged binary is linked again
            # cargo decides itself whether anything changed: it is quick when nothing did.
            run_build([str(runtime.executable), "build", "--release", "--quiet", "--manifest-path", str(program),
                       "--target-dir", str(target)], context, f"cargo build of {program}", "fix the build error above")
            if not built.exists():
                raise ExperimentError(f"cargo build of {program} made no binary named {name}",
                                      "name the binary after the package, or build it with a [[bin]] of that name")
            if not intact(built):
                seal(built)
            if not (intact(binary) and binary.read_bytes() == built.read_bytes()):
                binary.parent.mkdir(parents=True, exist_ok=True)
                copied = binary.with_name(f".{name}.{os.getpid()}")
                shutil.copy2(built, copied)
                os.replace(copied, binary)
                seal(binary)
        return binary

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        return [str(built)], {}


_LOCK = Path("Cargo.lock")


def _sources(manifest: Path) -> str:
    """A digest of every file of the project and of its path dependencies (their folders, less
    build outputs, `target`, and hidden folders), by path relative to each folder. Not Cargo.lock, which the first
    build writes where none was committed: cargo rebuilds what a changed lock changes, by version."""
    folders, seen, hashed = [manifest.parent.resolve()], set(), hashlib.sha256()
    while folders:
        folder = folders.pop()
        if folder in seen:
            continue
        seen.add(folder)
        for file in sorted(folder.rglob("*")):
            relative = file.relative_to(folder)
            if (not file.is_file() or "target" in relative.parts[:-1] or relative == _LOCK
                    or any(p.startswith(".") for p in relative.parts)):
                continue
            hashed.update(f"{len(seen)}:{relative}\0".encode())
            hashed.update(file.read_bytes())
        folders += [(folder / path).resolve() for path in _path_dependencies(folder / "Cargo.toml")]
    return hashed.hexdigest()


def _path_dependencies(manifest: Path) -> list[str]:
    try:
        parsed = tomllib.loads(manifest.read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return []
    tables = [parsed.get(key, {}) for key in ("dependencies", "dev-dependencies", "build-dependencies")]
    for platform in parsed.get("target", {}).values():
        tables += [platform.get(key, {}) for key in ("dependencies", "dev-dependencies", "build-dependencies")]
    return [spec["path"] for table in tables for spec in table.values() if isinstance(spec, dict) and "path" in spec]
