"""Code mode: ``run_code`` runs the model's program in the sandbox of its language — Python in
the RestrictedPython tier, JavaScript in QuickJS — under the same limits as a tool, and gives it
the session's tools as functions (``tools.check_order(order_id=...)``). Each such call is a host
call that becomes a call of the session through its gate (``session_calls.call_in_session``):
validation, guardrails, breakers, once-per-session, the call log (with the program's call id as
its parent). The program reaches nothing else — no ``http``, no ``llm``, no knowledge base, no
tool outside the session's gate, none that needs an approval — and at most ``max_host_calls``
tools per run.
"""

from __future__ import annotations

import textwrap
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sandbox.engine import Engine, HostHandler, Limits, Run, ToolFailure, ToolSource
from server.calls.host import HostCallRefused

PROGRAM_TIMEOUT_MS = 25_000  # within run_code's own 30 s: the program stops first
ONLY_TOOLS = "a program reaches only the session's tools (tools.<name>)"


@dataclass(frozen=True)
class Program:
    """What a ``run_code`` call's program may call: the session's gate, each through ``call``."""

    language: str
    tools: tuple[str, ...]
    call: Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


def source(code: str, language: str) -> ToolSource:
    """The program as a tool file of its tier: the body of ``execute``."""
    if language == "javascript":
        text = (
            'module.exports = {name: "run_code", description: "a program",\n'
            "  async execute(params, context) { const tools = context.tools;\n"
            f"{code}\n}}}};\n"
        )
        return ToolSource("javascript", "javascript", text)
    body = textwrap.indent(code, "    ") if code.strip() else "    pass"
    text = (
        "def execute(params, context):\n"
        "    tools = context.tools\n"
        f"{body}\n\n\n"
        'tool = {"name": "run_code", "description": "a program", "execute": execute}\n'
    )
    return ToolSource("python", "restricted", text)


def host(program: Program) -> HostHandler:
    async def handle(module: str, method: str, args: dict[str, Any]) -> Any:
        if module != "tools":
            raise HostCallRefused(ONLY_TOOLS)
        if method not in program.tools:
            raise HostCallRefused(f"no tool {method!r} in this session")
        return await program.call(method, args)

    return handle


async def run(
    engine: Engine[Any], program: Program, code: str, tenant: str, session_id: str, bot: str
) -> Any:
    """What the program returns; ``ToolFailure`` (its code and message) when it fails."""
    ran = await engine.run(
        source(code, program.language),
        Run(
            tenant=tenant,
            tool="run_code",
            params={},
            context={
                "session_id": session_id,
                "tenant_id": tenant,
                "bot_id": bot,
                "tools": list(program.tools),
            },  # fmt: skip
            limits=Limits(timeout_ms=PROGRAM_TIMEOUT_MS),
            host=host(program),
        ),
    )
    if ran.ok:
        return ran.value
    raise ToolFailure(ran.code or "tool_error", f"the program failed: {ran.message}")
