"""``quiver.client`` against a real server (uvicorn) on SQLite and PostgreSQL: the sync and the
async client, typed answers, refusals as ``ApiError`` with the problem's fields."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from quiver.client import ApiError, AsyncQuiver, Envelope, Quiver, Tool, Unreachable
from tests.api.test_calls import simple_tool
from tests.conftest import ADMIN_KEY, Api
from tests.servers import free_port, served

HELLO = simple_tool(
    "hello",
    'return {"success": True, "message": "hi " + params.get("who", "")}',
    extra=', "parameters": {"who": {"type": "string"}}',
)


async def test_the_async_client_covers_a_developers_day(api: Api) -> None:
    acme = await api.tenant("acme")
    async with served(api.app) as base, AsyncQuiver(base, acme.dev_key) as client:
        first = await client.push_tool("hello", HELLO)
        same = await client.push_tool("hello", HELLO)
        second = await client.push_tool("hello", {**HELLO, "source": HELLO["source"] + "\n"})
        tools = await client.list_tools()
        versions = await client.versions("hello")
        old = await client.get_version("hello", 1)
        tested = await client.test_tool("hello", {"who": "Ada"})
        rolled = await client.rollback("hello", 1)
        usage = await client.usage()
        document = (Path(__file__).parent / "data" / "openapi" / "mlserver-1.7.1-model_repository.json").read_text()  # fmt: skip
        imported = await client.import_openapi(document, server="https://ml.example", dry_run=True)
        with pytest.raises(ApiError) as invalid:
            await client.push_tool("hello", {"kind": "python", "source": "tool = 1"})
        with pytest.raises(ApiError) as missing:
            await client.get_tool("nope")

    assert isinstance(first, Tool) and first.version == 1 and not first.unchanged
    assert same.version == 1 and same.unchanged
    assert second.version == 2 and [t.name for t in tools] == ["hello"]
    assert [v.version for v in versions] == [2, 1] and old.source == HELLO["source"]
    assert isinstance(tested, Envelope) and tested.success and tested.result["message"] == "hi Ada"
    assert rolled.version == 3
    assert usage.tenant == "acme" and usage.today["calls"] == 1
    assert len(imported["tools"]) == 3 and imported["skipped"] == [] and imported["dry_run"]
    assert invalid.value.status == 422 and invalid.value.code == "validation_error"
    assert invalid.value.errors and invalid.value.errors[0].message
    assert missing.value.status == 404 and missing.value.code == "not_found"


async def test_the_sync_client_does_admin_work_and_agent_calls(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=HELLO)
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})

    def admin_and_agent(base: str) -> tuple:
        with Quiver(base, ADMIN_KEY) as admin, Quiver(base, acme.agent_key) as agent:
            tenant = admin.create_tenant("globex", "Globex")
            key = admin.create_key("globex", "developer", "ci")
            shared = admin.set_shared_tools("globex", ["escalate_to_human"])
            limited = admin.set_limits("globex", {"calls_per_day": 10})
            tenants = admin.list_tenants()
            session = agent.attach("b")
            called = agent.call(session["id"], "hello", {"who": "Bo"})
            try:
                agent.list_tools()
            except ApiError as exc:
                refused = exc
            return tenant, key, shared, limited, tenants, called, refused

    async with served(api.app) as base:
        tenant, key, shared, limited, tenants, called, refused = await asyncio.to_thread(
            admin_and_agent, base
        )

    assert tenant.id == "globex" and key.key and key.key.startswith("qk_")
    assert shared.shared_tools == ["escalate_to_human"] and limited.limits == {"calls_per_day": 10}
    assert {t.id for t in tenants} == {"acme", "globex"}
    assert called.success and called.result["message"] == "hi Bo"
    assert refused.status == 403 and refused.code == "forbidden"


def test_no_server_is_unreachable_not_a_transport_traceback() -> None:
    client = Quiver(f"http://127.0.0.1:{free_port()}", "qk_x_y", timeout=2)
    with client, pytest.raises(Unreachable):
        client.list_tools()


async def test_the_rest_of_the_api_through_the_async_client(api: Api) -> None:
    """Each new part of the client once, against a real server: bots, sessions and their state,
    the logs, data sets, forms, calendars, providers, handoff and the admin's tenant settings."""
    acme = await api.tenant("acme")
    form = {"schema": {"type": "object", "properties": {"when": {"type": "string"}}}}
    slot = {"start": "2030-01-07T09:00:00Z", "end": "2030-01-07T09:30:00Z"}
    async with (
        served(api.app) as base,
        AsyncQuiver(base, acme.dev_key) as dev,
        AsyncQuiver(base, acme.agent_key) as agent,
        AsyncQuiver(base, ADMIN_KEY) as admin,
    ):
        await dev.push_tool("hello", HELLO)
        bot = await dev.create_bot({"name": "b", "tools": None})
        bots = await dev.list_bots()
        replaced = await dev.put_bot("b", {"name": "b", "tools": ["hello"]})
        snapshot = await agent.bot_snapshot("b", format="anthropic")
        sid = (await agent.attach("b"))["id"]
        events = agent.session_events(sid)
        first_event = await anext(events)
        await events.aclose()
        await agent.set_variables(sid, {"order_id": "AB1234"})
        variables = await agent.get_variables(sid)
        await agent.call(sid, "hello", {"who": "Ada"})
        session_calls = await agent.list_session_calls(sid)
        session = await agent.get_session(sid)
        ended = await agent.end_session(sid, "done")
        sessions = await dev.list_sessions()
        logged = await dev.list_calls(tool="hello")
        analytics = await dev.tool_analytics()
        audit = await dev.audit()
        daily = await dev.usage_daily()
        await dev.push_dataset("faq", b'{"id": "a", "question": "q?", "answer": "a."}\n', "faq")
        datasets = await dev.list_datasets()
        dataset = await dev.get_dataset("faq")
        await dev.delete_dataset("faq")
        await dev.put_form("booking", form)
        forms = await dev.list_forms()
        submissions = await dev.form_submissions("booking")
        await dev.delete_form("booking")
        await dev.put_calendar("desk", {"slots": [slot]})
        calendar = await dev.get_calendar("desk")
        await dev.delete_calendar("desk")
        await dev.put_provider("main", {"kind": "openai", "models": ["gpt-x"], "api_key": "sk-1"})
        provider = await dev.get_provider("main")
        await dev.delete_provider("main")
        await dev.set_handoff({"url": None})
        handoff = await dev.get_handoff()
        who = await agent.whoami()
        ready, metrics = await agent.ready(), await admin.metrics()
        keys = await admin.list_keys("acme")
        egress = await admin.set_egress("acme", ["crm.example"])
        catalog = await dev.catalog()

    assert (
        bot["name"] == "b" and [b["name"] for b in bots] == ["b"] and replaced["tools"] == ["hello"]
    )
    assert [t["name"] for t in snapshot["tools"]] == ["hello"]
    assert [t["name"] for t in first_event["tools"]] == ["hello"]
    assert variables["variables"] == {"order_id": "AB1234"}
    assert [c["tool"] for c in session_calls] == ["hello"] and session["id"] == sid
    assert ended["status"] == "ended" and sid in [s["id"] for s in sessions]
    assert [c["tool"] for c in logged] == ["hello"] and analytics["tools"][0]["tool"] == "hello"
    assert audit and daily["days"]
    assert [d["name"] for d in datasets] == ["faq"] and dataset["name"] == "faq"
    assert [f["name"] for f in forms] == ["booking"] and submissions == []
    assert calendar["name"] == "desk"
    assert provider["name"] == "main" and "sk-1" not in str(provider)
    assert handoff["url"] is None and who["role"] == "agent"
    assert ready["status"] in ("ready", "degraded") and "quiver_" in metrics
    assert len(keys) == 2 and egress.egress_allow == ["crm.example"]
    assert "hello" in [t["name"] for t in catalog["tools"]]


async def test_both_clients_follow_a_job(api: Api) -> None:
    from tests.api.test_calls import python
    from tests.api.test_jobs import QUICK_JOB

    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python(QUICK_JOB))
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    async with served(api.app) as base, AsyncQuiver(base, acme.agent_key) as client:
        session = (await client.attach("b"))["id"]
        started = await client.call(session, "quick_job", {"n": 2})
        assert started.job is not None
        done = await client.get_job(started.job, wait=20)
        listed = await client.list_jobs(session=session)
        with pytest.raises(ApiError) as ended:
            await client.cancel_job(started.job)

        def sync_side() -> dict:
            with Quiver(base, acme.agent_key) as sync:
                return sync.get_job(started.job or "")

        again = await asyncio.to_thread(sync_side)

    assert started.success and started.result == {"job": started.job, "status": "running"}
    assert done["status"] == "succeeded" and done["result"]["result"]["n"] == 2
    assert [j["id"] for j in listed] == [started.job] and again == done
    assert ended.value.status == 409
