"""Long-running tool jobs (docs/jobs.md) through HTTP: a job tool's call answers its job at
once; the job runs in the background with its own deadline, reports progress, finishes into the
call log once and is read, waited for and cancelled over ``/v1/jobs``; a webhook that answers
202 with a location becomes a job that Quiver follows. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from urllib.parse import urlencode

import httpx2
import orjson
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.api.test_agent_loop import KEY
from tests.api.test_calls import call, python, session_for
from tests.conftest import Api, TenantKeys
from tests.fake_models import FakeModel
from tests.loopback import LoopbackServer
from tests.servers import EventReader, bearer_client, served

SLOW_REPORT = """
def execute(params, context):
    context.progress(0.25, "fetched 1 of 4")
    context.modules.http.get(params["url"])  # held until the test lets it go
    context.progress(0.75, "fetched 3 of 4")
    return {"success": True, "report": "ready", "rows": 4}


tool = {"name": "build_report", "description": "Builds a long report", "execute": execute,
        "parameters": {"url": {"type": "string", "required": True}},
        "metadata": {"mode": "job", "job_timeout_s": 120}}
"""


async def allow(api: Api, t: TenantKeys, *hosts: str) -> None:
    answer = await api.admin.put(f"/v1/tenants/{t.id}/egress", json={"allow": list(hosts)})
    assert answer.status_code == 200, answer.text


async def next_job(stream: EventReader) -> dict:
    """The stream's next ``job`` event (others skipped; each wait bounded)."""
    while True:
        event = await stream.next(within=20)
        if event.get("event") == "job":
            return event["data"]


async def job_of(t: TenantKeys, job: str, wait: float = 0) -> dict:
    answer = await t.agent.get(f"/v1/jobs/{job}", params={"wait": wait})
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_a_job_tool_answers_its_job_at_once_and_finishes_in_the_background(
    api: Api, upstream_http
) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    sid = await session_for(acme, [python(SLOW_REPORT)])
    upstream_http.release.clear()

    started = await call(acme, sid, "build_report", {"url": upstream_http.base + "/hold"})
    job = started["result"]["job"]
    running = await job_of(acme, job)
    while running["status"] == "queued" or running["progress"] is None:  # bounded below
        running = await job_of(acme, job, wait=0.2)
        assert running["status"] in ("queued", "running")
    upstream_http.release.set()
    done = await job_of(acme, job, wait=20)
    calls = (await acme.dev.get("/v1/calls", params={"session": sid})).json()["calls"]

    assert started["success"] is True and started["result"] == {"job": job, "status": "running"}
    assert running["status"] == "running" and running["progress"] == 0.25
    assert running["message"] == "fetched 1 of 4"
    assert done["status"] == "succeeded" and done["attempts"] == 1
    assert done["result"]["success"] is True and done["result"]["result"]["rows"] == 4
    ran = [c for c in calls if c.get("parent_call_id") == job]
    assert len(ran) == 1 and ran[0]["success"] is True  # finished into the call log, once


QUICK_JOB = """
def execute(params, context):
    total = 0
    for i in range(20000):
        total += i
    context.progress(0.5, "half way")
    return {"success": True, "total": total, "n": params.get("n", 0), "job": context.job_id}


tool = {"name": "quick_job", "description": "A job that ends soon", "execute": execute,
        "parameters": {"n": {"type": "integer"}}, "metadata": {"mode": "job"}}
"""


def job_webhook(upstream, name: str, query: str = "polls=2") -> dict:
    return {
        "kind": "webhook",
        "name": "export_data",
        "description": "Exports the data (the upstream answers 202 and works on)",
        "parameters": {"type": "object", "properties": {}},
        "webhook_url": f"{upstream.base}/job/start/{name}?{query}",
        "method": "POST",
        "auth_header": "Bearer upstream-secret",
    }


