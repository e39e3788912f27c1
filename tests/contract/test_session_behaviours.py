"""One behaviour, one implementation: each session behaviour runs over every door — HTTP, MCP
and the agent loop — on SQLite and PostgreSQL, and the doors must agree. A door that drifts
(MCP once ran tools in ended sessions, and left a handed-off session active) fails here."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator

import pytest

from server.calls.journal import DiskRoom
from tests.api.test_agent_loop import KEY
from tests.api.test_calls import python
from tests.api.test_connections import PUBLIC, browse, me_tool, provider_body
from tests.api.test_packages import PYTHON_TOOL, SLUGKIT, granted, upload, wheel
from tests.conftest import Api, TenantKeys, api_for
from tests.contract.doors import BOT, Door, open_door
from tests.fake_models import FakeModel
from tests.mcp_remote import TOKEN, remote_server
from tests.oauth_server import oauth_server
from tests.servers import EventReader, bearer_client, served

ORDER = python("""
def execute(params, context):
    return {"success": True, "order": params["order_id"]}


tool = {"name": "check_order", "description": "Check an order",
        "parameters": {"order_id": {"type": "string", "required": True}}, "execute": execute}
""")
CRM = python("""
def execute(params, context):
    raise ValueError("the CRM is down")


tool = {"name": "crm", "description": "Ask the CRM", "execute": execute}
""")
ONCE = python("""
def execute(params, context):
    return {"success": True, "welcomed": True}


tool = {"name": "welcome", "description": "Welcome the customer once", "execute": execute,
        "metadata": {"once_per_session": True}}
""")
REFUND = python("""
def execute(params, context):
    return {"success": True, "refunded": params["order_id"]}


tool = {"name": "refund", "description": "Refund an order", "execute": execute,
        "parameters": {"order_id": {"type": "string", "required": True}},
        "metadata": {"requires_approval": True}}
""")
RATES = python("""
def execute(params, context):
    return {"success": True, "rate": 1.08, "currency": params["currency"]}


tool = {"name": "rates", "description": "Today's exchange rate", "execute": execute,
        "parameters": {"currency": {"type": "string", "required": True}},
        "metadata": {"cacheable": True, "cache_ttl": 60}}
""")
INTENTS = {
    "orders": ["check_order"], "support": ["crm"],
    "*": ["welcome", "escalate_to_human", "refund", "rates"],
}  # fmt: skip


DOORS = pytest.mark.parametrize("kind", ["http", "mcp", "loop"])


@contextlib.asynccontextmanager
async def session_through(
    kind: str, api: Api, fake: FakeModel, customer: str | None = None
) -> AsyncIterator[Door]:
    """A session of the bot ``b`` (every tool, its model on the fake server) through one door,
    for ``customer`` if named. (A context in the test's own task: the MCP client's task group
    must end where it began.)"""
    acme = await api.tenant("acme", shared=["escalate_to_human"])
    await prepare(api, acme, fake)
    async with contextlib.AsyncExitStack() as stack:
        yield await open_door(kind, api, acme, fake, stack, customer)


async def prepare(api: Api, acme: TenantKeys, fake: FakeModel) -> None:
    assert (await api.admin.put(f"/v1/tenants/{acme.id}/egress", json={"allow": [fake.host]})).status_code == 200  # fmt: skip
    provider = {"kind": "openai", "base_url": fake.base + "/v1", "api_key": KEY, "models": ["big"]}
    assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
    for tool in (ORDER, CRM, ONCE, REFUND, RATES):
        assert (await acme.dev.post("/v1/tools", json=tool)).status_code == 201
    bot = {"name": BOT, "tools": None, "intents": INTENTS, "model": "main/big", "approvers": ["developer"]}  # fmt: skip
    assert (await acme.dev.post("/v1/bots", json=bot)).status_code == 201


async def runs(api: Api, door: Door) -> int:
    """How many calls of the session the log holds."""
    await api.runtime.call_log.flush()
    return len((await door.acme.agent.get(f"/v1/sessions/{door.sid}/calls")).json()["calls"])


async def status(door: Door) -> str:
    return (await door.acme.dev.get(f"/v1/sessions/{door.sid}")).json()["status"]


@DOORS
async def test_an_ended_session_runs_nothing(agents: Api, fake: FakeModel, kind: str) -> None:
    async with session_through(kind, agents, fake) as door:
        before = await door.call("check_order", {"order_id": "AB1"})
        ended = await door.acme.agent.post(f"/v1/sessions/{door.sid}/end", json={})
        after = await door.call("check_order", {"order_id": "AB2"})

        assert before.success is True and ended.status_code == 200
        assert after.refused == "session_ended"
        assert await runs(agents, door) == 1


@DOORS
async def test_a_handoff_tool_hands_the_session_to_a_person(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        handed = await door.call("escalate_to_human", {"reason": "wants a person"})

        assert handed.success is True, handed
        assert await status(door) == "handed_off"


@DOORS
async def test_a_once_per_session_tool_runs_once(agents: Api, fake: FakeModel, kind: str) -> None:
    async with session_through(kind, agents, fake) as door:
        first = await door.call("welcome", {})
        second = await door.call("welcome", {})

        assert first.success is True
        assert second.success is False and second.code == "tool_not_available"
        assert await runs(agents, door) == 1


@DOORS
async def test_three_failures_open_the_sessions_breaker(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        failures = [await door.call("crm", {}) for _ in range(3)]
        held_out = await door.call("crm", {})

        assert [f.code for f in failures] == ["tool_error"] * 3
        assert held_out.success is False and held_out.code == "circuit_open"
        assert await runs(agents, door) == 4  # the refusal is logged too, and the tool did not run


@DOORS
async def test_a_tool_outside_the_sessions_intent_is_not_available(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        changed = await door.acme.agent.put(
            f"/v1/sessions/{door.sid}/intent", json={"intent": "orders"}
        )

        inside = await door.call("check_order", {"order_id": "AB1"})
        outside = await door.call("crm", {})
        always = await door.call("welcome", {})

        assert changed.status_code == 200
        assert inside.success is True and always.success is True
        assert outside.success is False and outside.code == "tool_not_available"


@DOORS
async def test_a_call_that_needs_approval_does_not_run_unapproved(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    """The bot takes approvals from developer keys only: the agent's own call (over HTTP or
    MCP) is no approval, and the loop's pauses for one."""
    async with session_through(kind, agents, fake) as door:
        asked = await door.call("refund", {"order_id": "AB1"})

        assert asked.success is not True and asked.refused is None
        assert asked.code == "not_approved" or asked.paused == "requires_approval"
        assert await runs(agents, door) == 0


