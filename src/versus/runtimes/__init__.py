"""Runtimes: specs, families (found on this machine or fetched from Maven Central), resolution."""
from .families import FAMILIES, family
from .model import Runtime, runtime_name
from .resolve import Resolution, found_here, resolve
from .spec import RuntimeSpec, parse_spec

__all__ = ["FAMILIES", "Resolution", "Runtime", "RuntimeSpec", "family", "found_here", "parse_spec", "resolve",
           "runtime_name"]