async def test_a_session_stream_carries_its_jobs_changes(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    sid = await session_for(acme, [python(SLOW_REPORT)])
    upstream_http.release.clear()
    async with served(api.app) as base:
        agent = bearer_client(base, acme.agent_key)
        async with EventReader(agent, f"/v1/sessions/{sid}/events") as stream:
            await stream.next()  # the snapshot
            started = await call(acme, sid, "build_report", {"url": upstream_http.base + "/hold"})
            job = started["result"]["job"]
            seen = [await next_job(stream)]
            while seen[-1]["progress"] != 0.25:
                seen.append(await next_job(stream))
            upstream_http.release.set()
            while seen[-1]["status"] != "succeeded":
                seen.append(await next_job(stream))
        await agent.aclose()

    assert {e["id"] for e in seen} == {job}
    assert seen[0]["status"] in ("queued", "running")
    assert seen[-1]["result"]["result"]["report"] == "ready" and seen[-1]["progress"] == 1.0
    assert all(e["result"] is None for e in seen[:-1])  # the result comes with the end


async def test_a_webhook_answering_202_becomes_a_job_quiver_follows(
    api: Api, upstream_http
) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    api.runtime.pipeline.job_poll_s = 0.05
    name = uuid.uuid4().hex  # the loopback upstream is shared: its job is this test's own
    sid = await session_for(acme, [job_webhook(upstream_http, name)])

    started = await call(acme, sid, "export_data")
    done = await job_of(acme, started["result"]["job"], wait=20)
    asks = [r for r in upstream_http.seen if r["path"] == f"/job/status/{name}"]

    assert started["success"] is True and started["result"]["status"] == "running"
    assert done["status"] == "succeeded"
    assert done["result"]["result"] == {"job": name, "asked": 3}  # two running, then done
    assert len(asks) == 3 and all(a["method"] == "GET" for a in asks)
    assert asks[0]["headers"]["authorization"] == "Bearer upstream-secret"  # its own headers
    assert "upstream-secret" not in str(done)


async def test_a_webhook_job_that_fails_upstream_fails(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    api.runtime.pipeline.job_poll_s = 0.05
    sid = await session_for(acme, [job_webhook(upstream_http, uuid.uuid4().hex, "polls=1&fail=1")])

    started = await call(acme, sid, "export_data")
    done = await job_of(acme, started["result"]["job"], wait=20)

    assert done["status"] == "failed"
    assert done["result"]["error"] == {"code": "tool_failed", "message": "the upstream job broke"}


async def test_a_running_job_is_cancelled(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    other = await api.tenant("other")
    await allow(api, acme, upstream_http.host)
    sid = await session_for(acme, [python(SLOW_REPORT)])
    upstream_http.release.clear()

    started = await call(acme, sid, "build_report", {"url": upstream_http.base + "/hold"})
    job = started["result"]["job"]
    running = await job_of(acme, job)
    while running["progress"] is None:
        running = await job_of(acme, job, wait=0.2)
    not_theirs = await other.agent.post(f"/v1/jobs/{job}/cancel")
    asked = await acme.agent.post(f"/v1/jobs/{job}/cancel")
    done = await job_of(acme, job, wait=20)
    again = await acme.agent.post(f"/v1/jobs/{job}/cancel")
    unknown = await acme.agent.get("/v1/jobs/" + "0" * 32)
    upstream_http.release.set()
    calls = (await acme.dev.get("/v1/calls", params={"session": sid})).json()["calls"]

    assert not_theirs.status_code == 404
    assert asked.status_code == 202 and asked.json()["cancel_requested"] is True
    assert done["status"] == "cancelled" and done["result"]["error"]["code"] == "cancelled"
    assert again.status_code == 409 and unknown.status_code == 404
    ran = [c for c in calls if c.get("parent_call_id") == job]
    assert [c["error"]["code"] for c in ran] == ["cancelled"]


async def test_a_tenant_has_a_cap_on_its_running_jobs(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    assert (await api.admin.put("/v1/tenants/acme/limits", json={"running_jobs": 1})).status_code == 200  # fmt: skip
    sid = await session_for(acme, [python(SLOW_REPORT)])
    upstream_http.release.clear()

    first = await call(acme, sid, "build_report", {"url": upstream_http.base + "/hold"})
    second = await call(acme, sid, "build_report", {"url": upstream_http.base + "/hold"})
    upstream_http.release.set()
    await job_of(acme, first["result"]["job"], wait=20)
    third = await call(acme, sid, "build_report", {"url": upstream_http.base + "/hold"})

    assert first["success"] is True
    assert second["success"] is False and second["error"]["code"] == "too_many_jobs"
    assert third["success"] is True  # the first ended: room again


async def test_a_jobs_cpu_counts_for_the_tenants_quota(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(QUICK_JOB)])

    started = await call(acme, sid, "quick_job", {"n": 3})
    done = await job_of(acme, started["result"]["job"], wait=20)
    usage = (await acme.dev.get("/v1/usage")).json()["today"]

    assert done["status"] == "succeeded" and done["result"]["result"]["n"] == 3
    assert done["cpu_ms"] > 0
    assert usage["cpu_ms"] >= round(done["cpu_ms"])  # the job's run, counted


async def test_a_job_runs_to_its_own_deadline(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    short = SLOW_REPORT.replace('"job_timeout_s": 120', '"job_timeout_s": 1')
    sid = await session_for(acme, [python(short)])
    upstream_http.release.clear()

    started = await call(acme, sid, "build_report", {"url": upstream_http.base + "/hold"})
    done = await job_of(acme, started["result"]["job"], wait=20)
    upstream_http.release.set()

    assert done["status"] == "failed" and done["result"]["error"]["code"] == "timeout"


@pytest.mark.parametrize(
    ("metadata", "field"),
    [
        ({"mode": "later"}, "metadata.mode"),
        ({"mode": "job", "once_per_session": True}, "metadata.once_per_session"),
        ({"mode": "job", "cacheable": True}, "metadata.cacheable"),
        ({"job_timeout_s": 30}, "metadata.job_timeout_s"),
        ({"mode": "job", "job_timeout_s": 0}, "metadata.job_timeout_s"),
    ],
)
async def test_a_job_tools_metadata_is_checked(api: Api, metadata: dict, field: str) -> None:
    acme = await api.tenant("acme")
    source = QUICK_JOB.replace('"metadata": {"mode": "job"}', f'"metadata": {metadata!r}')

    answer = await acme.dev.post("/v1/tools", json=python(source))

    assert answer.status_code == 422, answer.text
    assert "tool." + field in {e.get("field") for e in answer.json()["errors"]}


async def test_jobs_are_listed_by_session_and_status(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(QUICK_JOB)])
    ids = [(await call(acme, sid, "quick_job", {"n": n}))["result"]["job"] for n in range(3)]
    for job in ids:
        await job_of(acme, job, wait=20)

    first = (await acme.agent.get("/v1/jobs", params={"session": sid, "limit": 2})).json()
    rest = (await acme.agent.get("/v1/jobs", params={"session": sid, "cursor": first["next_cursor"]})).json()  # fmt: skip
    failed = (await acme.agent.get("/v1/jobs", params={"status": "failed"})).json()

    assert [j["id"] for j in first["jobs"] + rest["jobs"]] == list(reversed(ids))
    assert rest["next_cursor"] is None and failed["jobs"] == []


JS_JOB = """
module.exports = {
  name: "quick_job", description: "A job that ends soon",
  parameters: {n: {type: "integer"}},
  metadata: {mode: "job"},
  async execute(params, context) {
    await context.progress(0.5, "half way");
    return {success: true, total: 1, n: params.n || 0, job: context.jobId};
  },
};
"""


@pytest.mark.parametrize("tier", ["restricted", "wasm", "javascript"])
async def test_jobs_report_progress_in_every_code_tier(api: Api, tier: str) -> None:
    acme = await api.tenant("acme")
    body = (
        {"kind": "javascript", "source": JS_JOB}
        if tier == "javascript"
        else python(QUICK_JOB, "wasm" if tier == "wasm" else "restricted")
    )
    sid = await session_for(acme, [body])

    started = await call(acme, sid, "quick_job", {"n": 7})
    done = await job_of(acme, started["result"]["job"], wait=30)

    assert done["status"] == "succeeded", done
    assert done["result"]["result"]["n"] == 7 and done["message"] == "half way"
    assert done["result"]["result"]["job"] == done["id"]  # the same for every run of the job


BAD_PROGRESS = """
def execute(params, context):
    refused = []
    for value in (1.5, -0.1, "half", True):
        try:
            context.progress(value)
        except Exception as exc:
            refused.append(str(exc))
    outside = context.progress(0.5, "not a job")
    return {"success": True, "refused": refused, "outside": outside}


tool = {"name": "bad_progress", "description": "Says odd progress", "execute": execute}
"""


async def test_progress_is_checked_and_means_nothing_outside_a_job(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(BAD_PROGRESS)])

    result = await call(acme, sid, "bad_progress")

    assert result["success"] is True
    assert len(result["result"]["refused"]) == 4
    assert all("from 0 to 1" in r for r in result["result"]["refused"])
    assert result["result"]["outside"] is False  # a plain call has no job to report on


async def test_an_mcp_call_waits_for_its_job_with_progress(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    upstream_http.release.set()
    await session_for(acme, [python(SLOW_REPORT)])
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    async with served(api.app) as base:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=30)  # fmt: skip
        transport = streamable_http_client(f"{base}/mcp?bot=b", http_client=http)
        async with Client(transport, mode="legacy", cache=None) as client:
            result = await client.call_tool("build_report", {"url": upstream_http.base + "/hold"}, progress_callback=on_progress)  # fmt: skip
        await http.aclose()

    assert result.is_error is False
    assert result.structured_content == {"success": True, "report": "ready", "rows": 4}
    values = [p[0] for p in progress]
    assert values == sorted(set(values)) and values[-1] == 1.0  # increasing, to the end
    assert all(p[1] == 1.0 for p in progress)


async def test_an_mcp_call_answers_the_job_when_it_runs_past_the_wait(
    api: Api, upstream_http
) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    upstream_http.release.clear()
    await session_for(acme, [python(SLOW_REPORT)])
    api.runtime.settings.mcp_job_wait_s = 0.2

    async with served(api.app) as base:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=30)  # fmt: skip
        transport = streamable_http_client(f"{base}/mcp?bot=b", http_client=http)
        async with Client(transport, mode="legacy", cache=None) as client:
            result = await client.call_tool("build_report", {"url": upstream_http.base + "/hold"})  # fmt: skip
        await http.aclose()
    upstream_http.release.set()
    answer = result.structured_content or {}
    done = await job_of(acme, answer.get("job", ""), wait=20)

    assert result.is_error is False and answer["status"] == "running"
    assert f"/v1/jobs/{answer['job']}" in answer["note"]
    assert done["status"] == "succeeded"


async def test_the_agent_loop_waits_for_a_job_within_the_bots_wait(
    agents: Api, fake: FakeModel
) -> None:
    acme = await agents.tenant("acme")
    await allow(agents, acme, fake.host)
    provider = {"kind": "openai", "base_url": fake.base + "/v1", "api_key": KEY, "models": ["big"]}
    assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
    bot = {"name": "b", "tools": None, "model": "main/big", "job_wait_s": 30}
    sid = await session_for(acme, [python(QUICK_JOB)], bot)
    fake.reply({"tool_calls": [{"name": "quick_job", "arguments": {"n": 5}}]}, {"text": "Done."})

    turn = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "go"})
    tool_message = fake.requests[1]["body"]["messages"][-1]

    assert turn.status_code == 200, turn.text
    assert tool_message["role"] == "tool"
    assert '"n":5' in tool_message["content"] and '"total"' in tool_message["content"]


