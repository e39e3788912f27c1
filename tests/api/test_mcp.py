"""MCP at /mcp through the official SDK's own client, against a real uvicorn, on both databases."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.api.test_breakers import setup
from tests.api.test_calls import python
from tests.conftest import Api, TenantKeys
from tests.servers import served

ORDER = python("""
def execute(params, context):
    return {"success": True, "order": params["order_id"], "status": "shipped"}


tool = {"name": "check_order", "description": "Check an order",
        "parameters": {"order_id": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{4}$", "required": True}},
        "execute": execute}
""")


@contextlib.asynccontextmanager
async def mcp_client(
    base: str, key: str, bot: str = "b", mode: str = "auto", customer: str | None = None
):
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
    acting = f"&customer={customer}" if customer else ""
    transport = streamable_http_client(f"{base}/mcp?bot={bot}{acting}", http_client=http)
    async with Client(transport, mode=mode, cache=None) as client:
        yield client
    await http.aclose()


async def ready(t: TenantKeys) -> None:
    await setup(t)
    assert (await t.dev.post("/v1/tools", json=ORDER)).status_code == 201


async def test_list_and_call_through_the_sdk_client(api: Api) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    async with served(api.app) as base, mcp_client(base, acme.agent_key) as client:
        listed = await client.list_tools()
        ok = await client.call_tool("check_order", {"order_id": "AB1234"})
        invalid = await client.call_tool("check_order", {"order_id": "nope"})
        failed = await client.call_tool("flaky", {"fail": True})
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("no_such_tool", {})

    assert [t.name for t in listed.tools] == ["check_order", "flaky", "steady"]
    schema = listed.tools[0].input_schema
    assert schema["properties"]["order_id"]["pattern"] == "^[A-Z]{2}[0-9]{4}$"
    assert ok.is_error is False and ok.structured_content["status"] == "shipped"
    assert invalid.is_error is True and "order_id" in invalid.content[0].text
    assert failed.is_error is True and "upstream said no" in failed.content[0].text
    assert "no_such_tool" in str(unknown.value)
    calls = (await acme.dev.get("/v1/analytics/tools")).json()["tools"]
    assert {c["tool"] for c in calls} == {"check_order", "flaky"}  # the same pipeline and log


async def test_concurrent_first_calls_of_a_new_mcp_session_all_answer(api: Api) -> None:
    """The first requests of a client often come together (8 calls in flight): they must share
    one Quiver session, created and committed once — never a request that sees it before it is
    committed (it found no session: an internal error), never two sessions for one client."""
    acme = await api.tenant("acme")
    await ready(acme)
    async with served(api.app) as base:
        for bot, mode in (("b", "auto"), ("b", "legacy"), ("b", "legacy")):
            async with mcp_client(base, acme.agent_key, bot, mode) as client:
                answers = await asyncio.gather(
                    *(client.call_tool("check_order", {"order_id": "AB1234"}) for _ in range(8)),
                    client.list_tools(),
                )
            assert all(a.is_error is False for a in answers[:8]), answers
    sessions = (await acme.dev.get("/v1/sessions")).json()["sessions"]
    # clients without a session id (the modern protocol) share one per key and bot; each
    # handshake-era client (its own Mcp-Session-Id) has its own
    assert len(sessions) == 3, sessions


async def test_pages_are_deterministic(api: Api, monkeypatch) -> None:
    from server.api import mcp as mcp_module

    monkeypatch.setattr(mcp_module, "PAGE_SIZE", 2)
    acme = await api.tenant("acme")
    await ready(acme)
    async with served(api.app) as base, mcp_client(base, acme.agent_key) as client:
        first = await client.list_tools()
        pages, cursor = [first], first.next_cursor
        while cursor:
            page = await client.list_tools(cursor=cursor)
            pages.append(page)
            cursor = page.next_cursor

    assert [[t.name for t in p.tools] for p in pages] == [["check_order", "flaky"], ["steady"]]


async def test_list_changed_reaches_a_listening_client(api: Api) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    async with served(api.app) as base, mcp_client(base, acme.agent_key) as client:
        before = [t.name for t in (await client.list_tools()).tools]
        async with client.listen(tools_list_changed=True) as subscription:
            await acme.dev.delete("/v1/tools/flaky")
            event = await asyncio.wait_for(anext(aiter(subscription)), 2.0)
        after = [t.name for t in (await client.list_tools()).tools]

    assert "flaky" in before and "flaky" not in after
    assert type(event).__name__ == "ToolsListChanged"


async def test_another_tenants_key_never_lists_or_calls_the_tool(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    await ready(acme)
    await globex.dev.post("/v1/bots", json={"name": "b", "tools": None})
    async with served(api.app) as base:
        async with mcp_client(base, globex.agent_key) as client:
            listed = await client.list_tools()
            with pytest.raises(MCPError):
                await client.call_tool("check_order", {"order_id": "AB1234"})
        raw = httpx.AsyncClient(base_url=base)
        anonymous = await raw.post(
            "/mcp?bot=b", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        )
        admin = await raw.post(
            "/mcp?bot=b",
            headers={"Authorization": "Bearer " + api.admin.headers["authorization"].split()[1]},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
        no_bot = await raw.post(
            "/mcp",
            headers={"Authorization": f"Bearer {acme.agent_key}"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
        await raw.aclose()

    assert listed.tools == []
    assert anonymous.status_code == 401 and admin.status_code == 403
    assert no_bot.status_code == 422 and no_bot.json()["errors"][0]["field"] == "bot"


async def test_a_session_breaker_takes_the_tool_out_of_the_mcp_list(api: Api) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    async with served(api.app) as base, mcp_client(base, acme.agent_key) as client:
        for _ in range(3):
            await client.call_tool("flaky", {"fail": True})
        listed = [t.name for t in (await client.list_tools()).tools]
        refused = await client.call_tool("flaky", {})

    assert listed == ["check_order", "steady"]
    assert refused.is_error is True and "Do not call it again" in refused.content[0].text


async def test_handshake_era_sessions_get_list_changed_notifications(api: Api) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    received: list[str] = []
    changed = asyncio.Event()

    async def on_message(message) -> None:
        method = getattr(getattr(message, "root", message), "method", None)
        if method is not None:
            received.append(method)
        if method == "notifications/tools/list_changed":
            changed.set()

    async with served(api.app) as base:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=60)
        transport = streamable_http_client(f"{base}/mcp?bot=b", http_client=http)
        async with Client(
            transport, mode="legacy", cache=None, message_handler=on_message
        ) as client:
            version = client.protocol_version
            before = [t.name for t in (await client.list_tools()).tools]
            await acme.dev.delete("/v1/tools/flaky")
            # the client opens its GET stream some time after initialising, and a notice sent
            # before that is lost: the change is announced again until one is heard (bounded)
            for _ in range(50):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 0.1)
                    break
                api.runtime.events.tenant_changed("acme")
            assert changed.is_set()
            after = [t.name for t in (await client.list_tools()).tools]
        await http.aclose()

    assert version < "2026" and "flaky" in before and "flaky" not in after
    assert "notifications/tools/list_changed" in received


ROUTED = python("""
def execute(params, context):
    return {"success": True, "order": params["order_id"]}


tool = {"name": "routed_order", "description": "An order, routed by its id",
        "parameters": {"order_id": {"type": "string", "x-mcp-header": "Order-Id", "required": True}},
        "execute": execute}
""")


async def test_no_tool_declares_mcp_param_headers_so_calls_skip_their_check(api: Api) -> None:
    """2026-07-28: only parameters annotated ``x-mcp-header`` become ``Mcp-Param-*`` headers
    that the server must check against the body. Quiver refuses the keyword when a tool is
    saved — which is what lets the MCP adapter tell the SDK there is nothing to check instead
    of running the whole tools/list for each call. Should the keyword ever be allowed, this
    fails first: the adapter's ``_input_schema`` must then answer the tool's schema."""
    acme = await api.tenant("acme")
    await ready(acme)
    refused = await acme.dev.post("/v1/tools", json=ROUTED)
    assert refused.status_code == 422
    fields = [e["field"] for e in refused.json()["errors"]]
    assert "tool.parameters.properties.order_id.x-mcp-header" in fields

    async def stray_header(request: httpx2.Request) -> None:
        request.headers["mcp-param-order-id"] = "XY9999"  # declared by no tool: not checked

    async with served(api.app) as base:
        http = httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=60,
            event_hooks={"request": [stray_header]},
        )  # fmt: skip
        transport = streamable_http_client(f"{base}/mcp?bot=b", http_client=http)
        async with Client(transport, cache=None) as client:
            ok = await client.call_tool("check_order", {"order_id": "AB1234"})
        await http.aclose()
    assert ok.is_error is False and ok.structured_content["order"] == "AB1234"
