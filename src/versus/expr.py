"""A tiny safe evaluator for check expressions such as `tasks * rounds * calls`.

Integers, parameter names, string literals and + - * // % ** only, with limits: a check of
`9 ** 9 ** 9` is an error, not a harness that computes for hours.
"""
from __future__ import annotations

import ast
import math
import operator

from .errors import ExperimentError

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
MAX_BITS = 4096  # no intermediate value may need more bits than this
MAX_LENGTH = 1000  # characters of an expression


def _parse(text: str) -> ast.Expression:
    if len(text) > MAX_LENGTH:
        raise ExperimentError(f"check expression is {len(text)} characters long", f"keep it under {MAX_LENGTH}")
    try:
        return ast.parse(text, mode="eval")
    except (SyntaxError, ValueError) as error:
        raise ExperimentError(f"bad expression {text!r}: {getattr(error, 'msg', error)}",
                              "use integers, parameter names and + - * // % **") from None


def check_expression(text: str, names: set[str]) -> None:
    """Syntax, allowed operations and names, without evaluating (for validation at load time)."""
    for node in ast.walk(_parse(text)):
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise ExperimentError(f"expression {text!r} names {node.id!r}, which is not a parameter",
                                      "known names: " + ", ".join(sorted(names)))
            continue
        allowed = (isinstance(node, ast.Constant) and isinstance(node.value, (int, str)) and not isinstance(node.value, bool)) \
            or (isinstance(node, ast.BinOp) and type(node.op) in _OPS) \
            or isinstance(node, (ast.Expression, ast.Load)) or type(node) in _OPS
        if not allowed:
            raise ExperimentError(f"expression {text!r} uses something other than arithmetic",
                                  "use integers, parameter names and + - * // % **")


def evaluate(text: str, names: dict[str, object]) -> object:
    tree = _parse(text)

    def walk(node: ast.AST) -> object:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise ExperimentError(f"expression {text!r} names {node.id!r}, which is not a parameter",
                                      "known names: " + ", ".join(sorted(names)))
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = _number(walk(node.left)), _number(walk(node.right))
            if isinstance(node.op, ast.Pow) and (right < 0 or (abs(left) > 1 and right * math.log2(abs(left)) > MAX_BITS)):
                raise ExperimentError(f"expression {text!r}: {left} ** {right} is too large or negative",
                                      f"keep values under 2**{MAX_BITS}")
            if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and right == 0:
                raise ExperimentError(f"expression {text!r} divides by zero", "check the parameters it uses")
            result = _OPS[type(node.op)](left, right)
            if abs(result).bit_length() > MAX_BITS:
                raise ExperimentError(f"expression {text!r} grows beyond 2**{MAX_BITS}", "keep values smaller")
            return result
        raise ExperimentError(f"expression {text!r} uses something other than arithmetic",
                              "use integers, parameter names and + - * // % **")

    return walk(tree)


def _number(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value))
    except ValueError:
        raise ExperimentError(f"{str(value)[:40]!r} is not an integer", "give the parameter an integer value") from None
