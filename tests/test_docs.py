"""The documentation that is generated stays generated: docs/experiment-toml.md is `versus schema`."""
from __future__ import annotations

from pathlib import Path

from versus.schema_doc import markdown

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_experiment_toml_reference_matches_the_schema():
    assert (DOCS / "experiment-toml.md").read_text() == markdown() + "\n", \
        "regenerate it: .venv/bin/versus schema > docs/experiment-toml.md"


def test_every_key_of_the_schema_is_documented_once():
    text = (DOCS / "experiment-toml.md").read_text()
    for key in ("processes", "min_sample_ns", "baseline", "jdks", "runtimes", "server", "programs", "metric"):
        assert f"`{key}`" in text
