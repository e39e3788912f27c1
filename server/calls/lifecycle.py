"""What happens around a session's life: idle sessions ended by a sweep (every node sweeps; the
conditional end makes each session end exactly once), and handoffs announced to the tenant's
webhook — JSON signed with HMAC-SHA256 (``X-Quiver-Signature: sha256=<hex>`` over the body),
sent through the egress guard."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import orjson

from server.egress import Allowlist
from server.ratelimit import RateLimitedLog

if TYPE_CHECKING:
    from server.bootstrap import Runtime

log = logging.getLogger("quiver.lifecycle")
sweep_failures = RateLimitedLog(log, every_s=60.0)


def handoff_binding(tenant_id: str) -> str:
    return f"handoff-secret/{tenant_id}"


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class Handoffs:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._sending: set[asyncio.Task[None]] = set()

    def announce(self, tenant_id: str, sid: str, bot: str, tool: str, reason: str) -> None:
        task = asyncio.get_running_loop().create_task(self._announce(tenant_id, sid, bot, tool, reason))  # fmt: skip
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def drain(self) -> None:
        """Wait for the announcements under way (shutdown, tests)."""
        while self._sending:
            await asyncio.gather(*list(self._sending), return_exceptions=True)

    async def _announce(self, tenant_id: str, sid: str, bot: str, tool: str, reason: str) -> None:
        try:
            await self._send(tenant_id, sid, bot, tool, reason)
        except Exception:  # the handoff happened; its announcement failing is said in the log
            log.exception("could not announce the handoff of session %s", sid)

    async def _send(self, tenant_id: str, sid: str, bot: str, tool: str, reason: str) -> None:
        runtime = self.runtime
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            tenant = await store.tenants.get(tenant_id)
            url, secret_ct = tenant.handoff_url, tenant.handoff_secret_ct
            egress = tuple(tenant.egress_allow or ())
        if not url or runtime.egress is None:
            return
        secret = runtime.box.decrypt(secret_ct, handoff_binding(tenant_id)) if secret_ct else ""
        body = orjson.dumps({
            "event": "handoff", "tenant": tenant_id, "session": sid, "bot": bot, "tool": tool,
            "reason": reason, "at": datetime.now(UTC).isoformat(),
        })  # fmt: skip
        headers = {"Content-Type": "application/json", "X-Quiver-Signature": signature(secret, body)}  # fmt: skip
        try:
            response, _ = await runtime.egress.request(
                "POST", url, tenant=tenant_id, headers=headers, content=body, timeout_s=10,
                extra=Allowlist.parse(egress) if egress else None,
            )  # fmt: skip
            if response.status_code >= 300:
                log.warning("handoff webhook of %s answered %s", tenant_id, response.status_code)
        except Exception as exc:  # the handoff happened; the announcement failing is logged
            log.warning("handoff webhook of %s failed: %s", tenant_id, exc)


class SessionSweeper:
    """Ends idle sessions (a bot's ``idle_timeout_s``). ``clock`` is the tests' to own."""

    def __init__(self, runtime: Runtime, every_s: float, clock: Callable[[], float] = time.time) -> None:  # fmt: skip
        self.runtime = runtime
        self.every_s = every_s
        self.clock = clock
        self._task: asyncio.Task[None] | None = None

    async def sweep_once(self) -> list[str]:
        """End the sessions idle past their bot's timeout; the ids this node ended."""
        runtime = self.runtime
        now = datetime.fromtimestamp(self.clock(), UTC)
        async with runtime.sessions() as session, session.begin():
            candidates = await runtime.store(session).lifecycle.idle_candidates(now)
        ended = []
        for sid, last in candidates:
            async with runtime.sessions() as session, session.begin():
                store = runtime.store(session)
                if await store.lifecycle.end_if_idle(sid, last, now):
                    ended.append(sid)
            runtime.events.session_changed(sid)
        return ended

    def start(self) -> None:
        async def loop() -> None:
            while True:
                await asyncio.sleep(self.every_s)
                try:
                    await self.sweep_once()
                except Exception as exc:  # the database away: the next sweep tries again
                    sweep_failures.warning("idle session sweep failed: %s", exc)

        self._task = asyncio.get_running_loop().create_task(loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
