"""Sessions have a lifecycle, through HTTP on SQLite and PostgreSQL: ended by the agent or when
idle (exactly once, whichever of two nodes sweeps), listed and read, refusing calls and messages
once ended; handed to a person by the handoff tool (an event on the session's stream, a signed
announcement to the tenant's webhook, the agent loop silent) and given back."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from datetime import UTC, datetime

from sqlalchemy import update

from server.calls.lifecycle import HOOK_LEASE_S, MAX_HOOK_ATTEMPTS, hook_run_id
from server.settings import Settings
from server.storage.tables import SessionEndHookRow
from tests.api.test_calls import ORDER_TOOL, python
from tests.api.test_webhooks import hook as webhook_tool
from tests.api.test_webhooks import hooks  # noqa: F401 (the app that may reach 127.0.0.2)
from tests.conftest import Api, TenantKeys, api_for
from tests.loopback import LoopbackServer
from tests.servers import EventReader, bearer_client, served


async def ready(t: TenantKeys, **bot: object) -> None:
    assert (await t.dev.post("/v1/tools", json=python(ORDER_TOOL))).status_code == 201
    assert (await t.dev.post("/v1/bots", json={"name": "b", "tools": None, **bot})).status_code == 201  # fmt: skip


async def attach(t: TenantKeys, customer: str | None = None) -> str:
    body = {"bot": "b", **({"customer": customer} if customer else {})}
    response = await t.agent.post("/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def test_ending_listing_and_reading_sessions(api: Api) -> None:
    acme = await api.tenant("acme")
    await ready(acme)
    first, second, third = await attach(acme, "c-1"), await attach(acme), await attach(acme)
    called = await acme.agent.post(f"/v1/sessions/{first}/calls", json={"tool": "check_order", "arguments": {"order_id": "AB1234"}})  # fmt: skip

    ended = await acme.agent.post(f"/v1/sessions/{first}/end", json={"reason": "customer left"})
    again = await acme.agent.post(f"/v1/sessions/{first}/end", json={"reason": "twice"})
    call_after = await acme.agent.post(f"/v1/sessions/{first}/calls", json={"tool": "check_order", "arguments": {"order_id": "AB1234"}})  # fmt: skip
    message_after = await acme.agent.post(f"/v1/sessions/{first}/messages", json={"content": "hi"})
    detail = (await acme.agent.get(f"/v1/sessions/{first}")).json()
    await api.runtime.call_log.flush()
    counted = (await acme.agent.get(f"/v1/sessions/{first}")).json()
    listed = (await acme.dev.get("/v1/sessions")).json()["sessions"]
    of_ended = (await acme.dev.get("/v1/sessions?status=ended")).json()["sessions"]
    of_customer = (await acme.dev.get("/v1/sessions?customer=c-1")).json()["sessions"]
    page_one = (await acme.dev.get("/v1/sessions?limit=2")).json()
    page_two = (await acme.dev.get(f"/v1/sessions?limit=2&cursor={page_one['next_cursor']}")).json()
    bad_cursor = await acme.dev.get("/v1/sessions?cursor=bm9wZQ")
    by_agent = await acme.agent.get("/v1/sessions")

    assert called.status_code == 200
    assert ended.status_code == 200 and ended.json()["status"] == "ended"
    assert ended.json()["end_reason"] == "customer left" and ended.json()["ended_at"]
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert call_after.status_code == 409 and call_after.json()["code"] == "session_ended"
    assert message_after.status_code == 409 and message_after.json()["code"] == "session_ended"
    assert detail["status"] == "ended" and counted["calls"] == 1 and counted["messages"] == 0
    assert {s["id"] for s in listed} == {first, second, third}
    assert [s["id"] for s in of_ended] == [first] and [s["id"] for s in of_customer] == [first]
    assert len(page_one["sessions"]) == 2 and len(page_two["sessions"]) == 1
    assert {s["id"] for s in page_one["sessions"] + page_two["sessions"]} == {first, second, third}
    assert page_two["next_cursor"] is None
    assert bad_cursor.status_code == 422 and by_agent.status_code == 403


async def test_idle_sessions_end_exactly_once_whichever_node_sweeps(settings: Settings) -> None:
    async with api_for(settings) as one, api_for(settings) as two:
        acme = await one.tenant("acme")
        await ready(acme, idle_timeout_s=60)
        sessions = {await attach(acme) for _ in range(6)}
        now = time.time()
        for node in (one, two):
            node.runtime.sweeper.clock = lambda: now + 30  # not idle long enough yet
        early = await one.runtime.sweeper.sweep_once()
        for node in (one, two):
            node.runtime.sweeper.clock = lambda: now + 120
        ended_one, ended_two = await asyncio.gather(
            one.runtime.sweeper.sweep_once(), two.runtime.sweeper.sweep_once()
        )
        statuses = {s["id"]: s for s in (await acme.dev.get("/v1/sessions")).json()["sessions"]}

    assert early == []
    assert set(ended_one) | set(ended_two) == sessions
    assert not set(ended_one) & set(ended_two)  # each ended by exactly one node
    assert all(statuses[s]["status"] == "ended" and statuses[s]["end_reason"] == "idle" for s in sessions)  # fmt: skip


async def test_a_handoff_is_announced_signed_and_silences_the_loop_until_resumed(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    acme = await hooks.tenant("acme", shared=["escalate_to_human"])
    await ready(acme)
    secret = "handoff-signing-secret-0123"
    configured = await acme.dev.put("/v1/handoff", json={"url": upstream_http.base + "/handoff", "secret": secret})  # fmt: skip
    no_secret = await (await hooks.tenant("globex")).dev.put("/v1/handoff", json={"url": "https://x.example/h"})  # fmt: skip
    sid = await attach(acme)
    async with (
        served(hooks.app) as base,
        bearer_client(base, acme.agent_key) as client,
        EventReader(client, f"{base}/v1/sessions/{sid}/events") as reader,
    ):
        assert (await reader.next())["event"] == "snapshot"
        escalated = await acme.agent.post(
            f"/v1/sessions/{sid}/calls",
            json={"tool": "escalate_to_human", "arguments": {"reason": "wants a person"}},
        )
        status = await reader.next()
        while status["event"] != "status":
            status = await reader.next()
    await hooks.runtime.handoffs.drain()
    while_handed_off = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hello?"})  # fmt: skip
    resumed = await acme.agent.post(f"/v1/sessions/{sid}/resume")
    resumed_again = await acme.agent.post(f"/v1/sessions/{sid}/resume")

    assert escalated.json()["success"] is True, escalated.json()
    assert status["data"]["status"] == "handed_off", status
    seen = [
        r for r in upstream_http.seen if r["path"] == "/handoff" and r["body"]["session"] == sid
    ]
    assert len(seen) == 1, [r["path"] for r in upstream_http.seen]
    announced = seen[0]
    body = json.dumps(announced["body"], separators=(",", ":")).encode()
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert configured.status_code == 200 and configured.json()["secret"] == "********"
    assert no_secret.status_code == 422 and no_secret.json()["errors"][0]["field"] == "secret"
    assert escalated.json()["success"] is True
    assert status["data"]["status"] == "handed_off" and status["data"]["handed_off_at"]
    assert announced["body"]["session"] == sid and announced["body"]["reason"] == "wants a person"
    assert announced["headers"]["x-quiver-signature"] == expected
    assert while_handed_off.status_code == 409 and while_handed_off.json()["code"] == "handed_off"
    assert resumed.status_code == 200 and resumed.json()["status"] == "active"
    assert resumed_again.status_code == 409


SUMMARY_HOOK = """
def execute(params, context):
    lines = [m["role"] + ": " + (m["content"] or "") for m in context.transcript]
    reply = context.modules.http.post(context.variables.get("crm", "") + "/crm/summary", json={
        "session": context.session_id, "messages": context.messageCount,
        "reason": context.sessionEndReason, "transcript": lines,
    })
    return {"success": reply["status"] == 200, "sent": len(lines)}


