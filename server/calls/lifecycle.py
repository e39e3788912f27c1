"""What happens around a session's life: idle sessions ended by a sweep (every node sweeps; the
conditional end makes each session end exactly once); session-end hooks — the bot's tools whose
metadata says ``on_session_end`` — queued in the unit of work that ends the session and run
with the transcript by whichever node claims them, at least once: a node that dies mid-run stops
renewing its lease and another runs the hook again within seconds, with the same
``hook_run_id`` (and ``Idempotency-Key`` on its outbound requests) for the receiver to see the
rerun; and handoffs announced to the tenant's webhook — JSON signed
with HMAC-SHA256 (``X-Quiver-Signature: sha256=<hex>`` over the body), through the egress
guard."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import orjson

from server import metrics
from server.calls.pipeline import CallRequest
from server.calls.ports import CallStore
from server.calls.services import Services, Storage
from server.egress import Allowlist, EgressDenied, EgressGuard, ResponseTooLarge, TooManyRedirects
from server.ratelimit import RateLimitedLog
from server.records import ClaimedHook

log = logging.getLogger("quiver.lifecycle")
sweep_failures = RateLimitedLog(log, every_s=60.0)


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class Handoffs:
    """Announces handoffs to the tenant's webhook, in the background (``Services.handoffs``)."""

    def __init__(self, storage: Storage, egress: EgressGuard | None) -> None:
        self.storage = storage
        self.egress = egress
        self._sending: set[asyncio.Task[None]] = set()

    def announce(self, tenant_id: str, sid: str, bot: str, tool: str, reason: str) -> None:
        task = asyncio.get_running_loop().create_task(
            self._announce(tenant_id, sid, bot, tool, reason)
        )
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def drain(self) -> None:
        """Wait for the announcements under way (shutdown, tests)."""
        while self._sending:
            await asyncio.gather(*list(self._sending), return_exceptions=True)

    async def _announce(self, tenant_id: str, sid: str, bot: str, tool: str, reason: str) -> None:
        try:
            await self._send(tenant_id, sid, bot, tool, reason)
        except Exception:  # the handoff happened; its announcement failing is logged and counted
            metrics.BACKGROUND_FAILURES.labels(task="handoff_announce").inc()
            log.exception("could not announce the handoff of session %s", sid)

    async def _send(self, tenant_id: str, sid: str, bot: str, tool: str, reason: str) -> None:
        async with self.storage.transaction() as store:
            url, secret, egress = await store.tenants.handoff_target(tenant_id)
        if not url or self.egress is None:
            return
        body = orjson.dumps(
            {
                "event": "handoff",
                "tenant": tenant_id,
                "session": sid,
                "bot": bot,
                "tool": tool,
                "reason": reason,
                "at": datetime.now(UTC).isoformat(),
            }
        )
        headers = {
            "Content-Type": "application/json",
            "X-Quiver-Signature": signature(secret, body),
        }
        try:
            response, _ = await self.egress.request(
                "POST",
                url,
                tenant=tenant_id,
                headers=headers,
                content=body,
                timeout_s=10,
                extra=Allowlist.parse(egress) if egress else None,
            )
            if response.status_code >= 300:
                log.warning("handoff webhook of %s answered %s", tenant_id, response.status_code)
        except (
            EgressDenied,
            httpx.HTTPError,
            TimeoutError,
            ResponseTooLarge,
            TooManyRedirects,
        ) as exc:
            # the handoff happened; the webhook being unreachable is logged and counted
            metrics.BACKGROUND_FAILURES.labels(task="handoff_announce").inc()
            log.warning("handoff webhook of %s failed: %s", tenant_id, exc)


# A node running a hook renews its lease every HOOK_HEARTBEAT_S; a node that died stops, and
# another takes the hook over once HOOK_LEASE_S has passed — seconds after, not minutes.
HOOK_LEASE_S = 15.0
HOOK_HEARTBEAT_S = 5.0
MAX_HOOK_ATTEMPTS = 3  # runs cut short by a node's death; a hook that fails is not retried


def hook_run_id(session_id: str, tool: str) -> str:
    """The same for every run of one session's hook, so that whoever receives what a rerun
    sends again can tell it is the same (``context.hook_run_id``, and the ``Idempotency-Key``
    of the hook's outbound requests). It names neither the session nor the tool."""
    digest = hashlib.sha256(f"{session_id}\0{tool}".encode()).hexdigest()
    return f"hook_{digest[:32]}"


async def end_session(
    services: Services,
    store: CallStore,
    tenant_id: str,
    sid: str,
    reason: str,
    now: datetime,
    *,
    idle: bool = False,
) -> bool:
    """End the session and queue its end hooks in this unit of work; False when it had ended
    already (an idle sweep that lost the race to another node)."""
    if idle:
        if not await store.lifecycle.end_if_idle(sid, now):
            return False
    else:
        await store.lifecycle.end(tenant_id, sid, reason, now)
    row = await store.sessions.get(tenant_id, sid)
    view = await services.registry.view(store, tenant_id)
    tools = view.tools_for(row.bot)
    offered = services.registry.snapshot(view, row.bot).entries
    hooks = sorted(
        e.name
        for e in offered
        if e.executor == "server"
        and e.name in tools
        and tools[e.name].metadata.get("on_session_end") is True
    )
    if hooks:
        await store.lifecycle.queue_hooks(tenant_id, sid, hooks, now)
    return True


