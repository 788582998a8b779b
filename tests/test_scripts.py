"""The developer scripts of scripts/: their errors say what to give them, and a reader that goes away
(`script | head`) ends them without a traceback."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def _script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPTS / name), *args], capture_output=True, text=True, env=ENV,
                          timeout=120)


def test_claim_feasibility_without_a_database_says_what_to_give_it(tmp_path: Path) -> None:
    done = _script("claim_feasibility.py", str(tmp_path / "missing.db"))
    assert done.returncode == 2
    assert "no database at" in done.stderr and "versus-results/versus.db" in done.stderr
    assert "Traceback" not in done.stderr


def test_claim_feasibility_on_a_database_without_claims_says_which_database_it_needs(tmp_path: Path) -> None:
    from versus.store import Store
    Store(tmp_path / "empty.db")  # a valid results database with no session at all
    done = _script("claim_feasibility.py", str(tmp_path / "empty.db"))
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr
    assert done.stderr.startswith("claim_feasibility.py: ")


@pytest.mark.parametrize("name", ["claim_feasibility.py", "claim_tables.py", "process_value.py"])
def test_a_reader_that_goes_away_ends_the_script_without_a_traceback(name: str) -> None:
    """`rejudge_trim.py DB | head -1` ended in a BrokenPipeError traceback. The read end is closed before
    the script has started, so its first print meets a closed pipe."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, str(SCRIPTS / name), "--help"], stdout=write, stderr=subprocess.PIPE,
                              text=True, env=ENV, timeout=120)
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
