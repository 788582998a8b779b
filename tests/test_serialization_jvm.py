"""The serialization experiment's JVM side, tiny: every serializer of both Maven projects (2008's artifacts
in jmh-2008, today's in jmh) round-trips every value (Verify), including the harder sparse and empty ones
that catch a serializer filling in defaults or dropping an empty list (planted ones show it), the serialize
arms get never-serialized objects (Freshness: protobuf's memoized size is not reused), a few JMH cases run
through the harness with their checks and size metrics, a serializer that loses a field fails its process
run, 2008's odd sizes are reproduced (Faults2008), and the CrossLanguage CLI answers as SHARED.md says. The
cross-language round trips with Python are in test_serialization_crosslang.py."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import maven_jar
from versus.cli import main

EXPERIMENT = Path(__file__).resolve().parents[1] / "experiments" / "serialization"
PROJECTS = {"now": EXPERIMENT / "jmh", "2008": EXPERIMENT / "jmh-2008"}
VALUES = ["standard", "2008", "unicode", "large", "sparse", "empty"]
NOW = ["Protobuf", "ProtobufCodeSize", "ThriftBinary", "ThriftCompact", "Java", "JavaExternalizable", "Scala", "StaxJdk",
       "StaxWoodstox", "StaxAalto", "JacksonJson", "JacksonSmile", "JacksonCbor", "JacksonMsgpack", "JacksonBlackbird",
       "JacksonAfterburner", "Gson", "Fastjson2", "DslJson", "MsgpackCore", "Protostuff", "Kryo", "KryoUnregistered",
       "ForyCompatible", "ForySchemaConsistent", "ForyXlang", "ForyXlangConsistent", "Avro", "FlatBuffers"]
THEN = ["Protobuf", "ProtobufCodeSize", "ThriftBinary", "ThriftCompact"]

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not shutil.which("mvn") or not shutil.which("java"),
                                 reason="Maven and a JDK are needed (make setup installs them)")]


@pytest.fixture(scope="module")
def jars() -> dict[str, Path]:
    """Each project's target/benchmarks.jar, rebuilt when a source of it (the project, the shared java/ and
    schema/ its pom names) is newer, by the harness's own build."""
    return {name: maven_jar(project) for name, project in PROJECTS.items()}


