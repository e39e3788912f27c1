"""Staged rollout: a bot may pin a tool's version; a new version then reaches only the bots that
follow the newest — in snapshots, calls and MCP — until the pin moves."""

from __future__ import annotations

from tests.api.test_calls import call, python
from tests.api.test_mcp import mcp_client
from tests.conftest import Api
from tests.servers import served


def versioned(label: str, extra_param: bool = False) -> dict:
    return python(f"""
def execute(params, context):
    return {{"success": True, "version": "{label}"}}


tool = {{"name": "lookup", "description": "lookup {label}", "execute": execute,
        "parameters": {{"q": {{"type": "string"}}{', "limit": {"type": "integer"}' if extra_param else ""}}}}}
""")


async def attach(t, bot: str) -> str:
    response = await t.agent.post("/v1/sessions", json={"bot": bot})
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def described(t, bot: str) -> str:
    tools = (await t.agent.get(f"/v1/bots/{bot}/snapshot?format=openai")).json()["tools"]
    return next(x["function"]["description"] for x in tools if x["function"]["name"] == "lookup")


async def test_a_pinned_bot_keeps_its_version_until_the_pin_moves(api: Api) -> None:
    acme = await api.tenant("acme")
    assert (await acme.dev.post("/v1/tools", json=versioned("v1"))).status_code == 201
    stable = {"name": "stable", "tools": [{"name": "lookup", "version": 1}]}
    assert (await acme.dev.post("/v1/bots", json=stable)).status_code == 201
    assert (
        await acme.dev.post("/v1/bots", json={"name": "edge", "tools": ["lookup"]})
    ).status_code == 201
    assert (await acme.dev.put("/v1/tools/lookup", json=versioned("v2", True))).status_code == 200

    stable_sid, edge_sid = await attach(acme, "stable"), await attach(acme, "edge")
    on_stable, on_edge = (
        await call(acme, stable_sid, "lookup"),
        await call(acme, edge_sid, "lookup"),
    )
    snapshots = (await described(acme, "stable"), await described(acme, "edge"))
    async with served(api.app) as base, mcp_client(base, acme.agent_key, bot="stable") as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        over_mcp = await client.call_tool("lookup", {})
    shown = (await acme.dev.get("/v1/bots/stable")).json()["tools"]

    moved = await acme.dev.put("/v1/bots/stable", json={**stable, "tools": [{"name": "lookup", "version": 2}]})  # fmt: skip
    after_move = await call(acme, stable_sid, "lookup")

    assert on_stable["result"]["version"] == "v1" and on_edge["result"]["version"] == "v2"
    assert snapshots == ("lookup v1", "lookup v2")
    assert set(listed["lookup"].input_schema["properties"]) == {"q"}  # v1's parameters
    assert '"v1"' in over_mcp.content[0].text
    assert shown == [{"name": "lookup", "version": 1}]
    assert moved.status_code == 200 and after_move["result"]["version"] == "v2"


async def test_pins_must_name_an_existing_version(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=versioned("v1"))

    no_version = await acme.dev.post("/v1/bots", json={"name": "b", "tools": [{"name": "lookup", "version": 9}]})  # fmt: skip
    no_tool = await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["x", {"name": "nope", "version": 1}]})  # fmt: skip
    twice = await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["lookup", {"name": "lookup", "version": 1}]})  # fmt: skip
    bad_version = await acme.dev.post("/v1/bots", json={"name": "b", "tools": [{"name": "lookup", "version": 0}]})  # fmt: skip

    assert (
        no_version.status_code == 422
        and no_version.json()["errors"][0]["field"] == "tools[0].version"
    )
    assert no_tool.status_code == 422 and no_tool.json()["errors"][0]["field"] == "tools[1].name"
    assert twice.status_code == 422 and bad_version.status_code == 422


async def test_a_pinned_version_that_is_gone_leaves_the_tool_out(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=versioned("v1"))
    await acme.dev.put("/v1/tools/lookup", json=versioned("v2"))
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": [{"name": "lookup", "version": 2}]})
    await acme.dev.delete("/v1/tools/lookup")
    await acme.dev.post("/v1/tools", json=versioned("again"))  # a new tool: version 1 only

    tools = (await acme.agent.get("/v1/bots/b/snapshot")).json()["tools"]
    sid = await attach(acme, "b")
    result = await call(acme, sid, "lookup")

    assert tools == []
    assert result["success"] is False and result["error"]["code"] == "tool_not_available"
