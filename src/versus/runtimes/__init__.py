"""Runtimes: specs, discovery on this machine, and fetching JVM-hosted ones from Maven Central."""
from .model import Runtime
from .resolve import Resolution, resolve, resolve_strict
from .spec import RuntimeSpec, parse_spec, parse_specs

__all__ = ["Resolution", "Runtime", "RuntimeSpec", "parse_spec", "parse_specs", "resolve", "resolve_strict"]
