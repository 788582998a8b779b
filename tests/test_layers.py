"""The layers of src/versus hold: import-linter checks the contracts in pyproject.toml (layers from
the CLI down to the plain data, one module a runtime family and a driver, no import cycle), and a
new upward import or cycle fails here before it reaches main."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).parent / "lint-imports"  # make installs it with the dev extra


def lint(src: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports over the package `versus` found in `src`, with the repository's contracts."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run([str(LINT), "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")], cwd=src,
                          env=env, capture_output=True, text=True, timeout=300)


def test_the_contracts_hold():
    done = lint(ROOT / "src")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def copy_with(tmp_path: Path, module: str, line: str) -> Path:
    """A copy of src/versus whose `module` (a path under versus/) imports one more thing."""
    shutil.copytree(ROOT / "src" / "versus", tmp_path / "versus", ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path / "versus" / module
    path.write_text(path.read_text() + f"\n{line}\n")
    return tmp_path


def test_an_upward_import_breaks_them(tmp_path):
    done = lint(copy_with(tmp_path, "definitions.py", "from .drivers import DRIVERS  # noqa"))
    assert done.returncode != 0 and "BROKEN" in done.stdout
    assert "versus.definitions -> versus.drivers" in done.stdout


def test_a_cycle_within_a_layer_breaks_them(tmp_path):
    # judge and items share a layer, and judge imports items: items importing judge closes a circle
    done = lint(copy_with(tmp_path, "items.py", "from . import judge  # noqa"))
    assert done.returncode != 0 and "BROKEN" in done.stdout


def test_the_runtime_model_importing_the_families_breaks_them(tmp_path):
    done = lint(copy_with(tmp_path, "runtimes/model.py", "from .families import FAMILIES  # noqa"))
    assert done.returncode != 0 and "BROKEN" in done.stdout
