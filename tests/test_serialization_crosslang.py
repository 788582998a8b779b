"""Cross-language: the protobuf, Thrift (binary, compact), msgpack and CBOR bytes the JVM makes decode in
Python to the equal value, and the other way round (Python encodes, the JVM's CrossLanguage decode checks).

Python runs on CPython 3.11 (upb, Thrift's C fastbinary, msgpack's and cbor2's C extensions) and on
PyPy 3.9 (the pure-Python codecs). The JVM side is experiments/serialization/jmh's benchmarks.jar, built
with Maven when missing or older than its sources. protobuf, Thrift and msgpack are canonical for this
schema and value shape: both sides must write the same bytes. Jackson's CBOR writes objects as
indefinite-length maps (one more byte each), so for CBOR only the decoding is compared.
"""
from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from test_serialization_python import EXPERIMENT, interpreter

JMH = EXPERIMENT / "jmh"
JAR = JMH / "target" / "benchmarks.jar"
CROSSLANG = EXPERIMENT / "python" / "crosslang.py"
FORMATS = ["protobuf", "thrift-binary", "thrift-compact", "msgpack", "cbor"]
IDENTICAL = {"protobuf", "thrift-binary", "thrift-compact", "msgpack"}
VALUES = ["standard", "unicode", "large"]


def build_jar() -> Path:
    """The JVM jar, rebuilt with Maven when a source of it (its project, the shared java/ and schema/) is newer."""
    sources = [p for folder in (JMH / "src", EXPERIMENT / "java", EXPERIMENT / "schema") for p in folder.rglob("*")
               if p.is_file()] + [JMH / "pom.xml"]
    if JAR.exists() and all(p.stat().st_mtime <= JAR.stat().st_mtime for p in sources):
        return JAR
    done = subprocess.run(["mvn", "-q", "-B", "-f", str(JMH / "pom.xml"), "package", "-DskipTests"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0 and JAR.exists(), (done.stdout + done.stderr)[-3000:]
    return JAR


def java(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["java", "-cp", str(JAR), "serialization.CrossLanguage", *args], capture_output=True, text=True,
                          timeout=120)


def python(exe: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([exe, str(CROSSLANG), *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def jar() -> Path:
    if not shutil.which("mvn") or not shutil.which("java"):
        pytest.fail("the cross-language test needs Maven and a JDK (make setup installs them)")
    return build_jar()


@pytest.mark.slow
@pytest.mark.parametrize("runtime", ["cpython-3.11", "pypy-3.9"])
def test_jvm_and_python_bytes_decode_on_the_other_side(runtime: str, jar: Path, tmp_path: Path) -> None:
    exe = interpreter(runtime)
    jobs = []  # (what, callable) pairs, run two at a time: the JVM's start-up dominates
    for fmt in FORMATS:
        for value in VALUES:
            data = str(EXPERIMENT / "data" / f"media-{value}.json")
            from_jvm, from_python = tmp_path / f"jvm-{fmt}-{value}.bin", tmp_path / f"py-{fmt}-{value}.bin"
            jobs.append((fmt, value, data, from_jvm, from_python))

    def encode(job: tuple[str, str, str, Path, Path]) -> tuple[subprocess.CompletedProcess[str], ...]:
        fmt, _, data, from_jvm, from_python = job
        return java("encode", fmt, data, str(from_jvm)), python(exe, "encode", fmt, data, str(from_python))

    def decode(job: tuple[str, str, str, Path, Path]) -> tuple[subprocess.CompletedProcess[str], ...]:
        fmt, _, data, from_jvm, from_python = job
        return python(exe, "decode", fmt, data, str(from_jvm)), java("decode", fmt, data, str(from_python))

    with ThreadPoolExecutor(max_workers=2) as pool:
        for job, results in zip(jobs, pool.map(encode, jobs)):
            for result in results:
                assert result.returncode == 0, f"{job[0]} {job[1]} encode: {result.stderr[-1500:]}"
        for job, (in_python, in_jvm) in zip(jobs, pool.map(decode, jobs)):
            fmt, value, _, from_jvm, from_python = job
            assert in_python.returncode == 0, f"JVM {fmt} bytes of {value} in Python ({runtime}): {in_python.stderr}"
            assert in_jvm.returncode == 0, f"Python ({runtime}) {fmt} bytes of {value} on the JVM: {in_jvm.stderr[-1500:]}"
            if fmt in IDENTICAL:
                assert from_python.read_bytes() == from_jvm.read_bytes(), f"{fmt} {value}: the two sides' bytes differ"

    # The check can fail: the standard value's bytes are not the unicode value, on either side.
    unicode = str(EXPERIMENT / "data" / "media-unicode.json")

    def mismatch(fmt: str) -> tuple[subprocess.CompletedProcess[str], ...]:
        return (python(exe, "decode", fmt, unicode, str(tmp_path / f"jvm-{fmt}-standard.bin")),
                java("decode", fmt, unicode, str(tmp_path / f"py-{fmt}-standard.bin")))

    with ThreadPoolExecutor(max_workers=2) as pool:
        for fmt, (in_python, in_jvm) in zip(FORMATS, pool.map(mismatch, FORMATS)):
            assert in_python.returncode == 1 and "different value" in in_python.stderr, (fmt, in_python.stderr)
            assert in_jvm.returncode == 1, (fmt, in_jvm.stderr[-500:])


@pytest.mark.slow
def test_undecodable_bytes_are_exit_2_without_a_traceback(tmp_path: Path) -> None:
    exe = interpreter("cpython-3.11")
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\xff\x00\x13not a message")
    data = str(EXPERIMENT / "data" / "media-standard.json")
    for fmt in FORMATS:
        done = python(exe, "decode", fmt, data, str(junk))
        assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.startswith("crosslang"), \
            (fmt, done.stderr)
    usage = python(exe, "decode", "avro", data, str(junk))
    assert usage.returncode == 2 and "usage:" in usage.stderr