async def test_a_job_past_the_bots_wait_comes_as_a_later_message(
    agents: Api, fake: FakeModel, upstream_http
) -> None:
    acme = await agents.tenant("acme")
    await allow(agents, acme, fake.host, upstream_http.host)
    upstream_http.release.clear()
    provider = {"kind": "openai", "base_url": fake.base + "/v1", "api_key": KEY, "models": ["big"]}
    assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
    bot = {"name": "b", "tools": None, "model": "main/big", "job_wait_s": 0}
    sid = await session_for(acme, [python(SLOW_REPORT)], bot)
    fake.reply(
        {
            "tool_calls": [
                {"name": "build_report", "arguments": {"url": upstream_http.base + "/hold"}}
            ]
        },  # fmt: skip
        {"text": "It is being built."},
    )

    turn = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "report"})
    told = fake.requests[1]["body"]["messages"][-1]["content"]
    job = orjson.loads(told)["job"]
    upstream_http.release.set()
    await job_of(acme, job, wait=20)
    transcript = await delivered(agents, acme, sid, job)

    assert turn.status_code == 200
    assert turn.json()["message"]["content"] == "It is being built."
    assert '"status":"running"' in told and "later message" in told
    assert transcript["role"] == "user" and transcript["name"] == "job"
    assert transcript["content"].startswith(f"[job {job} of build_report finished] ")
    assert '"report":"ready"' in transcript["content"]


