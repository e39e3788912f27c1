"""Long-running tool jobs (docs/jobs.md).

A call of a tool whose metadata says ``mode: "job"`` — or of a webhook that answered 202 with a
``Location`` — answers ``{"job": id, "status": "running"}`` at once: the pipeline queues the job
in the call's unit of work (``CallPipeline._start_job``). Any node then claims it with a lease
(``server.storage.jobs``), runs the tool with the job's deadline instead of a call's, renews the
lease while it runs and finishes the job once: the finish, the call log's row of the run
(``parent_call_id``: the job) and the result the agent loop delivers are written in one unit of
work, conditional on this run still holding the job. A node that dies stops renewing; another
runs the job again once the lease has passed (at most ``MAX_JOB_ATTEMPTS`` runs).

What a job reports of itself (``context.progress(0.4, "fetched 2 of 5")``, or a webhook job's
location answering ``{"status": "running", "progress": 0.4}``) is written at most every
``PROGRESS_EVERY_S`` and announced like every change of a job (``j:<job>:<session>``): the
session's streams send a ``job`` event, and whoever waits for the job (MCP, the agent loop,
``Jobs.wait``) reads it again. A cancel (``POST /v1/jobs/{id}/cancel``) ends a queued job at
once and a running one when its node hears of it (the announcement, or its next renewal)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from server import metrics
from server.calls import envelope
from server.calls.calllog import stored_arguments, stored_logs, truncate
from server.calls.job_run import JobRun, progress_values
from server.calls.pipeline import CallPipeline, CallRequest
from server.calls.ports import CallStore
from server.calls.services import Messages, Storage
from server.ratelimit import RateLimitedLog
from server.records import StoredJob
from server.registry.service import Registry

log = logging.getLogger("quiver.jobs")
runner_failures = RateLimitedLog(log, every_s=60.0)

FINISHED = ("succeeded", "failed", "cancelled")
MAX_JOB_ATTEMPTS = 3  # runs cut short by their node's death; a job that fails is not retried
PROGRESS_EVERY_S = 0.5  # a job's progress is written at most this often
STOP_WAIT_S = 10.0  # how long a node stopping waits for its runs to stop


def public(row: StoredJob) -> dict[str, Any]:
    """A job as the API shows it."""
    finished = row.status in FINISHED
    return {
        "id": row.id,
        "tool": row.tool,
        "version": row.version,
        "session": row.session_id,
        "status": row.status,
        "progress": row.progress,
        "message": row.message,
        "attempts": row.attempts,
        "cancel_requested": row.cancel_requested,
        "created_at": row.created_at.isoformat(),
        "started_at": row.started_at.isoformat() if row.started_at else None,
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "cpu_ms": row.cpu_ms,
        "result": row.result if finished else None,
    }


class _Progress:
    """One run's progress: kept at once in memory, written at most every ``PROGRESS_EVERY_S``;
    the last one is written when the run ends or its lease is renewed."""

    def __init__(self, jobs: Jobs, row: StoredJob) -> None:
        self.jobs = jobs
        self.row = row
        self.pending: tuple[float | None, str | None] | None = None
        self.written_at = -math.inf

    async def report(self, fraction: Any, message: Any) -> bool:
        self.pending = progress_values(fraction, message)
        if self.jobs.clock() - self.written_at < PROGRESS_EVERY_S:
            return False  # kept for the next write
        return await self.flush()

    async def flush(self) -> bool:
        if self.pending is None:
            return False
        (fraction, message), self.pending = self.pending, None
        self.written_at = self.jobs.clock()
        async with self.jobs.storage.transaction() as store:
            return await store.jobs.report(
                self.row.id, self.row.attempts, self.row.session_id, fraction, message
            )


class Jobs:
    """Runs the jobs this node claims, and tells waiters of changes. ``clock`` is the tests'."""

    def __init__(
        self,
        storage: Storage,
        registry: Registry,
        pipeline: CallPipeline,
        messages: Messages,
        clock: Callable[[], float] = time.time,
        *,
        lease_s: float = 30.0,
        slots: int = 4,
        poll_s: float = 1.0,
    ) -> None:
        self.storage = storage
        self.registry = registry
        self.pipeline = pipeline
        self.messages = messages
        self.clock = clock
        self.lease_s = lease_s
        self.slots = slots
        self.poll_s = poll_s  # how often a node looks for jobs queued elsewhere
        self.wake = asyncio.Event()
        self._running: dict[str, asyncio.Task[Any]] = {}  # job → the task running it
        self._cancelled: set[str] = set()  # jobs whose run a cancel stopped (not a shutdown)
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._loop: asyncio.Task[None] | None = None
        self._checks: set[asyncio.Task[Any]] = set()
        self._checking: set[str] = set()  # jobs whose cancel is being checked
        self._stopping = False

    # hearing of changes ----------------------------------------------------------------------
    def changed(self, job_ids: Iterable[str], *, remote: bool = False) -> None:
        """Jobs changed (this node's commit; with ``remote``, another node's announcement):
        waiters read them again, and a job running here that another node may have cancelled
        checks at once (a cancel made here stops its run itself)."""
        for job_id in job_ids:
            for event in self._waiters.get(job_id, ()):
                event.set()
            if remote and job_id in self._running and job_id not in self._checking:
                self._checking.add(job_id)
                check = asyncio.get_running_loop().create_task(self._check_cancel(job_id))
                self._checks.add(check)
                check.add_done_callback(self._checks.discard)
        self.wake.set()  # a job queued: a free slot takes it

    async def _check_cancel(self, job_id: str) -> None:
        try:
            async with self.storage.transaction() as store:
                row = await store.jobs.find(job_id)
        except Exception as exc:  # the database away: the next renewal asks again
            metrics.BACKGROUND_FAILURES.labels(task="jobs").inc()
            log.warning("could not read job %s: %s", job_id, exc)
            return
        finally:
            self._checking.discard(job_id)
        if row is not None and row.cancel_requested:
            self._stop(job_id)

    def _stop(self, job_id: str) -> None:
        work = self._running.get(job_id)
        if work is not None and job_id not in self._cancelled:
            self._cancelled.add(job_id)
            work.cancel()

    async def wait(
        self,
        tenant_id: str,
        job_id: str,
        timeout_s: float,
        on_change: Callable[[StoredJob], Awaitable[None]] | None = None,
    ) -> StoredJob:
        """The job once it has finished, or as it is when ``timeout_s`` has passed; each change
        seen meanwhile (progress, status) goes to ``on_change``."""
        event = asyncio.Event()
        self._waiters.setdefault(job_id, set()).add(event)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, timeout_s)
        seen: tuple[Any, ...] | None = None
        try:
            while True:
                event.clear()
                async with self.storage.transaction() as store:
                    row = await store.jobs.get(tenant_id, job_id)
                now = (row.status, row.progress, row.message)
                if on_change is not None and now != seen:
                    seen = now
                    await on_change(row)
                remaining = deadline - loop.time()
                if row.status in FINISHED or remaining <= 0:
                    return row
                # woken by the change; the poll covers a node that hears no announcements
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(remaining, self.poll_s)):
                        await event.wait()
        finally:
            waiters = self._waiters.get(job_id)
            if waiters is not None:
                waiters.discard(event)
                if not waiters:
                    del self._waiters[job_id]

    # use cases of the API ------------------------------------------------------------------
    async def cancel(self, store: CallStore, tenant_id: str, job_id: str) -> StoredJob:
        """Cancel the job: a queued one now; a running one as soon as its node hears (409 if it
        has finished)."""
        row = await store.jobs.cancel(tenant_id, job_id)
        self._stop(job_id)  # running here: its run ends ``cancelled`` once this commits
        if row.status == "queued":
            done = envelope.failure(row.tool, 0.0, "cancelled", "the job was cancelled")
            now = datetime.fromtimestamp(self.clock(), UTC)
            finished = await store.jobs.finish(row.id, None, row.session_id, "cancelled", done, now)
            if finished is not None:
                return finished
        return await store.jobs.get(tenant_id, job_id)

    # running -------------------------------------------------------------------------------
    def start(self) -> None:
        async def loop() -> None:
            # ``_stopping`` is checked as well as cancellation: on Python 3.11 a cancel that
            # lands as ``wait_for`` times out can come back as TimeoutError (``asyncio.timeout``
            # does not mix them up; the flag makes stopping certain either way)
            while not self._stopping:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.poll_s):
                        await self.wake.wait()
                self.wake.clear()
                try:
                    await self._spawn_pending()
                except Exception as exc:  # the database away (or a bug): logged, counted, and
                    # the next round tries again — the loop must outlive any one failure
                    metrics.BACKGROUND_FAILURES.labels(task="jobs").inc()
                    runner_failures.warning("could not claim jobs: %s", exc)

        self._loop = asyncio.get_running_loop().create_task(loop())

    async def stop(self) -> None:
        """Stop claiming, and stop this node's runs: their leases lapse, and another node runs
        them again (a shutdown is not a cancel). Each is waited for a bounded time: a run that
        does not stop in it is left to the process's end."""
        self._stopping = True
        stopping = [*([self._loop] if self._loop is not None else []), *self._running.values()]
        for task in stopping:
            task.cancel()
        if stopping:
            _, stuck = await asyncio.wait(stopping, timeout=STOP_WAIT_S)
            if stuck:
                log.warning("%d job runs did not stop within %s s", len(stuck), STOP_WAIT_S)

    async def _spawn_pending(self) -> None:
        for row in await self._claim(self.slots - len(self._running)):
            self._launch(row)

    def _launch(self, row: StoredJob) -> asyncio.Task[tuple[str, str]]:
        work = asyncio.get_running_loop().create_task(self._run(row))
        self._running[row.id] = work
        work.add_done_callback(functools.partial(self._ended, row.id))
        return work

    def _ended(self, job_id: str, _: object) -> None:
        self._running.pop(job_id, None)
        self._cancelled.discard(job_id)
        self.wake.set()  # a slot is free

    async def drain(self) -> None:
        """Wait for this node's runs under way to end (their ends written)."""
        while self._running:
            await asyncio.wait(list(self._running.values()))

    async def run_pending(self) -> list[tuple[str, str]]:
        """Claim what is due and run it to its end here: (job, status) of each (tests, the CLI)."""
        claimed = await self._claim(self.slots - len(self._running))
        return list(await asyncio.gather(*(self._launch(row) for row in claimed)))

    async def _claim(self, limit: int) -> list[StoredJob]:
        if limit <= 0:
            return []
        now = datetime.fromtimestamp(self.clock(), UTC)
        async with self.storage.transaction() as store:
            return list(await store.jobs.claim(now, self.lease_s, limit))

    async def _run(self, row: StoredJob) -> tuple[str, str]:
        """Run a claimed job to its end and finish it, if this run still holds it."""
        if row.attempts > MAX_JOB_ATTEMPTS:
            message = f"the job's runs were cut short {MAX_JOB_ATTEMPTS} times (nodes stopping)"
            return await self._finish(row, envelope.failure(row.tool, 0.0, "abandoned", message))
        if row.cancel_requested:
            done = envelope.failure(row.tool, 0.0, "cancelled", "the job was cancelled")
            return await self._finish(row, done)
        progress = _Progress(self, row)
        heartbeat = asyncio.get_running_loop().create_task(self._heartbeat(row, progress))
        cpu_ms = 0.0
        try:
            result, cpu_ms = await self._execute(row, progress)
        except asyncio.CancelledError:
            if row.id not in self._cancelled:
                raise  # the node is stopping: the lease lapses and another node runs it again
            result = envelope.failure(row.tool, 0.0, "cancelled", "the job was cancelled")
        except Exception as exc:  # the run broke (not the tool failing): it ends, said
            metrics.BACKGROUND_FAILURES.labels(task="job_run").inc()
            log.exception("job %s of %s failed to run", row.id, row.tool)
            result = envelope.failure(row.tool, 0.0, "tool_error", f"the job could not run: {exc}")
        finally:
            heartbeat.cancel()
        with contextlib.suppress(Exception):  # its last progress, if the finish loses
            await progress.flush()
        return await self._finish(row, result, cpu_ms)

    async def _heartbeat(self, row: StoredJob, progress: _Progress) -> None:
        while True:
            await asyncio.sleep(self.lease_s / 3)
            try:
                await progress.flush()
                held, cancel = await self.beat(row)
            except Exception as exc:  # the database away: the next beat tries again
                metrics.BACKGROUND_FAILURES.labels(task="jobs").inc()
                log.warning("could not renew the lease of job %s: %s", row.id, exc)
                continue
            if cancel or not held:  # cancelled; or another node took it over: stop here
                if not held:
                    log.warning("job %s was taken over by another node", row.id)
                self._stop(row.id)

    async def beat(self, row: StoredJob) -> tuple[bool, bool]:
        """Renew this run's lease: (whether it still holds the job, whether a cancel was asked)."""
        until = datetime.fromtimestamp(self.clock() + self.lease_s, UTC)
        async with self.storage.transaction() as store:
            return await store.jobs.extend(row.id, row.attempts, until)

    async def _execute(self, row: StoredJob, progress: _Progress) -> tuple[dict[str, Any], float]:
        """The tool's run, as its session resolves it now, with the job's deadline, and the CPU
        milliseconds it counted. The unit of work commits before the tool runs
        (``checkpoint``): a run of minutes holds no connection."""
        store = self.storage.reader()
        try:
            if row.session_id is None:
                message = "a job runs in a session"
                return envelope.failure(row.tool, 0.0, "tool_not_available", message), 0.0
            record, variables = await store.sessions.get_with_variables(
                row.tenant_id, row.session_id
            )
            view = await self.registry.view(store, row.tenant_id)
            tool = view.tools_for(record.bot).get(row.tool)
            if tool is None:
                message = f"{row.tool!r} is no longer one of this session's tools"
                return envelope.failure(row.tool, 0.0, "tool_not_available", message), 0.0

            async def locate(location: str) -> None:
                async with self.storage.transaction() as own:
                    await own.jobs.locate(row.id, row.attempts, location)

            request = CallRequest(
                tenant_id=row.tenant_id,
                tool=row.tool,
                arguments=store.jobs.arguments(row),
                session=record,
                variables=variables,
                modules=view.sandbox_modules,
                egress_allow=view.egress_allow,
                guardrails=view.guardrails,
                message_id=row.message_id,
                parent_call_id=row.id,
                # the same for every run of the job: whoever receives a rerun can tell
                extra_context={"job_id": row.id},
                job=JobRun(row.id, row.timeout_s * 1000, progress.report, row.location, locate),
            )
            result, cpu_ms = await self.pipeline.run_job(store, request, tool)
            await store.checkpoint()  # what the run wrote of the session
            return result, cpu_ms
        finally:
            await store.close()

    async def _finish(
        self, row: StoredJob, result: dict[str, Any], cpu_ms: float = 0.0
    ) -> tuple[str, str]:
        """End the job, log its run and, where the agent loop stopped waiting, deliver its
        result to the conversation — in one unit of work, if this run still holds the job."""
        if result.get("success"):
            status = "succeeded"
        elif (result.get("error") or {}).get("code") == "cancelled":
            status = "cancelled"
        else:
            status = "failed"
        logs = result.pop("logs", None)
        now = datetime.fromtimestamp(self.clock(), UTC)
        async with self.storage.transaction() as store:
            finished = await store.jobs.finish(
                row.id,
                row.attempts,
                row.session_id,
                status,
                result,
                now,
                cpu_ms=cpu_ms,
            )
            if finished is None:  # another run holds or ended it
                return row.id, "lost"
            await store.calls.record(**_log_row(finished, store.jobs.arguments(row), result, logs))
        if finished.deliver and finished.session_id is not None:
            await _deliver(self.messages, finished, result)
        metrics.JOBS.labels(status=status).inc()
        return row.id, status


