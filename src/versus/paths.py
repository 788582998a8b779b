"""Where versus finds its experiments and protocol helpers, whether installed editable or not."""
from __future__ import annotations

import os
from pathlib import Path

from .errors import VersusError

_MARKER = Path("helpers") / "python" / "versus_helper.py"
SELFTEST_PROGRAM = Path(__file__).parent / "selftest_program"  # `versus selftest`'s experiment, shipped with versus


def project_root() -> Path:
    """$VERSUS_ROOT, else the source tree this module lives in, else the current folder or a parent of it."""
    override = os.environ.get("VERSUS_ROOT")
    if override:
        root = Path(override).expanduser()
        if not (root / _MARKER).is_file():
            raise VersusError(f"VERSUS_ROOT={override} holds no {_MARKER}",
                              "point VERSUS_ROOT at a checkout of versus (the folder with helpers/ and experiments/)")
        return root.resolve()
    here = Path(__file__).resolve()
    for candidate in (here.parents[2], Path.cwd(), *Path.cwd().parents):
        if (candidate / _MARKER).is_file():
            return candidate
    raise VersusError("cannot find versus's helpers/ and experiments/ folders",
                      "run versus from its checkout, or set VERSUS_ROOT to the checkout's folder")


def helpers() -> Path:
    return project_root() / "helpers"


def experiments() -> Path:
    return project_root() / "experiments"


def cache_dir() -> Path:
    """Fetched runtimes, built programs and data: $VERSUS_CACHE or ~/.cache/versus."""
    return Path(os.environ.get("VERSUS_CACHE") or Path.home() / ".cache" / "versus")