async def delivered(api: Api, t: TenantKeys, sid: str, job: str) -> dict:
    """The conversation's message that delivers ``job`` (written as the job's run ends)."""
    await asyncio.wait_for(api.runtime.jobs.drain(), 20)
    messages = (await t.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]
    (found,) = [m for m in messages if job in (m.get("content") or "") and m["role"] == "user"]
    return found


async def test_a_job_location_the_egress_guard_refuses_is_never_asked(
    api: Api, upstream_http, canary_http
) -> None:
    """SSRF through a 202: the location is asked through the egress guard like any request."""
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    api.runtime.pipeline.job_poll_s = 0.05
    name = uuid.uuid4().hex
    aimed = {
        "metadata": f"http://169.254.169.254/latest/meta-data/{name}",
        "loopback": f"{canary_http.base}/job/status/{name}",
    }
    tools = [
        {**job_webhook(upstream_http, name, urlencode({"to": url})), "name": f"export_{target}"}
        for target, url in aimed.items()
    ]
    sid = await session_for(acme, tools)
    before = len(canary_http.seen)

    ended = []
    for target in aimed:
        started = await call(acme, sid, f"export_{target}")
        ended.append(await job_of(acme, started["result"]["job"], wait=20))

    assert [e["result"]["error"]["code"] for e in ended] == ["egress_denied", "egress_denied"]
    assert canary_http.seen[before:] == []


