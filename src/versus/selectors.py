"""Runtime selectors used by cases and claims: `jruby@1`, `jython@>=2.5.1`, `cruby@3.1+yjit`, `jruby/java@25`."""
from __future__ import annotations

import re

from .errors import ExperimentError
from .runtimes.model import Runtime
from .runtimes.spec import version_key, version_matches

_SELECTOR = re.compile(r"^(?P<family>[a-z]+)(?:@(?P<op>>=|<=|>|<)?(?P<version>[0-9A-Za-z.]+))?"
                       r"(?P<flags>(?:\+[a-z0-9_]+)*)(?:/java@(?P<jdk>[0-9.]+))?$")


def matches(selector: str, runtime: Runtime, strict_flags: bool = True) -> bool:
    """With strict_flags, `jython@2.5.1` does not match `jython@2.5.1+pythreading`: claims need that."""
    found = _SELECTOR.match(selector.strip())
    if not found:
        raise ExperimentError(f"bad runtime selector {selector!r}",
                              "write family, family@VERSION, family@>=VERSION, with optional +flag and /java@N")
    if found["family"] != runtime.family:
        return False
    version, op = found["version"], found["op"]
    if version:
        if op:
            have, want = version_key(runtime.version), version_key(version)
            ok = {">=": have >= want, "<=": have <= want, ">": have > want, "<": have < want}[op]
            if not ok:
                return False
        elif not version_matches(version, runtime.version):
            return False
    flags = {f for f in found["flags"].split("+") if f}
    if flags != set(runtime.flags) and (strict_flags or not flags <= set(runtime.flags)):
        return False
    return not found["jdk"] or version_matches(found["jdk"], runtime.jdk_version)
