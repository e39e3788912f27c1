"""The doors a session's calls come through, each driven as its users drive it: HTTP
(``POST …/calls``), MCP (the official SDK's client against a real uvicorn) and the agent loop (a
model on the fake model server asks for the call). Each answers a call as one ``Outcome``, so a
contract case asserts the same thing whatever the door."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Protocol

from mcp.shared.exceptions import MCPError

from tests.api.test_mcp import mcp_client
from tests.conftest import Api, TenantKeys
from tests.fake_models import FakeModel
from tests.servers import served

BOT = "b"


@dataclass(frozen=True)
class Outcome:
    """How a call ended: refused by the session (its problem's ``code``), or run to an envelope
    (``success``, and the failure's ``code``)."""

    refused: str | None = None
    success: bool | None = None
    code: str | None = None
    result: Any = None
    paused: str | None = None  # the agent loop's turn waits (requires_approval, requires_action)


class Door(Protocol):
    name: str
    sid: str
    acme: TenantKeys  # the session's tenant, for what a test checks beside the door

    async def call(self, tool: str, arguments: dict[str, Any]) -> Outcome: ...


def _envelope(envelope: dict[str, Any]) -> Outcome:
    error = envelope.get("error") or {}
    return Outcome(None, envelope["success"], error.get("code"), envelope.get("result"))


class HttpDoor:
    name = "http"

    def __init__(self, acme: TenantKeys, sid: str) -> None:
        self.acme, self.sid = acme, sid

    async def call(self, tool: str, arguments: dict[str, Any]) -> Outcome:
        answered = await self.acme.agent.post(
            f"/v1/sessions/{self.sid}/calls", json={"tool": tool, "arguments": arguments}
        )
        if answered.status_code != 200:
            return Outcome(refused=answered.json()["code"])
        return _envelope(answered.json())


class McpDoor:
    name = "mcp"

    def __init__(self, acme: TenantKeys, sid: str, client: Any) -> None:
        self.acme, self.sid, self.client = acme, sid, client

    async def call(self, tool: str, arguments: dict[str, Any]) -> Outcome:
        try:
            result = await self.client.call_tool(tool, arguments)
        except MCPError as exc:
            if exc.message.startswith("Unknown tool"):  # MCP's word for a tool not offered
                return Outcome(success=False, code="tool_not_available")
            return Outcome(refused=(exc.data or {}).get("code", exc.message))
        if result.is_error:
            return Outcome(None, False, result.structured_content["error"]["code"])
        return Outcome(None, True, None, result.structured_content)


class LoopDoor:
    name = "loop"

    def __init__(self, acme: TenantKeys, sid: str, fake: FakeModel) -> None:
        self.acme, self.sid, self.fake = acme, sid, fake

    async def call(self, tool: str, arguments: dict[str, Any]) -> Outcome:
        self.fake.script[:] = [
            {"tool_calls": [{"name": tool, "arguments": arguments}]},
            {"text": "done"},
        ]
        answered = await self.acme.agent.post(
            f"/v1/sessions/{self.sid}/messages", json={"content": f"please run {tool}"}
        )
        if answered.status_code != 200:
            return Outcome(refused=answered.json()["code"])
        turn = answered.json()
        if turn["status"] in ("requires_approval", "requires_action"):
            self.fake.script.clear()
            return Outcome(paused=turn["status"])
        return _envelope(turn["rounds"][0]["tool_calls"][0]["envelope"])


async def open_door(
    kind: str, api: Api, acme: TenantKeys, fake: FakeModel, stack: contextlib.AsyncExitStack
) -> Door:
    """A session of the bot ``b``, opened the way the door's users open one."""
    if kind == "mcp":
        base = await stack.enter_async_context(served(api.app))
        client = await stack.enter_async_context(mcp_client(base, acme.agent_key, BOT))
        await client.list_tools()  # the MCP client's Quiver session is made on first use
        sessions = (await acme.dev.get(f"/v1/sessions?bot={BOT}")).json()["sessions"]
        assert len(sessions) == 1
        return McpDoor(acme, sessions[0]["id"], client)
    attached = await acme.agent.post("/v1/sessions", json={"bot": BOT})
    assert attached.status_code == 201, attached.text
    sid = attached.json()["id"]
    return LoopDoor(acme, sid, fake) if kind == "loop" else HttpDoor(acme, sid)