class SessionEndHooks:
    """Runs queued session-end hooks. ``clock`` is the tests' to own."""

    def __init__(self, services: Services, clock: Callable[[], float] = time.time) -> None:
        self.services = services
        self.clock = clock
        self.wake = services.hooks_due  # set by whatever ends a session
        self.heartbeat_s = HOOK_HEARTBEAT_S

    async def run_pending(self) -> list[tuple[str, str, str]]:
        """Claim and run what is due; (session, tool, outcome) of each run on this node."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        async with self.services.storage.transaction() as store:
            claimed = await store.lifecycle.claim_hooks(now, HOOK_LEASE_S)
        done = []
        for hook in claimed:
            heartbeat = asyncio.get_running_loop().create_task(self._heartbeat(hook))
            try:
                outcome = await self._run(hook)
            finally:
                heartbeat.cancel()
            done.append((hook.session_id, hook.tool, outcome))
        return done

    async def _heartbeat(self, hook: ClaimedHook) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_s)
            try:
                await self.beat(hook)
            except Exception as exc:  # the database away: the next beat tries again
                log.warning("could not renew the lease of hook %s: %s", hook.tool, exc)

    async def beat(self, hook: ClaimedHook) -> bool:
        """Renew this node's lease of a running hook (``hook`` as claimed); False when it is
        no longer this run's (another node took it over)."""
        until = datetime.fromtimestamp(self.clock() + HOOK_LEASE_S, UTC)
        async with self.services.storage.transaction() as store:
            # the claim counted this run in the claimed row's ``attempts``
            return await store.lifecycle.extend_hook(
                hook.session_id, hook.tool, hook.attempts, until
            )

    async def _run(self, hook: ClaimedHook) -> str:
        services = self.services
        if hook.attempts > MAX_HOOK_ATTEMPTS:  # this claim is past the runs a hook may have
            outcome, status = "abandoned", "failed"
        else:
            try:
                async with services.storage.transaction() as store:
                    row, variables = await store.sessions.get_with_variables(
                        hook.tenant_id, hook.session_id
                    )
                    view = await services.registry.view(store, hook.tenant_id)
                    tool = view.tools_for(row.bot).get(hook.tool)
                    messages = await store.messages.history(row.id)
                    transcript = [
                        {
                            "role": m.role,
                            "content": m.content,
                            **({"name": m.name} if m.name else {}),
                            "at": m.created_at.isoformat(),
                        }
                        for m in messages
                    ]
                    result: dict[str, Any]
                    if tool is None:
                        result = {"success": False, "error": {"code": "tool_not_available"}}
                    else:
                        request = CallRequest(
                            tenant_id=hook.tenant_id,
                            tool=hook.tool,
                            arguments={},
                            session=row,
                            variables=variables,
                            modules=view.sandbox_modules,
                            egress_allow=view.egress_allow,
                            extra_context={
                                "transcript": transcript,
                                "message_count": len(transcript),
                                "session_end_reason": row.end_reason,
                                "hook_run_id": hook_run_id(hook.session_id, hook.tool),
                            },
                        )
                        result = await services.pipeline.call(store, request, tool)
                outcome = (
                    "ok"
                    if result.get("success")
                    else str((result.get("error") or {}).get("code") or "failed")
                )
                status = "done" if result.get("success") else "failed"
            except Exception:  # the hook's run broke (not the tool failing): said, not retried
                metrics.BACKGROUND_FAILURES.labels(task="end_hook").inc()
                log.exception("the session-end hook %s of %s failed", hook.tool, hook.session_id)
                outcome, status = "error", "failed"
        async with services.storage.transaction() as store:
            await store.lifecycle.finish_hook(hook.session_id, hook.tool, status, outcome)
        return outcome


class SessionSweeper:
    """Ends idle sessions (a bot's ``idle_timeout_s``). ``clock`` is the tests' to own."""

    def __init__(
        self,
        services: Services,
        hooks: SessionEndHooks,
        every_s: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.services = services
        self.hooks = hooks
        self.every_s = every_s
        self.clock = clock
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    async def sweep_once(self) -> list[str]:
        """End the sessions idle past their bot's timeout; the ids this node ended."""
        services = self.services
        now = datetime.fromtimestamp(self.clock(), UTC)
        async with services.storage.transaction() as store:
            candidates = await store.lifecycle.idle_candidates(now)
        ended = []
        for sid, tenant_id in candidates:
            async with services.storage.transaction() as store:
                if await end_session(services, store, tenant_id, sid, "idle", now, idle=True):
                    ended.append(sid)
            services.events.session_changed(sid)
        if ended:
            services.hooks_due.set()
        return ended

    def start(self) -> None:
        hooks = self.hooks

        async def loop() -> None:
            # ``_stopping`` as well as cancellation: on Python 3.11 a cancel that lands as
            # ``wait_for`` times out can come back as TimeoutError (as in ``server.calls.jobs``)
            while not self._stopping:
                with contextlib.suppress(TimeoutError):  # an end wakes it early
                    async with asyncio.timeout(self.every_s):
                        await hooks.wake.wait()
                hooks.wake.clear()
                try:
                    await self.sweep_once()
                    await hooks.run_pending()
                except Exception as exc:  # the database away (or a bug): logged, counted, and the
                    # next round tries again — the loop must outlive any one failure
                    metrics.BACKGROUND_FAILURES.labels(task="session_sweep").inc()
                    sweep_failures.warning("idle session sweep or end hooks failed: %s", exc)

        self._task = asyncio.get_running_loop().create_task(loop())

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
