"""Long-running tool jobs (docs/jobs.md) through HTTP: a job tool's call answers its job at
once; the job runs in the background with its own deadline, reports progress, finishes into the
call log once and is read, waited for and cancelled over ``/v1/jobs``; a webhook that answers
202 with a location becomes a job that Quiver follows. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from tests.api.test_calls import call, python, session_for
from tests.conftest import Api, TenantKeys
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
