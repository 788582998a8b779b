"""A resolved runtime: what it is exactly and how to start a program on it."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .spec import C1, JVM_HOSTED

HELPERS = Path(__file__).resolve().parents[3] / "helpers"


@dataclass(frozen=True)
class Runtime:
    family: str
    version: str  # exact, e.g. 3.11.7
    executable: Path  # python, ruby, go, or the java that hosts a jar
    source: str  # where it was found or fetched from
    flags: tuple[str, ...] = ()
    jdk_version: str = ""  # for java and JVM-hosted runtimes
    jar: Path | None = None
    home: Path | None = None  # Jython's python.home when its jar has no Lib
    min_jdk: int = 8
    note: str = ""
    details: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def jdk_major(self) -> str:
        first = self.jdk_version.split(".")[0]
        return first if first != "1" else self.jdk_version.split(".")[1]

    @property
    def name(self) -> str:
        text = f"{self.family}@{self.version}" + "".join("+" + f for f in self.flags)
        if self.family in JVM_HOSTED:
            text += f"/java@{self.jdk_major}"
        return text

    @property
    def program_family(self) -> str:
        """Which program file of an experiment this runtime runs."""
        if self.family in ("cpython", "pypy"):
            return "python2" if self.version.startswith("2.") else "python3"
        if self.family == "jython":
            return "python2"
        if self.family in ("cruby", "jruby"):
            return "ruby"
        return self.family

    def launch(self, program: Path, classpath: Path | None = None) -> tuple[list[str], dict[str, str]]:
        """argv and extra environment to run `program` (for java: `classpath` holds its compiled classes)."""
        exe = str(self.executable)
        python_helpers = str(HELPERS / "python")
        if self.family in ("cpython", "pypy"):
            return [exe, str(program)], {"PYTHONPATH": python_helpers, "PYTHONDONTWRITEBYTECODE": "1"}
        if self.family == "jython":
            path = [python_helpers, str(program.parent)]
            if "pythreading" in self.flags or "pythreading" in self.details.get("implied", ""):
                path.insert(0, str(HELPERS / "python" / "pythreading"))
            cache = self.details.get("cachedir", "")
            argv = [exe, *self.jvm_flags(), "-Xss2m", "-cp", str(self.jar), f"-Dpython.path={':'.join(path)}",
                    f"-Dpython.cachedir={cache}", "-Dpython.console.encoding=UTF-8"]
            if self.home:
                argv.append(f"-Dpython.home={self.home}")
            return argv + ["org.python.util.jython", str(program)], {}
        if self.family == "cruby":
            flags = ["--yjit"] if "yjit" in self.flags else []
            return [exe, *flags, "-I", str(HELPERS / "ruby"), str(program)], {}
        if self.family == "jruby":
            jvm, mode = self._jruby_mode()
            return [exe, *self.jvm_flags(), *jvm, "-Xss4m", "-jar", str(self.jar), *mode, "-I", str(HELPERS / "ruby"),
                    str(program)], {}
        if self.family == "java":
            if classpath is not None and classpath.suffix == ".jar":  # a Maven project's runnable jar
                return [exe, *self.jvm_flags(), "-jar", str(classpath)], {}
            return [exe, *self.jvm_flags(), "-cp", str(classpath), program.stem], {}
        if self.family == "go":
            return [exe, "run", str(program)], {}
        if self.family == "rust":  # `classpath` is the binary the driver built from the Cargo project
            return [str(classpath)], {}
        raise ValueError(f"no launcher for {self.family}")

    def jvm_flags(self) -> list[str]:
        """JVM options that the runtime's flags ask for: +int on java, +c1 on every JVM family."""
        flags = ["-Xint"] if self.family == "java" and "int" in self.flags else []
        return flags + ([C1] if "c1" in self.flags else [])

    def _jruby_mode(self) -> tuple[list[str], list[str]]:
        """(JVM options, JRuby options) for +int / +jit. JRuby 1.0 has no -X options: its JIT is a JVM
        property, and -C pre-compiles; from 1.7 on, -C means "cd", and -X-C / -X+C choose the mode."""
        old = self.version.split(".")[0] == "1" and self.version.split(".")[1:2] == ["0"]
        if "int" in self.flags:
            return (["-Djruby.jit.enabled=false"], []) if old else ([], ["-X-C"])
        if "jit" in self.flags:
            return ([], ["-C"]) if old else ([], ["-X+C"])
        return [], []
