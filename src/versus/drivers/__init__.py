"""Drivers turn an arm into process runs. A new kind of program is a new driver: its module and one
entry in DRIVERS below (docs/extending.md)."""
from __future__ import annotations

from ..errors import ExperimentError
from .base import FAILED, OK, Driver, ProcessRun
from .command import CommandDriver
from .jmh import JmhDriver
from .load import LoadDriver
from .protocol import ProtocolDriver

DRIVERS: dict[str, type[Driver]] = {d.name: d for d in (ProtocolDriver, CommandDriver, JmhDriver, LoadDriver)}


def driver_for(name: str) -> Driver:
    if name not in DRIVERS:
        raise ExperimentError(f"driver {name!r} is not available", f"available drivers: {', '.join(DRIVERS)}")
    return DRIVERS[name]()


__all__ = ["DRIVERS", "FAILED", "OK", "Driver", "ProcessRun", "driver_for"]
