"""The serialization experiment's Python side: the per-interpreter installs, every serializer on every value
with its round-trip checks, a serializer that loses a field failing its run, and every Python case once
through the harness on CPython 3.11 and PyPy 3.9 (experiments/serialization/python/)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENT = ROOT / "experiments" / "serialization"
PROGRAM = EXPERIMENT / "python" / "serbench.py"
DEPS = ROOT / "scripts" / "serialization-python-deps.sh"
CPYTHON_CASES = {"protobuf", "thrift_binary", "thrift_compact", "pickle", "json", "orjson", "msgspec_json",
                 "msgspec_msgpack", "msgpack", "cbor2", "fastavro", "pyfory", "pyfory_xlang", "pyfory_xlang_consistent",
                 "flatbuffers", "pycapnp", "ujson", "pydantic"}
PYPY_CASES = CPYTHON_CASES - {"orjson", "msgspec_json", "msgspec_msgpack", "pyfory", "pyfory_xlang", "pyfory_xlang_consistent",
                              "pycapnp", "ujson", "pydantic"}
_installed: dict[str, str] = {}


def cache() -> Path:
    return Path(os.environ.get("VERSUS_CACHE") or Path.home() / ".cache" / "versus") / "pylibs" / "serialization"


def interpreter(prefix: str) -> str:
    """The executable of the newest installed interpreter whose folder starts with `prefix` (cpython-3.11),
    after bringing the installs up to date (the deps script is quick when they are)."""
    if not _installed:
        done = subprocess.run([str(DEPS)], capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        for stamp in cache().glob("*/.stamp"):
            _installed[stamp.parent.name] = stamp.read_text().split()[1]
    found = sorted((k for k in _installed if k.startswith(prefix + ".")),
                   key=lambda k: [int(x) for x in k.split("-")[1].split(".")])
    assert found, f"scripts/serialization-python-deps.sh installed nothing for {prefix} (installed: {sorted(_installed)})"
    return _installed[found[-1]]


def program_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERSUS_") or k == "VERSUS_CACHE"}
    env.update(PYTHONPATH=str(ROOT / "helpers" / "python"), **extra)
    return env


@pytest.mark.slow
def test_the_deps_script_is_idempotent_and_quick() -> None:
    interpreter("cpython-3.11")  # installs whatever is missing
    done = subprocess.run([str(DEPS)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "installing" not in done.stderr and done.stderr.count("up to date") >= 3, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("runtime", ["cpython-3.11", "cpython-3.13", "pypy-3.9"])
def test_every_serializer_round_trips_every_value(runtime: str) -> None:
    done = subprocess.run([interpreter(runtime), str(PROGRAM), "--check"], capture_output=True, text=True,
                          timeout=300, env=program_env())
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines()[1:] if "/" in line and " B " in line}
    assert set(rows) == (PYPY_CASES if runtime.startswith("pypy") else CPYTHON_CASES), done.stdout
    # The 2008 value (first column) in protobuf is 217 bytes, the size compare.xlsx reported in 2008; in
    # Thrift's binary protocol 300, 2008's 314 less the 14 bytes of the width and height -1 that 2008's
    # Thrift code set on its second image (see the facts file).
    assert rows["protobuf"][1].split("/")[0] == "217", rows["protobuf"]
    assert rows["thrift_binary"][1].split("/")[0] == "300", rows["thrift_binary"]


@pytest.mark.slow
def test_a_serializer_that_loses_a_field_fails_before_timing() -> None:
    """The round trip is compared with the value itself: dropping one field (copyright) is caught."""
    script = """
import sys
sys.path[:0] = [sys.argv[1]]
import serbench, serializers, model
s = serializers.load("protobuf")
decode = s.deserialize
def lossy(data):
    c = decode(data)
    c.media.ClearField("copyright")
    return c
s.deserialize = lossy
try:
    serbench.prepare(s, serbench.load_value("large"))
except serbench.RoundTripError as error:
    print("caught:", error)
