"""The strings experiment end to end, tiny: every case (the store's write, read and write_read and
the codec's encode and decode in Rust; Neo4j's own encode and decode under JMH) in every mode, once,
on the smallest dataset (Monaco), through the harness, with every check verified and the metrics
present. The Rust codec's payload digests are compared with those of Neo4j's jars on the same strings."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from versus.cli import main

ROOT = Path(__file__).resolve().parents[1]
SUBJECT = ROOT / "subjects" / "shortstring"
JMH = ROOT / "experiments" / "strings" / "jmh"
MODES = ("dyn13", "short13", "b19", "view16")


def monaco() -> Path:
    """The Monaco extract, fetched (checksummed, with the other two) by the subject's script if missing."""
    cache = Path(os.environ.get("VERSUS_CACHE") or Path.home() / ".cache" / "versus")
    path = cache / "osm" / "monaco-latest.osm.pbf"
    if not path.is_file():
        done = subprocess.run(["make", "-C", str(SUBJECT), "data"], capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"make -C subjects/shortstring data failed:\n{done.stdout}\n{done.stderr}"
    assert path.is_file(), f"{path} is still missing after make -C subjects/shortstring data"
    return path


@pytest.mark.slow
def test_every_case_runs_and_checks_on_monaco(db, capsys, monkeypatch):
    # JMH refuses to start while another JMH on the machine holds /tmp/jmh.lock (a test on another xdist
    # worker, or another test session); versus runs one process at a time itself, so the lock is not needed here.
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Djmh.ignoreLock=true")
    monaco()
    code = main(["run", "strings", "--processes", "1", "--warmup", "0", "--samples", "1", "--inner", "1",
                 "--param", "dataset=monaco", "--param", "iteration_ms=100", "--db", str(db), "--format", "json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    assert doc["failed_runs"] == []
    arms = {(a["case"], a["params"]["mode"]): a for a in doc["arms"]}
    store_cases, codec_cases = ("write", "read", "write_read"), ("encode", "decode", "decode_alloc")
    expected = {(c, m) for c in (*store_cases, *codec_cases, "neo4j_encode", "neo4j_decode") for m in MODES}
    assert set(arms) == expected
    assert all(a["processes_ok"] == 1 and a["estimate"]["value"] > 0 for a in arms.values())

    def metric(case: str, mode: str, name: str) -> float:
        """The value the program reported (exact: sizes and digests are compared to the byte)."""
        values = [v for run in arms[(case, mode)]["runs"] for n, v, _ in run["metrics"] if n == name]
        assert values, (case, mode, name)
        return values[-1]

    for case in store_cases:
        for mode in MODES:
            names = set(arms[(case, mode)]["metrics"])
            assert {"string_store_bytes", "property_store_bytes", "inline_fraction", "values"} <= names
            assert ("short_fraction" in names) == (mode in ("short13", "b19"))
        values = metric(case, "dyn13", "values")
        assert values > 20_000 and all(metric(case, m, "values") == values for m in MODES)
        assert metric(case, "dyn13", "inline_fraction") == 0
        assert metric(case, "dyn13", "property_store_bytes") == 25 * values
        assert metric(case, "short13", "string_store_bytes") < metric(case, "dyn13", "string_store_bytes")
    # The post's "hello": a 25-byte record + one 133-byte block in dyn13; inline in the others.
    stored = {mode: metric("write", mode, "hello_stored_bytes") for mode in MODES}
    assert stored == pytest.approx({"dyn13": 158, "short13": 25, "b19": 41, "view16": 16})
    assert metric("write", "dyn13", "hello_overhead") == pytest.approx(1 - 5 / 158)
    for case in codec_cases:
        for mode in MODES:
            assert {"strings", "payloads", "payload_digest"} <= set(arms[(case, mode)]["metrics"])
    claims = {c["id"]: c for c in doc["claims"]}
    assert {"store-80", "speed-25", "users-65", "goal-encode-a-3x", "goal-decode-a-3x", "goal-encode-b-3x",
            "goal-decode-b-3x"} <= set(claims)
    assert all(claims[i]["instances"] for i in claims)
    # measured where the metric exists: short13 and b19 (the other modes' instances have no round)
    measured = [i["numerator"] for i in claims["users-65"]["instances"] if i["rounds"]]
    assert sorted(a.split("mode=")[1].split("]")[0] for a in measured) == ["b19", "short13"]
    assert len(claims["hello-overhead-97"]["instances"]) == 1  # write, dyn13, monaco

    # The same strings through Neo4j's jars give the same payloads as through versus's codec.
    java = shutil.which("java")
    assert java, "java is needed (make setup installs a JDK)"
    done = subprocess.run([java, "-cp", str(JMH / "target" / "benchmarks.jar"), "versus.strings.Digest", "monaco"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        _, mode, *fields = line.split()
        jar = {k: int(v) for k, v in (f.split("=") for f in fields)}
        assert jar["roundtrip_wrong"] == 0, line
        for case in codec_cases:
            assert metric(case, mode, "strings") == jar["strings"], (case, mode)
            assert metric(case, mode, "payloads") == jar["payloads"], (case, mode)
            assert metric(case, mode, "payload_digest") == jar["payload_digest"], (case, mode)
        assert metric("decode", mode, "decoded_utf8_bytes") == jar["decoded_utf8_bytes"], mode
        assert metric("decode_alloc", mode, "decoded_utf8_bytes") == jar["decoded_utf8_bytes"], mode
