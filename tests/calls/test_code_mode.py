"""Code mode's pure parts: how ``run_code`` describes a gate's tools, how a program becomes a
tool file of its tier, and what a program's host calls may reach (``server.registry.code_mode``,
``server.calls.code_mode``). Through HTTP, MCP and the agent loop: tests/api/test_code_mode.py
and the contract suite."""

from __future__ import annotations

import pytest

from sandbox.toolfile import parse_tool_file
from server.calls.code_mode import Program, host, source
from server.calls.host import HostCallRefused
from server.registry.code_mode import describe, signature
from server.registry.model import ToolDef

ORDER = ToolDef(
    "check_order",
    "Check an order.\n  Answers its status.",
    {
        "type": "object",
        "properties": {"order_id": {"type": "string"}, "verbose": {"type": "boolean"}},
        "required": ["order_id"],
    },
    {},
    "python",
    "tenant",
    1,
    "h",
)


def test_a_tool_reads_as_a_function_of_its_language() -> None:
    assert signature(ORDER, "python") == "tools.check_order(order_id: string, verbose?: boolean)"
    assert signature(ORDER, "javascript") == (
        "await tools.check_order({order_id: string, verbose?: boolean})"
    )
    text = describe("Run a program.", [ORDER], "python")
    assert text.startswith("Run a program.\nWrite the body of a Python function")
    assert text.endswith("- tools.check_order(order_id: string, verbose?: boolean): Check an order. Answers its status.")  # fmt: skip


def test_a_program_becomes_the_body_of_execute() -> None:
    python = source("x = 1\nreturn {'x': x}", "python")
    specs, problems = parse_tool_file(python.text or "")

    assert python.sandbox == "restricted" and not problems
    assert [s.name for s in specs] == ["run_code"]
    assert "    return {'x': x}" in (python.text or "")
    assert source("return 1;", "javascript").sandbox == "javascript"


async def test_a_program_reaches_only_the_gates_tools() -> None:
    calls: list[tuple[str, dict]] = []

    async def call(name: str, arguments: dict) -> dict:
        calls.append((name, arguments))
        return {"success": True, "result": 1}

    handle = host(Program("python", ("check_order",), call))

    assert await handle("tools", "check_order", {"order_id": "A1"}) == {"success": True, "result": 1}  # fmt: skip
    for module, method in (("tools", "admin_reset"), ("http", "GET"), ("llm", "chat"), ("context", "emit")):  # fmt: skip
        with pytest.raises(HostCallRefused):
            await handle(module, method, {})
    assert calls == [("check_order", {"order_id": "A1"})]
