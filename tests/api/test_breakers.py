"""Breakers through HTTP on SQLite and PostgreSQL: the per-session one (3 failures) and the
per-tool rolling one (in process, and shared by two server processes through Redis)."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from server.settings import Settings
from tests.api.test_calls import call, python
from tests.conftest import Api, TenantKeys, api_for
from tests.servers import EventReader, bearer_client, node_process, served

FLAKY = python("""
def execute(params, context):
    if params.get("fail"):
        raise ValueError("upstream said no")
    return {"success": True, "message": "fine"}


tool = {
    "name": "flaky",
    "description": "Fails when asked to",
    "parameters": {"fail": {"type": "boolean"}},
    "execute": execute,
    "metadata": {"timeout": 3000, "breaker": {"min_calls": 4, "failure_rate": 0.5, "cooldown_s": 1}},
}
""")
# A cool-down no slow machine ends between two steps of a test (the 1 s one above can pass while
# a loaded machine answers two requests): the tests that need it over move the node's clock.
LONG_S = 60
FLAKY_LONG = {**FLAKY, "source": FLAKY["source"].replace('"cooldown_s": 1}', f'"cooldown_s": {LONG_S}}}')}  # fmt: skip
STEADY = python("""
def execute(params, context):
    return {"success": True, "message": "steady"}


tool = {"name": "steady", "description": "Always works", "execute": execute}
""")


async def attach(t: TenantKeys, bot: str = "b") -> str:
    response = await t.agent.post("/v1/sessions", json={"bot": bot})
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def names(t: TenantKeys, sid: str) -> list[str]:
    return [e["name"] for e in (await t.agent.get(f"/v1/sessions/{sid}/snapshot")).json()["tools"]]


async def setup(t: TenantKeys, flaky: dict = FLAKY) -> None:
    for body in (flaky, STEADY):
        assert (await t.dev.post("/v1/tools", json=body)).status_code == 201
    assert (await t.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201


async def test_third_failure_in_a_session_removes_the_tool_there_and_the_stream_says_so(
    api: Api,
) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid, other = await attach(acme), await attach(acme)
    async with served(api.app) as base:
        agent = bearer_client(base, acme.agent_key)
        async with EventReader(agent, f"/v1/sessions/{sid}/events") as stream:
            first = await stream.next()
            before = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()["version"]
            failures = [await call(acme, sid, "flaky", {"fail": True}) for _ in range(3)]
            removed = await stream.until(lambda d: "flaky" in d["removed"], within=1.0)
        await agent.aclose()
    after = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()
    retried = await call(acme, sid, "flaky", {"fail": False})

    assert [f["error"]["code"] for f in failures] == ["tool_error"] * 3
    assert first["event"] == "snapshot" and "flaky" in [t["name"] for t in first["data"]["tools"]]
    assert [t["name"] for t in after["tools"]] == ["steady"] and after["version"] > before
    assert removed["data"]["version"] == after["version"]
    assert retried["error"]["code"] == "circuit_open"
    assert "Do not call it again" in retried["modelMessage"]
    assert await names(acme, other) == ["flaky", "steady"]  # other sessions keep it


async def test_the_models_argument_mistakes_never_open_a_breaker(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid = await attach(acme)

    results = [await call(acme, sid, "flaky", {"fail": "not a boolean"}) for _ in range(5)]

    assert {r["error"]["code"] for r in results} == {"invalid_arguments"}
    assert await names(acme, sid) == ["flaky", "steady"]


async def test_the_session_breaker_closes_after_its_cool_down(api: Api) -> None:
    now = [1_000_000.0]
    api.runtime.tracker.clock = lambda: now[0]  # the test owns the clock
    acme = await api.tenant("acme")
    shaky = FLAKY.copy()  # without the tight rolling breaker: only the session's counts here
    shaky["source"] = (
        FLAKY["source"]
        .replace('"flaky"', '"shaky"')
        .replace(', "breaker": {"min_calls": 4, "failure_rate": 0.5, "cooldown_s": 1}', "")
    )
    assert (await acme.dev.post("/v1/tools", json=shaky)).status_code == 201
    assert (await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201
    sid = await attach(acme)

    for _ in range(3):
        await call(acme, sid, "shaky", {"fail": True})
    opened = await names(acme, sid)
    now[0] += api.runtime.tracker.session_cooldown_s - 1
    still = await names(acme, sid)
    now[0] += 2
    closed = await names(acme, sid)
    recovered = await call(acme, sid, "shaky", {"fail": False})
    for _ in range(2):
        await call(acme, sid, "shaky", {"fail": True})
    two_more = await names(acme, sid)  # the count started again at the opening
    await call(acme, sid, "shaky", {"fail": True})

    assert opened == still == []
    assert closed == ["shaky"] and recovered["success"] is True
    assert two_more == ["shaky"]
    assert await names(acme, sid) == []


@pytest.mark.workers(2)
async def test_workers_killed_from_outside_are_reported_as_such_and_count_for_no_breaker(
    api: Api,
) -> None:
    slow = python("""
