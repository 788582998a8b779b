"""Cross-language: the protobuf, Thrift (binary, compact), msgpack, CBOR, Avro and FlatBuffers bytes the JVM
makes decode in Python to the equal value, and the other way round (Python encodes, the JVM's
CrossLanguage decode checks).

Python runs on CPython 3.11 (upb, Thrift's C fastbinary, msgpack's and cbor2's C extensions) and on
PyPy 3.9 (the pure-Python codecs). The JVM side is experiments/serialization/jmh's benchmarks.jar, built
with Maven when missing or older than its sources. protobuf, Thrift and msgpack are canonical for this
schema and value shape, and so is Avro's binary encoding: both sides must write the same bytes. Jackson's
CBOR writes objects as indefinite-length maps (one more byte each), and FlatBuffers builders lay a buffer
out in their own order, so for those two only the decoding is compared. Fory is not here: its Java mode
and pyfory's Python mode are each their own language's format (README, "Across languages").
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
FORMATS = ["protobuf", "thrift-binary", "thrift-compact", "msgpack", "cbor", "avro", "flatbuffers"]
IDENTICAL = {"protobuf", "thrift-binary", "thrift-compact", "msgpack", "avro"}
# non-ASCII and unset fields; 100 images (long lists, multi-byte lengths); unset fields beside zeros, empty
# strings and an empty list
VALUES = ["unicode", "large", "sparse"]


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


Job = tuple[str, str, str]  # format, value name, value file


def jobs() -> list[Job]:
    return [(fmt, value, str(EXPERIMENT / "data" / f"media-{value}.json")) for fmt in FORMATS for value in VALUES]


@pytest.mark.slow
def test_jvm_and_python_bytes_decode_on_the_other_side(jar: Path, tmp_path: Path) -> None:
    runtimes = {"cpython": interpreter("cpython-3.11"), "pypy": interpreter("pypy-3.9")}
    work = jobs()

    def jvm_file(job: Job) -> Path:
        return tmp_path / f"jvm-{job[0]}-{job[1]}.bin"

    def py_file(runtime: str, job: Job) -> Path:
        return tmp_path / f"{runtime}-{job[0]}-{job[1]}.bin"

    with ThreadPoolExecutor(max_workers=2) as pool:  # two at a time: the JVM's start-up dominates
        for job, done in zip(work, pool.map(lambda j: java("encode", j[0], j[2], str(jvm_file(j))), work)):
            assert done.returncode == 0, f"JVM encode {job[:2]}: {done.stderr[-1500:]}"
        for runtime, exe in runtimes.items():
            encoded = pool.map(lambda j, exe=exe, runtime=runtime: python(exe, "encode", j[0], j[2], str(py_file(runtime, j))),
                               work)
            for job, done in zip(work, encoded):
                assert done.returncode == 0, f"{runtime} encode {job[:2]}: {done.stderr}"
            decoded = pool.map(lambda j, exe=exe: python(exe, "decode", j[0], j[2], str(jvm_file(j))), work)
            for job, done in zip(work, decoded):
                assert done.returncode == 0, f"the JVM's {job[0]} bytes of {job[1]} in Python ({runtime}): {done.stderr}"
        for job in work:
            if job[0] in IDENTICAL:
                for runtime in runtimes:
                    assert py_file(runtime, job).read_bytes() == jvm_file(job).read_bytes(), \
                        f"{job[0]} {job[1]}: {runtime}'s bytes differ from the JVM's"
        # The JVM decodes what Python wrote: CPython's bytes, and PyPy's where they are not the same bytes.
        checks = [(runtime, job) for runtime in runtimes for job in work
                  if runtime == "cpython" or py_file(runtime, job).read_bytes() != py_file("cpython", job).read_bytes()]
        for (runtime, job), done in zip(checks, pool.map(lambda c: java("decode", c[1][0], c[1][2], str(py_file(*c))), checks)):
            assert done.returncode == 0, f"{runtime}'s {job[0]} bytes of {job[1]} on the JVM: {done.stderr[-1500:]}"

        # The check can fail: the large value's bytes are not the unicode value, on either side.
        unicode = str(EXPERIMENT / "data" / "media-unicode.json")
        for fmt in FORMATS:
            in_python = python(runtimes["cpython"], "decode", fmt, unicode, str(tmp_path / f"jvm-{fmt}-large.bin"))
            assert in_python.returncode == 1 and "different value" in in_python.stderr, (fmt, in_python.stderr)
        mismatches = list(pool.map(lambda f: java("decode", f, unicode, str(tmp_path / f"cpython-{f}-large.bin")), FORMATS))
        for fmt, in_jvm in zip(FORMATS, mismatches):
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
    usage = python(exe, "decode", "yaml", data, str(junk))
    assert usage.returncode == 2 and "usage:" in usage.stderr