tool = {"name": "send_summary", "description": "Send the conversation to the CRM", "execute": execute,
        "metadata": {"on_session_end": True}}
"""
QUIET_HOOK = """
def execute(params, context):
    return {"success": True, "messages": context.messageCount}


tool = {"name": "send_summary", "description": "Note the end", "execute": execute,
        "metadata": {"on_session_end": True}}
"""
FAILING_HOOK = """
def execute(params, context):
    raise ValueError("the CRM is down")


tool = {"name": "broken_hook", "description": "Fails at the end", "execute": execute,
        "metadata": {"on_session_end": True}}
"""


async def test_session_end_hooks_run_once_with_the_transcript(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    await hooks.runtime.sweeper.stop()  # the test runs the hooks itself: the node's loop woke on
    # the end and could get there first
    acme = await hooks.tenant("acme")
    await ready(acme)
    for source in (SUMMARY_HOOK, FAILING_HOOK):
        assert (await acme.dev.post("/v1/tools", json=python(source))).status_code == 201
    sid = await attach(acme)
    async with hooks.runtime.sessions() as session, session.begin():
        await hooks.runtime.store(session).sessions.set_variables(sid, {"crm": upstream_http.base})
    conversation = [{"role": "user", "content": "Where is AB1234?"}, {"role": "assistant", "content": "It has shipped."}]  # fmt: skip
    await hooks.runtime.agent.messages.append(sid, "acme", "b", conversation)  # it happened

    ended = await acme.agent.post(f"/v1/sessions/{sid}/end", json={"reason": "customer left"})
    first = await hooks.runtime.hooks.run_pending()
    second = await hooks.runtime.hooks.run_pending()  # nothing left: each hook runs once
    await hooks.runtime.call_log.flush()
    calls = (await acme.dev.get(f"/v1/sessions/{sid}/calls")).json()["calls"]
    sent = [r for r in upstream_http.seen if r["path"] == "/crm/summary" and r["body"]["session"] == sid]  # fmt: skip

    assert ended.status_code == 200  # a failing hook never blocks the end
    assert sorted(first) == [(sid, "broken_hook", "tool_error"), (sid, "send_summary", "ok")]
    assert second == []
    assert len(sent) == 1 and sent[0]["body"]["messages"] == 2
    assert sent[0]["body"]["reason"] == "customer left"
    assert sent[0]["body"]["transcript"] == ["user: Where is AB1234?", "assistant: It has shipped."]
    assert {(c["tool"], c["success"]) for c in calls} == {("send_summary", True), ("broken_hook", False)}  # fmt: skip


async def ended_with_a_hook(node: Api, source: str) -> str:
    """A session of a tenant ``acme`` whose bot has the hook ``source``, ended: its hook is due."""
    acme = await node.tenant("acme")
    await ready(acme)
    assert (await acme.dev.post("/v1/tools", json=python(source))).status_code == 201
    sid = await attach(acme)
    assert (await acme.agent.post(f"/v1/sessions/{sid}/end")).status_code == 200
    return sid


async def test_a_hook_whose_node_died_is_run_by_another(settings: Settings) -> None:
    async with api_for(settings) as one, api_for(settings) as two:
        for node in (one, two):  # the test runs the hooks itself: no node's loop gets there first
            await node.runtime.sweeper.stop()
        sid = await ended_with_a_hook(one, QUIET_HOOK)
        now = time.time()
        async with one.runtime.sessions() as session, session.begin():  # node one claims, dies
            claimed = await one.runtime.store(session).lifecycle.claim_hooks(
                datetime.fromtimestamp(now, UTC), lease_s=60
            )
        two.runtime.hooks.clock = lambda: now + 10  # the lease still runs: not yet
        early = await two.runtime.hooks.run_pending()
        two.runtime.hooks.clock = lambda: now + 120  # the lease has passed
        taken_over = await two.runtime.hooks.run_pending()
        async with two.runtime.sessions() as session, session.begin():
            states = [(h.status, h.attempts) for h in await two.runtime.store(session).lifecycle.hooks_of(sid)]  # fmt: skip

    assert [h.tool for h in claimed] == ["send_summary"]
    assert early == [] and taken_over == [(sid, "send_summary", "ok")]
    assert states == [("done", 2)]


KEYED_HOOK = """
def execute(params, context):
    reply = context.modules.http.post(context.variables.get("crm", "") + "/crm/summary", json={
        "session": context.session_id, "run": context.hookRunId,
    })
    return {"success": reply["status"] == 200, "run": context.hook_run_id}