def execute(params, context):
    while True:  # until the test kills its worker
        pass


tool = {"name": "slow", "description": "Runs until stopped", "execute": execute,
        "metadata": {"timeout": 10000}}
""")
    acme = await api.tenant("acme")
    await setup(acme)
    assert (await acme.dev.post("/v1/tools", json=slow)).status_code == 201
    sid = await attach(acme)
    pool = api.runtime.engines.restricted.pool
    results = []
    for _ in range(3):
        running = asyncio.create_task(call(acme, sid, "slow"))
        worker = await asyncio.wait_for(pool.a_running_worker(), 10)
        os.kill(worker.proc.pid, signal.SIGKILL)  # the system's OOM killer, or an operator
        results.append(await running)

    assert [r["error"]["code"] for r in results] == ["worker_crashed"] * 3
    assert "from outside" in results[0]["error"]["message"]
    assert "slow" in await names(acme, sid)


async def _fail_in_fresh_sessions(t: TenantKeys, times: int, fail: bool = True) -> list[dict]:
    return [await call(t, await attach(t), "flaky", {"fail": fail}) for _ in range(times)]


async def test_rolling_breaker_opens_half_opens_and_closes(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme, FLAKY_LONG)
    watcher = await attach(acme)
    v0 = (await acme.agent.get(f"/v1/sessions/{watcher}/snapshot")).json()["version"]

    await _fail_in_fresh_sessions(acme, 4)  # 4 calls, 100% failures ≥ min_calls 4 → open
    open_names = await names(acme, await attach(acme))
    bot_names = [t["name"] for t in (await acme.dev.get("/v1/bots/b/snapshot")).json()["tools"]]
    v1 = (await acme.agent.get(f"/v1/sessions/{watcher}/snapshot")).json()["version"]
    refused = await call(acme, watcher, "flaky", {"fail": False})
    api.clock.advance(LONG_S + 0.1)  # cool-down over: half-open, offered again for one trial
    half_names = await names(acme, watcher)
    trial_failed = await call(acme, watcher, "flaky", {"fail": True})
    reopened = await names(acme, await attach(acme))
    api.clock.advance(LONG_S + 0.1)
    trial_ok = await call(acme, await attach(acme), "flaky", {"fail": False})
    closed_names = await names(acme, await attach(acme))
    after_close = await call(acme, await attach(acme), "flaky", {"fail": False})

    assert open_names == ["steady"] and bot_names == ["steady"] and v1 > v0
    assert refused["error"]["code"] == "circuit_open"
    assert half_names == ["flaky", "steady"]
    assert trial_failed["error"]["code"] == "tool_error" and reopened == ["steady"]
    assert trial_ok["success"] is True and closed_names == ["flaky", "steady"]
    assert after_close["success"] is True


async def test_half_open_admits_one_trial_at_a_time(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme, FLAKY_LONG)
    await _fail_in_fresh_sessions(acme, 4)
    api.clock.advance(LONG_S + 0.1)
    runtime = api.runtime

    first = await runtime.tracker.admit("acme", "flaky")
    second = await runtime.tracker.admit("acme", "flaky")

    assert (first, second) == (True, False)


async def test_a_healthy_tool_never_opens(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)

    results = await _fail_in_fresh_sessions(acme, 12, fail=False)
    mixed = await _fail_in_fresh_sessions(acme, 1) + await _fail_in_fresh_sessions(acme, 6, False)

    assert all(r["success"] for r in results) and mixed[0]["success"] is False
    assert all(r["success"] for r in mixed[1:])
    assert (await runtime_state(api)).open == frozenset()


async def runtime_state(api: Api):
    return await api.runtime.tracker.tenant_breakers("acme")


async def test_two_server_processes_sharing_redis_agree_on_an_open_breaker(
    settings: Settings, redis_url: str
) -> None:
    shared = settings.model_copy(update={"redis_url": redis_url})
    async with api_for(shared) as api:
        acme = await api.tenant("acme")
        await setup(acme, FLAKY_LONG)
        with node_process(shared) as node2:
            remote = bearer_client(node2.base, acme.agent_key)
            remote_sid = (await remote.post("/v1/sessions", json={"bot": "b"})).json()["id"]
            before = await remote.get(f"/v1/sessions/{remote_sid}/snapshot")
            await _fail_in_fresh_sessions(acme, 4)  # opened on node 1
            after = await remote.get(f"/v1/sessions/{remote_sid}/snapshot")
            refused = await remote.post(
                f"/v1/sessions/{remote_sid}/calls", json={"tool": "flaky", "arguments": {}}
            )
            await remote.aclose()

    assert [t["name"] for t in before.json()["tools"]] == ["flaky", "steady"]
    assert [t["name"] for t in after.json()["tools"]] == ["steady"]
    assert after.json()["version"] > before.json()["version"]
    assert refused.json()["error"]["code"] == "circuit_open"


async def test_the_stream_hears_a_rolling_breaker_open_and_the_tool_come_back(api: Api) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    sid = await attach(acme)
    async with served(api.app) as base:
        agent = bearer_client(base, acme.agent_key)
        async with EventReader(agent, f"/v1/sessions/{sid}/events") as stream:
            await stream.next()
            await _fail_in_fresh_sessions(acme, 4)
            opened = await stream.until(lambda d: d["removed"] == ["flaky"], within=1.0)
            back = await stream.until(lambda d: d["added"] == ["flaky"], within=2.0)
        await agent.aclose()

    assert int(back["id"]) > int(opened["id"])


async def test_a_tenant_over_its_restart_budget_gets_busy_and_no_one_else_does(settings) -> None:
    spin = python("""
def execute(params, context):
    while True:
        pass


tool = {"name": "spin", "description": "Never ends", "execute": execute,
        "metadata": {"timeout": 200}}
""")
    budget = {"tenant_restart_burst": 2, "tenant_restarts_per_s": 0.01, "queue_wait_ms": 300}
    async with api_for(settings.model_copy(update=budget)) as api:
        greedy, other = await api.tenant("greedy"), await api.tenant("other")
        for t, body in ((greedy, spin), (other, STEADY)):
            assert (await t.dev.post("/v1/tools", json=body)).status_code == 201
            await t.dev.post("/v1/bots", json={"name": "b", "tools": None})
        greedy_calls = [await call(greedy, await attach(greedy), "spin") for _ in range(4)]
        others = [await call(other, await attach(other), "steady") for _ in range(3)]

    codes = [c["error"]["code"] for c in greedy_calls]
    assert codes[:2] == ["timeout", "timeout"]  # each of these cost a worker
    assert codes[2:] == ["busy", "busy"]  # then the budget is spent: busy, no restart
    assert "restarted sandbox workers too often" in greedy_calls[2]["error"]["message"]
    assert all(o["success"] for o in others)
