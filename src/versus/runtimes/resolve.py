"""Turn runtime specs into runtimes: found on this machine, or fetched into the cache."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

from ..errors import FetchError
from .families import FAMILIES, JDK, family
from .model import Runtime, version_key
from .spec import RuntimeSpec


@dataclass
class Resolution:
    runtimes: list[Runtime] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why a spec gave nothing, or fewer pairs


@functools.cache
def installed(name: str) -> tuple[Runtime, ...]:
    """What a family finds on this machine (probed once per process)."""
    kind = family(name)
    return tuple(kind.described(runtime) for runtime in kind.discover())


def jdks() -> tuple[Runtime, ...]:
    """The JDKs of this machine: what JVM-hosted runtimes run on."""
    return installed(JDK)


def found_here() -> list[Runtime]:
    return [r for name in FAMILIES for r in installed(name)]


def _newest_per_minor(runtimes: list[Runtime]) -> list[Runtime]:
    best: dict[tuple[str, str], Runtime] = {}
    for runtime in sorted(runtimes, key=lambda r: version_key(r.version)):
        best[(runtime.family, ".".join(runtime.version.split(".")[:2]))] = runtime
    return list(best.values())


def _pick(spec: RuntimeSpec, candidates: list[Runtime]) -> list[Runtime]:
    matching = [r for r in candidates if r.family == spec.family and spec.matches_version(r.version)]
    if not matching:
        return []
    if spec.version == "*":
        return _newest_per_minor(matching)
    return [max(matching, key=lambda r: version_key(r.version))]


def jdk_for(version: str) -> Runtime | None:
    picked = _pick(RuntimeSpec(JDK, version), list(jdks()))
    return picked[0] if picked else None


def resolve(spec: RuntimeSpec, default_jdks: list[str], fetch: bool = True) -> Resolution:
    """Every runtime a spec names; JVM-hosted ones once per JDK that can run them."""
    out = Resolution()
    kind = family(spec.family)
    if not kind.jvm_hosted:
        picked = _pick(spec, list(installed(spec.family)))
        out.runtimes = [replace(r, flags=spec.flags) for r in picked]
        if not picked:
            out.notes.append(f"{spec}: not found on this machine ({kind.install_hint})")
        return out
    entries = [e for e in kind.catalog if spec.matches_version(e.version)]
    if spec.version == "":
        entries = entries[-1:]
    if not entries:
        known = ", ".join(f"{e.family}@{e.version}" for e in kind.catalog)
        out.notes.append(f"{spec}: not a version versus can fetch (it can fetch {known})")
        return out
    for entry in entries:
        for wanted in ([spec.jdk] if spec.jdk else default_jdks):
            jdk = jdk_for(wanted)
            if jdk is None:
                out.notes.append(f"{spec}: no JDK java@{wanted} on this machine")
            elif int(jdk.jdk_major) < entry.min_jdk:
                out.notes.append(f"{entry.family}@{entry.version} skipped on java@{jdk.jdk_major}: "
                                 f"it needs Java {entry.min_jdk}+")
            else:
                try:
                    out.runtimes.append(kind.fetched(entry, spec.flags, jdk, fetch))
                except FetchError as error:
                    out.notes.append(f"{entry.family}@{entry.version}: {error.message}")
    return out