tool = {"name": "send_summary", "description": "Send the end to the CRM", "execute": execute,
        "metadata": {"on_session_end": True}}
"""


async def test_a_hook_run_again_says_so_to_whoever_receives_it(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    """Hooks run at least once: a node killed after the hook's request went out leaves it to
    another node, which sends it again with the same ``Idempotency-Key`` (``hook_run_id``)."""
    await hooks.runtime.sweeper.stop()  # this test runs the hooks itself
    acme = await hooks.tenant("acme")
    await ready(acme)
    assert (await acme.dev.post("/v1/tools", json=python(KEYED_HOOK))).status_code == 201
    sids = [await attach(acme) for _ in range(2)]
    for sid in sids:
        async with hooks.runtime.sessions() as session, session.begin():
            await hooks.runtime.store(session).sessions.set_variables(sid, {"crm": upstream_http.base})  # fmt: skip
        await acme.agent.post(f"/v1/sessions/{sid}/end")

    first = await hooks.runtime.hooks.run_pending()
    async with hooks.runtime.sessions() as session, session.begin():  # the node died unfinished
        await session.execute(
            update(SessionEndHookRow)
            .where(SessionEndHookRow.session_id == sids[0])
            .values(status="running", lease_until=datetime.fromtimestamp(0, UTC))
        )
    again = await hooks.runtime.hooks.run_pending()
    sent = [r for r in upstream_http.seen if r["path"] == "/crm/summary" and r["body"]["session"] in sids]  # fmt: skip
    keys = [(r["body"]["session"], r["headers"].get("idempotency-key"), r["body"]["run"]) for r in sent]  # fmt: skip

    assert sorted(first) == sorted((sid, "send_summary", "ok") for sid in sids)
    assert again == [(sids[0], "send_summary", "ok")]
    assert [k[0] for k in keys].count(sids[0]) == 2  # sent twice: at least once
    assert all(key == run and key.startswith("hook_") for _, key, run in keys)
    assert len({key for sid, key, _ in keys if sid == sids[0]}) == 1  # the rerun says it is one
    assert len({key for _, key, _ in keys}) == 2  # and another session's hook is another run


async def test_a_running_hooks_lease_is_renewed_and_lapses_seconds_after_its_node_dies(
    settings: Settings,
) -> None:
    async with api_for(settings) as one, api_for(settings) as two:
        for node in (one, two):
            await node.runtime.sweeper.stop()
        sid = await ended_with_a_hook(one, QUIET_HOOK)
        now = time.time()
        async with one.runtime.sessions() as session, session.begin():  # node one runs it...
            claimed = await one.runtime.store(session).lifecycle.claim_hooks(
                datetime.fromtimestamp(now, UTC), lease_s=HOOK_LEASE_S
            )
        one.runtime.hooks.clock = lambda: now + 10
        renewed = await one.runtime.hooks.beat(claimed[0])  # ... and is alive at +10 s
        two.runtime.hooks.clock = lambda: now + 20  # past the first lease, within the renewed
        while_alive = await two.runtime.hooks.run_pending()
        two.runtime.hooks.clock = lambda: now + 10 + HOOK_LEASE_S + 1  # node one died at +10 s
        after_death = await two.runtime.hooks.run_pending()
        stale = await one.runtime.hooks.beat(claimed[0])  # its late beat no longer holds it

    assert HOOK_LEASE_S <= 30  # seconds, not minutes
    assert renewed is True and while_alive == []
    assert after_death == [(sid, "send_summary", "ok")]
    assert stale is False


async def test_a_hook_whose_runs_keep_dying_is_given_up_after_three(settings: Settings) -> None:
    async with api_for(settings) as node:
        await node.runtime.sweeper.stop()
        sid = await ended_with_a_hook(node, QUIET_HOOK)
        now = time.time()
        for died in range(MAX_HOOK_ATTEMPTS):  # each run's node dies before it finishes
            async with node.runtime.sessions() as session, session.begin():
                at = datetime.fromtimestamp(now + died * 100, UTC)
                claimed = await node.runtime.store(session).lifecycle.claim_hooks(at, lease_s=10)
                assert [h.attempts for h in claimed] == [died + 1]
        node.runtime.hooks.clock = lambda: now + MAX_HOOK_ATTEMPTS * 100
        given_up = await node.runtime.hooks.run_pending()

    assert given_up == [(sid, "send_summary", "abandoned")]


async def test_a_webhook_hook_sends_its_run_id_as_idempotency_key(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    await hooks.runtime.sweeper.stop()
    acme = await hooks.tenant("acme")
    await ready(acme)
    tool = webhook_tool(
        "end_webhook", upstream_http.base + "/crm/ended", "POST", metadata={"on_session_end": True}
    )
    assert (await acme.dev.post("/v1/tools", json=tool)).status_code == 201, tool
    sid = await attach(acme)
    await acme.agent.post(f"/v1/sessions/{sid}/end")

    ran = await hooks.runtime.hooks.run_pending()
    sent = [r for r in upstream_http.seen if r["path"] == "/crm/ended"]

    assert ran == [(sid, "end_webhook", "ok")]
    assert sent[-1]["headers"]["idempotency-key"] == hook_run_id(sid, "end_webhook")
