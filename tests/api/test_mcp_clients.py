"""MCP the way clients of both protocol eras meet it, through the official SDK client against a
real uvicorn: listChanged advertised, list_changed from `initialized` on, cursors stable while
tools are saved, hints on tools, a 401 that points at RFC 9728 metadata, and Origin checked."""

from __future__ import annotations

import asyncio

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from server.api import mcp as mcp_module
from tests.api.test_calls import python
from tests.api.test_mcp import mcp_client, ready
from tests.api.test_mcp_sessions import HEADERS, INITIALIZE
from tests.conftest import Api, api_for
from tests.servers import served

CACHED = python("""
def execute(params, context):
    return {"success": True}


tool = {"name": "lookup", "description": "Looks up", "execute": execute,
        "metadata": {"cacheable": True, "title": "Look it up"}}
""")


CANCEL = python("""
def execute(params, context):
    return {"success": True, "cancelled": params["order_id"]}


tool = {"name": "cancel", "description": "Cancels an order", "execute": execute,
        "parameters": {"order_id": {"type": "string", "required": True}},
        "metadata": {"read_only": False, "destructive": True, "idempotent": False}}
""")


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_initialize_advertises_list_changed_and_tools_carry_hints(
    api: Api, mode: str
) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    assert (await acme.dev.post("/v1/tools", json=CACHED)).status_code == 201
    assert (await acme.dev.post("/v1/tools", json=CANCEL)).status_code == 201
    for method in ("GET", "POST"):
        hook = {"kind": "webhook", "name": f"hook_{method.lower()}", "description": "d", "method": method,
                "webhook_url": "https://api.example.com/orders", "parameters": {"type": "object", "properties": {}}}  # fmt: skip
        assert (await acme.dev.post("/v1/tools", json=hook)).status_code == 201
    async with served(api.app) as base, mcp_client(base, acme.agent_key, mode=mode) as client:
        capabilities = client.server_capabilities
        tools = {t.name: t for t in (await client.list_tools()).tools}

    assert capabilities.tools is not None and capabilities.tools.list_changed is True
    lookup = tools["lookup"]
    assert lookup.title == "Look it up"
    assert lookup.annotations.read_only_hint is True and lookup.annotations.idempotent_hint is True
    # no parameters: a closed empty object (clients that make schemas strict can)
    assert lookup.input_schema == {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    cancel = tools["cancel"]
    assert (
        cancel.annotations.destructive_hint is True and cancel.annotations.idempotent_hint is False
    )
    assert cancel.annotations.read_only_hint is False
    reads, writes = tools["hook_get"].annotations, tools["hook_post"].annotations
    assert reads.read_only_hint is True and reads.idempotent_hint is True and reads.open_world_hint
    assert writes.read_only_hint is None and writes.open_world_hint is True


async def test_a_handshake_era_client_hears_list_changed_without_listing_first(api: Api) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    changed = asyncio.Event()

    async def on_message(message) -> None:
        if (
            getattr(getattr(message, "root", message), "method", None)
            == "notifications/tools/list_changed"
        ):
            changed.set()

    async with served(api.app) as base:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=10)
        transport = streamable_http_client(f"{base}/mcp?bot=b", http_client=http)
        async with Client(transport, mode="legacy", cache=None, message_handler=on_message):
            for _ in range(100):  # bounded: until the client's GET stream is open
                await asyncio.sleep(0.02)
                await acme.dev.post(
                    "/v1/tools", json=python(CACHED["source"].replace("lookup", f"t{_}"))
                )
                if changed.is_set():
                    break
            heard = changed.is_set()
        await http.aclose()

    assert heard


async def test_cursors_stay_stable_while_tools_are_saved(api: Api, monkeypatch) -> None:
    monkeypatch.setattr(mcp_module, "PAGE_SIZE", 2)
    acme = await api.tenant("acme")
    await ready(acme)  # check_order, flaky, steady
    async with served(api.app) as base, mcp_client(base, acme.agent_key) as client:
        first = await client.list_tools()
        # a tool sorting before the cursor and one after it are saved between pages
        for name in ("a_first", "zz_last"):
            await acme.dev.post("/v1/tools", json=python(CACHED["source"].replace("lookup", name)))
        names = [t.name for t in first.tools]
        cursor = first.next_cursor
        while cursor:
            page = await client.list_tools(cursor=cursor)
            names += [t.name for t in page.tools]
            cursor = page.next_cursor

    assert len(names) == len(set(names))  # nothing repeats
    assert names[:2] == ["check_order", "flaky"] and "zz_last" in names


async def test_a_401_points_at_protected_resource_metadata(api: Api) -> None:
    async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=30) as http:
        refused = await http.post("/mcp?bot=b", json=INITIALIZE, headers=HEADERS)
        metadata = await http.get("/.well-known/oauth-protected-resource")

    challenge = refused.headers["www-authenticate"]
    assert refused.status_code == 401 and challenge.startswith("Bearer ")
    assert f'resource_metadata="{base}/.well-known/oauth-protected-resource"' in challenge
    assert metadata.status_code == 200
    assert metadata.json()["resource"] == f"{base}/mcp"
    assert metadata.json()["authorization_servers"] == []


