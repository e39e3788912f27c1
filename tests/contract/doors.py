"""The doors a session's calls come through, each driven as its users drive it: HTTP
(``POST …/calls``), MCP (the official SDK's client against a real uvicorn) and the agent loop (a
model on the fake model server asks for the call). Each answers a call as one ``Outcome``, so a
contract case asserts the same thing whatever the door."""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass
from typing import Any, Protocol

from mcp.shared.exceptions import MCPError

from tests.api.test_mcp import mcp_client
from tests.conftest import Api, TenantKeys
from tests.fake_models import FakeModel
from tests.servers import served

BOT = "b"
PAGE_FAILED = {"code": "dom_missing", "message": "no cart button"}


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

    async def report_failure(self, tool: str) -> None:
        """The page says the browser action it was last asked for failed (``PAGE_FAILED``)."""
        ...

    async def after_connecting(self, tool: str, arguments: dict[str, Any]) -> Outcome:
        """The user has connected the account ``tool`` acts through: how its call goes on
        (called again; the loop's paused turn answered ``connected``)."""
        ...


async def report_to_the_session(acme: TenantKeys, sid: str, tool: str) -> None:
    """How an agent outside the loop reports a browser action's outcome."""
    reported = await acme.agent.post(
        f"/v1/sessions/{sid}/calls/{uuid.uuid4().hex}/result",
        json={"tool": tool, "success": False, "error": PAGE_FAILED},
    )
    assert reported.status_code == 201, reported.text


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

    async def report_failure(self, tool: str) -> None:
        await report_to_the_session(self.acme, self.sid, tool)

    async def after_connecting(self, tool: str, arguments: dict[str, Any]) -> Outcome:
        return await self.call(tool, arguments)


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

    async def report_failure(self, tool: str) -> None:
        await report_to_the_session(self.acme, self.sid, tool)

    async def after_connecting(self, tool: str, arguments: dict[str, Any]) -> Outcome:
        return await self.call(tool, arguments)


class LoopDoor:
    name = "loop"

    def __init__(self, acme: TenantKeys, sid: str, fake: FakeModel, api: Api) -> None:
        self.acme, self.sid, self.fake, self.api = acme, sid, fake, api
        self.paused: dict[str, Any] | None = None  # the last turn that waits for the page

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
        if turn["status"] in ("requires_approval", "requires_action", "requires_connection"):
            self.fake.script.clear()
            self.paused = turn
            return Outcome(paused=turn["status"])
        return _envelope(turn["rounds"][0]["tool_calls"][0]["envelope"])

    async def report_failure(self, tool: str) -> None:
        """The page answers the paused turn, which then ends."""
        assert self.paused is not None and self.paused["actions"][0]["name"] == tool
        self.fake.script[:] = [{"text": "The page could not do it."}]
        answer = [
            {
                "call_id": self.paused["actions"][0]["call_id"],
                "success": False,
                "error": PAGE_FAILED,
            }
        ]
        resumed = await self.acme.agent.post(
            f"/v1/sessions/{self.sid}/messages/{self.paused['message']['id']}/results", json=answer
        )
        assert resumed.status_code == 200 and resumed.json()["status"] == "completed"
        self.paused = None

    async def after_connecting(self, tool: str, arguments: dict[str, Any]) -> Outcome:
        """The paused turn is answered ``connected``: the call runs then (its envelope is the
        call log's), and the turn ends."""
        assert self.paused is not None and self.paused["actions"][0]["name"] == tool
        self.fake.script[:] = [{"text": "done"}]
        answer = [{"call_id": self.paused["actions"][0]["call_id"], "connected": True}]
        resumed = await self.acme.agent.post(
            f"/v1/sessions/{self.sid}/messages/{self.paused['message']['id']}/results", json=answer
        )
        assert resumed.status_code == 200 and resumed.json()["status"] == "completed"
        self.paused = None
        await self.api.runtime.call_log.flush()
        calls = (await self.acme.agent.get(f"/v1/sessions/{self.sid}/calls")).json()["calls"]
        last = [c for c in calls if c["tool"] == tool][-1]
        return Outcome(None, last["success"], (last["error"] or {}).get("code"), last["result"])


async def open_door(
    kind: str,
    api: Api,
    acme: TenantKeys,
    fake: FakeModel,
    stack: contextlib.AsyncExitStack,
    customer: str | None = None,
) -> Door:
    """A session of the bot ``b``, opened the way the door's users open one (for ``customer``,
    if named)."""
    if kind == "mcp":
        base = await stack.enter_async_context(served(api.app))
        client = await stack.enter_async_context(
            mcp_client(base, acme.agent_key, BOT, customer=customer)
        )
        await client.list_tools()  # the MCP client's Quiver session is made on first use
        sessions = (await acme.dev.get(f"/v1/sessions?bot={BOT}")).json()["sessions"]
        assert len(sessions) == 1
        return McpDoor(acme, sessions[0]["id"], client)
    body = {"bot": BOT, **({"customer": customer} if customer else {})}
    attached = await acme.agent.post("/v1/sessions", json=body)
    assert attached.status_code == 201, attached.text
    sid = attached.json()["id"]
    return LoopDoor(acme, sid, fake, api) if kind == "loop" else HttpDoor(acme, sid)
