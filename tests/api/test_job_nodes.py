"""Jobs across nodes: a job is claimed with a lease by one node; a node that dies stops renewing
it, and another runs the job again once the lease has passed — and the job finishes once (one
end, one run in the call log), whatever the first node does late. A job whose runs keep being
cut short is given up. On SQLite and PostgreSQL; the kill test with a real second node."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from datetime import UTC, datetime

from server.calls.jobs import MAX_JOB_ATTEMPTS
from server.settings import Settings
from tests.api.test_calls import call, python, session_for
from tests.api.test_jobs import QUICK_JOB, SLOW_REPORT, allow, job_of
from tests.conftest import Api, api_for
from tests.loopback import LoopbackServer
from tests.servers import node_process


async def queued_job(node: Api) -> tuple[str, str, object]:
    """A tenant with the quick job tool, and one job of it queued (no node runs it yet)."""
    acme = await node.tenant("acme")
    sid = await session_for(acme, [python(QUICK_JOB)])
    started = await call(acme, sid, "quick_job", {"n": 1})
    return sid, started["result"]["job"], acme


async def run_log(node: Api, acme, sid: str, job: str) -> list[dict]:
    calls = (await acme.dev.get("/v1/calls", params={"session": sid})).json()["calls"]
    return [c for c in calls if c.get("parent_call_id") == job]


async def test_a_job_whose_node_died_is_run_again_elsewhere_and_finishes_once(
    settings: Settings,
) -> None:
    async with api_for(settings) as one, api_for(settings) as two:
        for node in (one, two):
            await node.runtime.jobs.stop()  # the test runs the jobs itself
        sid, job, acme = await queued_job(one)
        jobs_one, jobs_two = one.runtime.jobs, two.runtime.jobs
        now = time.time()
        async with one.runtime.storage.transaction() as store:  # node one claims it...
            (claimed,) = await store.jobs.claim(datetime.fromtimestamp(now, UTC), jobs_one.lease_s, 1)  # fmt: skip
        jobs_one.clock = lambda: now + 10
        renewed = await jobs_one.beat(claimed)  # ... is alive at +10 s, then dies
        jobs_two.clock = lambda: now + 20  # within the renewed lease
        while_alive = await jobs_two.run_pending()
        jobs_two.clock = lambda: now + 10 + jobs_one.lease_s + 1  # the lease has passed
        after_death = await jobs_two.run_pending()
        late = await jobs_one.beat(claimed)  # node one's late renewal holds nothing
        done = await job_of(acme, job)
        runs = await run_log(one, acme, sid, job)

    assert renewed == (True, False) and while_alive == []
    assert after_death == [(job, "succeeded")]
    assert late == (False, False)
    assert done["status"] == "succeeded" and done["attempts"] == 2
    assert len(runs) == 1 and runs[0]["success"] is True


async def test_a_job_whose_runs_keep_dying_is_given_up(settings: Settings) -> None:
    async with api_for(settings) as node:
        jobs = node.runtime.jobs
        await jobs.stop()
        sid, job, acme = await queued_job(node)
        now = time.time()
        for died in range(MAX_JOB_ATTEMPTS):  # each run's node dies before it finishes
            async with node.runtime.storage.transaction() as store:
                at = datetime.fromtimestamp(now + died * 100, UTC)
                claimed = await store.jobs.claim(at, 10, 1)
                assert [c.attempts for c in claimed] == [died + 1]
        jobs.clock = lambda: now + MAX_JOB_ATTEMPTS * 100
        given_up = await jobs.run_pending()
        done = await job_of(acme, job)
        runs = await run_log(node, acme, sid, job)

    assert given_up == [(job, "failed")]
    assert done["result"]["error"]["code"] == "abandoned"
    assert [r["error"]["code"] for r in runs] == ["abandoned"]


async def test_killing_the_node_running_a_job_leaves_it_to_another_which_finishes_it_once(
    settings: Settings, upstream_http: LoopbackServer
) -> None:
    shared = settings.model_copy(update={"egress_allow": "127.0.0.2"})
    async with api_for(shared) as here:
        jobs = here.runtime.jobs
        await jobs.stop()  # this node runs nothing until the other has died
        acme = await here.tenant("acme")
        await allow(here, acme, upstream_http.host)
        sid = await session_for(acme, [python(SLOW_REPORT)])
        upstream_http.release.clear()
        upstream_http.held.clear()
        with node_process(
            shared, QUIVER_EGRESS_ALLOW="127.0.0.2", QUIVER_JOB_LEASE_S="2", QUIVER_JOB_POLL_S="0.2"
        ) as there:
            started = await call(acme, sid, "build_report", {"url": upstream_http.base + "/hold"})
            job = started["result"]["job"]
            # the other node runs it, held upstream (waited for off the event loop)
            assert await asyncio.to_thread(upstream_http.held.wait, 20)
            running = await job_of(acme, job)
            os.kill(there.pid, signal.SIGKILL)
            killed_at = time.time()
        upstream_http.release.set()
        jobs.clock = lambda: killed_at + 3  # past the dead node's lease of 2 s
        taken_over = await jobs.run_pending()
        done = await job_of(acme, job)
        runs = await run_log(here, acme, sid, job)

    assert running["status"] == "running" and running["attempts"] == 1
    assert taken_over == [(job, "succeeded")]
    assert done["status"] == "succeeded" and done["attempts"] == 2
    assert done["result"]["result"]["report"] == "ready"
    assert len(runs) == 1  # it finished once
    held = [r for r in upstream_http.seen if r["path"] == "/hold" and r["headers"].get("idempotency-key") == job]  # fmt: skip
    assert len(held) == 2  # run twice, each time saying which job it is
