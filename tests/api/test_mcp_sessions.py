"""MCP sessions are a shared per-node resource: attack tests through a real uvicorn.

One key cannot fill the session table for everyone (per-key and per-tenant caps, idle expiry),
a session answers only the key that opened it, and no session id reaches the log.
"""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from server.settings import Settings
from tests.api.test_mcp import mcp_client, ready
from tests.conftest import api_for
from tests.servers import served

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "attacker", "version": "1"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


async def initialize(http: httpx.AsyncClient, key: str) -> httpx.Response:
    return await http.post(
        "/mcp?bot=b", json=INITIALIZE, headers={**HEADERS, "Authorization": f"Bearer {key}"}
    )


def tools_list(session_id: str, key: str) -> dict[str, str]:
    return {
        **HEADERS,
        "Authorization": f"Bearer {key}",
        "Mcp-Session-Id": session_id,
        "Mcp-Protocol-Version": "2025-06-18",
    }


LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}


def capped(settings: Settings, **overrides) -> Settings:
    return settings.model_copy(update=overrides)


async def test_one_key_cannot_fill_the_session_table_for_other_tenants(settings) -> None:
    async with api_for(capped(settings, mcp_sessions_per_key=5)) as api:
        acme, other = await api.tenant("acme"), await api.tenant("other")
        await ready(acme)
        await ready(other)
        async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=10) as http:
            opened = [await initialize(http, acme.agent_key) for _ in range(5)]
            flood = [await initialize(http, acme.agent_key) for _ in range(20)]
            # the other tenant (and another key of the same tenant) still get in, and work
            async with mcp_client(base, other.agent_key) as client:
                listed = await client.list_tools()
            second_key = await initialize(http, acme.dev_key)

    assert all(r.status_code == 200 for r in opened)
    assert {r.status_code for r in flood} == {429}
    # an MCP client is refused in JSON-RPC, the problem as the error's data (its SDK shows it)
    assert flood[0].headers["content-type"].startswith("application/json")
    assert flood[0].json()["id"] == INITIALIZE["id"]
    assert flood[0].json()["error"]["data"]["code"] == "too_many_sessions"
    assert "retry-after" in flood[0].headers
    assert [t.name for t in listed.tools] == ["check_order", "flaky", "steady"]
    assert second_key.status_code == 200


async def test_the_tenant_cap_holds_across_its_keys(settings) -> None:
    async with api_for(capped(settings, mcp_sessions_per_tenant=3)) as api:
        acme = await api.tenant("acme")
        await ready(acme)
        keys = [await api.key("acme", "agent") for _ in range(4)]
        async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=10) as http:
            answers = [await initialize(http, key) for key in keys]

    assert [r.status_code for r in answers] == [200, 200, 200, 429]


async def test_a_session_answers_only_the_key_that_opened_it(settings) -> None:
    async with api_for(settings) as api:
        acme, other = await api.tenant("acme"), await api.tenant("other")
        await ready(acme)
        await ready(other)
        stranger = await api.key("acme", "agent")  # the same tenant, another key
        async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=10) as http:
            opened = await initialize(http, acme.agent_key)
            sid = opened.headers["mcp-session-id"]
            owner = tools_list(sid, acme.agent_key)
            await http.post(
                "/mcp?bot=b",
                json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                headers=owner,
            )
            used = {
                k: await http.post("/mcp?bot=b", json=LIST, headers=tools_list(sid, k))
                for k in (stranger, other.agent_key)
            }
            deleted = {
                k: await http.delete("/mcp?bot=b", headers=tools_list(sid, k))
                for k in (stranger, other.agent_key)
            }
            still = await http.post("/mcp?bot=b", json=LIST, headers=owner)

    assert {r.status_code for r in used.values()} == {404}
    assert {r.status_code for r in deleted.values()} == {404}
    assert still.status_code == 200 and "check_order" in still.text


async def test_idle_sessions_expire_and_free_their_place(settings) -> None:
    async with api_for(capped(settings, mcp_sessions_per_key=1, mcp_session_idle_s=0.3)) as api:
        acme = await api.tenant("acme")
        await ready(acme)
        async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=10) as http:
            first = await initialize(http, acme.agent_key)
            refused = await initialize(http, acme.agent_key)
            sid = first.headers["mcp-session-id"]
            again = refused
            for _ in range(100):  # bounded: the SDK closes it after 0.3 s without a request
                await asyncio.sleep(0.05)
                again = await initialize(http, acme.agent_key)  # touches only a new session
                if again.status_code == 200:
                    break
            gone = await http.post("/mcp?bot=b", json=LIST, headers=tools_list(sid, acme.agent_key))

    assert first.status_code == 200 and refused.status_code == 429
    assert again.status_code == 200
    assert gone.status_code == 404


async def test_session_ids_never_reach_the_log(settings, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with api_for(settings) as api:
        acme = await api.tenant("acme")
        await ready(acme)
        stranger = await api.key("acme", "agent")
        async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=10) as http:
            sid = (await initialize(http, acme.agent_key)).headers["mcp-session-id"]
            await http.post("/mcp?bot=b", json=LIST, headers=tools_list(sid, stranger))
            await http.delete("/mcp?bot=b", headers=tools_list(sid, acme.agent_key))
            await http.post("/mcp?bot=b", json=LIST, headers=tools_list(sid, acme.agent_key))

    # the server's records (the test's own HTTP client logs the headers it received)
    server = [r for r in caplog.records if not r.name.startswith(("httpcore", "httpx"))]
    assert any("[session]" in r.getMessage() for r in server)  # the SDK did log about sessions
    assert [r.name for r in server if sid in r.getMessage()] == []


async def test_an_unknown_bot_is_refused_at_initialize(settings) -> None:
    async with api_for(settings) as api:
        acme = await api.tenant("acme")
        await ready(acme)
        async with served(api.app) as base, httpx.AsyncClient(base_url=base, timeout=10) as http:
            raw = await http.post(
                "/mcp?bot=nope", json=INITIALIZE,
                headers={**HEADERS, "Authorization": f"Bearer {acme.agent_key}"},
            )  # fmt: skip
            with pytest.raises(Exception):  # noqa: B017 - the SDK client cannot even connect
                async with mcp_client(base, acme.agent_key, bot="nope") as client:
                    await client.list_tools()

    assert raw.status_code == 404 and raw.json()["error"]["data"]["code"] == "not_found"
    assert "nope" in raw.json()["error"]["message"]