"""
    done = subprocess.run([interpreter("cpython-3.11"), "-c", script, str(PROGRAM.parent)], capture_output=True,
                          text=True, timeout=60, env=program_env())
    assert "caught: protobuf does not round-trip large: deserialize: value.media.copyright" in done.stdout, \
        done.stdout + done.stderr


@pytest.mark.slow
def test_the_serialize_loop_serializes_each_fresh_object_once() -> None:
    """The Python side's answer to protobuf's cached byte size: no object reaches serialize twice,
    and every object it serializes was built for it (the JVM side's test is Memo.java)."""
    script = """
import sys
sys.path[:0] = [sys.argv[1]]
import serbench
made, seen = [], []
def create(value):
    made.append(object())
    return made[-1]
def serialize(o):
    seen.append(o)
    return b"x"
clock = iter(range(0, 10**9, 5))
keep = [None] * 16
ns = serbench.serialize_fresh(create, serialize, {}, 1000, keep, now=lambda: next(clock))
print(len(seen), len(set(map(id, seen))), all(a is b for a, b in zip(made, seen)), ns > 0, keep[999 & 15])
"""
    done = subprocess.run([interpreter("cpython-3.11"), "-c", script, str(PROGRAM.parent)], capture_output=True,
                          text=True, timeout=60, env=program_env())
    assert done.stdout.split() == ["1000", "1000", "True", "True", "b'x'"], done.stdout + done.stderr


PLANTED = """
import sys
sys.path[:0] = [sys.argv[1]]
import serbench, serializers, model
s = serializers.load("json")
decode = s.deserialize
def lossy(data):
    c = decode(data)
    if sys.argv[2] == "defaults":
        c.media.title = "" if c.media.title is None else c.media.title
    elif not c.media.persons:
        c.media.persons = None
    return c
s.deserialize = lossy
for name in ("standard", "2008", "unicode", "large", "sparse", "empty"):
    try:
        serbench.prepare(s, serbench.load_value(name))
        print("passed:", name)
    except serbench.RoundTripError as error:
        print("caught:", error)
"""


@pytest.mark.slow
@pytest.mark.parametrize(("fault", "caught"), [
    ("defaults", "caught: json does not round-trip sparse: deserialize: "
                 "value.media.title: got '' (str), expected None (NoneType)"),
    ("empty-list", "caught: json does not round-trip sparse: deserialize: "
                   "value.media.persons: got None (NoneType), expected [] (list)"),
])
def test_a_serializer_that_fills_defaults_or_drops_an_empty_list_fails(fault: str, caught: str) -> None:
    """A reader that fills in an unset title, or turns an empty list into None, passes the four timed values
    and is caught by the harder sparse value (and the empty one)."""
    done = subprocess.run([interpreter("cpython-3.11"), "-c", PLANTED, str(PROGRAM.parent), fault], capture_output=True,
                          text=True, timeout=60, env=program_env())
    lines = done.stdout.splitlines()
    assert lines[:4] == [f"passed: {v}" for v in ("standard", "2008", "unicode", "large")], done.stdout + done.stderr
    assert lines[4] == caught, done.stdout + done.stderr
    assert lines[5].startswith("caught: json does not round-trip empty"), done.stdout


@pytest.mark.slow
def test_without_the_install_the_program_says_what_to_run(tmp_path: Path) -> None:
    done = subprocess.run([interpreter("cpython-3.11"), str(PROGRAM)], capture_output=True, text=True, timeout=60,
                          env=program_env(VERSUS_CACHE=str(tmp_path), VERSUS_CASE="py_json"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "run scripts/serialization-python-deps.sh" in done.stderr, done.stderr


def test_a_stale_install_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An install built from other requirements or another schema would measure stale code: refused."""
    monkeypatch.syspath_prepend(str(PROGRAM.parent))
    monkeypatch.setenv("VERSUS_CACHE", str(tmp_path))
    import pylibs

    folder = Path(pylibs.folder())
    folder.mkdir(parents=True)
    (folder / ".stamp").write_text("0" * 64 + " " + sys.executable + "\n")
    with pytest.raises(pylibs.SetupError, match="built from other requirements, schema or build.py"):
        pylibs.activate()
    (folder / ".stamp").write_text(pylibs.digest(pylibs.impl_name()) + "\n")
    assert pylibs.activate() == str(folder)


def experiment_python_cases() -> set[str]:
    import tomllib

    raw = tomllib.loads((EXPERIMENT / "experiment.toml").read_text())
    return {c["name"][3:] for c in raw.get("cases", []) if c["name"].startswith("py_")}


def test_the_experiment_has_a_case_per_python_serializer() -> None:
    missing = CPYTHON_CASES - experiment_python_cases()
    assert not missing, f"experiment.toml lacks the cases of {sorted(missing)}: merge experiments/serialization/python/CASES.toml"
    assert experiment_python_cases() <= CPYTHON_CASES


@pytest.mark.slow
def test_every_python_case_runs_through_the_harness(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from versus.cli import main

    interpreter("cpython-3.11")
    merged = experiment_python_cases()  # test_the_experiment_has_a_case_per_python_serializer checks it is all
    cases = ",".join("py_" + c for c in sorted(merged))
    code = main(["run", "serialization", "--runtimes", "cpython@3.11,pypy@3.9", "--cases", cases, "--processes", "1",
                 "--warmup", "0", "--samples", "1", "--inner", "3", "--param", "value=unicode",
                 "--param", "pypy_prewarm_ms=0", "--db", str(db), "--format", "json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    assert doc["failed_runs"] == []
    measured = {(a["case"], a["runtime"].split("@")[0]) for a in doc["arms"] if a["processes_ok"] == 1}
    assert measured == {("py_" + c, "cpython") for c in merged} | {("py_" + c, "pypy") for c in merged & PYPY_CASES}
    for arm in doc["arms"]:
        metrics = arm["metrics"]
        partial = {"read_two_ns"} if arm["case"] in ("py_protobuf", "py_flatbuffers", "py_pycapnp") else set()
        assert set(metrics) == {"create_ns", "serialize_ns", "deserialize_ns", "size", "deflate_size"} | partial, arm["case"]
        assert value(metrics["deflate_size"]) < value(metrics["size"]), arm["case"]
        assert value(metrics["serialize_ns"]) > 0 and value(metrics["deserialize_ns"]) > 0, arm["case"]


def value(metric: dict[str, Any]) -> float:
    """A metric's estimate in either report format (a "median" interval, or the value itself)."""
    return float(metric["median"]["value"] if isinstance(metric.get("median"), dict) else metric["value"])
