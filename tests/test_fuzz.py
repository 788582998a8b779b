"""Property tests (Hypothesis) over real inputs: the project's own experiment files, mutated, and
protocol streams, mutated. Whatever the mutation: no traceback, an error that names the place, the
documented exit code."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from versus import experiment as experiments
from versus.cli import main
from versus.errors import VersusError
from versus.executor import Executor
from versus.protocol import ProtocolViolation, parse

REAL = sorted(experiments.all_experiments())
REPLACEMENTS = ['"x"', "-1", "0", "1e400", "nan", "[]", '["a"]', "{}", "true", '"cpython@@"', '"{nope}"', "99999999999",
                '"$(touch pwned)"', '"; rm -rf /"']


@st.composite
def mutated_toml(draw: st.DrawFn) -> tuple[Path, str]:
    folder = draw(st.sampled_from(REAL))
    lines = (folder / "experiment.toml").read_text().split("\n")
    index = draw(st.integers(0, len(lines) - 1))
    action = draw(st.sampled_from(["delete", "duplicate", "value", "key", "chars"]))
    line = lines[index]
    if action == "delete":
        del lines[index]
    elif action == "duplicate":
        lines.insert(index, line)
    elif action == "value" and "=" in line:
        key = line.split("=", 1)[0]
        lines[index] = f"{key}= {draw(st.sampled_from(REPLACEMENTS))}"
    elif action == "key" and "=" in line:
        key, value = line.split("=", 1)
        lines[index] = re.sub(r"\w$", "x", key.rstrip()) + " =" + value
    else:
        position = draw(st.integers(0, len(line)))
        lines[index] = line[:position] + draw(st.text(max_size=4)) + line[position:]
    return folder, "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutated_toml())
def test_a_mutated_experiment_file_loads_or_names_its_fault(tmp_path_factory, case):
    folder, text = case
    copy = tmp_path_factory.mktemp("exp") / folder.name
    copy.mkdir()
    for item in folder.iterdir():  # the programs, so that [programs] paths still exist
        if item.name != "experiment.toml":
            (copy / item.name).symlink_to(item)
    (copy / "experiment.toml").write_text(text)
    try:
        experiments.load(copy)
    except VersusError as error:
        assert error.exit_code == 2 and str(copy / "experiment.toml") in error.message and error.hint


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutated_toml())
def test_a_mutated_experiment_through_the_cli_exits_0_or_2_without_a_traceback(tmp_path_factory, capsys, case):
    folder, text = case
    copy = tmp_path_factory.mktemp("cli") / folder.name
    copy.mkdir()
    for item in folder.iterdir():
        if item.name != "experiment.toml":
            (copy / item.name).symlink_to(item)
    (copy / "experiment.toml").write_text(text)
    code = main(["run", str(copy), "--dry-run", "--db", str(copy / "v.db")])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    assert code in (0, 2), captured.err
    if code == 2:
        assert captured.err.startswith("versus: error: ") and "hint:" in captured.err


MESSAGES = [
    {"v": 1, "type": "hello", "runtime": "x", "version": "1", "clock": "c"},
    {"type": "sample", "case": "a", "ns": 100, "inner": 10, "warmup": False},
    {"type": "check", "case": "a", "value": "7"},
    {"type": "metric", "case": "a", "name": "size", "value": 242, "unit": "bytes"},
    {"type": "end"},
]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
                   st.text(max_size=8), st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2),
                                                                                              st.integers(), max_size=2))


def _object(line: str) -> dict | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


@st.composite
def streams(draw: st.DrawFn) -> str:
    lines = [json.dumps(m) for m in MESSAGES]
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["field", "drop", "garbage", "swap", "bytes"]))
        message = _object(lines[index])
        if action == "field" and message is not None:
            message[draw(st.sampled_from(["type", "ns", "inner", "value", "case", "warmup", "v", "name"]))] = draw(VALUES)
            lines[index] = json.dumps(message)
        elif action in ("drop", "field"):
            del lines[index]
            if not lines:
                lines = ["{}"]
        elif action == "garbage":
            lines[index] = draw(st.text(max_size=40))
        elif action == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        else:
            lines[index] = lines[index][: draw(st.integers(0, len(lines[index])))]
    prefix = draw(st.sampled_from(["@versus ", "@versus", "@versus  ", ""]))
    return "\n".join(prefix + line for line in lines)


@settings(max_examples=500, deadline=None)
@given(streams())
def test_a_mutated_protocol_stream_parses_or_is_a_violation(stream):
    try:
        parse(stream, "a")
    except ProtocolViolation as violation:
        assert str(violation).startswith("line ")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(streams())
def test_a_mutated_stream_through_the_protocol_driver_is_a_stored_run(tmp_path_factory, stream):
    from conftest import FIXTURES
    from versus.drivers.protocol import ProtocolDriver
    from versus.executor import Completed
    from versus.plan import make_plan

    plan = make_plan([experiments.load(FIXTURES / "fake")], None, ["good"], False, {})

    class Scripted:
        def execute(self, argv, env, timeout, cwd=None):  # noqa: ANN001, ANN201
            return Completed(0, stream.replace('"a"', '"good"'), "", 1000)

    driver = ProtocolDriver()
    run = driver.run(plan.arms[0], plan.methods["fake"], 100, cast(Executor, Scripted()))
    assert run.status in ("ok", "failed") and (run.status == "ok" or run.reason)


@pytest.mark.parametrize("folder", REAL, ids=[f.name for f in REAL])
def test_every_real_experiment_loads(folder):
    loaded = experiments.load(folder)
    assert loaded.cases and loaded.name == folder.name
