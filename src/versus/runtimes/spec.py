"""Runtime specs: `family@version[+flag…][/java@N]`, e.g. `jython@2.5.0/java@25`, `cruby@3.1+yjit`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import UsageError
from .families import FAMILIES, JDK
from .model import version_matches

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



def parse_spec(text: str) -> RuntimeSpec:
    raw = text.strip()
    host, _, jdk_part = raw.partition("/")
    jdk = ""
    if jdk_part:
        jdk_spec = parse_spec(jdk_part)
        if jdk_spec.family != JDK or jdk_spec.flags or jdk_spec.jdk:
            raise UsageError(f"bad runtime spec {text!r}: after '/' comes a JDK such as java@17",
                             "write it like jython@2.7.4/java@25")
        jdk = jdk_spec.version
    match = _SPEC.match(host)
    if not match:
        raise UsageError(f"bad runtime spec {text!r}",
                         "write family@version[+flag][/java@N], e.g. cpython@3.11, cruby@3.1+yjit, jruby@10.1.1.0/java@25")
    family = match["family"]
    if family not in FAMILIES:
        raise UsageError(f"unknown runtime family {family!r} in {text!r}", "families are: " + ", ".join(FAMILIES))
    known = FAMILIES[family].flags
    flags = tuple(f for f in match["flags"].split("+") if f)
    if len(set(flags)) != len(flags):  # java@17+int+int is java@17+int, not another runtime
        again = next(f for f in flags if flags.count(f) > 1)
        raise UsageError(f"runtime spec {text!r} names +{again} twice", f"write it once: {family}@…+{again}")
    for flag in flags:
        if flag not in known:
            listed = ", ".join("+" + f for f in known) or "none"
            raise UsageError(f"unknown flag +{flag} for {family} in {text!r}", f"flags for {family}: {listed}")
    if jdk and not FAMILIES[family].jvm_hosted:
        hosted = ", ".join(name for name, f in FAMILIES.items() if f.jvm_hosted)
        raise UsageError(f"{text!r}: only JVM-hosted runtimes ({hosted}) take a /java@N", f"drop the /java@{jdk}")
    return RuntimeSpec(family, match["version"] or "", flags, jdk)
