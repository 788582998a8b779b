"""Drivers turn an arm into process runs. A new kind of program is a new driver here."""
from __future__ import annotations

from ..errors import ExperimentError
from .base import FAILED, OK, Driver, ProcessRun
from .command import CommandDriver
from .jmh import JmhDriver
from .load import LoadDriver
from .protocol import ProtocolDriver

_DRIVERS: dict[str, type[ProtocolDriver] | type[CommandDriver] | type[JmhDriver] | type[LoadDriver]] = {
    "protocol": ProtocolDriver, "command": CommandDriver, "jmh": JmhDriver, "load": LoadDriver}


def driver_for(name: str) -> Driver:
    if name not in _DRIVERS:
        raise ExperimentError(f"driver {name!r} is not available yet",
                              f"available drivers: {', '.join(_DRIVERS)}")
    return _DRIVERS[name]()


__all__ = ["FAILED", "OK", "Driver", "ProcessRun", "driver_for"]
