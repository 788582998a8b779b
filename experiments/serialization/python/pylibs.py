"""Where the serialization programs find their packages and generated code, per interpreter.

scripts/serialization-python-deps.sh (build.py) installs the pinned serializers for each interpreter
into ${VERSUS_CACHE:-~/.cache/versus}/pylibs/serialization/<impl>-<X.Y.Z>/ and generates the
protobuf and Thrift code from experiments/serialization/schema/ into its gen/ folder. The harness runs
programs on pyenv's and Debian's interpreters, not on the .venv, so each needs its own folder.

The folder's .stamp holds a digest of everything the build read (requirements, schema, build.py): a
folder built from other inputs is refused, so a program never measures stale generated code.
Python 3.9 syntax (PyPy 3.9); imports only the standard library.
"""
import hashlib
import os
import sys
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
EXPERIMENT = os.path.dirname(HERE)
SCHEMA = os.path.join(EXPERIMENT, "schema")
REQUIREMENTS = os.path.join(HERE, "requirements")
BUILD_COMMAND = "scripts/serialization-python-deps.sh"

# Per implementation: the serializers' requirements and the protoc whose gencode that protobuf runtime
# accepts (protobuf refuses gencode of a newer major version than itself).
IMPLS = {
    "cpython": ("cpython.txt", "protoc-7.txt"),
    "pypy": ("pypy.txt", "protoc-6.txt"),
}
SCHEMA_FILES = ("media.proto", "media.thrift", "media.fbs", "media.capnp")


class SetupError(Exception):
    """The packages or generated code for this interpreter are missing or stale."""


def impl_name() -> str:
    if hasattr(sys, "pypy_version_info"):
        return "pypy"
    return sys.implementation.name


def tag(impl: Optional[str] = None, version: Optional[str] = None) -> str:
    """cpython-3.11.7, pypy-3.9.16: the interpreter's folder name."""
    impl = impl or impl_name()
    version = version or "%d.%d.%d" % tuple(sys.version_info[:3])
    return "%s-%s" % (impl, version)


def cache_root() -> str:
    cache = os.environ.get("VERSUS_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "versus")
    return os.path.join(cache, "pylibs", "serialization")


def folder(impl: Optional[str] = None, version: Optional[str] = None) -> str:
    return os.path.join(cache_root(), tag(impl, version))


def inputs(impl: str) -> List[str]:
    """The files whose content a build for `impl` depends on."""
    if impl not in IMPLS:
        raise SetupError("no serialization packages for %s (only %s)" % (impl, ", ".join(sorted(IMPLS))))
    requirements, protoc = IMPLS[impl]
    return ([os.path.join(REQUIREMENTS, requirements), os.path.join(REQUIREMENTS, protoc)]
            + [os.path.join(SCHEMA, name) for name in SCHEMA_FILES]
            + [os.path.join(HERE, "build.py")])


def digest(impl: str) -> str:
    """sha256 over the names and contents of the build's inputs."""
    h = hashlib.sha256()
    for path in inputs(impl):
        h.update(os.path.basename(path).encode("utf-8") + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    return h.hexdigest()


def requirements(impl: Optional[str] = None) -> Dict[str, str]:
    """{distribution name: version} of the serializers pinned for this implementation."""
    impl = impl or impl_name()
    pins: Dict[str, str] = {}
    with open(os.path.join(REQUIREMENTS, IMPLS[impl][0])) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                name, version = line.split("==")
                pins[name.strip().lower()] = version.strip()
    return pins


def activate() -> str:
    """Put this interpreter's package folder and generated code first on sys.path; SetupError if absent or stale."""
    impl = impl_name()
    where = folder()
    stamp = os.path.join(where, ".stamp")
    fix = "run %s (or %s %s) to install them" % (BUILD_COMMAND, BUILD_COMMAND, sys.executable)
    if impl not in IMPLS:
        raise SetupError("the serialization programs run on CPython and PyPy, not on %s" % impl)
    if not os.path.isfile(stamp):
        raise SetupError("the serializers are not installed for %s (no %s): %s" % (tag(), where, fix))
    with open(stamp) as f:
        built = f.read().split()
    if not built or built[0] != digest(impl):
        raise SetupError("the serializers in %s were built from other requirements, schema or build.py: %s"
                         % (where, fix))
    for path in (os.path.join(where, "gen"), where):
        if path not in sys.path:
            sys.path.insert(0, path)
    return where
