"""Tool search (``tool_loading: "search"``) through HTTP, the event stream, the provider formats,
MCP (the official SDK client, both eras) and the agent loop (a fake model), on both databases:
a session starts with ``search_tools`` and the always-on tools; what it finds joins its snapshot
(a new version, an event, list_changed) and is callable at once; nothing outside its gate is ever
found; the bot setting and the query are checked."""

from __future__ import annotations

import asyncio
import json

import httpx2
import pytest
from anthropic.types import ToolParam
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from openai.types.responses import FunctionTool, ToolSearchTool
from pydantic import TypeAdapter

from tests.api.test_agent_loop import KEY, tool_results
from tests.api.test_calls import call, python
from tests.conftest import Api, TenantKeys
from tests.fake_models import FakeModel
from tests.servers import EventReader, bearer_client, served

CATALOGUE = {
    "faq": ("Answer a common question from the help centre", ["question"]),
    "refund_order": (
        "Refund the payment of an order that arrived late or damaged",
        ["order_id", "reason"],
    ),
    "cancel_order": ("Cancel an order before it ships", ["order_id"]),
    "track_shipment": (
        "Track where a parcel is and when it will be delivered",
        ["tracking_number"],
    ),
    "update_address": (
        "Change the delivery address of a customer",
        ["customer_id", "address"],
    ),
    "book_appointment": ("Book an appointment with a technician", ["date", "slot"]),
    "reset_password": ("Send a password reset link to a customer's e-mail", ["email"]),
    "list_invoices": ("List the invoices of an account", ["account_id"]),
    "apply_coupon": ("Apply a discount coupon to a basket", ["basket_id", "code"]),
    "check_stock": ("Check whether a product is in stock at a warehouse", ["sku", "warehouse"]),
}


def tool_file(name: str, description: str, parameters: list[str]) -> dict:
    params = {p: {"type": "string", "required": True} for p in parameters}
    return python(f'''
def execute(params, context):
    return {{"success": True, "tool": "{name}", "params": params}}


tool = {{"name": "{name}", "description": "{description}", "execute": execute,
        "parameters": {params!r}}}
''')


async def catalogue(t: TenantKeys, **bot: object) -> None:
    for name, (description, parameters) in CATALOGUE.items():
        saved = await t.dev.post("/v1/tools", json=tool_file(name, description, parameters))
        assert saved.status_code == 201, saved.text
    body = {"name": "b", "tools": None, "tool_loading": "search", "intents": {"*": ["faq"]}}
    created = await t.dev.post("/v1/bots", json={**body, **bot})
    assert created.status_code == 201, created.text


async def snapshot(t: TenantKeys, sid: str, fmt: str = "native") -> dict:
    response = await t.agent.get(f"/v1/sessions/{sid}/snapshot?format={fmt}")
    assert response.status_code == 200, response.text
    return response.json()


def names(snap: dict) -> list[str]:
    return [t.get("name") or t.get("function", {}).get("name") for t in snap["tools"]]


async def test_a_search_loads_the_best_tools_into_the_session(api: Api) -> None:
    acme = await api.tenant("acme")
    await catalogue(acme)
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    other = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    before = await snapshot(acme, sid)
    too_early = await call(acme, sid, "refund_order", {"order_id": "A1", "reason": "late"})
    found = await call(acme, sid, "search_tools", {"query": "my order came late, I want my money back", "limit": 2})  # fmt: skip
    after = await snapshot(acme, sid)
    refunded = await call(acme, sid, "refund_order", {"order_id": "A1", "reason": "late"})
    untouched = await snapshot(acme, other)
    await api.runtime.call_log.flush()
    logged = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]

    assert names(before) == ["search_tools", "faq"]
    assert too_early["success"] is False and too_early["error"]["code"] == "tool_not_available"
    assert found["success"] is True, found
    hits = [t["name"] for t in found["result"]["tools"]]
    assert hits[0] == "refund_order" and len(hits) <= 2
    assert found["result"]["tools"][0]["parameters"]["required"] == ["order_id", "reason"]
    assert names(after) == ["search_tools", *sorted(["faq", *hits])]  # the bot's order
    assert after["version"] > before["version"]
    assert refunded["success"] is True and refunded["result"]["tool"] == "refund_order"
    assert names(untouched) == ["search_tools", "faq"]  # a search loads into its own session
    assert sorted(c["tool"] for c in logged) == ["refund_order", "search_tools"]