def verify(jar_path: Path) -> dict[str, list[tuple[int, int]]]:
    """Verify's table: serializer → [(size, deflated size)] per value, after asserting it passed."""
    done = subprocess.run(["java", "-cp", str(jar_path), "serialization.bench.Verify"], cwd=EXPERIMENT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAILED" not in done.stdout
    table: dict[str, list[tuple[int, int]]] = {}
    for line in done.stdout.splitlines()[1:-1]:
        name, *cells = line.split()
        sizes = [(int(a), int(b.strip("()"))) for a, b in zip(cells[::2], cells[1::2], strict=True)]
        assert len(sizes) == len(VALUES), line
        table[name] = sizes
    return table


def test_every_serializer_round_trips_every_value(jars: dict[str, Path]) -> None:
    now, then = verify(jars["now"]), verify(jars["2008"])
    assert list(now) == NOW
    assert list(then) == THEN
    # protobuf's encoding did not change between 2.5.0 and 4.x, nor Thrift's between 0.6.1 and 0.25.
    for name in THEN:
        assert now[name] == then[name], name
    two_thousand_eight = VALUES.index("2008")
    # The 2008 spreadsheet's protobuf size for the 2008 value, byte for byte; its Thrift value carried two
    # more fields (the second image's width and height, -1: 14 bytes in the binary protocol), ours does not.
    assert then["Protobuf"][two_thousand_eight][0] == 217
    assert then["ThriftBinary"][two_thousand_eight][0] == 314 - 14
    # Schema-consistent Fory leaves its classes' field metadata out of every message; the default carries it.
    assert now["ForySchemaConsistent"][0][0] < now["ForyCompatible"][0][0]


@pytest.mark.parametrize(("planted", "first_failure"), [
    ("FillsDefaults", r"^sparse: media\.title: expected null, got \"\"$"),
    ("DropsEmptyLists", r"^sparse: media\.persons: expected \[\], got null$"),
])
def test_a_serializer_that_fills_defaults_or_drops_an_empty_list_fails(jars: dict[str, Path], planted: str,
                                                                        first_failure: str) -> None:
    """Both planted serializers pass the four timed values (the first failure is a harder value's) and fail
    the check: the sparse and empty values are what catch them."""
    done = subprocess.run(["java", "-cp", str(jars["now"]), "serialization.bench.Verify", f"serialization.now.{planted}"],
                          cwd=EXPERIMENT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    failure = [line for line in done.stdout.splitlines() if "FAILED:" in line]
    assert len(failure) == 1, done.stdout
    assert re.match(first_failure, failure[0].split("FAILED: ", 1)[1]), failure[0]


@pytest.mark.parametrize("project", ["now", "2008"])
def test_the_serialize_arms_get_never_serialized_objects(jars: dict[str, Path], project: str) -> None:
    """Every serialize and roundtrip invocation gets a batch of objects built for it; a protobuf message that
    was serialized once carries a memoized size (the check sees it), and none of the batch's does."""
    done = subprocess.run(["java", "-cp", str(jars[project]), "serialization.bench.Freshness"], cwd=EXPERIMENT,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = dict(line.split(None, 1) for line in done.stdout.splitlines() if not line.startswith("freshness:"))
    assert set(lines) == set(NOW if project == "now" else THEN)
    assert all(state == "fresh" for state in lines.values()), lines


def test_2008_sizes_are_reproduced_with_2008_settings(jars: dict[str, Path]) -> None:
    """Java serialization's 917 bytes (2008's classes and its shared string literals) and StAX's 480 (0 written
    for unset numbers, ISO-8859-1 declared) come back exactly; today's settings give 1108 and 405."""
    done = subprocess.run(["java", "-cp", str(jars["now"]), "serialization.faults.Faults2008"], cwd=EXPERIMENT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [[int(n) for n in re.findall(r"(\d+) bytes", line)] for line in done.stdout.splitlines()]
    assert [300, 314] in rows and [1108, 943] in rows and [943, 917] in rows and [405, 480] in rows, done.stdout


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = main(argv + ["--format", "json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else {"err": captured.err}


def test_jmh_cases_check_and_report_sizes(jars: dict[str, Path], db: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # Another JMH on the machine may hold JMH's lock; versus runs one process at a time itself.
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Djmh.ignoreLock=true")
    # JDK 17: a 2008 artifact and Java serialization; JDK 25: FlatBuffers' lazy read and Fory (whose jar needs
    # the shaded jar to stay Multi-Release on JDK 25).
    cases = ["protobuf2008_roundtrip", "java_externalizable_serialize", "flatbuffers_read_two", "fory_compatible_serialize"]
    code, doc = run_json(["run", "serialization", "--cases", ",".join(cases), "--runtimes", "java@17,java@25",
                          "--processes", "1", "--warmup", "0", "--samples", "1", "--param", "iteration_ms=10",
                          "--param", "value=unicode", "--db", str(db)], capsys)
    assert code == 0, doc
    arms = {a["case"]: a for a in doc["arms"] if a["processes_ok"] == 1}
    assert set(arms) == set(cases)
    for arm in arms.values():
        assert all(check[0] == "ok" for run in arm["runs"] for check in run["checks"]), arm["runs"]
    sizes = verify(jars["now"])
    unicode = VALUES.index("unicode")
    assert round(arms["protobuf2008_roundtrip"]["metrics"]["size"]["value"]) == sizes["Protobuf"][unicode][0]
    assert round(arms["protobuf2008_roundtrip"]["metrics"]["deflate_size"]["value"]) == sizes["Protobuf"][unicode][1]
    assert round(arms["java_externalizable_serialize"]["metrics"]["size"]["value"]) == sizes["JavaExternalizable"][unicode][0]
    assert round(arms["fory_compatible_serialize"]["metrics"]["size"]["value"]) == sizes["ForyCompatible"][unicode][0]
    assert "size" not in arms["flatbuffers_read_two"]["metrics"]


def test_a_serializer_that_loses_a_field_fails_its_run(jars: dict[str, Path], db: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Djmh.ignoreLock=true")
    folder = tmp_path / "lossy"
    folder.mkdir()
    (folder / "data").symlink_to(EXPERIMENT / "data")
    (folder / "experiment.toml").write_text(f"""
[experiment]
name = "lossy"
driver = "jmh"
runtimes = ["java@17"]
[params]
value = "standard"
iteration_ms = 10
[programs]
java = "{PROJECTS['now']}"
[[cases]]
name = "drops_copyright"
command = "DropsCopyright.serialize"
check = "'ok'"
""")
    code, doc = run_json(["run", str(folder), "--processes", "1", "--warmup", "0", "--samples", "1", "--db", str(db)],
                         capsys)
    assert code != 0
    reasons = [run["reason"] for arm in doc.get("arms", []) for run in arm["runs"]] + \
              [str(run) for run in doc.get("failed_runs", [])]
    # The standard and 2008 values have no copyright; the first value that has one is named with the field.
    assert any(re.search(r"unicode: media\.copyright: expected .*, got null", r or "") for r in reasons), reasons


def crosslanguage(jar_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["java", "-cp", str(jar_path), "serialization.CrossLanguage", *args], capture_output=True,
                          text=True, timeout=60)


def test_crosslanguage_cli(jars: dict[str, Path], tmp_path: Path) -> None:
    data = EXPERIMENT / "data"
    out = tmp_path / "bytes"
    assert crosslanguage(jars["now"], "encode", "thrift-compact", str(data / "media-unicode.json"), str(out)).returncode == 0
    assert crosslanguage(jars["now"], "decode", "thrift-compact", str(data / "media-unicode.json"), str(out)).returncode == 0
    wrong = crosslanguage(jars["now"], "decode", "thrift-compact", str(data / "media-large.json"), str(out))
    assert wrong.returncode == 1
    assert "media.uri: expected" in wrong.stderr
    text = str(data / "media-unicode.json")
    undecodable = crosslanguage(jars["now"], "decode", "protobuf", text, text)  # JSON text is no protobuf message
    assert undecodable.returncode == 2
    usage = crosslanguage(jars["now"], "encode", "yaml", str(data / "media-unicode.json"), str(out))
    assert usage.returncode == 2 and "FORMAT" in usage.stderr
