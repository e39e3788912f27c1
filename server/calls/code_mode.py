"""Code mode: ``run_code`` runs the model's program in the sandbox of its language — Python in
the RestrictedPython tier, JavaScript in QuickJS — under the same limits as a tool, and gives it
the session's tools as functions (``tools.check_order(order_id=...)``). Each such call is a host
call that becomes a call of the session through its gate (``session_calls.call_in_session``),
in ``run_code``'s unit of work: validation, guardrails, breakers, once-per-session, the call log
(with the program's call id as its parent). The program reaches nothing else — no ``http``, no
``llm``, no knowledge base, no tool outside the session's gate, none that needs an approval —
and at most ``max_host_calls`` tools per run.
"""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from sandbox.engine import Engine, HostHandler, Limits, Run, ToolFailure, ToolSource
from server.calls.host import HostCallRefused

PROGRAM_TIMEOUT_MS = 25_000  # within run_code's own 30 s: the program stops first
ONLY_TOOLS = "a program reaches only the session's tools (tools.<name>)"


@dataclass(frozen=True)
class Program:
    """What a ``run_code`` call's program may call: the session's gate, each through ``call``.

    A call the program made runs to its end even if the program is stopped meanwhile (its time
    is up): ``run`` waits for it before ``run_code`` answers, so the call is recorded and its
    unit of work — ``run_code``'s — is not committed under it."""

    language: str
    tools: tuple[str, ...]
    call: Callable[[str, dict[str, Any]], Coroutine[Any, Any, dict[str, Any]]]
    pending: set[asyncio.Task[dict[str, Any]]] = field(default_factory=set)

    async def through(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        task: asyncio.Task[dict[str, Any]] = asyncio.get_running_loop().create_task(
            self.call(name, arguments)
        )
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)
        return await asyncio.shield(task)

    async def settle(self) -> None:
        while self.pending:
            await asyncio.gather(*list(self.pending), return_exceptions=True)


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
        return await program.through(method, args)

    return handle


async def run(
    engine: Engine[Any], program: Program, code: str, tenant: str, session_id: str, bot: str
) -> Any:
    """What the program returns; ``ToolFailure`` (its code and message) when it fails."""
    context = {"session_id": session_id, "tenant_id": tenant, "bot_id": bot}
    try:
        ran = await engine.run(
            source(code, program.language),
            Run(
                tenant=tenant,
                tool="run_code",
                params={},
                context={**context, "tools": list(program.tools)},
                limits=Limits(timeout_ms=PROGRAM_TIMEOUT_MS),
                host=host(program),
            ),
        )
    finally:
        await program.settle()
    if ran.ok:
        return ran.value
    raise ToolFailure(ran.code or "tool_error", f"the program failed: {ran.message}")
