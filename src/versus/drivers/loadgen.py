"""Reading the reports of the load generators the load driver runs: ab and wrk."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_UNITS_MS = {"us": 1e-3, "ms": 1.0, "s": 1e3}


@dataclass
class LoadReport:
    requests_per_s: float
    failed: int  # failed requests, non-2xx/3xx responses and socket errors
    latency_ms: dict[str, float] = field(default_factory=dict)  # "p50" → ms


def parse_ab(text: str) -> LoadReport:
    rps = re.search(r"Requests per second:\s+([0-9.]+)", text)
    if not rps:
        raise ValueError("no 'Requests per second' in ab's output")
    failed = sum(int(m) for m in re.findall(r"(?:Failed requests|Non-2xx responses):\s+(\d+)", text))
    latency = {f"p{p}": float(ms) for p, ms in re.findall(r"^\s+(50|90|99)%\s+(\d+)", text, re.M)}
    return LoadReport(float(rps.group(1)), failed, latency)


def parse_wrk(text: str) -> LoadReport:
    rps = re.search(r"Requests/sec:\s+([0-9.]+)", text)
    if not rps:
        raise ValueError("no 'Requests/sec' in wrk's output")
    failed = sum(int(m) for m in re.findall(r"Non-2xx or 3xx responses:\s+(\d+)", text))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    failed += sum(int(g) for g in errors.groups()) if errors else 0
    latency = {f"p{p}": float(v) * _UNITS_MS[u]
               for p, v, u in re.findall(r"^\s+(50|90|99)%\s+([0-9.]+)(us|ms|s)\b", text, re.M)}
    return LoadReport(float(rps.group(1)), failed, latency)


def parse(tool: str, text: str) -> LoadReport:
    return parse_ab(text) if tool == "ab" else parse_wrk(text)
