"""Drivers turn an arm into process runs. A new kind of program is a new driver: its module and one
entry in DRIVERS below (docs/extending.md)."""
from __future__ import annotations

from ..definitions import Arm, Method
from ..errors import ExperimentError
from ..executor import Executor, Pinned
from .base import FAILED, OK, Driver, ProcessRun
from .command import CommandDriver
from .jmh import JmhDriver
from .load import LoadDriver
from .protocol import ProtocolDriver
from .server import SERVER_FIELDS, with_server

DRIVERS: dict[str, type[Driver]] = {d.name: d for d in (ProtocolDriver, CommandDriver, JmhDriver, LoadDriver)}


def driver_for(name: str) -> Driver:
    if name not in DRIVERS:
        raise ExperimentError(f"driver {name!r} is not available", f"available drivers: {', '.join(DRIVERS)}")
    return DRIVERS[name]()


def run_process(driver: Driver, arm: Arm, method: Method, inner: int, executor: Executor) -> ProcessRun:
    """One process run of `arm`, with the case's server around it unless the driver starts its own, on
    the method's CPUs where it names a number of them."""
    if method.cpus:
        executor = Pinned(executor, method.cpus)
    if arm.case.server and not driver.runs_own_server:
        return with_server(driver, arm, method, inner, executor)
    return driver.run(arm, method, inner, executor)


__all__ = ["DRIVERS", "FAILED", "OK", "SERVER_FIELDS", "Driver", "ProcessRun", "driver_for", "run_process"]