async def test_a_page_from_another_origin_is_refused_by_default(settings) -> None:
    """The REST API lets every origin's pages call it (QUIVER_CORS_ORIGINS='*', bearer keys, no
    cookies); /mcp by default takes only the server's own pages and loopback ones."""
    open_rest = settings.model_copy(update={"cors_origins": "*"})
    async with api_for(open_rest) as api:
        acme = await api.tenant("acme")
        await ready(acme)
        async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=30) as http:
            auth = {**HEADERS, "Authorization": f"Bearer {acme.agent_key}"}

            async def initialise(origin: str | None) -> int:
                headers = {**auth, "Origin": origin} if origin else auth
                response = await http.post("/mcp?bot=b", json=INITIALIZE, headers=headers)
                return response.status_code

            statuses = {
                origin: await initialise(origin)
                for origin in (
                    "https://evil.example", "http://evil.example", "null",
                    "http://127.0.0.1.evil.example", base, "http://localhost:6274",
                    "http://[::1]:5173", "http://127.0.0.1:9", None,
                )
            }  # fmt: skip

    assert statuses == {
        "https://evil.example": 403, "http://evil.example": 403, "null": 403,
        "http://127.0.0.1.evil.example": 403, base: 200, "http://localhost:6274": 200,
        "http://[::1]:5173": 200, "http://127.0.0.1:9": 200, None: 200,
    }  # fmt: skip


async def test_only_an_explicit_list_widens_the_origins_of_mcp(settings) -> None:
    allowed = settings.model_copy(update={"mcp_origins": "https://shop.example"})
    async with api_for(allowed) as api:
        acme = await api.tenant("acme")
        await ready(acme)
        async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=30) as http:
            auth = {**HEADERS, "Authorization": f"Bearer {acme.agent_key}"}
            evil = await http.post(
                "/mcp?bot=b", json=INITIALIZE, headers={**auth, "Origin": "http://evil.example"}
            )
            shop = await http.post(
                "/mcp?bot=b", json=INITIALIZE, headers={**auth, "Origin": "https://shop.example"}
            )
            none = await http.post("/mcp?bot=b", json=INITIALIZE, headers=auth)

    assert evil.status_code == 403 and evil.json()["error"]["data"]["code"] == "forbidden"
    assert "QUIVER_MCP_ORIGINS" in evil.json()["error"]["message"]
    assert shop.status_code == 200 and none.status_code == 200


SHAPED_SOURCE = """
def execute(params, context):
    if params.get("broken"):
        return {"success": True, "total": "many"}
    return {"success": True, "total": 3}


tool = {"name": "shaped", "description": "Counts", "execute": execute,
        "parameters": {"broken": {"type": "boolean"}},
        "metadata": {"output_schema": SCHEMA}}
"""
TOTAL = '{"type": "object", "required": ["total"], "properties": {"total": {"type": "integer"}}}'
SHAPED = python(SHAPED_SOURCE.replace("SCHEMA", TOTAL))


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_declared_output_schema_is_published_and_kept(api: Api, mode: str) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    assert (await acme.dev.post("/v1/tools", json=SHAPED)).status_code == 201
    async with served(api.app) as base, mcp_client(base, acme.agent_key, mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        good = await client.call_tool("shaped", {})
        broken = await client.call_tool("shaped", {"broken": True})

    assert tools["shaped"].output_schema["properties"]["total"] == {"type": "integer"}
    assert tools["check_order"].output_schema is None
    assert good.is_error is False and good.structured_content["total"] == 3
    assert broken.is_error is True and "output_schema" in broken.content[0].text
    assert broken.structured_content["error"]["code"] == "malformed_output"


async def test_an_output_schema_that_is_not_one_is_refused_at_save(api: Api) -> None:
    acme = await api.tenant("acme")
    for schema in ('{"type": "string"}', '{"type": "object", "properties": {"a": {"type": 7}}}'):
        body = python(SHAPED_SOURCE.replace("SCHEMA", schema))
        response = await acme.dev.post("/v1/tools", json=body)
        assert response.status_code == 422, response.text
        assert response.json()["errors"][0]["field"] == "tool.metadata.output_schema"


async def test_a_connection_that_cannot_take_list_changed_is_counted_not_raised() -> None:
    from server import metrics

    class Closed:
        async def send_tool_list_changed(self) -> None:
            raise ConnectionResetError("the listening stream is gone")

    counted = metrics.BACKGROUND_FAILURES.labels(task="mcp_list_changed")
    before = counted._value.get()

    await mcp_module._tell_list_changed(Closed())

    assert counted._value.get() == before + 1
