"""The harness keeps to one thread. numpy and scipy each load an OpenBLAS whose thread pool starts
with the library (one thread a core beyond the first: a worker's harness had 3 threads on this 2-core
VM). Those threads sleep, but a harness that measures should be one thread waiting for its process,
nothing else (docs/fleet.md: a worker does nothing while a process is measured). So before they load,
the harness asks for pools of one thread; the programs it runs and builds get the environment as the
user gave it, never these settings."""
from __future__ import annotations

import os
from collections.abc import Mapping

POOLS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")  # OpenBLAS's own, and OpenMP's for an OpenMP build of it
_ADDED: set[str] = set()


def single_threaded() -> None:
    """Hold the numerical libraries' pools to one thread, where the user did not size them: call it
    before numpy or scipy is imported (their pools start at import)."""
    for name in POOLS:
        if name not in os.environ:
            os.environ[name] = "1"
            _ADDED.add(name)


def as_given(env: Mapping[str, str]) -> dict[str, str]:
    """`env` without what single_threaded added: a program's environment as the user gave it."""
    return {k: v for k, v in env.items() if k not in _ADDED}
