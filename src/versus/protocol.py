"""Parse what a program printed under protocol v1 (see docs/protocol.md)."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

PREFIX = "@versus "
VERSION = 1
MAX_INT = (1 << 63) - 1  # the store keeps ns and inner as SQLite integers
MAX_METRIC = 1e300
MAX_TEXT = 10_000  # characters of a check value or a name
# A sample holds whole ns: a fractional ns per iteration (a JMH score, an imported value) is kept as
# ns per SCALE iterations.
SCALE = 1000


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
    # Lines end at "\n" only: U+2028 and friends are legal inside a JSON string.
    for number, line in enumerate(stdout.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.startswith(PREFIX):
            out.log.append(line)
            continue
        if out.ended:
            raise ProtocolViolation(f"line {number}: output after `end`")
        try:
            message = json.loads(line[len(PREFIX):], parse_constant=_no_constant)
        except json.JSONDecodeError as error:
            raise ProtocolViolation(f"line {number}: malformed JSON ({error.msg}): {line[:120]}") from None
        except (ValueError, RecursionError) as error:
            raise ProtocolViolation(f"line {number}: malformed JSON ({str(error)[:80]}): {line[:120]}") from None
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
        if not 0 <= ns <= MAX_INT or not 1 <= inner <= MAX_INT:
            raise ProtocolViolation(f"line {number}: sample needs 0 ≤ ns < 2^63 and 1 ≤ inner < 2^63, "
                                    f"got ns={ns} inner={inner}")
        warmup = message.get("warmup", False)
        if not isinstance(warmup, bool):
            raise ProtocolViolation(f"line {number}: warmup must be true or false")
        out.samples.append(SampleRecord(ns, inner, warmup))
    elif kind == "check":
        out.checks.append(str(message.get("value"))[:MAX_TEXT])
    elif kind == "metric":
        value = message.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ProtocolViolation(f"line {number}: metric value must be a number, got {str(value)[:40]!r}")
        try:
            number_value = float(value)
        except OverflowError:
            number_value = math.inf
        if not math.isfinite(number_value) or abs(number_value) > MAX_METRIC:
            raise ProtocolViolation(f"line {number}: metric value must be a finite number below 1e300, "
                                    f"got {str(value)[:40]}")
        out.metrics.append((_text(message, "name", number), number_value, str(message.get("unit", ""))[:100]))
    else:
        raise ProtocolViolation(f"line {number}: unknown message type {kind!r}")


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _integer(message: dict[str, object], key: str, number: int) -> int:
    value = message.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolViolation(f"line {number}: {key} must be an integer, got {value!r}")
    return value


def _text(message: dict[str, object], key: str, number: int) -> str:
    value = message.get(key)
    if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
        raise ProtocolViolation(f"line {number}: {key} must be a non-empty string")
    return value
