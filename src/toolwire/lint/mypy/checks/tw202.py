"""A result put into a string by a str method or operator (f-strings are str.format)."""

from __future__ import annotations

from string import Formatter

from mypy.nodes import ARG_NAMED, CallExpr, MemberExpr, StrExpr

from toolwire.lint.mypy.api import Call, CallCheck, Rules

CODE = "TW202"
_FORMS = {
    "format": "f-string or str.format()",
    "__mod__": "%-format",
    "__add__": "str +",
}


def register(plugin: Rules) -> None:
    for name in plugin.config.model.formatters:
        method = name.rpartition(".")[2]
        plugin.on_method(name, _check(plugin, _FORMS.get(method, f"str.{method}()")))


def _check(plugin: Rules, form: str) -> CallCheck:
    def check(call: Call) -> None:
        shown = _repr_fields(call) if form == _FORMS["format"] else set()
        position = 0
        for expr, typ, kind in call.actuals():
            key: int | str | None = position
            if kind == ARG_NAMED:
                key = next((n for n, a in _named(call) if a is expr), None)
            else:
                position += 1
            # `{x!r}` (mypy's f-string is `"{!r}".format(x)`) is the repr, not `format`
            string_form = "repr" if key in shown or None in shown else "str"
            if plugin.holds_result(call, expr, typ, form=string_form):
                plugin.fail(
                    call.api,
                    CODE,
                    "format",
                    call.context,
                    form=form,
                    value=f"a {plugin.shown(typ)}",
                )
                return

    return check


def _named(call: Call) -> list[tuple[str | None, object]]:
    node = call.context
    if not isinstance(node, CallExpr):
        return []
    return [(n, a) for n, a in zip(node.arg_names, node.args, strict=False) if n is not None]


def _repr_fields(call: Call) -> set[int | str | None]:
    """The fields of a `str.format` template shown with `!r` or `!a`: positions, names, or
    None for "any" when the template is not a literal or numbers its fields in a way not
    followed here (nested fields in a format spec)."""
    node = call.context
    callee = node.callee if isinstance(node, CallExpr) else None
    if not (isinstance(callee, MemberExpr) and isinstance(callee.expr, StrExpr)):
        return {None}
    try:
        fields = [f for f in Formatter().parse(callee.expr.value) if f[1] is not None]
    except ValueError:
        return {None}
    out: set[int | str | None] = set()
    auto = 0
    for _, name, spec, conversion in fields:
        if spec and "{" in spec:
            return {None} if any(f[3] in ("r", "a") for f in fields) else set()
        assert name is not None
        head = name.split(".")[0].split("[")[0]
        key: int | str
        if not head:
            key, auto = auto, auto + 1
        else:
            key = int(head) if head.isdigit() else head
        if conversion in ("r", "a"):
            out.add(key)
    return out
