"""Turn runtime specs into runtimes: found on this machine, or fetched into the cache."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from ..errors import FetchError
from ..paths import cache_dir
from .catalog import Fetchable
from .families import FAMILIES, family
from .fetch import extract_lib, fetch_artifact
from .model import Runtime
from .spec import RuntimeSpec, version_key


@dataclass
class Resolution:
    runtimes: list[Runtime] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why a spec gave nothing, or fewer pairs


@functools.cache
def installed(name: str) -> tuple[Runtime, ...]:
    """What a family finds on this machine (probed once per process)."""
    return tuple(family(name).discover())


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
    picked = _pick(RuntimeSpec("java", version), list(installed("java")))
    return picked[0] if picked else None


def _hosted(entry: Fetchable, spec: RuntimeSpec, jdk: Runtime, fetch: bool) -> Runtime:
    if not fetch:
        jar = cache_dir() / "jars" / entry.jar.filename
        home = None
    else:
        jar = fetch_artifact(entry.jar)
        home = extract_lib(fetch_artifact(entry.lib_from), entry.lib_from.version) if entry.lib_from else None
    cachedir = cache_dir() / "jython-cachedir" / f"{entry.version}-java{jdk.jdk_major}"
    # Implied flags shape the launch but not the name: jython@2.5.0 always runs with them.
    details = {"cachedir": str(cachedir), "implied": ",".join(entry.implied_flags)}
    return Runtime(entry.family, entry.version, jdk.executable, f"maven:{entry.jar.coordinate}", spec.flags,
                   jdk.version, jar, home, details=details)


def resolve(spec: RuntimeSpec, default_jdks: list[str], fetch: bool = True) -> Resolution:
    """Every runtime a spec names; JVM-hosted ones once per JDK that can run them."""
    out = Resolution()
    kind = family(spec.family)
    if not kind.jvm_hosted:
        picked = _pick(spec, list(installed(spec.family)))
        out.runtimes = [Runtime(r.family, r.version, r.executable, r.source, spec.flags, r.jdk_version,
                                details=r.details) for r in picked]
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
                    out.runtimes.append(_hosted(entry, spec, jdk, fetch))
                except FetchError as error:
                    out.notes.append(f"{entry.family}@{entry.version}: {error.message}")
    return out
