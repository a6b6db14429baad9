"""toolwire's egress rules as fixit lint rules (bench/peers: the fixit peer).

fixit gives a rule one LibCST visitor and the scope/qualified-name metadata; it has no
value flow. So these rules follow a ToolResult the way a fixit rule reasonably can: a name
bound (or annotated, or a parameter annotated) as `toolwire.ToolResult` anywhere in the
same function counts, plus factory calls and `.execute(...)` calls; `.content` and
`.is_error` stop it. The configuration is that of the rules/ examples
(tests/fixtures/pyproject.toml). Each class name carries the TW code it stands for.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import libcst as cst
from fixit import LintRule
from libcst.metadata import QualifiedName, QualifiedNameProvider

RESULT = "toolwire.ToolResult"
WIRE_CALLS = {"app.chat.ChatMessage.tool_result": 1, "app.chat.ChatMessage.user": 0}
MESSAGE_KEYS = {("role", "tool"): "content", ("type", "tool_result"): "content"}
STATE_SINKS = {"app.state.SuspendedRunState", "pickle.dumps"}
HTML_SINKS = {"markupsafe.Markup", "django.utils.safestring.mark_safe"}
BARRIERS = {"content", "is_error"}
LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical", "log"}


def _names(rule: LintRule, node: cst.CSTNode) -> set[str]:
    found: set[QualifiedName] = rule.get_metadata(QualifiedNameProvider, node, set())
    return {q.name for q in found}


def _mentions_result(rule: LintRule, annotation: cst.CSTNode) -> bool:
    return any(
        RESULT in _names(rule, sub)
        for sub in _walk(annotation)
        if isinstance(sub, cst.Name | cst.Attribute)
    )


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


# fixit runs every rule in one traversal, but each rule is its own visitor: the per-function
# facts are shared so that 14 rules do not walk each function 14 times.
_FACTS: dict[int, tuple[cst.FunctionDef, set[str], set[str]]] = {}


class _Flow(LintRule):
    """Shared: which names in the current function hold a ToolResult or artifacts."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def __init__(self) -> None:
        super().__init__()
        self.results: list[set[str]] = [set()]
        self.artifacts: list[set[str]] = [set()]

    def visit_Module(self, node: cst.Module) -> None:
        _FACTS.clear()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        cached = _FACTS.get(id(node))
        if cached is not None and cached[0] is node:
            self.results.append(cached[1])
            self.artifacts.append(cached[2])
            return
        results, artifacts = set(self.results[-1]), set(self.artifacts[-1])
        for param in (*node.params.params, *node.params.kwonly_params):
            if param.annotation and _mentions_result(self, param.annotation.annotation):
                results.add(param.name.value)
        for sub in _walk(node.body):
            self._learn(sub, results, artifacts)
        _FACTS[id(node)] = (node, results, artifacts)
        self.results.append(results)
        self.artifacts.append(artifacts)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.results.pop()
        self.artifacts.pop()

    def _learn(self, node: cst.CSTNode, results: set[str], artifacts: set[str]) -> None:
        if isinstance(node, cst.AnnAssign) and isinstance(node.target, cst.Name):
            if _mentions_result(self, node.annotation.annotation):
                results.add(node.target.value)
        targets: list[cst.BaseExpression] = []
        value: cst.BaseExpression | None = None
        if isinstance(node, cst.Assign):
            targets, value = [t.target for t in node.targets], node.value
        elif isinstance(node, cst.NamedExpr):
            targets, value = [node.target], node.value
        elif isinstance(node, cst.For):
            targets, value = [node.target], node.iter
        elif isinstance(node, cst.CompFor):
            targets, value = [node.target], node.iter
        if value is None:
            return
        names = [t.value for t in targets if isinstance(t, cst.Name)]
        if self.is_result(value, results):
            results.update(names)
        if self.is_artifact(value, artifacts):
            artifacts.update(names)

    def is_result(self, node: cst.BaseExpression, results: set[str] | None = None) -> bool:
        results = self.results[-1] if results is None else results
        if isinstance(node, cst.Await):
            return self.is_result(node.expression, results)
        if isinstance(node, cst.Name):
            return node.value in results
        if isinstance(node, cst.Attribute):
            if node.attr.value in BARRIERS or node.attr.value == "artifacts":
                return False
            return self.is_result(node.value, results)
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in {"text", "error"}:
                return RESULT in _names(self, func.value)
            if isinstance(func, cst.Attribute) and func.attr.value == "execute":
                return True
            return False
        if isinstance(node, cst.Subscript):
            return self.is_result(node.value, results)
        if isinstance(node, cst.List | cst.Tuple | cst.Set):
            return any(self.is_result(e.value, results) for e in node.elements)
        if isinstance(node, cst.ListComp | cst.GeneratorExp | cst.SetComp):
            return self.is_result(node.elt, results) or self.is_result(node.for_in.iter, results)
        return False

    def is_artifact(self, node: cst.BaseExpression, artifacts: set[str] | None = None) -> bool:
        artifacts = self.artifacts[-1] if artifacts is None else artifacts
        return any(
            (isinstance(sub, cst.Attribute) and sub.attr.value == "artifacts")
            or (isinstance(sub, cst.Name) and sub.value in artifacts)
            for sub in _walk(node)
        )

    def args_of(self, node: cst.Call) -> list[cst.BaseExpression]:
        return [a.value for a in node.args]


class TW102DirectConstruction(_Flow):
    MESSAGE = "TW102 ToolResult(...) called directly"

    def visit_Call(self, node: cst.Call) -> None:
        if RESULT in _names(self, node.func):
            self.report(node)


class TW103ErrorWithArtifacts(_Flow):
    MESSAGE = "TW103 ToolResult.error(...) given artifacts"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "error":
            if RESULT in _names(self, func.value) and len(node.args) > 1:
                self.report(node)


