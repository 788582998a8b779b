"""A tiny safe evaluator for check expressions such as `tasks * rounds * calls`."""
from __future__ import annotations

import ast
import operator

from .errors import ExperimentError

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}


def evaluate(text: str, names: dict[str, object]) -> object:
    """Integers, names, + - * // % **, and string literals; nothing else."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as error:
        raise ExperimentError(f"bad expression {text!r}: {error.msg}",
                              "use integers, parameter names and + - * // % **") from None

    def walk(node: ast.AST) -> object:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise ExperimentError(f"expression {text!r} names {node.id!r}, which is not a parameter",
                                      "known names: " + ", ".join(sorted(names)))
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = walk(node.left), walk(node.right)
            return _OPS[type(node.op)](_number(left), _number(right))
        raise ExperimentError(f"expression {text!r} uses something other than arithmetic",
                              "use integers, parameter names and + - * // % **")

    return walk(tree)


def _number(value: object) -> int:
    if isinstance(value, int):
        return value
    try:
        return int(str(value))
    except ValueError:
        raise ExperimentError(f"{value!r} is not an integer", "give the parameter an integer value") from None
