"""What a session is offered: intents, once-per-session tools and the per-turn tool budget."""

from __future__ import annotations

import pytest

from server.settings import Settings
from tests.api.test_calls import call, simple_tool
from tests.conftest import Api, TenantKeys, api_for


async def tools(t: TenantKeys, *names: str, extra: str = "") -> None:
    for name in names:
        body = simple_tool(name, 'return {"success": True, "message": "' + name + '"}', extra=extra)
        response = await t.dev.post("/v1/tools", json=body)
        assert response.status_code == 201, response.text


async def offered(t: TenantKeys, sid: str) -> tuple[list[str], int]:
    snapshot = (await t.agent.get(f"/v1/sessions/{sid}/snapshot")).json()
    return [e["name"] for e in snapshot["tools"]], snapshot["version"]


async def test_switching_intent_changes_the_snapshot_and_its_version(api: Api) -> None:
    acme = await api.tenant("acme")
    await tools(acme, "track_order", "refund", "faq")
    bot = {
        "name": "b",
        "tools": None,
        "intents": {"orders": ["track_order"], "billing": ["refund"], "*": ["faq"]},
    }
    await acme.dev.post("/v1/bots", json=bot)
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b", "intent": "orders"})).json()[
        "id"
    ]

    orders, v1 = await offered(acme, sid)
    switched = await acme.agent.put(f"/v1/sessions/{sid}/intent", json={"intent": "billing"})
    billing, v2 = await offered(acme, sid)
    await acme.agent.put(f"/v1/sessions/{sid}/intent", json={"intent": None})
    everything, v3 = await offered(acme, sid)
    unknown = await acme.agent.put(f"/v1/sessions/{sid}/intent", json={"intent": "sales"})

    assert switched.status_code == 200
    assert orders == ["faq", "track_order"] and billing == ["faq", "refund"]
    assert everything == ["faq", "refund", "track_order"]  # no intent: no filtering
    assert v1 < v2 < v3
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "intent"


async def test_once_per_session_tool_leaves_after_success_and_records_done(api: Api) -> None:
    acme = await api.tenant("acme")
    await tools(acme, "collect_lead", extra=', "metadata": {"once_per_session": True}')
    await tools(acme, "faq")
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    other = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    before, v1 = await offered(acme, sid)
    done = await call(acme, sid, "collect_lead")
    after, v2 = await offered(acme, sid)
    variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]

    assert done["success"] is True
    assert before == ["collect_lead", "faq"] and after == ["faq"] and v2 > v1
    assert variables == {"collect_lead_done": True}
    assert (await offered(acme, other))[0] == ["collect_lead", "faq"]


@pytest.fixture
def fresh_ranking(settings: Settings) -> Settings:
    return settings.model_copy(update={"usage_refresh_s": 0.001})


async def test_tool_budget_keeps_intent_tools_then_the_most_used(fresh_ranking: Settings) -> None:
    async with api_for(fresh_ranking) as api:
        acme = await api.tenant("acme")
        await tools(acme, "a_tool", "b_tool", "c_tool", "d_tool", "e_tool")
        await acme.dev.post("/v1/bots", json={"name": "all", "tools": None})
        capped = {
            "name": "capped", "tools": None, "max_tools": 2,
            "intents": {"sales": ["e_tool", "a_tool", "b_tool", "c_tool", "d_tool"], "*": []},
        }  # fmt: skip
        assert (await acme.dev.post("/v1/bots", json=capped)).status_code == 201
        fresh = (await acme.agent.post("/v1/sessions", json={"bot": "capped"})).json()
        user = (await acme.agent.post("/v1/sessions", json={"bot": "all"})).json()["id"]
        for name in ["d_tool", "d_tool", "d_tool", "c_tool", "c_tool"]:
            assert (await call(acme, user, name))["success"] is True
        await api.runtime.call_log.flush()  # the log is written in batches
        used = (await acme.agent.post("/v1/sessions", json={"bot": "capped"})).json()
        unlimited = (await acme.agent.post("/v1/sessions", json={"bot": "all"})).json()
        await acme.dev.put(
            "/v1/bots/capped", json={**capped, "intents": {"sales": ["b_tool"], "*": ["e_tool"]}}
        )
        sales = (
            await acme.agent.post("/v1/sessions", json={"bot": "capped", "intent": "sales"})
        ).json()

    def names(attached: dict) -> list[str]:
        return [t["name"] for t in attached["snapshot"]["tools"]]

    assert names(fresh) == ["a_tool", "b_tool"]  # nothing used yet: bot order
    assert names(used) == ["d_tool", "c_tool"]  # most used first
    assert names(sales) == ["b_tool", "e_tool"]  # the intent's own, then always-on
    assert len(names(unlimited)) == 5
