"""Install the serialization experiment's Python packages and generated code, per interpreter.

    scripts/serialization-python-deps.sh              CPython 3.11 and 3.13 and PyPy 3.9, as `versus runtimes` finds them
    scripts/serialization-python-deps.sh PYTHON ...   these interpreters (CPython >= 3.11 or PyPy 3.9)

For each interpreter, into ${VERSUS_CACHE:-~/.cache/versus}/pylibs/serialization/<impl>-<X.Y.Z>/ (pylibs.py):
the pinned packages of requirements/<impl>.txt, installed by that interpreter itself with a pinned pip
(pip --target; the harness runs pyenv's and Debian's interpreters, not the .venv), and gen/ with the code
that protoc (grpcio-tools from PyPI, pinned per protobuf major: requirements/protoc-*.txt), Debian's
thrift-compiler 0.17.0 and Debian's flatbuffers-compiler (flatc 2.0.8) generate from
experiments/serialization/schema/. Then the interpreter round-trips
every value through every serializer (serbench.py --check); only then is the folder stamped as usable.

Idempotent: a folder whose stamp matches the inputs' digest is left alone. A failure for one interpreter
is reported and the others go on; the exit code is 1 if any failed. Runs on the harness's .venv Python.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))
import pylibs  # noqa: E402

PIP_VERSION = "25.2"  # the newest pip that still runs on Python 3.9 (PyPy); pip 26 needs 3.10
THRIFT_VERSION = "0.17.0"  # Debian 12's thrift-compiler
FLATC_VERSION = "2.0.8"  # Debian 12's flatbuffers-compiler
DEFAULT_RUNTIMES = (("cpython", "3.11"), ("cpython", "3.13"), ("pypy", "3.9"))
PROTOC_FOR = {"cpython": "protoc-7", "pypy": "protoc-6"}


class BuildError(Exception):
    pass


def say(message: str) -> None:
    print("serialization-python-deps: " + message, file=sys.stderr, flush=True)


def run(command: list[str], env: dict[str, str] | None = None, timeout: float = 900) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BuildError(f"{command[0]}: {error}") from None
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
        raise BuildError(f"`{' '.join(command)}` failed (exit {done.returncode}):\n{tail}")
    return done.stdout


def tools_dir() -> Path:
    return Path(pylibs.cache_root()) / "tools"


def pip_wheel() -> Path:
    """A pinned pip wheel, which every interpreter runs as `python pip.whl/pip`."""
    wheel = tools_dir() / f"pip-{PIP_VERSION}-py3-none-any.whl"
    if not wheel.is_file():
        tools_dir().mkdir(parents=True, exist_ok=True)
        run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
             "--only-binary=:all:", f"pip=={PIP_VERSION}", "-d", str(tools_dir())])
    if not wheel.is_file():
        raise BuildError(f"pip download gave no {wheel.name}")
    return wheel


def protoc(name: str) -> Path:
    """grpcio-tools pinned by requirements/NAME.txt, installed once into the tools folder; returns its folder."""
    requirements = HERE / "requirements" / f"{name}.txt"
    folder = tools_dir() / name
    stamp = folder / ".stamp"
    wanted = requirements.read_text()
    if not (stamp.is_file() and stamp.read_text() == wanted):
        if folder.exists():
            shutil.rmtree(folder)
        run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
             "--only-binary=:all:", "--target", str(folder), "-r", str(requirements)])
        stamp.write_text(wanted)
    return folder


def run_protoc(tools: Path, out: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(tools))
    version = run([sys.executable, "-m", "grpc_tools.protoc", "--version"], env=env).strip()
    run([sys.executable, "-m", "grpc_tools.protoc", f"-I{pylibs.SCHEMA}", f"--python_out={out}",
         os.path.join(pylibs.SCHEMA, "media.proto")], env=env)
    say(f"  generated media_pb2.py with {version} ({tools.name})")


def thrift_compiler() -> str:
    thrift = shutil.which("thrift")
    if not thrift:
        raise BuildError("no thrift compiler: install Debian's thrift-compiler (apt-get install -y thrift-compiler; "
                         "`make system-packages` does it as root)")
    version = run([thrift, "--version"]).strip()
    if version != f"Thrift version {THRIFT_VERSION}":
        raise BuildError(f"{thrift} is {version!r}; the generated code is pinned to Thrift {THRIFT_VERSION} "
                         "(Debian 12's thrift-compiler)")
    return thrift


def flatc() -> str:
    found = shutil.which("flatc")
    if not found:
        raise BuildError("no flatc: install Debian's flatbuffers-compiler (apt-get install -y flatbuffers-compiler; "
                         "`make system-packages` does it as root)")
    version = run([found, "--version"]).strip()
    if version != f"flatc version {FLATC_VERSION}":
        raise BuildError(f"{found} is {version!r}; the generated code is pinned to flatc {FLATC_VERSION} "
                         "(Debian 12's flatbuffers-compiler)")
    return found


def interpreter(python: str) -> tuple[str, str, str]:
    """(impl, X.Y.Z, executable) of an interpreter."""
    out = run([python, "-c", "import sys; print(getattr(sys, 'pypy_version_info', None) and 'pypy' or "
               "sys.implementation.name); print('%d.%d.%d' % sys.version_info[:3]); print(sys.executable)"])
    impl, version, executable = out.split("\n")[:3]
    return impl, version, executable


def default_pythons() -> list[str]:
    """The newest patch of each DEFAULT_RUNTIMES version that `versus runtimes` lists (as the harness resolves them)."""
    versus = ROOT / ".venv" / "bin" / "versus"
    if not versus.exists():
        raise BuildError(f"no {versus}: run make setup first, or name the interpreters")
    found = subprocess.run([str(versus), "runtimes"], capture_output=True, text=True, timeout=120)
    listing = found.stdout
    if found.returncode != 0 or "@" not in listing:
        say("note: `versus runtimes` failed; looking in pyenv's folder and on PATH instead")
        listing = fallback_listing()
    best: dict[tuple[str, str], tuple[tuple[int, ...], str]] = {}
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) < 2 or "@" not in parts[0]:
            continue
        family, version = parts[0].split("@", 1)
        minor = ".".join(version.split(".")[:2])
        if (family, minor) in DEFAULT_RUNTIMES and os.path.isabs(parts[1]):
            key = tuple(int(x) for x in version.split(".") if x.isdigit())
            if (family, minor) not in best or key > best[(family, minor)][0]:
                best[(family, minor)] = (key, parts[1])
    for wanted in DEFAULT_RUNTIMES:
        if wanted not in best:
            say(f"note: `versus runtimes` lists no {wanted[0]}@{wanted[1]}; skipped")
    return [best[w][1] for w in DEFAULT_RUNTIMES if w in best]


def fallback_listing() -> str:
    """Lines shaped like `versus runtimes` output, from pyenv's versions and pypy3 on PATH."""
    lines = []
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    for python in sorted(pyenv.glob("*/bin/python")):
        version = python.parent.parent.name
        if version[:1].isdigit():
            lines.append(f"cpython@{version} {python}")
    pypy = shutil.which("pypy3")
    if pypy:
        try:
            _, version, executable = interpreter(pypy)
            lines.append(f"pypy@{version} {executable}")
        except BuildError:
            pass
    return "\n".join(lines)


