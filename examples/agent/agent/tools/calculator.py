"""Safe arithmetic: the expression is parsed with ``ast``, never ``eval``-ed."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable

from agent.tools.base import Tool

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
_MAX_EXPONENT = 100


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
            raise ValueError("exponent too large")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    raise ValueError(f"unsupported expression element: {type(node).__name__}")


def _format_number(value: float) -> str:
    if value.is_integer():
        return str(int(value))
    return f"{value:.10g}"


class CalculatorTool(Tool):
    name = "calculator"
    description = "Evaluates an arithmetic expression: + - * / // % ** and parentheses."

    def execute(self, arguments: dict[str, str]) -> str:
        expression = arguments.get("expression", "").strip()
        if not expression:
            return "Error: missing required argument 'expression'"
        try:
            value = _evaluate(ast.parse(expression, mode="eval"))
        except ZeroDivisionError:
            return "Error: division by zero"
        except (SyntaxError, ValueError) as exc:
            return f"Error: cannot evaluate {expression!r}: {exc}"
        return f"{expression} = {_format_number(value)}"
