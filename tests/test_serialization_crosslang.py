"""Cross-language: the protobuf, Thrift (binary, compact), msgpack, CBOR, Avro, FlatBuffers and Fory (xlang) bytes
the JVM makes decode in Python to the equal value, and the other way round (Python encodes, the JVM's
CrossLanguage decode checks).

Python runs on CPython 3.11 (upb, Thrift's C fastbinary, msgpack's and cbor2's C extensions, pyfory's Cython) and on
PyPy 3.9 (the pure-Python codecs; pyfory has no PyPy release, so Fory is CPython only). The JVM side is
experiments/serialization/jmh's benchmarks.jar, built with Maven when missing or older than its sources. protobuf,
Thrift and msgpack are canonical for this schema and value shape, and so is Avro's binary encoding: both sides must
write the same bytes. Jackson's CBOR writes objects as indefinite-length maps (one more byte each), and FlatBuffers
builders lay a buffer out in their own order, so for those two only the decoding is compared. Fory's xlang format
leaves the string encoding to the writer (Java writes a non-Latin-1 string as UTF-8, pyfory as UTF-16), so its
compatible mode writes the same bytes on both sides only where every string is Latin-1; its schema-consistent mode
never does (pyfory tags the namespace's meta string and frames a list of structs differently). Both facts are
checked (README, "Fory across languages").
"""
from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import maven_jar
from test_serialization_python import EXPERIMENT, interpreter

JMH = EXPERIMENT / "jmh"
JAR = JMH / "target" / "benchmarks.jar"
CROSSLANG = EXPERIMENT / "python" / "crosslang.py"
FORMATS = ["protobuf", "thrift-binary", "thrift-compact", "msgpack", "cbor", "avro", "flatbuffers", "fory-xlang",
           "fory-xlang-consistent"]
IDENTICAL = {"protobuf", "thrift-binary", "thrift-compact", "msgpack", "avro"}
CPYTHON_ONLY = {"fory-xlang", "fory-xlang-consistent"}  # pyfory has no PyPy release
# non-ASCII and unset fields; 100 images (long lists, multi-byte lengths); unset fields beside zeros, empty
# strings and an empty list; no persons and no images
VALUES = ["unicode", "large", "sparse", "empty"]
# Fory xlang, compatible mode: the same bytes where every string is Latin-1, not where one is not (the writer picks
# a string's encoding); schema-consistent: never the same bytes.
FORY_LATIN1 = {"large", "sparse", "empty"}



def java(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["java", "-cp", str(JAR), "serialization.CrossLanguage", *args], capture_output=True, text=True,
                          timeout=120)


