"""Runtime selectors used by cases, claims and baselines: `jruby@1`, `jython@>=2.5.1`, `cruby@3.1+yjit`,
`jruby/java@25`, `cpython@*`."""
from __future__ import annotations

import re
from typing import Protocol

from .errors import ExperimentError
from .runtimes.families import FAMILIES
from .runtimes.model import version_key, version_matches

_SELECTOR = re.compile(r"^(?P<family>[a-z0-9]+)(?:@(?P<op>>=|<=|>|<)?(?P<version>[0-9A-Za-z.]+|\*))?"
                       r"(?P<flags>(?:\+[a-z0-9_]+)*)(?:/java@(?P<jdk>[0-9.]+))?$")


class RuntimeLike(Protocol):
    """What a selector looks at: a resolved Runtime or a stored arm's runtime description."""

    @property
    def family(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def flags(self) -> tuple[str, ...]: ...

    @property
    def jdk_version(self) -> str: ...


def check_selector(selector: str) -> None:
    """Syntax, family and flags; raises ExperimentError with how to write one."""
    found = _SELECTOR.match(selector.strip().removeprefix("!"))
    if not found:
        raise ExperimentError(f"bad runtime selector {selector!r}",
                              "write family, family@VERSION, family@>=VERSION, with optional +flag and /java@N")
    if found["family"] not in FAMILIES:
        raise ExperimentError(f"runtime selector {selector!r} names family {found['family']!r}, which versus does not know",
                              "families are: " + ", ".join(FAMILIES))
    known = FAMILIES[found["family"]].flags
    named = [f for f in found["flags"].split("+") if f]
    if len(set(named)) != len(named):
        raise ExperimentError(f"runtime selector {selector!r} names a flag twice", "write each +flag once")
    for flag in named:
        if flag not in known:
            raise ExperimentError(f"runtime selector {selector!r}: {found['family']} has no flag +{flag}",
                                  f"flags of {found['family']}: " + (", ".join("+" + f for f in known) or "none"))


def selected(selectors: tuple[str, ...] | list[str], runtime: RuntimeLike) -> bool:
    """A case's `runtimes`: the runtime matches one of the selectors (flags it does not name are
    allowed) and none of those written `!selector` (`!jython+c1`: no Jython with the C1 flag)."""
    include = [s for s in selectors if not s.startswith("!")]
    exclude = [s[1:] for s in selectors if s.startswith("!")]
    if include and not any(matches(s, runtime, strict_flags=False) for s in include):
        return False
    return not any(matches(s, runtime, strict_flags=False) for s in exclude)


def matches(selector: str, runtime: RuntimeLike, strict_flags: bool = True) -> bool:
    """With strict_flags, `jython@2.5.1` does not match `jython@2.5.1+pythreading`: claims need that."""
    found = _SELECTOR.match(selector.strip())
    if not found:
        raise ExperimentError(f"bad runtime selector {selector!r}",
                              "write family, family@VERSION, family@>=VERSION, with optional +flag and /java@N")
    if found["family"] != runtime.family:
        return False
    version, op = found["version"], found["op"]
    if version and version != "*":
        if op:
            have, want = version_key(runtime.version), version_key(version)
            if not {">=": have >= want, "<=": have <= want, ">": have > want, "<": have < want}[op]:
                return False
        elif not version_matches(version, runtime.version):
            return False
    flags = {f for f in found["flags"].split("+") if f}
    if flags != set(runtime.flags) and (strict_flags or not flags <= set(runtime.flags)):
        return False
    return not found["jdk"] or version_matches(found["jdk"], runtime.jdk_version)
