"""Streamed partial results: a code tool's ``context.emit(partial)`` reaches the page's session
stream (``tool_partial``), an MCP client's progress notifications and a streamed agent turn —
before the call's result — in every code tier (RestrictedPython, Python in WASM, JavaScript), on
SQLite and PostgreSQL. Partials are bounded (size, count) and pass the tenant's result
guardrails; a policy hook that vets results holds them back."""

from __future__ import annotations

import asyncio

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.api.test_agent_loop import KEY, read_events
from tests.api.test_calls import call, python, session_for
from tests.conftest import Api, TenantKeys
from tests.fake_models import FakeModel
from tests.servers import EventReader, bearer_client, served

STEPS = """
def execute(params, context):
    context.emit({"step": 1, "found": "AB1"})
    context.emit({"step": 2, "contact": "ann@example.com"})
    context.modules.http.get(params["url"])  # held until the test has seen both
    return {"success": True, "done": True}


tool = {"name": "steps", "description": "Works in steps", "execute": execute,
        "parameters": {"url": {"type": "string", "required": True}},
        "metadata": {"timeout": 20000}}
"""
JS_STEPS = """
module.exports = {
  name: "steps", description: "Works in steps",
  parameters: {url: {type: "string", required: true}},
  metadata: {timeout: 20000},
  async execute(params, context) {
    await context.emit({step: 1, found: "AB1"});
    await context.emit({step: 2, contact: "ann@example.com"});
    await context.modules.http.get(params.url);
    return {success: true, done: true};
  },
};
"""
BOUNDS = """
def execute(params, context):
    refused = []
    try:
        context.emit({"blob": "x" * 20000})
    except Exception as exc:
        refused.append(str(exc))
    sent = 0
    for i in range(40):
        try:
            context.emit({"i": i})
            sent += 1
        except Exception as exc:
            refused.append(str(exc))
            break
    return {"success": True, "sent": sent, "refused": refused}


tool = {"name": "bounds", "description": "Emits too much", "execute": execute}
"""


def steps_tool(tier: str) -> dict:
    if tier == "javascript":
        return {"kind": "javascript", "source": JS_STEPS}
    return python(STEPS, "wasm" if tier == "wasm" else "restricted")


async def partials(stream: EventReader, count: int) -> list[dict]:
    """The next ``count`` tool_partial events of the stream (others skipped; bounded)."""
    found: list[dict] = []
    while len(found) < count:
        event = await stream.next(within=10.0)
        if event.get("event") == "tool_partial":
            found.append(event["data"])
    return found


async def allow(api: Api, t: TenantKeys, *hosts: str) -> None:
    assert (await api.admin.put(f"/v1/tenants/{t.id}/egress", json={"allow": list(hosts)})).status_code == 200  # fmt: skip


@pytest.mark.parametrize("tier", ["restricted", "wasm", "javascript"])
async def test_partials_reach_the_page_stream_before_the_result(
    api: Api, upstream_http, tier: str
) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    policy = {"redact": {"results": ["email"]}}
    assert (await api.admin.put("/v1/tenants/acme/guardrails", json=policy)).status_code == 200
    sid = await session_for(acme, [steps_tool(tier)])
    upstream_http.release.clear()  # /hold answers once the test has seen the partials
    async with served(api.app) as base:
        agent = bearer_client(base, acme.agent_key)
        async with EventReader(agent, f"/v1/sessions/{sid}/events") as stream:
            await stream.next()  # the snapshot
            running = asyncio.create_task(call(acme, sid, "steps", {"url": upstream_http.base + "/hold"}))  # fmt: skip
            seen = await partials(stream, 2)
            finished_early = running.done()
            upstream_http.release.set()
            result = await asyncio.wait_for(running, 20)
        await agent.aclose()

    assert [p["seq"] for p in seen] == [1, 2] and {p["tool"] for p in seen} == {"steps"}
    assert seen[0]["partial"] == {"step": 1, "found": "AB1"}
    assert seen[1]["partial"] == {"step": 2, "contact": "[email]"}  # the result guardrails hold
    assert not finished_early  # the partials came while the call still ran
    assert result["success"] is True and result["result"]["done"] is True


async def test_partials_are_bounded(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(BOUNDS)])

    result = await call(acme, sid, "bounds")

    assert result["success"] is True
    refused = result["result"]["refused"]
    assert "16384" in refused[0]  # a partial is at most 16 KiB of JSON
    assert 0 < result["result"]["sent"] < 40 and "host calls" in refused[1]  # each is a host call


async def test_a_policy_hook_on_results_holds_partials_back(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    policy = {"hook": {"url": upstream_http.base + "/policy", "phases": ["after"]}}
    assert (await api.admin.put("/v1/tenants/acme/guardrails", json=policy)).status_code == 200
    upstream_http.release.set()
    emit_then_return = python(STEPS.replace('context.modules.http.get(params["url"])', 'delivered = context.emit({"step": 3})').replace('"done": True', '"done": delivered'))  # fmt: skip
    sid = await session_for(acme, [emit_then_return])

    result = await call(acme, sid, "steps", {"url": "unused"})

    assert result["success"] is True and result["result"]["done"] is False  # not delivered


async def test_mcp_progress_carries_partials(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    upstream_http.release.set()
    await session_for(acme, [python(STEPS)])
    progress: list[tuple[float, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    async with served(api.app) as base:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=20)  # fmt: skip
        transport = streamable_http_client(f"{base}/mcp?bot=b", http_client=http)
        async with Client(transport, mode="legacy", cache=None) as client:
            result = await client.call_tool("steps", {"url": upstream_http.base + "/hold"}, progress_callback=on_progress)  # fmt: skip
        await http.aclose()

    assert result.is_error is False
    assert [p[0] for p in progress] == [1, 2]
    assert progress[0][1] == '{"step":1,"found":"AB1"}'


async def test_a_streamed_turn_carries_tool_partials(agents: Api, fake: FakeModel, upstream_http) -> None:  # fmt: skip
    acme = await agents.tenant("acme")
    await allow(agents, acme, fake.host, upstream_http.host)
    upstream_http.release.set()
    provider = {"kind": "openai", "base_url": fake.base + "/v1", "api_key": KEY, "models": ["big"]}
    assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
    sid = await session_for(acme, [python(STEPS)], {"name": "b", "tools": None, "model": "main/big"})  # fmt: skip
    fake.reply(
        {"tool_calls": [{"name": "steps", "arguments": {"url": upstream_http.base + "/hold"}}]},
        {"text": "Done."},
    )
    async with acme.agent.stream("POST", f"/v1/sessions/{sid}/messages", json={"content": "go", "stream": True}) as r:  # fmt: skip
        events = await read_events(r)

    kinds = [k for k, _ in events]
    pieces = [d for k, d in events if k == "tool_partial"]
    assert kinds.index("tool_call") < kinds.index("tool_partial") < kinds.index("tool_result")
    assert [p["partial"]["step"] for p in pieces] == [1, 2]
    assert pieces[0]["id"] == next(d for k, d in events if k == "tool_call")["id"]
