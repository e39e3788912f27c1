"""Attack: fire a ``once_per_session`` tool many times at once — on one node and across two
sharing the database. Exactly one call runs it; the others are told it is already done."""

from __future__ import annotations

import asyncio

from tests.api.test_calls import call, python
from tests.api.test_webhooks import hook, hooks  # noqa: F401 - the fixture
from tests.conftest import Api, api_for
from tests.loopback import LoopbackServer
from tests.servers import bearer_client, node_process

ONCE = {"metadata": {"once_per_session": True}}


async def attach(t, bot: str = "b") -> str:
    return (await t.agent.post("/v1/sessions", json={"bot": bot})).json()["id"]


async def test_concurrent_calls_run_a_once_per_session_tool_once(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    start = len(upstream_http.seen)  # the server is shared by the whole run
    acme = await hooks.tenant("acme")
    body = hook("book", upstream_http.base + "/sleep/200", method="POST", **ONCE)
    assert (await acme.dev.post("/v1/tools", json=body)).status_code == 201
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid, other = await attach(acme), await attach(acme)

    results = await asyncio.gather(*(call(acme, sid, "book", {"id": str(i)}) for i in range(6)))
    later = await call(acme, sid, "book", {"id": "7"})
    elsewhere = await call(acme, other, "book", {"id": "8"})  # another conversation: its own run

    runs = [s for s in upstream_http.seen[start:] if s["path"] == "/sleep/200"]
    assert len(runs) == 2  # one per session
    assert sum(r["success"] for r in results) == 1
    assert sorted(r["error"]["code"] for r in results if not r["success"]) == ["already_done"] * 5
    assert later["success"] is False
    assert later["error"]["code"] in ("already_done", "tool_not_available")
    assert elsewhere["success"] is True


async def test_a_failed_run_releases_its_claim(api: Api) -> None:
    flaky_once = python("""
def execute(params, context):
    if params.get("fail"):
        raise ValueError("not now")
    return {"success": True, "message": "booked"}


tool = {"name": "book", "description": "Book once", "execute": execute,
        "parameters": {"fail": {"type": "boolean"}}, "metadata": {"once_per_session": True}}
""")
    acme = await api.tenant("acme")
    assert (await acme.dev.post("/v1/tools", json=flaky_once)).status_code == 201
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = await attach(acme)

    failed = await call(acme, sid, "book", {"fail": True})
    booked = await call(acme, sid, "book", {})
    again = await call(acme, sid, "book", {})

    assert failed["success"] is False and failed["error"]["code"] != "already_done"
    assert booked["success"] is True
    assert again["success"] is False
    # done in this conversation: its snapshot offers the tool no more; a new one still does
    done = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()["tools"]
    fresh = (await acme.agent.get(f"/v1/sessions/{await attach(acme)}/snapshot")).json()["tools"]
    assert "book" not in [t["name"] for t in done]
    assert "book" in [t["name"] for t in fresh]
    assert again["error"]["code"] == "tool_not_available"


async def test_two_nodes_run_a_once_per_session_tool_once(
    settings, upstream_http: LoopbackServer
) -> None:
    start = len(upstream_http.seen)
    shared = settings.model_copy(update={"egress_allow": "127.0.0.2"})
    async with api_for(shared) as api:
        acme = await api.tenant("acme")
        body = hook("book", upstream_http.base + "/sleep/300", method="POST", **ONCE)
        assert (await acme.dev.post("/v1/tools", json=body)).status_code == 201
        await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
        sid = await attach(acme)
        with node_process(shared, QUIVER_EGRESS_ALLOW="127.0.0.2") as node2:
            async with bearer_client(node2.base, acme.agent_key) as remote:

                async def there(i: int) -> dict:
                    response = await remote.post(
                        f"/v1/sessions/{sid}/calls",
                        json={"tool": "book", "arguments": {"id": str(i)}},
                        timeout=10,
                    )
                    assert response.status_code == 200, response.text
                    return response.json()

                results = await asyncio.gather(
                    *(call(acme, sid, "book", {"id": str(i)}) for i in range(4)),
                    *(there(i) for i in range(4)),
                )

    assert len([s for s in upstream_http.seen[start:] if s["path"] == "/sleep/300"]) == 1
    assert sum(r["success"] for r in results) == 1
    assert {r["error"]["code"] for r in results if not r["success"]} == {"already_done"}