@DOORS
async def test_a_cacheable_result_is_reused_for_equal_arguments(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        first = await door.call("rates", {"currency": "USD"})
        again = await door.call("rates", {"currency": "USD"})
        other = await door.call("rates", {"currency": "GBP"})
        await agents.runtime.call_log.flush()
        log = (await door.acme.agent.get(f"/v1/sessions/{door.sid}/calls")).json()["calls"]

        assert first.success and again.success and other.success
        assert again.result == first.result
        assert sorted(c["cached"] for c in log) == [False, False, True]


@DOORS
async def test_a_tenant_past_its_daily_calls_runs_nothing_more(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        limited = await agents.admin.put("/v1/tenants/acme/limits", json={"calls_per_day": 2})
        ran = [await door.call("check_order", {"order_id": f"AB{i}"}) for i in range(2)]
        over = await door.call("check_order", {"order_id": "AB9"})

        assert limited.status_code == 200
        assert all(r.success for r in ran)
        assert over.success is not True
        assert "quota_exceeded" in (over.refused, over.code)
        assert await runs(agents, door) == 2


@DOORS
async def test_a_key_over_its_request_rate_is_refused_and_runs_nothing(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        limited = await agents.admin.put("/v1/tenants/acme/limits", json={"key_requests": "3/hour"})
        answers = [await door.call("check_order", {"order_id": f"AB{i}"}) for i in range(4)]
        ran = [a for a in answers if a.success]
        refused = [a for a in answers if a.refused]

        assert limited.status_code == 200
        assert ran and refused and answers.index(refused[0]) == len(ran)  # refused from then on
        assert {a.refused for a in refused} == {"rate_limited"}
        await agents.runtime.call_log.flush()
        log = (await door.acme.dev.get(f"/v1/sessions/{door.sid}/calls")).json()["calls"]
        assert len(log) == len(ran)


# what each door's users see when they ask for a browser action: it is the page's to run
BROWSER_ASKED = {"http": "browser_action", "mcp": "tool_not_available", "loop": "requires_action"}


@DOORS
async def test_a_browser_action_runs_in_the_page_and_its_failures_take_it_out(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    """The server never runs a browser action; the page's outcomes, reported by whichever way
    the door's users report them, are logged and counted for the session breaker alike."""
    async with session_through(kind, agents, fake) as door:
        cart = {"name": "open_cart", "description": "Show the cart", "parameters": {}}
        registered = await door.acme.agent.put(
            f"/v1/sessions/{door.sid}/actions", json={"actions": [cart]}
        )
        asked = []
        for _ in range(3):
            asked.append(await door.call("open_cart", {}))
            await door.report_failure("open_cart")
        snapshot = (await door.acme.agent.get(f"/v1/sessions/{door.sid}/snapshot")).json()
        await agents.runtime.call_log.flush()
        log = (await door.acme.agent.get(f"/v1/sessions/{door.sid}/calls")).json()["calls"]

        assert registered.status_code == 200
        assert {a.code or a.paused for a in asked} == {BROWSER_ASKED[kind]}
        assert not any(a.success for a in asked)
        assert [(c["kind"], c["error"]["code"]) for c in log] == [("browser", "dom_missing")] * 3
        assert "open_cart" not in {t["name"] for t in snapshot["tools"]}  # the session breaker


# MCP has no retry key: JSON-RPC requests are not replayed by id, and its tools carry
# ``idempotentHint`` instead. The doors that take an ``Idempotency-Key`` must agree.
RETRIED = {
    "http": ("calls", {"tool": "check_order", "arguments": {"order_id": "AB1"}}, "arguments"),
    "loop": ("messages", {"content": "please run check_order"}, "content"),
}


@pytest.mark.parametrize("kind", sorted(RETRIED))
async def test_a_retry_with_the_same_key_runs_nothing_twice(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        fake.script[:] = [
            {"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1"}}]},
            {"text": "AB1 has shipped."},
        ]
        path, body, field = RETRIED[kind]
        url, key = f"/v1/sessions/{door.sid}/{path}", {"Idempotency-Key": "retry-1"}
        first = await door.acme.agent.post(url, json=body, headers=key)
        retried = await door.acme.agent.post(url, json=body, headers=key)
        changed = {**body, field: {"order_id": "AB2"} if field == "arguments" else "other"}
        other_body = await door.acme.agent.post(url, json=changed, headers=key)

        assert first.status_code == 200, first.text
        assert retried.status_code == 200 and retried.json() == first.json()
        assert retried.headers["Idempotent-Replayed"] == "true"
        assert other_body.status_code == 422
        assert other_body.json()["errors"][0]["field"] == "Idempotency-Key"
        assert await runs(agents, door) == 1


@DOORS
async def test_a_node_that_cannot_record_calls_runs_none(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    """The node's journal has no room (its disk is full): no door runs a call, each says
    ``unavailable``; given room again, the next call runs."""
    async with session_through(kind, agents, fake) as door:
        journal = agents.runtime.call_log.journal
        assert journal is not None
        room, journal.room = journal.room, DiskRoom(journal.directory, 1 << 20, free=lambda p: 0)
        refused = await door.call("check_order", {"order_id": "AB1"})
        journal.room = room
        after = await door.call("check_order", {"order_id": "AB2"})

        assert refused.success is not True
        assert "unavailable" in (refused.refused, refused.code)
        assert after.success is True
        assert await runs(agents, door) == 1


SIGNED = python("""
def execute(params, context):
    seen = context.modules.http.get(params["url"])
    return {"success": True, "sent": seen["json"]["seen"]["headers"].get("x-api-key"),
            "holds": sorted(context.secrets)}


tool = {"name": "signed", "description": "Ask the signed API",
        "parameters": {"url": {"type": "string", "required": True}}, "execute": execute,
        "metadata": {"credentials": [{"secret": "API_KEY", "url": "UPSTREAM", "header": "X-Api-Key"}]}}
""")


@DOORS
async def test_a_credential_is_added_at_egress_and_never_given_to_the_tool(
    agents: Api, fake: FakeModel, kind: str, upstream_http
) -> None:
    async with session_through(kind, agents, fake) as door:
        allow = {"allow": [fake.host, upstream_http.host]}
        assert (await agents.admin.put(f"/v1/tenants/{door.acme.id}/egress", json=allow)).status_code == 200  # fmt: skip
        assert (await door.acme.dev.put("/v1/secrets/API_KEY", json={"value": "k-7781-secret"})).status_code < 300  # fmt: skip
        signed = dict(SIGNED, source=SIGNED["source"].replace("UPSTREAM", upstream_http.base))
        assert (await door.acme.dev.post("/v1/tools", json=signed)).status_code == 201

        path = f"/echo/{kind}/{uuid.uuid4().hex}"  # the upstream serves every test of the run
        called = await door.call("signed", {"url": upstream_http.base + path})

        assert called.success is True, called
        assert called.result == {"success": True, "sent": "[secret API_KEY]", "holds": []}
        sent = [s for s in upstream_http.seen if s["path"] == path]
        assert [s["headers"]["x-api-key"] for s in sent] == ["k-7781-secret"]


@DOORS
async def test_the_tenants_guardrails_hold_on_every_door(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        policy = {"deny": [{"tool": "check_*", "arguments": "AB9"}], "redact": {"results": ["email"]}}  # fmt: skip
        assert (await agents.admin.put(f"/v1/tenants/{door.acme.id}/guardrails", json=policy)).status_code == 200  # fmt: skip

        allowed = await door.call("check_order", {"order_id": "AB1 for ann@example.com"})
        denied = await door.call("check_order", {"order_id": "AB9"})

        assert allowed.success is True and allowed.result["order"] == "AB1 for [email]"
        assert denied.success is False and denied.code == "guardrail_denied"
        assert await runs(agents, door) == 2  # the denial is logged; the tool did not run


@DOORS
async def test_a_searching_bot_offers_what_a_search_found(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        bot = {"name": BOT, "tools": None, "intents": INTENTS, "model": "main/big", "tool_loading": "search"}  # fmt: skip
        assert (await door.acme.dev.put(f"/v1/bots/{BOT}", json=bot)).status_code == 200

        early = await door.call("check_order", {"order_id": "AB1"})
        found = await door.call("search_tools", {"query": "check the status of an order"})
        later = await door.call("check_order", {"order_id": "AB1"})

        assert early.success is False and early.code == "tool_not_available"
        assert found.success is True, found
        assert found.result["tools"][0]["name"] == "check_order"
        assert later.success is True and later.result["order"] == "AB1"
        assert await runs(agents, door) == 2  # the search and the call it made possible


EMITS = python("""
def execute(params, context):
    context.emit({"n": 1})
    context.emit({"n": 2})
    return {"success": True}


tool = {"name": "emits", "description": "Works in two steps", "execute": execute}
""")


@DOORS
async def test_a_tools_partial_results_reach_the_sessions_stream(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        assert (await door.acme.dev.post("/v1/tools", json=EMITS)).status_code == 201
        async with served(agents.app) as base:
            agent = bearer_client(base, door.acme.agent_key)
            async with EventReader(agent, f"/v1/sessions/{door.sid}/events") as stream:
                await stream.next()  # the snapshot
                called = await door.call("emits", {})
                seen = []
                while len(seen) < 2:  # bounded by the reader's wait
                    event = await stream.next(within=10.0)
                    if event.get("event") == "tool_partial":
                        seen.append(event["data"])
            await agent.aclose()

        assert called.success is True, called
        assert [(p["tool"], p["seq"], p["partial"]) for p in seen] == [
            ("emits", 1, {"n": 1}),
            ("emits", 2, {"n": 2}),
        ]


@DOORS
async def test_a_code_mode_program_calls_the_sessions_tools_through_its_gate(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        bot = {"name": BOT, "tools": None, "intents": INTENTS, "model": "main/big", "code_mode": "javascript"}  # fmt: skip
        assert (await door.acme.dev.put(f"/v1/bots/{BOT}", json=bot)).status_code == 200
        program = """
          const order = await tools.check_order({order_id: "AB1"});
          const first = await tools.welcome({});
          const second = await tools.welcome({});
          return {order: order.result.order, first: first.success, second: second.error.code};
        """

        ran = await door.call("run_code", {"code": program})
        direct = await door.call("check_order", {"order_id": "AB1"})

        assert ran.success is True, ran
        assert ran.result == {"order": "AB1", "first": True, "second": "tool_not_available"}
        assert direct.success is False and direct.code == "tool_not_available"  # programs only
        assert await runs(agents, door) == 3  # the program, and the two calls that ran


LONG = python("""
def execute(params, context):
    context.progress(0.5, "half way")
    return {"success": True, "built": params["name"]}


tool = {"name": "build", "description": "Builds something that takes a while", "execute": execute,
        "parameters": {"name": {"type": "string", "required": True}},
        "metadata": {"mode": "job"}}
""")


@DOORS
async def test_a_job_tool_runs_as_one_job_that_finishes_once(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    async with session_through(kind, agents, fake) as door:
        assert (await door.acme.dev.post("/v1/tools", json=LONG)).status_code == 201
        called = await door.call("build", {"name": "shed"})
        (job,) = (await door.acme.agent.get("/v1/jobs", params={"session": door.sid})).json()["jobs"]  # fmt: skip
        done = (await door.acme.agent.get(f"/v1/jobs/{job['id']}", params={"wait": 20})).json()
        await agents.runtime.call_log.flush()
        calls = (await door.acme.agent.get(f"/v1/sessions/{door.sid}/calls")).json()["calls"]

        assert called.success is True, called
        if kind == "http":  # the call answers the job at once: the caller asks for its end
            assert called.result == {"job": job["id"], "status": "running"}
        else:  # MCP and the loop wait for the job's end (within their waits)
            assert called.result == {"success": True, "built": "shed"}
        assert done["status"] == "succeeded" and done["message"] == "half way"
        assert done["result"]["result"] == {"success": True, "built": "shed"}
        assert [c["call_id"] for c in calls if c["tool"] == "build" and c["parent_call_id"] is None] == [job["id"]]  # fmt: skip
        assert len([c for c in calls if c["parent_call_id"] == job["id"]]) == 1


@DOORS
async def test_a_federated_servers_tool_answers_as_every_tool_does_on_every_door(
    public_agents: Api, fake: FakeModel, kind: str
) -> None:
    agents = public_agents  # the remote MCP server shares the test's event loop: room for it
    async with remote_server() as remote, session_through(kind, agents, fake) as door:
        allow = {"allow": [fake.host, "127.0.0.2"]}  # the remote is on 127.0.0.2
        assert (await agents.admin.put(f"/v1/tenants/{door.acme.id}/egress", json=allow)).status_code == 200  # fmt: skip
        body = {"url": remote.url, "tools": ["lookup", "fails"], "auth_header": TOKEN}
        assert (await door.acme.dev.put("/v1/mcp-servers/crm", json=body)).status_code == 201

        ok = await door.call("crm__lookup", {"order_id": "A1"})
        failed = await door.call("crm__fails", {"order_id": "A2"})
        invalid = await door.call("crm__lookup", {})
        absent = await door.call("crm__slow", {"seconds": 1})  # not allowed: not a tool

    assert ok.success is True, ok
    assert '"status": "shipped"' in ok.result["content"][0]["text"]
    assert (failed.success, failed.code) == (False, "tool_failed")
    assert (invalid.success, invalid.code) == (False, "invalid_arguments")
    assert absent.success is False and absent.code == "tool_not_available"


@pytest.fixture
async def public_agents(settings) -> AsyncIterator[Api]:
    """``agents``, with the public address OAuth providers send end users back to, and room for
    a model's answer while a remote server on loopback shares the test's event loop."""
    changed = {"provider_retries": 0, "provider_timeout_s": 15.0, "public_url": PUBLIC}
    async with api_for(settings.model_copy(update=changed)) as api:
        yield api


@DOORS
async def test_a_tool_that_acts_as_its_user_asks_them_to_connect_first_on_every_door(
    public_agents: Api, fake: FakeModel, kind: str
) -> None:
    async with oauth_server() as oauth, session_through(kind, public_agents, fake, "alice") as door:
        acme = door.acme
        allow = {"allow": [fake.host, "127.0.0.2"]}
        assert (await public_agents.admin.put(f"/v1/tenants/{acme.id}/egress", json=allow)).status_code == 200  # fmt: skip
        assert (await acme.dev.put("/v1/oauth-providers/acme-id", json=provider_body(oauth))).status_code == 201  # fmt: skip
        assert (await acme.dev.post("/v1/tools", json=me_tool(oauth))).status_code == 201

        asked = await door.call("whoami", {})
        link = (await acme.agent.post(f"/v1/sessions/{door.sid}/connections/acme-id")).json()
        await browse(public_agents, link["url"])
        after = await door.after_connecting("whoami", {})

    if kind == "loop":  # the turn waits for the user
        assert asked.paused == "requires_connection", asked
    else:
        assert (asked.success, asked.code) == (False, "requires_connection"), asked
    assert after.success is True, after
    assert after.result == {"user": "alice", "scope": "openid profile"}


@DOORS
async def test_a_tool_imports_its_tenants_granted_package_on_every_door(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    """A reviewed package granted to the tenant is what its tools import, whichever door called
    them; the grant taken back, the next call cannot load the tool."""
    data = wheel("slugkit", "1.0.0", SLUGKIT)
    assert (await upload(agents, "slugkit", "1.0.0", data)).status_code == 201
    async with session_through(kind, agents, fake) as door:
        await granted(agents, door.acme.id, {"slugkit": "1.0.0"})
        assert (await door.acme.dev.post("/v1/tools", json=python(PYTHON_TOOL))).status_code == 201  # noqa: E501

        called = await door.call("slug", {"text": "Über Café"})
        await granted(agents, door.acme.id, {})
        revoked = await door.call("slug", {"text": "Über Café"})

        assert called.success is True, called
        assert called.result["slug"] == "uber-cafe" and called.result["seen"] == ["Über Café"]
        assert revoked.success is False and revoked.code == "tool_error", revoked