def python(exe: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([exe, str(CROSSLANG), *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def jar() -> Path:
    if not shutil.which("mvn") or not shutil.which("java"):
        pytest.fail("the cross-language test needs Maven and a JDK (make setup installs them)")
    # rebuilt when a source of it (its project, the shared java/ and schema/) is newer, by the harness's own
    # build: test_serialization_jvm.py, perhaps on another xdist worker, wants the same jar
    return maven_jar(JMH)


def value_file(value: str) -> str:
    return str(EXPERIMENT / "data" / f"media-{value}.json")


def pairs(files: dict[str, Path]) -> list[str]:
    """VALUE_JSON FILE pairs for one call of either side's CLI (one process per format: their start is most of it)."""
    return [arg for value, path in files.items() for arg in (value_file(value), str(path))]


def runs_on(runtime: str, fmt: str) -> bool:
    return runtime == "cpython" or fmt not in CPYTHON_ONLY


@pytest.mark.slow
def test_jvm_and_python_bytes_decode_on_the_other_side(jar: Path, tmp_path: Path) -> None:
    runtimes = {"cpython": interpreter("cpython-3.11"), "pypy": interpreter("pypy-3.9")}

    def jvm_files(fmt: str) -> dict[str, Path]:
        return {value: tmp_path / f"jvm-{fmt}-{value}.bin" for value in VALUES}

    def py_files(runtime: str, fmt: str) -> dict[str, Path]:
        return {value: tmp_path / f"{runtime}-{fmt}-{value}.bin" for value in VALUES}

    with ThreadPoolExecutor(max_workers=2) as pool:  # two at a time: the JVM's start-up dominates
        for fmt, done in zip(FORMATS, pool.map(lambda f: java("encode", f, *pairs(jvm_files(f))), FORMATS)):
            assert done.returncode == 0, f"JVM encode {fmt}: {done.stderr[-1500:]}"
        for runtime, exe in runtimes.items():
            mine = [fmt for fmt in FORMATS if runs_on(runtime, fmt)]
            encoded = pool.map(lambda f, exe=exe, runtime=runtime: python(exe, "encode", f, *pairs(py_files(runtime, f))),
                               mine)
            for fmt, done in zip(mine, encoded):
                assert done.returncode == 0, f"{runtime} encode {fmt}: {done.stderr}"
            decoded = pool.map(lambda f, exe=exe: python(exe, "decode", f, *pairs(jvm_files(f))), mine)
            for fmt, done in zip(mine, decoded):
                assert done.returncode == 0, f"the JVM's {fmt} bytes in Python ({runtime}): {done.stderr}"
        for fmt in FORMATS:
            for value in VALUES:
                jvm_bytes = jvm_files(fmt)[value].read_bytes()
                if fmt in IDENTICAL:
                    for runtime in runtimes:
                        assert py_files(runtime, fmt)[value].read_bytes() == jvm_bytes, \
                            f"{fmt} {value}: {runtime}'s bytes differ from the JVM's"
                elif fmt in CPYTHON_ONLY:
                    # Fory xlang: Java and pyfory write the same bytes in compatible mode where all strings are
                    # Latin-1, and otherwise do not (FORY_LATIN1): both halves of the README's statement are checked.
                    same = fmt == "fory-xlang" and value in FORY_LATIN1
                    assert (py_files("cpython", fmt)[value].read_bytes() == jvm_bytes) == same, \
                        f"{fmt} {value}: CPython's bytes {'differ from' if same else 'are'} the JVM's"
        # The JVM decodes what Python wrote: CPython's bytes, and PyPy's where they are not the same bytes.
        checks = [(runtime, fmt, {value: path for value, path in py_files(runtime, fmt).items()
                                  if runtime == "cpython" or path.read_bytes() != py_files("cpython", fmt)[value].read_bytes()})
                  for runtime in runtimes for fmt in FORMATS if runs_on(runtime, fmt)]
        checks = [check for check in checks if check[2]]
        for (runtime, fmt, _), done in zip(checks, pool.map(lambda c: java("decode", c[1], *pairs(c[2])), checks)):
            assert done.returncode == 0, f"{runtime}'s {fmt} bytes on the JVM: {done.stderr[-1500:]}"

        # The check can fail: the large value's bytes are not the unicode value, on either side.
        unicode = value_file("unicode")
        for fmt in FORMATS:
            in_python = python(runtimes["cpython"], "decode", fmt, unicode, str(tmp_path / f"jvm-{fmt}-large.bin"))
            assert in_python.returncode == 1 and "different value" in in_python.stderr, (fmt, in_python.stderr)
        mismatches = list(pool.map(lambda f: java("decode", f, unicode, str(tmp_path / f"cpython-{f}-large.bin")), FORMATS))
        for fmt, in_jvm in zip(FORMATS, mismatches):
            assert in_jvm.returncode == 1, (fmt, in_jvm.stderr[-500:])
        # Several files in one call: a difference in any of them fails the call, and names that file.
        many = java("decode", "protobuf", value_file("large"), str(tmp_path / "jvm-protobuf-large.bin"), unicode,
                    str(tmp_path / "jvm-protobuf-large.bin"), value_file("sparse"), str(tmp_path / "jvm-protobuf-sparse.bin"))
        assert many.returncode == 1 and many.stderr.count("different value") == 1, many.stderr
        many = python(runtimes["cpython"], "decode", "fory-xlang", value_file("sparse"),
                      str(tmp_path / "jvm-fory-xlang-sparse.bin"), unicode, str(tmp_path / "jvm-fory-xlang-large.bin"))
        assert many.returncode == 1 and "jvm-fory-xlang-large.bin" in many.stderr, many.stderr


@pytest.mark.slow
def test_undecodable_bytes_are_exit_2_without_a_traceback(jar: Path, tmp_path: Path) -> None:
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
    # Fory's Java side reads through Unsafe: junk must be an error the CLI reports, not a crashed JVM.
    for fmt in CPYTHON_ONLY:
        done = java("decode", fmt, data, str(junk))
        assert done.returncode == 2 and done.stderr.startswith("CrossLanguage decode"), (fmt, done.stderr[-1500:])
