"""The flow across the modules of a run: a call of another module's function through its
export, and this module's exports (per parameter, what a result given to it does)."""

from __future__ import annotations

import ast
import functools
import operator

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import UNBOUND, join_bound
from toolwire.lint.analysis.flow_base import FlowBase, declared_returns
from toolwire.lint.analysis.modules import KINDS, ClassExport, Effect, Exports, FunctionExport
from toolwire.lint.analysis.names import ClassInfo
from toolwire.lint.findings import Finding

_KIND_MASKS = {kind: mask for kind, mask in KINDS}
_EVERY_KIND = functools.reduce(operator.or_, (kind for kind, _ in KINDS))
_KEPT = L.TAINT | L.TOOL | L.TOOLS  # what an export's return is worth telling


class Exporting(FlowBase):
    """`Flow` across modules: imported functions' exports, and this module's."""

    def _imported_call(
        self, node: ast.Call, dotted: str, export: FunctionExport, arguments: int
    ) -> int:
        """A call of a function of another module of the run, through its export."""
        given = None
        if export.effects is not None and not any(isinstance(a, ast.Starred) for a in node.args):
            labels = self.ctx.labels
            given = dict(zip(export.params, map(labels, node.args), strict=False))
            for keyword in node.keywords:
                if keyword.arg is not None and keyword.arg in export.keywords:
                    given[keyword.arg] = labels(keyword.value)
        if given is None or len(node.args) > len(export.params):
            return declared_returns(export.returns, arguments)
        out = UNBOUND
        shown = dotted.rpartition(".")[2]
        for effect in export.effects or ():
            if given.get(effect.param, L.NOTHING) & _KIND_MASKS[effect.kind]:
                out = join_bound(out, effect.returns)
                for origin in effect.findings:
                    module, line, code, message = origin
                    text = (
                        f"{shown}() is given {self._given(node)}, and in {module} at line "
                        f"{line}: {message}"
                    )
                    self.ctx.report(code, node, text)
                    self._origins[text] = origin
        return export.returns if out == UNBOUND else out

    def exports(self, demanded: frozenset[str]) -> Exports:
        """What this module gives the modules that import it: its tool classes, what its
        functions return, and for the functions they import, per parameter what a result
        (or results, an artifact, `.content`, a string made from one) given to it does."""
        module = self.facts.module or ""
        tools = frozenset(c.qualname for c in self.facts.classes.values() if c.is_tool)
        functions = {}
        for name in self._top:
            definition = self._defs[name]
            returns = self.facts.functions.get(name) or self._returned.get(name, L.NOTHING)
            export = None
            if name in demanded and not isinstance(definition, ast.Lambda):
                export = self._export(name, definition, returns & _KEPT)
            if export is None and returns & _KEPT:
                export = FunctionExport(returns & _KEPT)
            if export is not None:
                functions[f"{module}.{name}"] = export
        # only the classes other modules ask for: reading a class's members costs a walk
        classes = {
            info.qualname: members
            for info in self.facts.classes.values()
            if module and info.name in demanded and (members := _class_export(info)) is not None
        }
        # what it imports from the run's other modules, it re-exports under its own name
        imported_classes = self.facts.imported_classes
        for local, dotted in self.facts.names.aliases.items():
            export = self.imported.get(dotted)
            if export is not None:
                functions.setdefault(f"{module}.{local}", export)
            if dotted in imported_classes:
                classes.setdefault(f"{module}.{local}", imported_classes[dotted])
        return Exports(tools, functions, classes)

    def _export(
        self, name: str, definition: ast.FunctionDef | ast.AsyncFunctionDef, returns: int
    ) -> FunctionExport | None:
        """Per parameter and kind, what the function does differently; None when nothing."""
        args = definition.args
        params = tuple(a.arg for a in [*args.posonlyargs, *args.args])
        keywords = frozenset(a.arg for a in [*args.args, *args.kwonlyargs])
        every = [*params, *(a.arg for a in args.kwonlyargs)]
        # What the main pass found is what the function does unprompted.
        known = {(f.line, f.column, f.code) for f in self.ctx.findings.values()}
        # One run with every parameter given every kind at once: when even that changes
        # nothing, no single one does (the common case, and the cost of most exports).
        together = self._summary(name, dict.fromkeys(every, _EVERY_KIND))
        if together is None or (
            together.returns & _KEPT == returns
            and all((f.line, f.column, f.code) in known for f in together.findings)
        ):
            return None
        baseline = self._summary(name, {})
        if baseline is None:
            return None
        known |= {(f.line, f.column, f.code) for f in baseline.findings}
        module = self.facts.module or ""
        effects = []
        for param in every:
            alone = self._summary(name, {param: _EVERY_KIND})
            if alone is None or (
                alone.returns == baseline.returns
                and all((f.line, f.column, f.code) in known for f in alone.findings)
            ):
                continue
            for kind, _ in KINDS:
                one = self._summary(name, {param: kind})
                if one is None:
                    continue
                found = tuple(
                    self._origin(module, f)
                    for f in one.findings
                    if (f.line, f.column, f.code) not in known
                )
                if found or one.returns != baseline.returns:
                    effects.append(Effect(param, kind, one.returns, found))
        if not effects and not baseline.returns & _KEPT:
            return None
        return FunctionExport(baseline.returns, params, keywords, tuple(effects))

    def _origin(self, module: str, finding: Finding) -> tuple[str, int, str, str]:
        """Where a finding of a summary happens: a chain of calls across modules names
        only its last link, so the message does not grow with the chain."""
        origin = self._origins.get(finding.message)
        return origin or (module, finding.line, finding.code, finding.message)


def _class_export(info: ClassInfo) -> ClassExport | None:
    """Only what holds something tracked, without the instance bits (they are the module's
    own numbering)."""
    attributes = {**info.attributes, **info.assigned}
    kept = tuple((n, labels & _KEPT) for n, labels in attributes.items() if labels & _KEPT)
    returns = tuple((n, labels & _KEPT) for n, labels in info.returns.items() if labels & _KEPT)
    return ClassExport(kept, returns) if kept or returns else None
