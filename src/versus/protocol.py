"""Parse what a program printed under protocol v1 (see docs/protocol.md)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

PREFIX = "@versus "
VERSION = 1


class ProtocolViolation(Exception):
    """The output broke the protocol; the message is the failed process run's reason."""


@dataclass
class SampleRecord:
    ns: int
    inner: int
    warmup: bool


@dataclass
class Output:
    hello: dict[str, object] = field(default_factory=dict)
    cases: list[str] = field(default_factory=list)
    samples: list[SampleRecord] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    metrics: list[tuple[str, float, str]] = field(default_factory=list)
    ended: bool = False
    log: list[str] = field(default_factory=list)


def parse(stdout: str, case: str | None = None) -> Output:
    """Every `@versus` line validated; other lines kept as the log. Raises ProtocolViolation."""
    out = Output()
    for number, line in enumerate(stdout.splitlines(), 1):
        if not line.startswith(PREFIX):
            out.log.append(line)
            continue
        if out.ended:
            raise ProtocolViolation(f"line {number}: output after `end`")
        try:
            message = json.loads(line[len(PREFIX):])
        except json.JSONDecodeError as error:
            raise ProtocolViolation(f"line {number}: malformed JSON ({error.msg}): {line[:120]}") from None
        if not isinstance(message, dict) or "type" not in message:
            raise ProtocolViolation(f"line {number}: not an object with a type: {line[:120]}")
        _accept(out, message, number, case)
    return out


def _accept(out: Output, message: dict[str, object], number: int, case: str | None) -> None:
    kind = message["type"]
    if kind == "hello":
        if message.get("v") != VERSION:
            raise ProtocolViolation(f"line {number}: protocol version {message.get('v')!r}, expected {VERSION}")
        out.hello = message
        return
    if not out.hello:
        raise ProtocolViolation(f"line {number}: {kind!r} before `hello`")
    if kind == "end":
        out.ended = True
        return
    if kind == "case":
        out.cases.append(_text(message, "name", number))
        return
    if case is not None and message.get("case") != case:
        raise ProtocolViolation(f"line {number}: {kind} for case {message.get('case')!r}, expected {case!r}")
    if kind == "sample":
        ns, inner = _integer(message, "ns", number), _integer(message, "inner", number)
        if ns < 0 or inner < 1:
            raise ProtocolViolation(f"line {number}: sample needs ns ≥ 0 and inner ≥ 1, got ns={ns} inner={inner}")
        warmup = message.get("warmup", False)
        if not isinstance(warmup, bool):
            raise ProtocolViolation(f"line {number}: warmup must be true or false")
        out.samples.append(SampleRecord(ns, inner, warmup))
    elif kind == "check":
        out.checks.append(str(message.get("value")))
    elif kind == "metric":
        value = message.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ProtocolViolation(f"line {number}: metric value must be a number, got {value!r}")
        out.metrics.append((_text(message, "name", number), float(value), str(message.get("unit", ""))))
    else:
        raise ProtocolViolation(f"line {number}: unknown message type {kind!r}")


def _integer(message: dict[str, object], key: str, number: int) -> int:
    value = message.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolViolation(f"line {number}: {key} must be an integer, got {value!r}")
    return value


def _text(message: dict[str, object], key: str, number: int) -> str:
    value = message.get(key)
    if not isinstance(value, str) or not value:
        raise ProtocolViolation(f"line {number}: {key} must be a non-empty string")
    return value