async def test_a_job_location_on_another_origin_is_asked_without_the_webhooks_secret(
    api: Api, upstream_http
) -> None:
    other = LoopbackServer("127.0.0.3")
    try:
        acme = await api.tenant("acme")
        await allow(api, acme, upstream_http.host, other.host)
        api.runtime.pipeline.job_poll_s = 0.05
        name = uuid.uuid4().hex
        elsewhere = f"{other.base}/job/status/{name}?polls=1"
        sid = await session_for(acme, [job_webhook(upstream_http, name, urlencode({"to": elsewhere}))])  # fmt: skip

        started = await call(acme, sid, "export_data")
        done = await job_of(acme, started["result"]["job"], wait=20)
        sent = [r for r in upstream_http.seen if r["path"] == f"/job/start/{name}"]
        asked = [r for r in other.seen if r["path"] == f"/job/status/{name}"]
    finally:
        other.close()

    assert done["status"] == "succeeded"
    assert sent[0]["headers"]["authorization"] == "Bearer upstream-secret"
    assert asked and all("authorization" not in r["headers"] for r in asked)


async def test_a_queued_job_is_cancelled_at_once(api: Api) -> None:
    await api.runtime.jobs.stop()  # no node runs it
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(QUICK_JOB)])

    started = await call(acme, sid, "quick_job")
    cancelled = await acme.agent.post(f"/v1/jobs/{started['result']['job']}/cancel")

    assert cancelled.status_code == 202
    assert cancelled.json()["status"] == "cancelled" and cancelled.json()["attempts"] == 0


async def test_a_test_run_of_a_webhook_answering_202_shows_the_location(
    api: Api, upstream_http
) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    name = uuid.uuid4().hex
    assert (await acme.dev.post("/v1/tools", json=job_webhook(upstream_http, name))).status_code == 201  # fmt: skip

    tested = await acme.dev.post("/v1/tools/export_data/test", json={"arguments": {}})

    assert tested.status_code == 200, tested.text
    assert tested.json()["result"] == {
        "status": "accepted",
        "location": f"{upstream_http.base}/job/status/{name}?polls=2",
    }


async def test_a_webhook_job_waits_for_its_endpoint_past_a_calls_deadline(
    api: Api, upstream_http
) -> None:
    acme = await api.tenant("acme")
    await allow(api, acme, upstream_http.host)
    slow = {
        **job_webhook(upstream_http, "unused"),
        "webhook_url": upstream_http.base + "/sleep/1500",  # longer than its timeout_ms
        "timeout_ms": 500,
        "metadata": {"mode": "job", "job_timeout_s": 30},
    }
    sid = await session_for(acme, [slow])

    started = await call(acme, sid, "export_data")
    done = await job_of(acme, started["result"]["job"], wait=20)

    assert done["status"] == "succeeded", done  # the job's deadline, not the call's 500 ms
