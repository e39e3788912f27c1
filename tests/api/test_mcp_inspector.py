"""MCP Inspector's CLI (the official debugging client, a Node program) against a real uvicorn:
it lists the bot's tools with their schemas and hints and calls one."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path

import pytest

from tests.api.test_mcp import ready
from tests.api.test_mcp_clients import SHAPED
from tests.conftest import Api
from tests.servers import served

INSPECTOR = Path(__file__).resolve().parents[2] / ".venv" / "mcp-inspector" / "node_modules" / ".bin" / "mcp-inspector"  # fmt: skip


@pytest.fixture
def inspector() -> str:
    """The inspector `make test` installs; missing is a failure where CI requires it."""
    found = os.environ.get("QUIVER_MCP_INSPECTOR") or (
        str(INSPECTOR) if INSPECTOR.exists() else None
    )
    if found is None or shutil.which("node") is None:
        if os.environ.get("QUIVER_REQUIRE_MCP_INSPECTOR") == "1":
            raise AssertionError("MCP Inspector is not installed (make inspector)")
        pytest.skip("MCP Inspector is not installed (make inspector)")
    return found


async def run_inspector(inspector: str, url: str, key: str, *args: str) -> dict:
    proc = await asyncio.create_subprocess_exec(
        inspector, "--cli", url, "--transport", "http",
        "--header", f"Authorization: Bearer {key}", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "MCP_CATALOG_PATH": os.devnull, "NO_COLOR": "1"},
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, (out.decode()[-2000:], err.decode()[-2000:])
    return json.loads(out)


async def test_inspector_lists_and_calls_tools(api: Api, inspector: str) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    assert (await acme.dev.post("/v1/tools", json=SHAPED)).status_code == 201
    async with served(api.app) as base:
        url = f"{base}/mcp?bot=b"
        listed = await run_inspector(inspector, url, acme.agent_key, "--method", "tools/list")
        called = await run_inspector(
            inspector, url, acme.agent_key, "--method", "tools/call",
            "--tool-name", "check_order", "--tool-arg", "order_id=AB1234",
        )  # fmt: skip
        shaped = await run_inspector(
            inspector, url, acme.agent_key, "--method", "tools/call", "--tool-name", "shaped"
        )

    tools = {t["name"]: t for t in listed["tools"]}
    assert tools["check_order"]["inputSchema"]["required"] == ["order_id"]
    assert tools["shaped"]["outputSchema"]["properties"]["total"] == {"type": "integer"}
    assert called.get("isError") in (None, False)
    assert json.loads(called["content"][0]["text"])["status"] == "shipped"
    assert shaped["structuredContent"]["total"] == 3