async def test_found_tools_reach_the_event_stream(api: Api) -> None:
    acme = await api.tenant("acme")
    await catalogue(acme)
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    async with served(api.app) as base:
        agent = bearer_client(base, acme.agent_key)
        async with EventReader(agent, f"/v1/sessions/{sid}/events") as stream:
            initial = await stream.next()
            await call(acme, sid, "search_tools", {"query": "where is my parcel", "limit": 1})
            added = await stream.until(lambda d: d.get("added") == ["track_shipment"], within=5.0)
        await agent.aclose()

    assert [t["name"] for t in initial["data"]["tools"]] == ["search_tools", "faq"]
    assert int(added["id"]) > int(initial["id"])


async def test_search_never_finds_outside_the_gate(api: Api) -> None:
    acme = await api.tenant("acme")
    await catalogue(acme, intents={"*": ["faq"], "orders": ["refund_order", "cancel_order"]})
    globex = await api.tenant("globex")
    secret = tool_file("refund_everything", "Refund every order late or damaged money back", ["order_id"])  # fmt: skip
    assert (await globex.dev.post("/v1/tools", json=secret)).status_code == 201
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b", "intent": "orders"})).json()["id"]  # fmt: skip

    found = await call(acme, sid, "search_tools", {"query": "refund order money back late parcel track password", "limit": 10})  # fmt: skip
    await call(acme, sid, "cancel_order", {"order_id": "A1"})
    again = await call(acme, sid, "search_tools", {"query": "cancel refund order"})

    hits = {t["name"] for t in found["result"]["tools"]}
    assert hits == {"refund_order", "cancel_order"}  # the intent's; never another tenant's
    assert again["result"]["tools"] == []  # both are loaded already: nothing left to find
    assert "other words" in again["result"]["note"]


async def test_provider_formats_carry_the_deferred_tools(api: Api) -> None:
    acme = await api.tenant("acme")
    await catalogue(acme)
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    await call(acme, sid, "search_tools", {"query": "cancel an order", "limit": 1})

    anthropic = (await snapshot(acme, sid, "anthropic"))["tools"]
    responses = (await snapshot(acme, sid, "openai-responses"))["tools"]
    chat = (await snapshot(acme, sid, "openai"))["tools"]

    offered = [t["name"] for t in anthropic if not t.get("defer_loading")]
    deferred = {t["name"] for t in anthropic if t.get("defer_loading") is True}
    assert offered == ["search_tools", "cancel_order", "faq"]
    assert deferred == set(CATALOGUE) - {"faq", "cancel_order"}
    assert responses[0]["type"] == "tool_search" and responses[0]["execution"] == "client"
    assert responses[0]["parameters"]["required"] == ["query"]
    assert {t["name"] for t in responses if t.get("defer_loading")} == deferred
    assert [t["function"]["name"] for t in chat] == offered  # no deferred loading: not listed
    # as the providers' own SDKs type them
    assert all(TypeAdapter(ToolParam).validate_python(t)["defer_loading"] for t in anthropic[3:])
    assert ToolSearchTool.model_validate(responses[0]).execution == "client"
    assert all(FunctionTool.model_validate(t).defer_loading for t in responses[3:])