def build(python: str) -> str:
    """Bring one interpreter's folder up to date; returns what was done."""
    impl, version, executable = interpreter(python)
    if impl not in pylibs.IMPLS:
        raise BuildError(f"{python} is {impl}, not CPython or PyPy")
    major_minor = tuple(int(x) for x in version.split(".")[:2])
    if (impl == "cpython" and major_minor < (3, 11)) or (impl == "pypy" and major_minor != (3, 9)):
        raise BuildError(f"{python} is {impl} {version}: the pins are for CPython >= 3.11 (fastavro 1.13 needs it) "
                         "and PyPy 3.9")
    folder = Path(pylibs.folder(impl, version))
    digest = pylibs.digest(impl)
    stamp = folder / ".stamp"
    if stamp.is_file() and stamp.read_text().split()[:1] == [digest]:
        return f"{folder.name}: up to date"
    started = time.monotonic()
    say(f"{impl} {version} ({executable}): installing into {folder}")
    temporary = folder.with_name(folder.name + f".tmp{os.getpid()}")
    if temporary.exists():
        shutil.rmtree(temporary)
    requirements = HERE / "requirements" / pylibs.IMPLS[impl][0]
    env = dict(os.environ, PIP_NO_INPUT="1", PYTHONNOUSERSITE="1")
    env.pop("PYTHONPATH", None)
    run([executable, str(pip_wheel() / "pip"), "install", "-q", "--disable-pip-version-check",
         "--root-user-action=ignore", "--no-warn-script-location", "--no-deps", "--target", str(temporary),
         "-r", str(requirements)], env=env)
    gen = temporary / "gen"
    gen.mkdir()
    run_protoc(protoc(PROTOC_FOR[impl]), gen)
    run([thrift_compiler(), "--gen", "py", "-out", str(gen), os.path.join(pylibs.SCHEMA, "media.thrift")])
    run([flatc(), "--python", "-o", str(gen), os.path.join(pylibs.SCHEMA, "media.fbs")])
    (temporary / ".stamp").write_text(f"{digest} {executable}\n")
    if folder.exists():
        shutil.rmtree(folder)
    temporary.rename(folder)
    # Only an interpreter that round-trips every value through every serializer keeps its stamp.
    check = subprocess.run([executable, str(HERE / "serbench.py"), "--check"], capture_output=True, text=True,
                           env=dict(env, PYTHONPATH=str(ROOT / "helpers" / "python")), timeout=600)
    if check.returncode != 0:
        stamp.unlink()
        raise BuildError("installed, but the round-trip check failed:\n" + (check.stdout + check.stderr).strip()[-2000:])
    return f"{folder.name}: installed and checked in {time.monotonic() - started:.0f} s"


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    try:
        pythons = argv or default_pythons()
    except BuildError as error:
        say(f"error: {error}")
        return 1
    failed = 0
    # One build at a time in this cache: two test processes (xdist workers) or runs may call this script at
    # once, and an interpreter's folder is replaced whole, the tools' folders removed and installed again.
    Path(pylibs.cache_root()).mkdir(parents=True, exist_ok=True)
    with open(Path(pylibs.cache_root()) / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for python in pythons:
            try:
                say(build(python))
            except BuildError as error:
                failed += 1
                say(f"error: {python}: {error}")
    if failed:
        say(f"{failed} of {len(pythons)} interpreters failed; their serialization arms fail until this script succeeds")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
