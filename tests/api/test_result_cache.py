"""The result cache through HTTP on SQLite and PostgreSQL, and its Redis tier across processes."""

from __future__ import annotations

from server.settings import Settings
from tests.api.test_breakers import attach
from tests.api.test_calls import call, python
from tests.conftest import Api, TenantKeys, api_for
from tests.factories import webhook_tool
from tests.servers import bearer_client, node_process


def lucky(ttl: int = 60, salt: str = "", scope: str | None = None) -> dict:
    """A cacheable tool whose every real run returns a fresh random number."""
    scoped = f', "cache_scope": "{scope}"' if scope else ""
    return python(f"""
import random


def execute(params, context):
    return {{"success": True, "n": random.random(), "city": params["city"]{salt}}}


tool = {{
    "name": "lucky",
    "description": "A lucky number for a city",
    "parameters": {{"city": {{"type": "string", "required": True}}}},
    "execute": execute,
    "metadata": {{"cacheable": True, "cache_ttl": {ttl}{scoped}}},
}}
""")


async def ready(t: TenantKeys, body: dict) -> str:
    response = await t.dev.post("/v1/tools", json=body)
    assert response.status_code == 201, response.text
    await t.dev.post("/v1/bots", json={"name": "b", "tools": None})
    return await attach(t)


async def test_second_identical_call_is_served_from_the_cache(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await ready(acme, lucky())

    first = await call(acme, sid, "lucky", {"city": "Oslo"})
    second = await call(acme, sid, "lucky", {"city": "Oslo"})
    other_args = await call(acme, sid, "lucky", {"city": "Rome"})
    calls = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]

    assert "cached" not in first and second["cached"] is True
    assert second["result"] == first["result"]
    assert other_args["result"]["n"] != first["result"]["n"] and "cached" not in other_args
    assert [c["cached"] for c in calls] == [False, True, False]  # the log marks it too


async def test_an_edit_changes_the_key_so_no_stale_result_is_served(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await ready(acme, lucky())
    first = await call(acme, sid, "lucky", {"city": "Oslo"})

    edited = await acme.dev.put("/v1/tools/lucky", json=lucky(salt=', "v": 2'))
    after = await call(acme, sid, "lucky", {"city": "Oslo"})

    assert edited.status_code == 200, edited.text
    assert "cached" not in after and after["result"]["v"] == 2
    assert after["result"]["n"] != first["result"]["n"]


async def test_entries_expire_after_cache_ttl(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await ready(acme, lucky(ttl=1))
    first = await call(acme, sid, "lucky", {"city": "Oslo"})

    api.clock.advance(1.1)
    later = await call(acme, sid, "lucky", {"city": "Oslo"})

    assert "cached" not in later and later["result"]["n"] != first["result"]["n"]


async def test_test_runs_neither_read_nor_fill_the_cache(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await ready(acme, lucky())

    tested = await acme.dev.post("/v1/tools/lucky/test", json={"arguments": {"city": "Oslo"}})
    real = await call(acme, sid, "lucky", {"city": "Oslo"})

    assert "cached" not in tested.json() and "cached" not in real


async def test_failures_are_not_cached(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await ready(acme, lucky())

    bad = [await call(acme, sid, "lucky", {}) for _ in range(2)]

    assert [b["error"]["code"] for b in bad] == ["invalid_arguments"] * 2
    assert not any("cached" in b for b in bad)


async def test_cacheable_writes_are_refused_with_the_field_named(api: Api) -> None:
    acme = await api.tenant("acme")
    post_hook = webhook_tool(method="POST", metadata={"cacheable": True})
    once = python("""
def execute(params, context):
    return {"success": True}


tool = {"name": "lead", "description": "Take a lead", "execute": execute,
        "metadata": {"cacheable": True, "once_per_session": True}}
""")

    refused_hook = await acme.dev.post("/v1/tools", json=post_hook)
    refused_once = await acme.dev.post("/v1/tools", json=once)
    get_hook = await acme.dev.post(
        "/v1/tools", json=webhook_tool(name="weather", metadata={"cacheable": True})
    )

    assert refused_hook.status_code == 422
    assert refused_hook.json()["errors"][0]["field"] == "metadata.cacheable"
    assert "GET" in refused_hook.json()["errors"][0]["message"]
    assert refused_once.status_code == 422
    assert "once_per_session" in refused_once.json()["errors"][0]["message"]
    assert get_hook.status_code == 201, get_hook.text


async def test_two_processes_share_results_through_redis(
    settings: Settings, redis_url: str
) -> None:
    shared = settings.model_copy(update={"redis_url": redis_url})
    async with api_for(shared) as api:
        acme = await api.tenant("acme")
        sid = await ready(acme, lucky(scope="tenant"))
        first = await call(acme, sid, "lucky", {"city": "Oslo"})
        with node_process(shared) as node2:
            async with bearer_client(node2.base, acme.agent_key) as remote:
                remote_sid = (await remote.post("/v1/sessions", json={"bot": "b"})).json()["id"]
                there = (
                    await remote.post(
                        f"/v1/sessions/{remote_sid}/calls",
                        json={"tool": "lucky", "arguments": {"city": "Oslo"}},
                    )
                ).json()

    assert there["cached"] is True and there["result"] == first["result"]


async def attach_as(t: TenantKeys, customer: str | None) -> str:
    body = {"bot": "b", **({"customer": customer} if customer else {})}
    response = await t.agent.post("/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def test_a_session_scoped_result_never_crosses_sessions(api: Api) -> None:
    acme = await api.tenant("acme")
    alice = await ready(acme, lucky())  # the default scope: one conversation
    bob = await attach_as(acme, None)

    alices = await call(acme, alice, "lucky", {"city": "Oslo"})
    bobs = await call(acme, bob, "lucky", {"city": "Oslo"})
    alice_again = await call(acme, alice, "lucky", {"city": "Oslo"})

    assert bobs.get("cached") is not True and bobs["result"] != alices["result"]
    assert alice_again["cached"] is True and alice_again["result"] == alices["result"]


async def test_customer_scope_shares_one_end_users_sessions_only(api: Api) -> None:
    acme = await api.tenant("acme")
    first = await ready(acme, lucky(scope="customer"))  # attached without a customer
    alice_1, alice_2 = await attach_as(acme, "alice"), await attach_as(acme, "alice")
    bob = await attach_as(acme, "bob")

    anonymous = await call(acme, first, "lucky", {"city": "Oslo"})
    alice = await call(acme, alice_1, "lucky", {"city": "Oslo"})
    alice_later = await call(acme, alice_2, "lucky", {"city": "Oslo"})
    bobs = await call(acme, bob, "lucky", {"city": "Oslo"})

    assert alice.get("cached") is not True and alice["result"] != anonymous["result"]
    assert alice_later["cached"] is True and alice_later["result"] == alice["result"]
    assert bobs.get("cached") is not True and bobs["result"] != alice["result"]


async def test_tenant_scope_shares_across_sessions_and_the_scope_is_checked(api: Api) -> None:
    acme = await api.tenant("acme")
    one = await ready(acme, lucky(scope="tenant"))
    two = await attach_as(acme, "someone")
    bad = await acme.dev.post("/v1/tools/validate", json=lucky(scope="everyone"))

    first = await call(acme, one, "lucky", {"city": "Oslo"})
    second = await call(acme, two, "lucky", {"city": "Oslo"})

    assert second["cached"] is True and second["result"] == first["result"]
    assert bad.json()["valid"] is False
    assert bad.json()["errors"][0]["field"] == "tool.metadata.cache_scope"
