"""Runtime specs: `family@version[+flag…][/java@N]`, e.g. `jython@2.5.0/java@25`, `cruby@3.1+yjit`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import UsageError

FAMILIES = ("cpython", "pypy", "jython", "cruby", "jruby", "java", "go", "rust")
JVM_HOSTED = ("jython", "jruby")

# Flags each family understands, with what they mean (shown by `versus runtimes`).
C1 = "-XX:TieredStopAtLevel=1"  # C1 only: the heir of the client compiler (-client) of Java 6

FLAGS: dict[str, dict[str, str]] = {
    "cruby": {"yjit": "--yjit"},
    "jruby": {"int": "interpreter (-X-C)", "jit": "compiler (-X+C)", "c1": f"JVM with the C1 compiler only ({C1})"},
    "jython": {"pythreading": "a threading module in Python around ReentrantLock, shaped like 2.5.0's",
               "c1": f"JVM with the C1 compiler only ({C1})"},
    "java": {"int": "-Xint (bytecode interpreter only)", "c1": f"C1 compiler only ({C1})"},
}

_SPEC = re.compile(r"^(?P<family>[a-z]+)(?:@(?P<version>[0-9A-Za-z.*]+|\*))?(?P<flags>(?:\+[a-z0-9_]+)*)$")


@dataclass(frozen=True, order=True)
class RuntimeSpec:
    family: str
    version: str = ""  # a prefix of dotted components; "" or "*" means any
    flags: tuple[str, ...] = field(default=())
    jdk: str = ""  # for JVM-hosted runtimes: the java version prefix

    @property
    def any_version(self) -> bool:
        return self.version in ("", "*")

    def __str__(self) -> str:
        text = self.family + (f"@{self.version}" if self.version else "")
        text += "".join("+" + f for f in self.flags)
        return text + (f"/java@{self.jdk}" if self.jdk else "")

    def matches_version(self, version: str) -> bool:
        return self.any_version or version_matches(self.version, version)


def version_matches(prefix: str, version: str) -> bool:
    """`3.11` matches `3.11.7`; `1.0` matches `1.0` but not `1.0.3`-less `10.0`."""
    want = prefix.split(".")
    have = version.split(".")
    return have[: len(want)] == want


def version_key(version: str) -> tuple[int | str, ...]:
    parts: list[int | str] = []
    for piece in re.split(r"[.\-]", version):
        parts.append(int(piece) if piece.isdigit() else -1)
    return tuple(parts)


def parse_spec(text: str) -> RuntimeSpec:
    raw = text.strip()
    host, _, jdk_part = raw.partition("/")
    jdk = ""
    if jdk_part:
        jdk_spec = parse_spec(jdk_part)
        if jdk_spec.family != "java" or jdk_spec.flags or jdk_spec.jdk:
            raise UsageError(f"bad runtime spec {text!r}: after '/' comes a JDK such as java@17",
                             "write it like jython@2.7.4/java@25")
        jdk = jdk_spec.version
    match = _SPEC.match(host)
    if not match:
        raise UsageError(f"bad runtime spec {text!r}",
                         "write family@version[+flag][/java@N], e.g. cpython@3.11, cruby@3.1+yjit, jruby@10.1.1.0/java@25")
    family = match["family"]
    if family not in FAMILIES:
        raise UsageError(f"unknown runtime family {family!r} in {text!r}",
                         "families are: " + ", ".join(FAMILIES))
    flags = tuple(f for f in match["flags"].split("+") if f)
    for flag in flags:
        if flag not in FLAGS.get(family, {}):
            known = ", ".join("+" + f for f in FLAGS.get(family, {})) or "none"
            raise UsageError(f"unknown flag +{flag} for {family} in {text!r}", f"flags for {family}: {known}")
    if jdk and family not in JVM_HOSTED:
        raise UsageError(f"{text!r}: only JVM-hosted runtimes ({', '.join(JVM_HOSTED)}) take a /java@N",
                         f"drop the /java@{jdk}")
    return RuntimeSpec(family, match["version"] or "", flags, jdk)


def parse_specs(text: str) -> list[RuntimeSpec]:
    return [parse_spec(part) for part in text.split(",") if part.strip()]
