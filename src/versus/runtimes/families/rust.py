"""Rust: `cargo` on PATH; a program is a Cargo project (its Cargo.toml), built in release mode."""
from __future__ import annotations

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
        target = context.cache / "cargo-target" / digest(str(program.resolve()))
        binary = target / "release" / name
        # cargo locks its target folder while it builds, but not the check and the seal around it: a
        # binary another process is linking or sealing at that moment would look damaged and be removed.
        with making(target):
            if binary.exists() and not intact(binary, legacy=True):
                binary.unlink()  # cargo checks its sources, not its output: a damaged binary is linked again
            # cargo decides itself whether anything changed: it is quick when nothing did.
            run_build([str(runtime.executable), "build", "--release", "--quiet", "--manifest-path", str(program),
                       "--target-dir", str(target)], context, f"cargo build of {program}", "fix the build error above")
            if binary.exists() and not intact(binary):
                seal(binary)
        return binary

    def launch(self, runtime: Runtime, program: Path, built: Path | None, helpers: Path) -> tuple[list[str], dict[str, str]]:
        return [str(built)], {}