class TW201Stringified(_Flow):
    MESSAGE = "TW201 a ToolResult is stringified"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name) and func.value in {"str", "repr", "ascii", "format"}:
            if node.args and self.is_result(node.args[0].value):
                self.report(node)
        elif isinstance(func, cst.Attribute) and func.attr.value == "__str__":
            if self.is_result(func.value):
                self.report(node)


class TW202Formatted(_Flow):
    MESSAGE = "TW202 a ToolResult is formatted into a string"

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> None:
        if self.is_result(node.expression):
            self.report(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Modulo | cst.Add) and isinstance(
            node.left, cst.SimpleString | cst.FormattedString | cst.ConcatenatedString
        ):
            right = node.right
            parts = [e.value for e in right.elements] if isinstance(right, cst.Tuple) else [right]
            if isinstance(right, cst.Dict):
                parts = [e.value for e in right.elements if isinstance(e, cst.DictElement)]
            if any(self.is_result(p) for p in parts):
                self.report(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, cst.AddAssign) and self.is_result(node.value):
            self.report(node)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.SimpleString):
            if func.attr.value in {"format", "join"} and any(
                self.is_result(a) for a in self.args_of(node)
            ):
                self.report(node)


class TW203Serialised(_Flow):
    MESSAGE = "TW203 a whole ToolResult is serialised"
    SINKS: ClassVar = {"json.dumps", "pickle.dumps", "dataclasses.asdict", "builtins.vars"}

    def visit_Call(self, node: cst.Call) -> None:
        if _names(self, node.func) & self.SINKS and any(
            self.is_result(a) for a in self.args_of(node)
        ):
            self.report(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "__dict__" and self.is_result(node.value):
            self.report(node)


class TW204Logged(_Flow):
    MESSAGE = "TW204 a ToolResult is printed or logged"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        logged = "builtins.print" in _names(self, func) or (
            isinstance(func, cst.Attribute) and func.attr.value in LOG_METHODS
        )
        if logged and any(self.is_result(a) for a in self.args_of(node)):
            self.report(node)


def _sink_payloads(rule: _Flow, node: cst.Call | cst.Dict) -> list[cst.BaseExpression]:
    if isinstance(node, cst.Dict):
        items = {
            e.key.evaluated_value: e.value
            for e in node.elements
            if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
        }
        for (key, value), payload in MESSAGE_KEYS.items():
            found = items.get(key)
            if isinstance(found, cst.SimpleString) and found.evaluated_value == value:
                return [items[payload]] if payload in items else []
        return []
    for name in _names(rule, node.func):
        if name in WIRE_CALLS:
            position = WIRE_CALLS[name]
            for index, arg in enumerate(node.args):
                keyword = arg.keyword.value if arg.keyword else None
                if keyword == "content" or (keyword is None and index == position):
                    return [arg.value]
    return []


class TW301WholeResultOnWire(_Flow):
    MESSAGE = "TW301 a wire sink receives something other than .content"

    def _check(self, node: cst.Call | cst.Dict) -> None:
        for payload in _sink_payloads(self, node):
            computed = not (isinstance(payload, cst.Attribute) and payload.attr.value == "content")
            from_content = computed and any(
                isinstance(s, cst.Attribute) and s.attr.value == "content" for s in _walk(payload)
            )
            if self.is_result(payload) or from_content:
                self.report(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)

    def visit_Dict(self, node: cst.Dict) -> None:
        self._check(node)


class TW302ArtifactsOnWire(_Flow):
    MESSAGE = "TW302 artifacts reach a wire sink"

    def _check(self, node: cst.Call | cst.Dict) -> None:
        if any(self.is_artifact(p) for p in _sink_payloads(self, node)):
            self.report(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)

    def visit_Dict(self, node: cst.Dict) -> None:
        self._check(node)


class TW401ArtifactsInState(_Flow):
    MESSAGE = "TW401 artifacts reach resumable state"

    def visit_Call(self, node: cst.Call) -> None:
        if _names(self, node.func) & STATE_SINKS and any(
            self.is_artifact(a) for a in self.args_of(node)
        ):
            self.report(node)


class TW402ArtifactAsHtml(_Flow):
    MESSAGE = "TW402 an artifact payload is rendered as raw HTML"

    def visit_Call(self, node: cst.Call) -> None:
        if _names(self, node.func) & HTML_SINKS and any(
            self.is_artifact(a) for a in self.args_of(node)
        ):
            self.report(node)


class TW404EmptyArtifacts(_Flow):
    MESSAGE = "TW404 a result mapping with an empty artifacts list"

    def visit_DictElement(self, node: cst.DictElement) -> None:
        key, value = node.key, node.value
        if isinstance(key, cst.SimpleString) and key.evaluated_value == "artifacts":
            if isinstance(value, cst.List) and not value.elements:
                self.report(node)


class TW403ArtifactsInData(_Flow):
    MESSAGE = "TW403 artifacts folded into data"

    def visit_DictElement(self, node: cst.DictElement) -> None:
        key, value = node.key, node.value
        if isinstance(key, cst.SimpleString) and key.evaluated_value == "data":
            if isinstance(value, cst.Dict) and any(
                isinstance(e, cst.DictElement)
                and isinstance(e.key, cst.SimpleString)
                and e.key.evaluated_value == "artifacts"
                for e in value.elements
            ):
                self.report(node)


class TW101NotMigrated(_Flow):
    MESSAGE = "TW101 a tool method annotated -> str"

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        for statement in node.body.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == "execute":
                returns = statement.returns
                if returns and isinstance(returns.annotation, cst.Name):
                    if returns.annotation.value == "str":
                        self.report(statement)
