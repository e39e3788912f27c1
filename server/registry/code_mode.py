"""Code mode: a bot with ``code_mode: "python" | "javascript"`` offers one tool, ``run_code``,
whose description lists the session's tools as functions; the model answers with one short
program that calls them (``server.calls.code_mode`` runs it). What the description says of each
tool is derived here from its definition, so it follows every change of the gate."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from server.registry.model import ToolDef

CODE_TOOL = "run_code"
LANGUAGES = ("python", "javascript")
MAX_DESCRIPTION_CHARS = 200  # of each tool's own description, in the list


def _type(schema: Any) -> str:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if isinstance(schema, dict) and "enum" in schema:
        return " | ".join(repr(v) for v in schema["enum"][:8])
    return str(kind or "any")


def signature(tool: ToolDef, language: str) -> str:
    """``check_order(order_id: string, note?: string)``: its parameters, required first."""
    params = tool.parameters if isinstance(tool.parameters, dict) else {}
    properties = params.get("properties") or {}
    required = [k for k in params.get("required") or () if k in properties]
    optional = [k for k in properties if k not in required]
    parts = [f"{k}: {_type(properties[k])}" for k in required]
    parts += [f"{k}?: {_type(properties[k])}" for k in optional]
    inside = ", ".join(parts)
    if language == "javascript":
        return f"await tools.{tool.name}({{{inside}}})"
    return f"tools.{tool.name}({inside})"


def describe(base: str, tools: Iterable[ToolDef], language: str) -> str:
    """``run_code``'s description for a gate: how to write the program, then each tool."""
    if language == "javascript":
        how = (
            "Write the body of an async JavaScript function: call tools with an object of "
            "arguments and `await` them; `return` the value to answer with."
        )
    else:
        how = (
            "Write the body of a Python function: call tools with keyword arguments and "
            "`return` the value to answer with."
        )
    lines = [base, how, "Each call gives {success, result} or {success: false, error}.", ""]
    for tool in tools:
        text = " ".join(tool.description.split())[:MAX_DESCRIPTION_CHARS]
        lines.append(f"- {signature(tool, language)}: {text}")
    return "\n".join(lines)
