"""The jobs' use cases (``server.calls.jobs``) against in-memory fakes of their ports: a job
tool's call queues a job in its unit of work; the runner claims it, runs it with the job's
deadline and finishes it once; progress is written at most twice a second (the clock is the
test's) with the last always kept; a run that lost its lease finishes nothing; a job the loop
stopped waiting for is delivered to the conversation. Through HTTP, MCP, the loop and two real
nodes: tests/api/test_jobs.py, tests/api/test_job_nodes.py and the contract suite."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.engine import Run, RunResult
from tests.calls.test_use_cases import World, ok


@pytest.fixture
def world() -> World:
    return World()


async def test_a_job_tools_call_queues_a_job_that_the_runner_finishes_once(world: World) -> None:
    world.tool("export", ok({"rows": 3}), mode="job", job_timeout_s=120)
    jobs = world.services.jobs

    started, _ = await world.call("export", {"order_id": "AB1234"})
    (job,) = world.db.jobs.values()
    queued = (job.status, job.attempts)
    ran = await jobs.run_pending()  # type: ignore[attr-defined]
    again = await jobs.run_pending()  # type: ignore[attr-defined]

    assert started["success"] is True and started["job"] == job.id
    assert started["result"] == {"job": job.id, "status": "running"}
    assert world.engine.runs == [("export", {"order_id": "AB1234"})]  # once, with its arguments
    assert queued == ("queued", 0) and ran == [(job.id, "succeeded")] and again == []
    assert job.status == "succeeded" and job.result["result"] == {"success": True, "rows": 3}
    assert [r["parent_call_id"] for r in world.db.reported] == [job.id]  # its run, logged once


async def test_a_jobs_run_has_the_jobs_deadline_and_id(world: World) -> None:
    seen: list[tuple[int, Any]] = []

    async def watch(run: Run) -> RunResult:
        seen.append((run.limits.timeout_ms, run.context.get("job_id")))
        return RunResult(ok=True, value={"success": True})

    world.tool("export", watch, mode="job", job_timeout_s=120)
    await world.call("export")
    (job,) = world.db.jobs.values()
    await world.services.jobs.run_pending()  # type: ignore[attr-defined]

    assert seen == [(120_000, job.id)]  # not a call's 2 s


async def test_progress_is_written_at_most_twice_a_second_and_the_last_always(world: World) -> None:
    answers: list[Any] = []

    async def steps(run: Run) -> RunResult:
        assert run.host is not None
        for step in range(1, 5):
            answers.append(await run.host("context", "progress", {"progress": step / 4, "message": f"step {step}"}))  # fmt: skip
        world.clock.now += 1  # a second later
        answers.append(await run.host("context", "progress", {"progress": 1.0, "message": "done"}))  # fmt: skip
        return RunResult(ok=True, value={"success": True})

    world.tool("export", steps, mode="job")
    await world.call("export")
    (job,) = world.db.jobs.values()
    await world.services.jobs.run_pending()  # type: ignore[attr-defined]

    assert answers == [True, False, False, False, True]  # the first, then held within 0.5 s
    assert job.progress == 1.0 and job.message == "done"


async def test_a_run_that_lost_its_lease_finishes_nothing(world: World) -> None:
    async def taken_over(run: Run) -> RunResult:
        (job,) = world.db.jobs.values()
        job.attempts += 1  # another node claimed it meanwhile
        return RunResult(ok=True, value={"success": True})

    world.tool("export", taken_over, mode="job")
    await world.call("export")
    (job,) = world.db.jobs.values()
    ran = await world.services.jobs.run_pending()  # type: ignore[attr-defined]

    assert ran == [(job.id, "lost")]
    assert job.status == "running" and job.result is None and world.db.reported == []


async def test_a_queued_job_is_cancelled_at_once_and_an_ended_one_is_a_conflict(world: World) -> None:  # fmt: skip
    from server.errors import ConflictError

    world.tool("export", ok(), mode="job")
    await world.call("export")
    (job,) = world.db.jobs.values()
    async with world.unit() as store:
        cancelled = await world.services.jobs.cancel(store, "acme", job.id)
    ran = await world.services.jobs.run_pending()  # type: ignore[attr-defined]

    assert cancelled.status == "cancelled" and cancelled.result["error"]["code"] == "cancelled"
    assert ran == [] and world.engine.runs == []
    with pytest.raises(ConflictError):
        async with world.unit() as store:
            await world.services.jobs.cancel(store, "acme", job.id)


async def test_a_job_the_loop_stopped_waiting_for_is_delivered_to_the_conversation(
    world: World,
) -> None:
    world.tool("export", ok({"rows": 3}), mode="job")
    await world.call("export")
    (job,) = world.db.jobs.values()
    async with world.unit() as store:
        deferred = await store.jobs.defer(job.id)
    await world.services.jobs.run_pending()  # type: ignore[attr-defined]
    appended = world.services.messages.appended  # type: ignore[attr-defined]

    assert deferred is True
    assert [(sid, m["role"], m["name"]) for sid, m in appended] == [("s-1", "user", "job")]
    assert (
        appended[0][1]["content"]
        == f'[job {job.id} of export finished] {{"success":true,"rows":3}}'
    )


async def test_a_test_run_of_a_job_tool_runs_at_once(world: World) -> None:
    world.tool("export", ok({"rows": 3}), mode="job")

    result, _ = await world.call("export", test=True)

    assert result["success"] is True and result["result"] == {"success": True, "rows": 3}
    assert world.db.jobs == {}
