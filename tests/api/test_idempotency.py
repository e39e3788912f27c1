"""``Idempotency-Key`` on POSTs of calls, tools and sessions, on SQLite and PostgreSQL: a retry
gets the first answer, runs nothing and logs nothing again; the same key with another body is a
422; a retry while the first still runs is a 409."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from server.storage.tables import ToolCallRow
from tests.api.test_agent_loop import setup
from tests.api.test_calls import python, session_for
from tests.api.test_webhooks import hooks  # noqa: F401 (the app that may reach 127.0.0.2)
from tests.conftest import Api
from tests.fake_models import FakeModel
from tests.loopback import LoopbackServer

COUNTER = python("""
COUNT = []


def execute(params, context):
    COUNT.append(1)
    return {"success": True, "runs": len(COUNT)}


tool = {"name": "counter", "description": "Counts its runs", "execute": execute,
        "parameters": {"n": {"type": "integer"}}}
""")


async def rows(api: Api) -> int:
    await api.runtime.call_log.flush()
    async with api.runtime.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(ToolCallRow)) or 0)


async def test_a_retried_call_gets_the_first_answer_and_runs_nothing(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [COUNTER])
    path, key = f"/v1/sessions/{sid}/calls", {"Idempotency-Key": "order-7-attempt"}
    body = {"tool": "counter", "arguments": {"n": 1}}

    first = await acme.agent.post(path, json=body, headers=key)
    retry = await acme.agent.post(path, json=body, headers=key)
    other_body = await acme.agent.post(path, json={**body, "arguments": {"n": 2}}, headers=key)
    fresh = await acme.agent.post(path, json=body, headers={"Idempotency-Key": "another"})

    assert first.status_code == retry.status_code == 200
    assert retry.json() == first.json() and first.json()["result"]["runs"] == 1
    assert retry.headers["idempotent-replayed"] == "true"
    assert other_body.status_code == 422
    assert other_body.json()["errors"][0]["field"] == "Idempotency-Key"
    assert fresh.json()["result"]["runs"] == 2
    assert await rows(api) == 2  # the retry wrote no second log row


async def test_a_retry_while_the_first_still_runs_is_a_409(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    """The first call is held inside its tool (a webhook the test releases) while the retry
    comes: a 409 — or, on SQLite, whose claim is part of the request's own transaction, the
    retry waits for the first and gets its answer."""
    acme = await hooks.tenant("acme")
    held = {"kind": "webhook", "name": "held", "description": "Waits", "webhook_url": upstream_http.base + "/hold", "timeout_ms": 20_000}  # fmt: skip
    sid = await session_for(acme, [held])
    path, key = f"/v1/sessions/{sid}/calls", {"Idempotency-Key": "slow-one"}
    body = {"tool": "held", "arguments": {}}
    upstream_http.held.clear()
    upstream_http.release.clear()

    first = asyncio.create_task(acme.agent.post(path, json=body, headers=key))
    assert await asyncio.to_thread(upstream_http.held.wait, 15)  # the first is in its tool
    second = asyncio.create_task(acme.agent.post(path, json=body, headers=key))
    if not hooks.runtime.settings.is_sqlite:  # claims are shared: the retry is refused at once
        await asyncio.wait_for(asyncio.shield(second), 15)
    upstream_http.release.set()
    first_answer, second_answer = await first, await second

    statuses = sorted([first_answer.status_code, second_answer.status_code])
    if hooks.runtime.settings.is_sqlite:
        assert statuses == [200, 200] and first_answer.json() == second_answer.json()
    else:
        assert statuses == [200, 409] and second_answer.json()["code"] == "conflict"
    assert await rows(hooks) == 1


async def test_retried_creates_of_tools_and_sessions_make_one_of_each(api: Api) -> None:
    acme = await api.tenant("acme")
    key = {"Idempotency-Key": "setup-1"}

    tools = [await acme.dev.post("/v1/tools", json=COUNTER, headers=key) for _ in range(2)]
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sessions = [
        await acme.agent.post("/v1/sessions", json={"bot": "b"}, headers=key) for _ in range(2)
    ]
    without = await acme.dev.post("/v1/tools", json=COUNTER)
    versions = (await acme.dev.get("/v1/tools/counter/versions")).json()

    assert [t.status_code for t in tools] == [201, 201] and tools[0].json() == tools[1].json()
    assert [s.status_code for s in sessions] == [201, 201]
    assert sessions[0].json()["id"] == sessions[1].json()["id"]
    assert without.status_code == 409  # without a key, the second create is a conflict
    assert len(versions["versions"]) == 1


async def test_a_streamed_turn_takes_no_key_and_says_so(agents: Api, fake: FakeModel) -> None:
    """A stream cannot be kept whole to replay: the key is refused, naming it, and no turn runs."""
    acme, sid = await setup(agents, fake)
    keyed = {"Idempotency-Key": "turn-1"}

    streamed = await acme.agent.post(
        f"/v1/sessions/{sid}/messages", json={"content": "hi", "stream": True}, headers=keyed
    )

    assert streamed.status_code == 422
    assert streamed.json()["errors"][0]["field"] == "Idempotency-Key"
    assert fake.requests == []


async def test_a_key_scoped_to_a_long_odd_tenant_name_is_refused_cleanly(api: Api) -> None:
    """Found by the fuzzer on PostgreSQL: an admin's ``?tenant=`` longer than the key's scope
    column made the claim itself fail (500). The scope is kept as its digest; the request gets
    its own answer, and a retry the same one."""
    tenant = "T̺̺̕o͞ ̷i̲̬͇̪͙n̝̗͕v̟̜̘̦͟o̶̙̰̠kè͚̮̺̪̹̱̤ ̖t̝͕̳̣̻̪͞h̼͓̲̦̳̘̲e͇̣̰̦̬͎ ̢̼̻̱̘h͚͎͙̜̣̲ͅi̦̲̣̰̤v̻͍e̺̭̳̪̰-m̢iͅn̖̺̞̲̯̰d̵̼̟͙̩̼̘̳"
    headers = {"Idempotency-Key": "zalgo-1"}
    first = await api.admin.post("/v1/sessions", params={"tenant": tenant}, json={"bot": "b"}, headers=headers)  # fmt: skip
    again = await api.admin.post("/v1/sessions", params={"tenant": tenant}, json={"bot": "b"}, headers=headers)  # fmt: skip

    assert first.status_code in (404, 422), first.text
    assert again.status_code == first.status_code


async def test_a_once_per_session_tool_runs_under_an_idempotency_key(api: Api) -> None:
    """On SQLite the key's claim holds the write lock in the request's transaction: the
    once-per-session claim is made in it too (it used to wait for it and answer 503)."""
    acme = await api.tenant("acme")
    once = python("""
def execute(params, context):
    return {"success": True, "welcomed": True}


tool = {"name": "welcome", "description": "Welcome once", "execute": execute,
        "metadata": {"once_per_session": True}}
""")
    assert (await acme.dev.post("/v1/tools", json=once)).status_code == 201
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    url, body = f"/v1/sessions/{sid}/calls", {"tool": "welcome", "arguments": {}}

    first = await acme.agent.post(url, json=body, headers={"Idempotency-Key": "w-1"})
    replayed = await acme.agent.post(url, json=body, headers={"Idempotency-Key": "w-1"})
    second = await acme.agent.post(url, json=body, headers={"Idempotency-Key": "w-2"})

    assert first.status_code == 200 and first.json()["success"] is True, first.text
    assert replayed.headers.get("Idempotent-Replayed") == "true"
    assert second.status_code == 200 and second.json()["error"]["code"] == "tool_not_available"
