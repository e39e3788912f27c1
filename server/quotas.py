"""Request rates and daily quotas, per tenant and per key, shared by every node.

Each authenticated request counts against its key's rate and its tenant's rate; each tool call
counts against the tenant's calls per day, and the time code tools spent in their sandbox
against its CPU milliseconds per day (charged when the call ends, so the call that crosses the
line finishes and the next one is refused). Over a limit: 429 ``rate_limited`` or
``quota_exceeded`` with ``Retry-After``.

The counting is the `limits` library's fixed windows, in Redis when the node has one, so N
nodes share one budget. While Redis is away each node counts on its own (the budget is then
per node: more permissive, never a refusal because a dependency failed). Days are UTC days.

The numbers come from the server's settings; an admin may override any of them per tenant
(``PUT /v1/tenants/{tenant}/limits``). A node caches a tenant's overrides until a change to the
tenant reaches it (its own commit or the change propagation).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, TypeVar

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter
from limits.errors import StorageError

from server.dependency import Dependency
from server.errors import QuotaExceededError, RateLimitedError

log = logging.getLogger("quiver.quotas")
T = TypeVar("T")

DAY_COUNTER_TTL_S = 2 * 86_400
OVERRIDABLE = ("requests", "key_requests", "calls_per_day", "cpu_ms_per_day", "running_jobs")


@dataclass(frozen=True)
class TenantLimits:
    """One tenant's effective limits. A rate is `limits` notation (``"200/second"``,
    ``"10000/hour"``); ``None`` (or a quota of 0) means no limit."""

    requests: str | None
    key_requests: str | None
    calls_per_day: int | None
    cpu_ms_per_day: int | None
    running_jobs: int | None = None  # jobs queued or running at once (``server.calls.jobs``)

    def with_overrides(self, overrides: dict[str, Any] | None) -> TenantLimits:
        known = {k: v for k, v in (overrides or {}).items() if k in OVERRIDABLE}
        return replace(self, **known)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def check_rate(value: str) -> str:
    """``value`` if it is a rate `limits` understands (``"N/second|minute|hour|day"``)."""
    try:
        item = parse(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a rate like '200/second' or '1000/hour'") from None
    if item.amount < 1:
        raise ValueError("a rate allows at least 1 request")
    return value


@dataclass(frozen=True)
class Admitted:
    """The tightest of the rates a request was counted against (for ``RateLimit-*`` headers)."""

    limit: int
    remaining: int
    reset_s: int


class NodeCounters(MemoryStorage):
    """This node's counters: the `limits` in-memory storage without its cost per increment (an
    ``asyncio.Lock`` and a new expiry task each time, ~0.2 ms) — on one event loop an increment
    that never awaits is atomic already — and a rate's window counted and read in one step
    (``hit``). A counter past its window is dropped when it is next read, and every expired
    one whenever the table grows past ``MAX_COUNTERS``."""

    MAX_COUNTERS = 100_000

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.clock = clock

    def hit(self, key: str, amount: int, expiry: float, cost: int = 1) -> tuple[bool, int, float]:
        """Count ``cost`` in the fixed window ``key`` (``expiry`` long, from its first hit):
        (within ``amount``, remaining, when the window resets) — what `limits`' ``hit`` and
        ``get_window_stats`` answer, in one dictionary step."""
        value = self._incr(key, expiry, cost)
        return value <= amount, max(0, amount - value), self.expirations[key]

    async def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        return self._incr(key, expiry, amount)

    def _incr(self, key: str, expiry: float, amount: int) -> int:
        now = self.clock()
        if self.expirations.get(key, 0) <= now:
            self.storage.pop(key, None)
            self.expirations.pop(key, None)
        value = self.storage[key] = self.storage.get(key, 0) + amount
        if value == amount:
            self.expirations[key] = now + expiry
            if len(self.expirations) > self.MAX_COUNTERS:
                self._sweep(now)
        return value

    async def decr(self, key: str, amount: int = 1) -> int:
        value = self.storage[key] = max(await self.get(key) - amount, 0)
        return value

    async def get(self, key: str) -> int:
        if self.expirations.get(key, 0) <= self.clock():
            self.storage.pop(key, None)
            self.expirations.pop(key, None)
        return self.storage.get(key, 0)

    def _sweep(self, now: float) -> None:
        for key in [k for k, at in self.expirations.items() if at <= now]:
            self.storage.pop(key, None)
            self.expirations.pop(key, None)


class Quotas:
    def __init__(
        self,
        defaults: TenantLimits,
        redis_url: str | None = None,
        health: Dependency | None = None,
        redis_options: dict[str, Any] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.defaults = defaults
        self.health = health
        self.clock = clock
        self._counters = NodeCounters(clock)
        self._local = FixedWindowRateLimiter(self._counters)
        self._shared: FixedWindowRateLimiter | None = None
        self._shared_storage: Storage | None = None
        if redis_url:
            self._shared_storage = RedisStorage(
                "async+" + redis_url,
                implementation="redispy",
                wrap_exceptions=True,
                key_prefix="quiver:limits",
                **(redis_options or {}),
            )
            self._shared = FixedWindowRateLimiter(self._shared_storage)
        self._overrides: dict[str, dict[str, Any]] = {}
        self._effective: dict[str, TenantLimits] = {}  # the defaults with a tenant's overrides
        self._items: dict[str, RateLimitItem] = {}
        self._days: dict[int, str] = {}
        # usage counted for no quota: added up here and written every ``flush_after_s``
        self.flush_after_s = 1.0
        self._unflushed: dict[str, int] = {}
        self._flushing: asyncio.Task[None] | None = None

    # what a tenant may do ---------------------------------------------------------------------
    async def limits_for(
        self, tenant: str | None, load: Callable[[str], Awaitable[dict[str, Any] | None]]
    ) -> TenantLimits:
        """The tenant's effective limits; ``load`` reads its stored overrides on a cache miss."""
        if tenant is None or tenant == "*":
            return self.defaults
        effective = self._effective.get(tenant)
        if effective is None:
            overrides = self._overrides.get(tenant)
            if overrides is None:
                overrides = self._overrides[tenant] = (await load(tenant)) or {}
            effective = self._effective[tenant] = self.defaults.with_overrides(overrides)
        return effective

    def forget(self, tenants: set[str] | None = None) -> None:
        """A change to these tenants (all with ``None``) reached this node."""
        if tenants is None:
            self._overrides.clear()
            self._effective.clear()
        for tenant in tenants or ():
            self._overrides.pop(tenant, None)
            self._effective.pop(tenant, None)

    # counting ---------------------------------------------------------------------------------
    async def admit_request(
        self, limits: TenantLimits, tenant: str | None, key_id: str
    ) -> Admitted | None:
        """Count one request against the key's and the tenant's rates; raises when over one."""
        checks = []
        if limits.key_requests:
            checks.append(("key", limits.key_requests, ("key", key_id)))
        if limits.requests and tenant is not None:
            checks.append(("tenant", limits.requests, ("tenant", tenant)))
        if not checks:
            return None
        hits = [self._hit(self._item(rate), ids) for _scope, rate, ids in checks]
        if self._shared is not None:  # round trips to Redis: side by side
            results = await asyncio.gather(*hits)
        else:  # this node's counters answer at once: no task for each
            results = [await hit for hit in hits]
        tightest: Admitted | None = None
        for (scope, rate, _ids), (allowed, remaining, reset_at) in zip(
            checks, results, strict=True
        ):
            retry = max(1, math.ceil(reset_at - self.clock()))
            if not allowed:
                raise RateLimitedError(
                    f"this {scope}'s requests are over {rate}; retry in {retry} s",
                    scope=scope,
                    limit=rate,
                    retry_after_s=retry,
                )
            if tightest is None or remaining < tightest.remaining:
                tightest = Admitted(self._item(rate).amount, remaining, retry)
        return tightest

    async def admit_call(self, limits: TenantLimits, tenant: str) -> None:
        """Count one tool call for today; refuse when the calls or the CPU time are used up."""
        day = self._day()
        cpu, calls = limits.cpu_ms_per_day, limits.calls_per_day
        if cpu and await self._read(_day_key(day, tenant, "cpu")) >= cpu:
            raise self._quota("cpu_ms_per_day", cpu, "CPU milliseconds")
        if not calls:  # counted for usage only: no round trip per call
            self._add_later(_day_key(day, tenant, "calls"), 1)
            return
        counted = await self._add(_day_key(day, tenant, "calls"), 1)
        if counted > calls:
            await self._add(_day_key(day, tenant, "calls"), -1)  # a refused call is not a call
            raise self._quota("calls_per_day", calls, "calls")

    async def charge_cpu(self, limits: TenantLimits, tenant: str, ms: float) -> None:
        """Add the sandbox time of a finished call (counted even without a quota, for usage)."""
        if ms <= 0:
            return
        key, amount = _day_key(self._day(), tenant, "cpu"), max(1, round(ms))
        if limits.cpu_ms_per_day:
            await self._add(key, amount)
        else:
            self._add_later(key, amount)

    async def charge_tokens(self, tenant: str, input_tokens: int, output_tokens: int) -> None:
        """Tokens code tools spent through ``context.modules.llm`` (shown in usage)."""
        day = self._day()
        if input_tokens:
            await self._add(_day_key(day, tenant, "llm_input"), input_tokens)
        if output_tokens:
            await self._add(_day_key(day, tenant, "llm_output"), output_tokens)

    async def usage(self, limits: TenantLimits, tenant: str) -> dict[str, Any]:
        """Today's counts for ``GET /v1/usage`` (this node's pending usage written first)."""
        await self.flush()
        day = self._day()
        calls = await self._read(_day_key(day, tenant, "calls"))
        cpu = await self._read(_day_key(day, tenant, "cpu"))
        return {
            "day": day,
            "calls": calls,
            "cpu_ms": cpu,
            "calls_remaining": max(0, limits.calls_per_day - calls)
            if limits.calls_per_day
            else None,
            "cpu_ms_remaining": max(0, limits.cpu_ms_per_day - cpu)
            if limits.cpu_ms_per_day
            else None,
            "llm_input_tokens": await self._read(_day_key(day, tenant, "llm_input")),
            "llm_output_tokens": await self._read(_day_key(day, tenant, "llm_output")),
            "resets_in_s": self._seconds_to_midnight(),
            "shared": self._shared is not None and not self._degraded(),
        }

    def _add_later(self, key: str, amount: int) -> None:
        """Usage that no quota waits on: added up on this node and written in one go soon."""
        self._unflushed[key] = self._unflushed.get(key, 0) + amount
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        try:
            await asyncio.sleep(self.flush_after_s)
        finally:
            self._flushing = None
        await self.flush()

    async def flush(self) -> None:
        """Write the usage this node has added up (``GET /v1/usage`` and shutdown call it)."""
        pending, self._unflushed = self._unflushed, {}
        for key, amount in pending.items():
            await self._add(key, amount)

    async def close(self) -> None:
        if self._flushing is not None:
            self._flushing.cancel()
            self._flushing = None
        await self.flush()
        if self._shared_storage is not None:
            bridge = getattr(self._shared_storage, "bridge", None)
            storage = getattr(bridge, "storage", None)
            if storage is not None:
                await storage.aclose()

    # the windows ------------------------------------------------------------------------------
    def _item(self, rate: str) -> RateLimitItem:
        item = self._items.get(rate)
        if item is None:
            item = self._items[rate] = parse(rate)
        return item

    def _day(self) -> str:
        index = int(self.clock() // 86_400)
        day = self._days.get(index)
        if day is None:
            self._days = {
                index: dt.datetime.fromtimestamp(index * 86_400, dt.UTC).strftime("%Y-%m-%d")
            }
            day = self._days[index]
        return day

    def _seconds_to_midnight(self) -> int:
        now = self.clock()
        return max(1, math.ceil(86_400 - now % 86_400))

    def _quota(self, name: str, amount: int, what: str) -> QuotaExceededError:
        retry = self._seconds_to_midnight()
        return QuotaExceededError(
            f"this tenant's {amount} {what} for today are used up; the quota resets at 00:00 UTC",
            scope="tenant",
            limit=f"{name}={amount}",
            retry_after_s=retry,
        )

    def _degraded(self) -> bool:
        return self.health is not None and not self.health.should_try()

    async def _hit(
        self, item: RateLimitItem, ids: tuple[str, ...], cost: int = 1
    ) -> tuple[bool, int, float]:
        """(allowed, remaining, window reset time) after counting ``cost``."""
        shared = self._shared
        if shared is not None and not self._degraded():
            try:
                allowed = await shared.hit(item, *ids, cost=cost)
                stats = await shared.get_window_stats(item, *ids)
            except StorageError as exc:
                self._failed(exc)
            else:
                if self.health is not None:
                    self.health.succeeded()
                return allowed, stats.remaining, stats.reset_time
        key = f"{'/'.join(ids)}/{item.amount}/{item.multiples}/{item.GRANULARITY.name}"
        return self._counters.hit(key, item.amount, item.get_expiry(), cost)

    async def _add(self, key: str, amount: int) -> int:
        """Add to a day counter (kept two days); its new value."""
        return await self._counted(
            lambda limiter: limiter.storage.incr(key, DAY_COUNTER_TTL_S, amount=amount)
        )

    async def _read(self, key: str) -> int:
        stored = int(await self._counted(lambda limiter: limiter.storage.get(key)) or 0)
        return stored + self._unflushed.get(key, 0)

    async def _counted(self, op: Callable[[FixedWindowRateLimiter], Awaitable[T]]) -> T:
        """``op`` on the shared counters, or on this node's own while Redis is away."""
        shared = self._shared
        if shared is not None and not self._degraded():
            try:
                value = await op(shared)
            except StorageError as exc:
                self._failed(exc)
            else:
                if self.health is not None:
                    self.health.succeeded()
                return value
        return await op(self._local)

    def _failed(self, exc: StorageError) -> None:
        if self.health is None:  # no fallback decision to make: count locally from now on
            self._shared = None
        else:
            self.health.failed(exc.storage_error)
        log.debug("limits storage failed, counting on this node: %s", exc.storage_error)


def _day_key(day: str, tenant: str, what: str) -> str:
    return f"day/{day}/{tenant}/{what}"
