"""The runtime families versus knows, one module each. A new family is a module here and a line below."""
from __future__ import annotations

from ...errors import UsageError
from ..family import Family
from .c import Clang, Gcc
from .go import Go
from .java import Java
from .jruby import JRuby
from .jython import Jython
from .python import CPython, PyPy
from .ruby import CRuby
from .rust import Rust

FAMILIES: dict[str, Family] = {f.name: f for f in (CPython(), PyPy(), Jython(), CRuby(), JRuby(), Java(), Go(), Rust(),
                                                      Gcc(), Clang())}
JDK = Java.name  # the family of the JDKs that JVM-hosted runtimes run on (`jython@2.7.4/java@25`)


def program_families() -> tuple[str, ...]:
    """The [programs] keys some family runs: python2, python3, ruby, java, go, rust, c."""
    return tuple(dict.fromkeys(p for f in FAMILIES.values() for p in (f.programs or (f.program,))))


def family(name: str) -> Family:
    try:
        return FAMILIES[name]
    except KeyError:
        raise UsageError(f"unknown runtime family {name!r}", "families are: " + ", ".join(FAMILIES)) from None
