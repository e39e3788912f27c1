"""What a session's snapshot depends on beyond the bot, and the breakers its calls feed.

``SessionTracker.inputs`` assembles a session's ``SessionInputs``: the intent, once-per-session
tools already done, open breakers (the session's own and the tenant's rolling ones), browser
actions, and — for bots with a tool budget — the tenant's tools by recent use.
``SessionTracker.outcome`` counts each call's result for both breakers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from server import metrics
from server.calls.breakers import BreakerPolicy, Breakers, TenantBreakers
from server.calls.envelope import NOT_THE_TOOLS_FAULT
from server.calls.ports import CallStore
from server.registry.model import BrowserAction, SessionInputs, SessionRecord
from server.registry.service import TenantView

SESSION_BREAKER_FAILURES = 3
SESSION_BREAKER_COOLDOWN_S = 300.0


def open_session_breakers(row: SessionRecord, now: float) -> frozenset[str]:
    """The session's breakers still open at ``now`` (each closes after its cool-down)."""
    return frozenset(entry["tool"] for entry in row.open_breakers if entry.get("until", 0) > now)


log = logging.getLogger("quiver.breakers")


def browser_actions(row: SessionRecord) -> tuple[BrowserAction, ...]:
    return tuple(
        BrowserAction(a["name"], a["description"], a["parameters"], a.get("fingerprint", ""))
        for a in row.actions
    )


class UsageRanking:
    """Each tenant's tools by calls over the last day, refreshed every ``refresh_s`` per node.

    The epoch (refresh time / refresh_s) numbers the ranking, so the version of a snapshot the
    budget cut moves forward when the ranking is refreshed and the same on every node."""

    def __init__(self, refresh_s: float = 300.0, window_s: float = 86_400.0) -> None:
        self.refresh_s = refresh_s
        self.window_s = window_s
        self._cache: dict[str, tuple[float, tuple[str, ...], int]] = {}

    async def get(self, store: CallStore, tenant: str) -> tuple[tuple[str, ...], int]:
        now = time.time()
        hit = self._cache.get(tenant)
        if hit is not None and now - hit[0] < self.refresh_s:
            return hit[1], hit[2]
        ranking = tuple(await store.calls.most_used(tenant, since_s=self.window_s))
        epoch = int(now // self.refresh_s) if ranking else 0
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[tenant] = (now, ranking, epoch)
        return ranking, epoch


class SessionTracker:
    def __init__(
        self,
        breakers: Breakers,
        policy: BreakerPolicy,
        usage: UsageRanking,
        on_tenant_change: Callable[[str], None] = lambda tenant: None,
        clock: Callable[[], float] = time.time,
        session_cooldown_s: float = SESSION_BREAKER_COOLDOWN_S,
    ) -> None:
        self.clock = clock
        self.session_cooldown_s = session_cooldown_s
        self.breakers = breakers
        self.policy = policy
        self.usage = usage
        self.on_tenant_change = on_tenant_change

    async def tenant_breakers(self, tenant: str) -> TenantBreakers:
        return await self.breakers.state(tenant)

    async def inputs(
        self,
        store: CallStore,
        row: SessionRecord,
        view: TenantView,
        variables: dict[str, Any],
        tenant_breakers: TenantBreakers | None = None,
    ) -> SessionInputs:
        if tenant_breakers is None:
            tenant_breakers = await self.breakers.state(row.tenant_id)
        completed = frozenset(
            name for name in view.once_per_session(row.bot) if variables.get(f"{name}_done")
        )
        ranking: tuple[str, ...] = ()
        epoch = 0
        if view.bot(row.bot).max_tools is not None:
            ranking, epoch = await self.usage.get(store, row.tenant_id)
        return SessionInputs(
            intent=row.intent,
            completed=completed,
            open_breakers=open_session_breakers(row, self.clock()) | tenant_breakers.open,
            browser_actions=browser_actions(row),
            version=row.version + tenant_breakers.generation,
            ranking=ranking,
            ranking_epoch=epoch,
            loaded=frozenset(row.loaded),
        )

    async def admit(self, tenant: str, tool: str) -> bool:
        return await self.breakers.admit(tenant, tool)

    async def outcome(
        self,
        store: CallStore,
        tenant: str,
        session: SessionRecord | None,
        tool: str,
        code: str | None,
        metadata: dict[str, Any],
        kind: str,
        rolling: bool = True,
    ) -> None:
        """Count one call's outcome (``code`` None = success) for the tenant's rolling breaker
        and, in a session, the session breaker — only failures that are the tool's own."""
        if rolling and code not in NOT_THE_TOOLS_FAULT:
            policy = self.policy.merged(metadata)
            moved = await self.breakers.record(tenant, tool, code is None, policy)
            if moved is not None:
                log.warning(
                    "breaker %s for tool %s", moved, tool, extra={"tenant": tenant, "tool": tool}
                )
                if moved == "opened":
                    metrics.BREAKER_OPENINGS.labels(scope="tool").inc()
                    store.calls.breaker_opened(tenant, tool, "tool", None)
                    # at the end of the cool-down the tool is offered again: say so then too
                    asyncio.get_running_loop().call_later(
                        policy.cooldown_s + 0.05, self.on_tenant_change, tenant
                    )
                self.on_tenant_change(tenant)
        if session is None or code is None or code in NOT_THE_TOOLS_FAULT:
            return
        failures = await store.sessions.count_failure(session.id, tool)
        now = self.clock()
        if failures >= SESSION_BREAKER_FAILURES and tool not in open_session_breakers(session, now):
            # open for the cool-down; the count starts again, so it takes three more failures
            await store.sessions.open_breaker(session.id, tool, now + self.session_cooldown_s)
            # at the end of the cool-down the tool is offered again: wake the streams then
            asyncio.get_running_loop().call_later(
                self.session_cooldown_s + 0.05, self.on_tenant_change, tenant
            )
            store.calls.breaker_opened(tenant, tool, "session", session.id)
            metrics.BREAKER_OPENINGS.labels(scope="session").inc()
            log.warning(
                "session breaker opened for tool %s after %d failures",
                tool,
                failures,
                extra={"tenant": tenant, "tool": tool, "session": session.id, "kind": kind},
            )