def _log_row(row: StoredJob, arguments: Any, result: dict[str, Any], logs: Any) -> dict[str, Any]:
    """The call log's row of a job's run: its child (``parent_call_id``)."""
    error = result.get("error") or {}
    return {
        "tenant_id": row.tenant_id,
        "session_id": row.session_id,
        "tool": row.tool,
        "version": row.version,
        "kind": row.kind,
        "arguments": stored_arguments(arguments),
        "result": truncate(result.get("result")),
        "success": bool(result.get("success")),
        "latency_ms": float(result.get("executionTime") or 0.0),
        "error_code": error.get("code"),
        "error_message": (error.get("message") or "")[:2000] or None,
        "test": False,
        "cached": False,
        "message_id": row.message_id,
        "parent_call_id": row.id,
        "logs": stored_logs(logs),
    }


async def _deliver(messages: Messages, row: StoredJob, result: dict[str, Any]) -> None:
    """The job's end as a later message of its conversation (the loop told the model it runs).
    Written after the finish commits (SQLite has one writer): a node that dies in between loses
    the message, never the job's result (``GET /v1/jobs/{id}``)."""
    said = {"succeeded": "finished", "cancelled": "was cancelled"}.get(row.status, row.status)
    content = f"[job {row.id} of {row.tool} {said}] {envelope.model_text(result)}"
    try:
        await messages.append(
            row.session_id or "",
            row.tenant_id,
            row.bot or "",
            [{"role": "user", "name": "job", "content": content}],
        )
    except Exception:  # the job has finished; its message failing is logged and counted
        metrics.BACKGROUND_FAILURES.labels(task="job_deliver").inc()
        log.exception("could not deliver job %s to its conversation", row.id)