async def test_settings_and_queries_are_checked(api: Api) -> None:
    acme = await api.tenant("acme")
    await catalogue(acme)
    bad = await acme.dev.put(
        "/v1/bots/b", json={"name": "b", "tools": None, "tool_loading": "lazy"}
    )
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    no_words = await call(acme, sid, "search_tools", {"query": "?!…"})
    too_many = await call(acme, sid, "search_tools", {"query": "order", "limit": 50})
    shown = (await acme.dev.get("/v1/bots/b")).json()
    assert (await acme.agent.post(f"/v1/sessions/{sid}/end", json={})).status_code == 200
    ended = await acme.agent.post(
        f"/v1/sessions/{sid}/calls", json={"tool": "search_tools", "arguments": {"query": "x"}}
    )

    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "tool_loading"
    assert no_words["success"] is False and no_words["error"]["code"] == "invalid_input"
    assert too_many["success"] is False and too_many["error"]["code"] == "invalid_arguments"
    assert shown["tool_loading"] == "search"
    assert ended.status_code == 409


async def test_a_bot_that_loads_all_has_no_search(api: Api) -> None:
    acme = await api.tenant("acme")
    await catalogue(acme, tool_loading="all")
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    offered = names(await snapshot(acme, sid))
    refused = await call(acme, sid, "search_tools", {"query": "refund"})

    assert offered == sorted(CATALOGUE) and "search_tools" not in offered
    assert refused["error"]["code"] == "tool_not_available"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_mcp_clients_hear_found_tools_and_call_them(api: Api, mode: str) -> None:
    acme = await api.tenant("acme")
    await catalogue(acme)
    changed = asyncio.Event()

    async def on_message(message) -> None:
        method = getattr(getattr(message, "root", message), "method", None)
        if method == "notifications/tools/list_changed":
            changed.set()

    async with served(api.app) as base:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=10)
        transport = streamable_http_client(f"{base}/mcp?bot=b", http_client=http)
        async with Client(transport, mode=mode, cache=None, message_handler=on_message) as client:
            first = [t.name for t in (await client.list_tools()).tools]
            changed.clear()
            found = await client.call_tool("search_tools", {"query": "reset my password"})
            if mode == "legacy":
                await asyncio.wait_for(changed.wait(), timeout=10)
            second = [t.name for t in (await client.list_tools()).tools]
            reset = await client.call_tool("reset_password", {"email": "a@example.com"})
        await http.aclose()

    assert first == ["faq", "search_tools"]
    assert found.is_error is False
    assert found.structured_content["tools"][0]["name"] == "reset_password"
    assert "reset_password" in second
    assert reset.is_error is False and reset.structured_content["tool"] == "reset_password"


async def test_the_agent_loop_searches_then_calls_what_it_found(
    agents: Api, fake: FakeModel
) -> None:
    acme = await agents.tenant("acme")
    allowed = await agents.admin.put("/v1/tenants/acme/egress", json={"allow": [fake.host]})
    assert allowed.status_code == 200
    provider = {"kind": "anthropic", "base_url": fake.base, "api_key": KEY, "models": ["big"]}
    assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
    await catalogue(acme, model="main/big")
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    fake.reply(
        {"tool_calls": [{"name": "search_tools", "arguments": {"query": "stock of a product"}}]},
        {"tool_calls": [{"name": "check_stock", "arguments": {"sku": "X1", "warehouse": "north"}}]},
        {"text": "It is in stock."},
    )

    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "Is X1 in stock?"})  # fmt: skip

    assert answered.status_code == 200, answered.text
    turn = answered.json()
    assert turn["message"]["content"] == "It is in stock."
    first, second, third = fake.requests
    offered = [[t["name"] for t in r["body"].get("tools") or []] for r in fake.requests]
    assert offered[0] == ["search_tools", "faq"]  # 2 tools, not 10
    assert "check_stock" in offered[1]
    stock = json.loads(tool_results(third)[-1])
    assert stock["tool"] == "check_stock"
    assert turn["rounds"][1]["tool_calls"][0]["envelope"]["success"] is True
