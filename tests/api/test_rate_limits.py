"""Request rates and daily quotas per tenant and per key: 429 with Retry-After, an admin's
overrides, ``GET /v1/usage``, shared across nodes through Redis, and a node that keeps serving
(counting on its own) while Redis is away."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest

from server.settings import Settings
from tests.api.test_breakers import attach
from tests.api.test_calls import call, simple_tool
from tests.api.test_dependency_faults import PrivateRedis, private_redis  # noqa: F401
from tests.api.test_mcp import mcp_client
from tests.conftest import Api, TenantKeys, api_for
from tests.servers import bearer_client, node_process, served

OK = simple_tool("ok", 'return {"success": True, "message": "ok"}')


async def limit(api: Api, tenant: str, **limits: object) -> httpx.Response:
    response = await api.admin.put(f"/v1/tenants/{tenant}/limits", json=limits)
    assert response.status_code == 200, response.text
    return response


async def with_a_tool(t: TenantKeys) -> str:
    assert (await t.dev.post("/v1/tools", json=OK)).status_code == 201
    assert (await t.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201
    return await attach(t)


def refused(response: httpx.Response, code: str, scope: str) -> None:
    assert response.status_code == 429, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code and body["scope"] == scope, body
    assert 1 <= int(response.headers["Retry-After"]) <= 86_400


async def test_a_key_over_its_rate_gets_429_and_the_tenants_other_keys_go_on(api: Api) -> None:
    acme = await api.tenant("acme")
    await limit(api, "acme", key_requests="5/hour")

    answers = [await acme.dev.get("/v1/tools") for _ in range(6)]
    other = await api.client(await api.key("acme", "developer")).get("/v1/tools")

    assert [r.status_code for r in answers[:5]] == [200] * 5
    assert [int(r.headers["RateLimit-Remaining"]) for r in answers[:5]] == [4, 3, 2, 1, 0]
    assert answers[0].headers["RateLimit-Limit"] == "5"
    assert int(answers[0].headers["RateLimit-Reset"]) > 0
    refused(answers[5], "rate_limited", "key")
    assert other.status_code == 200


async def test_a_tenant_over_its_rate_is_refused_on_every_key_and_others_are_not(
    api: Api,
) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    await limit(api, "acme", requests="6/hour")

    codes = [(await client.get("/v1/tools")).status_code for client in (acme.dev, acme.agent) * 3]
    over = await acme.agent.get("/v1/bots")
    neighbour = await globex.dev.get("/v1/tools")

    assert codes == [200, 403, 200, 403, 200, 403]  # agent keys may not list tools: still counted
    refused(over, "rate_limited", "tenant")
    assert neighbour.status_code == 200


async def test_daily_call_quota_answers_429_over_http_and_a_failed_call_over_mcp(
    api: Api,
) -> None:
    acme = await api.tenant("acme")
    sid = await with_a_tool(acme)
    await limit(api, "acme", calls_per_day=3)

    made = [await call(acme, sid, "ok") for _ in range(3)]
    over = await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "ok"})
    async with served(api.app) as base, mcp_client(base, acme.agent_key) as client:
        mcp_over = await client.call_tool("ok", {})
    usage = (await acme.dev.get("/v1/usage")).json()

    assert all(r["success"] for r in made)
    refused(over, "quota_exceeded", "tenant")
    assert over.json()["limit"] == "calls_per_day=3"
    assert mcp_over.is_error and "used up" in mcp_over.content[0].text
    assert usage["limits"]["calls_per_day"] == 3 and usage["overrides"] == {"calls_per_day": 3}
    assert usage["today"]["calls"] == 3 and usage["today"]["calls_remaining"] == 0


async def test_cpu_quota_lets_the_crossing_call_finish_and_refuses_the_next(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await with_a_tool(acme)
    await limit(api, "acme", cpu_ms_per_day=1)

    first = await call(acme, sid, "ok")
    second = await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "ok"})
    usage = (await acme.dev.get("/v1/usage")).json()["today"]

    assert first["success"] is True
    refused(second, "quota_exceeded", "tenant")
    assert usage["cpu_ms"] >= 1 and usage["cpu_ms_remaining"] == 0
    assert usage["calls"] == 1 and usage["calls_remaining"] is None  # counted without a quota


async def test_a_new_utc_day_brings_a_new_quota(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await with_a_tool(acme)
    await limit(api, "acme", calls_per_day=1)
    today = dt.datetime(2026, 12, 3, 23, 59, 58, tzinfo=dt.UTC).timestamp()
    now = [today]
    api.runtime.quotas.clock = lambda: now[0]  # the test owns the day

    first = await call(acme, sid, "ok")
    over = await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "ok"})
    now[0] += 3  # past midnight
    next_day = await call(acme, sid, "ok")

    assert first["success"] and next_day["success"]
    refused(over, "quota_exceeded", "tenant")
    assert over.headers["Retry-After"] == "2"  # seconds to 00:00 UTC


async def test_overrides_are_admin_only_checked_and_null_lifts_a_limit(api: Api) -> None:
    acme = await api.tenant("acme")
    bad_rate = await api.admin.put("/v1/tenants/acme/limits", json={"requests": "fast"})
    negative = await api.admin.put("/v1/tenants/acme/limits", json={"calls_per_day": -1})
    unknown_field = await api.admin.put("/v1/tenants/acme/limits", json={"calls": 1})
    unknown_tenant = await api.admin.put("/v1/tenants/nope/limits", json={"calls_per_day": 1})
    by_developer = await acme.dev.put("/v1/tenants/acme/limits", json={"calls_per_day": 1})
    lifted = await limit(api, "acme", key_requests=None)
    usage = (await acme.dev.get("/v1/usage")).json()
    admin_usage = await api.admin.get("/v1/usage?tenant=acme")
    admin_without_tenant = await api.admin.get("/v1/usage")

    assert bad_rate.status_code == 422 and bad_rate.json()["errors"][0]["field"] == "requests"
    assert negative.status_code == 422 and negative.json()["errors"][0]["field"] == "calls_per_day"
    assert unknown_field.status_code == 422
    assert unknown_tenant.status_code == 404 and by_developer.status_code == 403
    assert lifted.json()["limits"] == {"key_requests": None}
    assert usage["limits"]["key_requests"] is None
    assert usage["limits"]["requests"] == Settings.model_fields["tenant_requests"].default
    assert admin_usage.status_code == 200 and admin_usage.json()["tenant"] == "acme"
    assert admin_without_tenant.status_code == 422


async def test_two_nodes_share_one_budget_through_redis(settings: Settings, redis_url: str) -> None:
    shared = settings.model_copy(update={"redis_url": redis_url})
    async with api_for(shared) as api:
        acme = await api.tenant("acme")
        await limit(api, "acme", requests="4/hour")
        async with served(api.app) as base:
            with node_process(shared) as node2:
                one = bearer_client(base, acme.dev_key)
                two = bearer_client(node2.base, acme.dev_key)
                codes = [(await c.get("/v1/tools")).status_code for c in (one, two, one, two)]
                over_on_two = await two.get("/v1/tools")
                over_on_one = await one.get("/v1/tools")
                await one.aclose()
                await two.aclose()

    assert codes == [200, 200, 200, 200]
    refused(over_on_two, "rate_limited", "tenant")
    refused(over_on_one, "rate_limited", "tenant")


async def test_limits_still_apply_per_node_while_redis_is_away(
    settings: Settings,
    private_redis: PrivateRedis,  # noqa: F811
) -> None:
    async with api_for(settings.model_copy(update={"redis_url": private_redis.url})) as api:
        now = [0.0]
        api.runtime.redis_health.clock = lambda: now[0]
        acme = await api.tenant("acme")
        await limit(api, "acme", key_requests="3/hour")
        before = (await acme.dev.get("/v1/tools")).status_code
        private_redis.stop()
        during = [(await acme.dev.get("/v1/tools")).status_code for _ in range(4)]
        usage = (await acme.agent.get("/v1/usage")).status_code
        private_redis.start()

    assert before == 200
    assert during == [200, 200, 200, 429]  # counted on this node from the outage on
    assert usage == 403  # agent keys see no usage; and no 500 anywhere


@pytest.mark.parametrize("over", ["key", "tenant"])
async def test_mcp_requests_count_against_the_same_rates(api: Api, over: str) -> None:
    acme = await api.tenant("acme")
    await with_a_tool(acme)
    field = "key_requests" if over == "key" else "requests"
    await limit(api, "acme", **{field: "1/hour"})
    async with served(api.app) as base, bearer_client(base, acme.agent_key) as client:
        response = await client.post(
            "/mcp?bot=b",
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            headers={"Accept": "application/json, text/event-stream"},
        )
        again = await client.post(
            "/mcp?bot=b",
            json={"jsonrpc": "2.0", "id": 2, "method": "ping"},
            headers={"Accept": "application/json, text/event-stream"},
        )

    assert response.status_code != 429
    # an MCP client is refused in JSON-RPC, for its request's id, the problem as the data
    assert again.status_code == 429 and again.headers["content-type"] == "application/json"
    assert again.json()["id"] == 2 and again.json()["error"]["data"]["scope"] == over
    assert again.json()["error"]["data"]["code"] == "rate_limited"
    assert 1 <= int(again.headers["Retry-After"]) <= 86_400
