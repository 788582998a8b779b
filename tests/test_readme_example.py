"""The README's "Adding an experiment" example, extracted and run as written."""
from __future__ import annotations

import json
import re
from pathlib import Path

from versus.cli import main

README = Path(__file__).parents[1] / "README.md"


def test_the_readme_example_experiment_runs(tmp_path, db, capsys):
    text = README.read_text().split("## Adding an experiment", 1)[1]
    blocks = [re.search(rf"```{lang}\n(.*?)```", text, re.S) for lang in ("toml", "python")]
    toml, python = (block.group(1) for block in blocks if block is not None)
    folder = tmp_path / "my-experiment"
    folder.mkdir()
    (folder / "experiment.toml").write_text(toml)
    (folder / "concat.py").write_text(python)
    code = main(["run", str(folder), "--runtimes", "cpython@3.11", "--processes", "2", "--warmup", "1",
                 "--samples", "2", "--inner", "200", "--db", str(db), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["failed_runs"] == []
    assert doc["arms"][0]["processes_ok"] == 2
    assert doc["claims"][0]["id"] == "pypy-2x"  # no PyPy arm in this run: the claim is reported as not measured
    assert doc["claims"][0]["verdict"] == "not measured"
