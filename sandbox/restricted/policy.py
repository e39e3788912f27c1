"""Compile-time policy: RestrictedPython's transformer, tightened. Deny by default.

On top of RestrictedPython's own rules (no underscore names, no ``exec``/``eval``, guarded
attribute, item and iteration access, no ``try/except*``, no async), this refuses class
definitions (``type()``/metaclass tricks), generators written as functions (``yield``: frame
walks), ``global`` and ``nonlocal``, and encoding declarations. All violations of a file are
returned together, each with its line.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from types import CodeType

from RestrictedPython.compile import compile_restricted_exec
from RestrictedPython.transformer import RestrictingNodeTransformer

from sandbox.engine import Violation

_LINE = re.compile(r"^Line (\d+): (.*)$", re.S)
_ENCODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


class QuiverPolicy(RestrictingNodeTransformer):
    def _deny(self, node: ast.AST, what: str) -> None:
        self.error(node, f"{what} are not allowed in tools.")

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self._deny(node, "Class definitions")
        return node

    def visit_Yield(self, node: ast.Yield) -> ast.AST:
        self._deny(node, "Generators (yield)")
        return node

    def visit_YieldFrom(self, node: ast.YieldFrom) -> ast.AST:
        self._deny(node, "Generators (yield from)")
        return node

    def visit_Global(self, node: ast.Global) -> ast.AST:
        self._deny(node, "`global` statements")
        return node


@dataclass(frozen=True)
class Compiled:
    code: CodeType | None
    violations: list[Violation]


def compile_tool(source: str, filename: str = "<tool>") -> Compiled:
    """Compile a tool file under the policy; every violation is reported with its line."""
    violations: list[Violation] = []
    for lineno, line in enumerate(source.encode()[:400].splitlines()[:2], start=1):
        if _ENCODING.match(line):
            violations.append(
                Violation(
                    "encoding declarations are not allowed (tool files are UTF-8)",
                    line=lineno,
                    field="source",
                )
            )
    result = compile_restricted_exec(source, filename=filename, policy=QuiverPolicy)
    for message in result.errors:
        match = _LINE.match(message)
        if match:
            violations.append(
                Violation(match.group(2).strip(), line=int(match.group(1)), field="source")
            )
        else:
            violations.append(Violation(message, field="source"))
    if violations:
        return Compiled(None, violations)
    return Compiled(result.code, [])
