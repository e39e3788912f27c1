"""Browser actions and the session event stream, through a real uvicorn, on both databases."""

from __future__ import annotations

import asyncio
import time

import httpx

from tests.api.test_breakers import STEADY, attach, names, setup
from tests.api.test_calls import call
from tests.conftest import Api, TenantKeys
from tests.servers import EventReader, bearer_client, served

OPEN_CART = {
    "name": "open_cart",
    "description": "Show the shopping cart",
    "parameters": {"highlight": {"type": "string"}},
}
SCROLL = {"name": "scroll_to", "description": "Scroll to a section", "parameters": {}}


async def put_actions(t: TenantKeys, sid: str, actions: list) -> httpx.Response:
    return await t.agent.put(f"/v1/sessions/{sid}/actions", json={"actions": actions})


async def report(
    t: TenantKeys, sid: str, call_id: str, tool: str, ok: bool, **extra
) -> httpx.Response:
    return await t.agent.post(
        f"/v1/sessions/{sid}/calls/{call_id}/result", json={"tool": tool, "success": ok, **extra}
    )


async def test_browser_actions_join_the_session_snapshot(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid, other = await attach(acme), await attach(acme)
    before = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()

    put = await put_actions(acme, sid, [OPEN_CART, SCROLL])
    native = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()
    openai = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot?format=openai")).json()
    replaced = await put_actions(acme, sid, [SCROLL])

    assert put.status_code == 200, put.text
    assert native["version"] > before["version"]
    browser = [t for t in native["tools"] if t["executor"] == "browser"]
    assert [t["name"] for t in browser] == ["open_cart", "scroll_to"]
    assert browser[0]["parameters"]["properties"]["highlight"] == {"type": "string"}
    assert "open_cart" in [t["function"]["name"] for t in openai["tools"]]
    assert replaced.json()["actions"] == ["scroll_to"]
    assert await names(acme, sid) == ["flaky", "steady", "scroll_to"]
    assert await names(acme, other) == ["flaky", "steady"]  # only this session's


async def test_browser_actions_are_validated_like_tools(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid = await attach(acme)

    bad = await put_actions(
        acme,
        sid,
        [
            {"name": "bad name!", "description": "x", "parameters": {}},
            {"name": "ok", "description": "x", "parameters": {"n": {"type": "integr"}}},
            {"name": "ok", "description": "x", "parameters": {}, "run": "alert(1)"},
        ],
    )
    not_a_list = await put_actions(acme, sid, {"name": "x"})  # type: ignore[arg-type]

    assert bad.status_code == 422
    fields = {e["field"] for e in bad.json()["errors"]}
    assert {"actions[0].name", "actions[2].run", "actions[2].name"} <= fields
    assert any(f.startswith("actions[1].parameters") for f in fields)
    assert not_a_list.status_code == 422
    assert await names(acme, sid) == ["flaky", "steady"]  # nothing half-applied


async def test_an_action_named_like_a_server_tool_is_refused_naming_both(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid = await attach(acme)

    clash = await put_actions(acme, sid, [{**SCROLL, "name": "steady"}])

    assert clash.status_code == 409
    detail = clash.json()["detail"]
    assert "browser action 'steady'" in detail and "server tool 'steady'" in detail


async def test_server_calls_refuse_browser_actions_and_outcomes_are_recorded(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid = await attach(acme)
    await put_actions(acme, sid, [OPEN_CART])

    refused = await call(acme, sid, "open_cart")
    asked = {"section": "shoes", "api_token": "tok-123"}  # what the model asked the page to do
    ok = await report(acme, sid, "c-1", "open_cart", True, result={"shown": 3}, latency_ms=12.5, arguments=asked)  # fmt: skip
    again = await report(acme, sid, "c-1", "open_cart", True)
    unknown = await report(acme, sid, "c-2", "steady", True)
    calls = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]

    assert refused["error"]["code"] == "browser_action"
    assert ok.status_code == 201 and again.status_code == 409
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "tool"
    browser = [c for c in calls if c["kind"] == "browser"]
    assert browser == [
        {
            "call_id": "c-1", "at": browser[0]["at"], "tool": "open_cart", "version": 0,
            "kind": "browser", "arguments": {"section": "shoes", "api_token": "[redacted]"}, "success": True, "latency_ms": 12.5, "message_id": None,
            "parent_call_id": None, "cached": False, "error": None, "result": {"shown": 3},
        }
    ]  # fmt: skip


async def test_three_reported_failures_open_the_actions_session_breaker(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid = await attach(acme)
    await put_actions(acme, sid, [OPEN_CART, SCROLL])

    for i in range(3):
        response = await report(
            acme,
            sid,
            f"f{i}",
            "open_cart",
            False,
            error={"code": "dom_missing", "message": "no cart"},
        )
        assert response.status_code == 201

    assert await names(acme, sid) == ["flaky", "steady", "scroll_to"]


async def test_changes_reach_an_attached_stream_within_a_second(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid = await attach(acme)
    async with served(api.app) as base:
        agent = bearer_client(base, acme.agent_key)
        async with EventReader(agent, f"/v1/sessions/{sid}/events") as stream:
            initial = await stream.next()
            started = time.monotonic()
            await acme.dev.post(
                "/v1/tools",
                json={**STEADY, "source": STEADY["source"].replace('"steady"', '"fresh"')},
            )
            added = await stream.until(lambda d: d["added"] == ["fresh"], within=1.0)
            added_after = time.monotonic() - started
            await acme.dev.patch("/v1/tools/flaky", json={"enabled": False})
            disabled = await stream.until(lambda d: d["removed"] == ["flaky"], within=1.0)
            await acme.dev.delete("/v1/tools/fresh")
            deleted = await stream.until(lambda d: d["removed"] == ["fresh"], within=1.0)
            await put_actions(acme, sid, [OPEN_CART])
            action = await stream.until(lambda d: d["added"] == ["open_cart"], within=1.0)
        # resume: the stream missed the next change; Last-Event-ID gets the diff, not a reset
        await acme.dev.put(
            "/v1/tools/steady",
            json={**STEADY, "source": STEADY["source"].replace("Always works", "Works")},
        )
        async with EventReader(
            agent, f"/v1/sessions/{sid}/events", {"Last-Event-ID": action["id"]}
        ) as resumed:
            resumed_event = await resumed.next()
        await agent.aclose()

    assert initial["data"]["full"] is True and int(initial["id"]) == initial["data"]["version"]
    assert added_after < 1.0 and int(added["id"]) > int(initial["id"])
    assert disabled["data"]["removed"] == ["flaky"] and deleted["data"]["removed"] == ["fresh"]
    assert [t["executor"] for t in action["data"]["tools"] if t["name"] == "open_cart"] == [
        "browser"
    ]
    assert resumed_event["data"]["full"] is False
    assert resumed_event["data"]["changed"] == ["steady"] and resumed_event["data"]["added"] == []


async def test_streams_heartbeat_and_close_on_shutdown(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid = await attach(acme)
    api.runtime.settings.sse_heartbeat_s = 0.2
    lines: list[str] = []
    two_heartbeats = asyncio.Event()
    async with served(api.app) as base:
        agent = bearer_client(base, acme.agent_key)

        async def read() -> None:
            async with agent.stream("GET", f"/v1/sessions/{sid}/events") as r:
                async for line in r.aiter_lines():
                    lines.append(line)
                    if lines.count(": heartbeat") >= 2:
                        two_heartbeats.set()

        reader = asyncio.create_task(read())
        await asyncio.wait_for(two_heartbeats.wait(), 5)
    await asyncio.wait_for(reader, 5)  # the server's shutdown ended the stream
    await agent.aclose()

    assert lines.count(": heartbeat") >= 2
    assert 'data: {"reason": "server shutting down"}' in lines


async def test_another_tenants_key_cannot_open_the_stream(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    await setup(acme)
    sid = await attach(acme)

    response = await globex.agent.get(f"/v1/sessions/{sid}/events")

    assert response.status_code == 404


async def test_a_tenant_cannot_open_unbounded_streams(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    await setup(acme)
    await setup(globex)
    sid, other = await attach(acme), await attach(globex)
    api.runtime.settings.max_streams_per_tenant = 2
    async with served(api.app) as base:
        agent = bearer_client(base, acme.agent_key)
        foreign = bearer_client(base, globex.agent_key)
        async with (
            EventReader(agent, f"/v1/sessions/{sid}/events") as one,
            EventReader(agent, f"/v1/sessions/{sid}/events") as two,
        ):
            await one.next()
            await two.next()
            third = await agent.get(f"/v1/sessions/{sid}/events")
            async with EventReader(foreign, f"/v1/sessions/{other}/events") as theirs:
                await theirs.next()  # another tenant is not affected
        await agent.aclose()
        await foreign.aclose()

    assert third.status_code == 429 and third.json()["code"] == "too_many_streams"
