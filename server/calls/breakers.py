"""The per-tool rolling breaker of each tenant (DESIGN §6), in process or shared through Redis.

States: **closed** (calls counted in a rolling window of buckets) → **open** when the window
holds at least ``min_calls`` calls and a failure rate of at least ``failure_rate``; while open
the tool is out of every snapshot of the tenant and calls get ``circuit_open``. After
``cooldown_s`` it is **half-open**: it is offered again and one trial call at a time is let
through; a success closes it, a failure opens it for another cool-down.

Every transition bumps the tenant's breaker generation, which is part of each snapshot version,
so agents see a new version whenever a tool leaves or comes back. The open → half-open step
happens lazily, at the first read after the cool-down (atomically, so nodes agree on it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

BUCKETS = 10
TRIAL_MS = 60_000  # a half-open trial that never reports back frees the slot after this long


@dataclass(frozen=True, slots=True)
class BreakerPolicy:
    min_calls: int = 10
    failure_rate: float = 0.5
    window_s: float = 60.0
    cooldown_s: float = 30.0

    def merged(self, metadata: dict[str, Any]) -> BreakerPolicy:
        """This policy with a tool's ``metadata.breaker`` overrides (already validated)."""
        own = metadata.get("breaker")
        if not own:
            return self
        return BreakerPolicy(
            min_calls=int(own.get("min_calls", self.min_calls)),
            failure_rate=float(own.get("failure_rate", self.failure_rate)),
            window_s=float(own.get("window_s", self.window_s)),
            cooldown_s=float(own.get("cooldown_s", self.cooldown_s)),
        )


@dataclass(frozen=True, slots=True)
class TenantBreakers:
    """What snapshots need: tools out now (open), tools on trial (half-open), the generation."""

    open: frozenset[str] = frozenset()
    half_open: frozenset[str] = frozenset()
    generation: int = 0


NONE_OPEN = TenantBreakers()


class Breakers(Protocol):
    async def state(self, tenant: str) -> TenantBreakers: ...

    async def admit(self, tenant: str, tool: str) -> bool:
        """False while open, or while half-open with a trial call already in flight."""
        ...

    async def record(self, tenant: str, tool: str, ok: bool, policy: BreakerPolicy) -> str | None:
        """Count one outcome; ``"opened"`` or ``"closed"`` when it moved the breaker."""
        ...

    async def close(self) -> None: ...


def _ms(clock: Callable[[], float]) -> int:
    return int(clock() * 1000)


@dataclass
class _Tool:
    state: str = "closed"  # closed | open | half
    until: int = 0  # open: end of the cool-down
    trial: int = 0  # half: a trial call in flight until this time
    buckets: dict[int, list[int]] = field(default_factory=dict)  # index → [calls, failures]


class MemoryBreakers:
    """One node's breakers, for a single node or when no Redis is configured."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._tools: dict[tuple[str, str], _Tool] = {}
        self._generation: dict[str, int] = {}
        self._open: dict[str, set[str]] = {}  # tenant → tools not closed

    def _bump(self, tenant: str) -> None:
        self._generation[tenant] = self._generation.get(tenant, 0) + 1

    async def state(self, tenant: str) -> TenantBreakers:
        names = self._open.get(tenant)
        if not names:
            return TenantBreakers(generation=self._generation.get(tenant, 0))
        now = _ms(self.clock)
        open_: set[str] = set()
        half: set[str] = set()
        for name in names:
            tool = self._tools[(tenant, name)]
            if tool.state == "open" and tool.until <= now:
                tool.state, tool.trial = "half", 0
                self._bump(tenant)
            (open_ if tool.state == "open" else half).add(name)
        return TenantBreakers(frozenset(open_), frozenset(half), self._generation.get(tenant, 0))

    async def admit(self, tenant: str, tool: str) -> bool:
        entry = self._tools.get((tenant, tool))
        if entry is None or entry.state == "closed":
            return True
        now = _ms(self.clock)
        if entry.state == "open" and entry.until > now:
            return False
        if entry.state == "open":
            entry.state = "half"
            self._bump(tenant)
        if entry.trial > now:
            return False
        entry.trial = now + TRIAL_MS
        return True

    async def record(self, tenant: str, tool: str, ok: bool, policy: BreakerPolicy) -> str | None:
        entry = self._tools.get((tenant, tool))
        if entry is None:
            if ok:
                return None  # nothing to count against: a closed breaker with no failures yet
            entry = self._tools[(tenant, tool)] = _Tool()
        now = _ms(self.clock)
        if entry.state == "half":
            if ok:
                del self._tools[(tenant, tool)]
                self._open[tenant].discard(tool)
                self._bump(tenant)
                return "closed"
            entry.state, entry.until, entry.trial = "open", now + int(policy.cooldown_s * 1000), 0
            self._bump(tenant)
            return "opened"
        if entry.state == "open":
            return None  # a call admitted before the breaker opened
        width = max(1, int(policy.window_s * 1000) // BUCKETS)
        index = now // width
        for old in [i for i in entry.buckets if i <= index - BUCKETS]:
            del entry.buckets[old]
        counts = entry.buckets.setdefault(index, [0, 0])
        counts[0] += 1
        counts[1] += 0 if ok else 1
        calls = sum(c for c, _ in entry.buckets.values())
        failures = sum(f for _, f in entry.buckets.values())
        if failures == 0:
            del self._tools[(tenant, tool)]  # all good again: keep no state for healthy tools
            return None
        if calls >= policy.min_calls and failures / calls >= policy.failure_rate:
            entry.state, entry.until, entry.buckets = (
                "open",
                now + int(policy.cooldown_s * 1000),
                {},
            )
            self._open.setdefault(tenant, set()).add(tool)
            self._bump(tenant)
            return "opened"
        return None

    async def close(self) -> None:
        return None


# Redis layout, per tenant: one hash ``<prefix>{tenant}`` with a field per tool that is not
# closed (JSON: state, until, trial) and ``_gen``; per tool a window hash ``…:w:{tool}`` of
# bucket counters ("<index>:c" calls, "<index>:f" failures) that expires with the window.
_STATE = """
local now = tonumber(ARGV[1])
local all = redis.call('HGETALL', KEYS[1])
local out = {}
local gen = 0
local moved = false
for i = 1, #all, 2 do
  local name, value = all[i], all[i + 1]
  if name == '_gen' then
    gen = tonumber(value)
  else
    local s = cjson.decode(value)
    if s.s == 'open' and s['until'] <= now then
      s.s = 'half'
      s.trial = 0
      redis.call('HSET', KEYS[1], name, cjson.encode(s))
      moved = true
    end
    table.insert(out, name)
    table.insert(out, s.s)
  end
end
if moved then gen = redis.call('HINCRBY', KEYS[1], '_gen', 1) end
table.insert(out, '_gen')
table.insert(out, tostring(gen))
return out
"""

_ADMIT = """
local now = tonumber(ARGV[2])
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 1 end
local s = cjson.decode(raw)
if s.s == 'open' and s['until'] > now then return 0 end
if s.s == 'open' then
  s.s = 'half'
  s.trial = 0
  redis.call('HINCRBY', KEYS[1], '_gen', 1)
end
if s.trial > now then return 0 end
s.trial = now + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(s))
return 1
"""

_RECORD = """
local tool, now, ok = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local window_ms, min_calls = tonumber(ARGV[4]), tonumber(ARGV[5])
local rate, cooldown = tonumber(ARGV[6]), tonumber(ARGV[7])
local raw = redis.call('HGET', KEYS[1], tool)
if raw then
  local s = cjson.decode(raw)
  if s.s ~= 'half' then return false end
  redis.call('HINCRBY', KEYS[1], '_gen', 1)
  if ok then
    redis.call('HDEL', KEYS[1], tool)
    redis.call('DEL', KEYS[2])
    return 'closed'
  end
  local opened = cjson.encode({s = 'open', ['until'] = now + cooldown, trial = 0})
  redis.call('HSET', KEYS[1], tool, opened)
  return 'opened'
end
if ok and redis.call('EXISTS', KEYS[2]) == 0 then return false end
local width = math.max(1, math.floor(window_ms / 10))
local index = math.floor(now / width)
redis.call('HINCRBY', KEYS[2], index .. ':c', 1)
if not ok then redis.call('HINCRBY', KEYS[2], index .. ':f', 1) end
redis.call('PEXPIRE', KEYS[2], window_ms * 2)
local calls, failures = 0, 0
local all = redis.call('HGETALL', KEYS[2])
for i = 1, #all, 2 do
  local at, kind = string.match(all[i], '^(%-?%d+):(%a)$')
  if tonumber(at) <= index - 10 then
    redis.call('HDEL', KEYS[2], all[i])
  elseif kind == 'c' then
    calls = calls + tonumber(all[i + 1])
  else
    failures = failures + tonumber(all[i + 1])
  end
end
if failures == 0 then
  redis.call('DEL', KEYS[2])
  return false
end
if calls >= min_calls and failures / calls >= rate then
  redis.call('DEL', KEYS[2])
  local opened = cjson.encode({s = 'open', ['until'] = now + cooldown, trial = 0})
  redis.call('HSET', KEYS[1], tool, opened)
  redis.call('HINCRBY', KEYS[1], '_gen', 1)
  return 'opened'
end
return false
"""


class RedisBreakers:
    """Breakers shared by every node through Redis; each step is one atomic Lua script."""

    def __init__(
        self, redis: Any, prefix: str = "quiver:breaker:", clock: Callable[[], float] = time.time
    ) -> None:
        self.clock = clock  # every node's must agree: Redis keeps the times it is given
        self.redis = redis
        self.prefix = prefix
        self._state = redis.register_script(_STATE)
        self._admit = redis.register_script(_ADMIT)
        self._record = redis.register_script(_RECORD)

    def _key(self, tenant: str) -> str:
        return self.prefix + tenant

    async def state(self, tenant: str) -> TenantBreakers:
        flat = await self._state(keys=[self._key(tenant)], args=[_ms(self.clock)])
        pairs = dict(zip(flat[::2], flat[1::2], strict=True))
        generation = int(pairs.pop(b"_gen", 0))
        return TenantBreakers(
            frozenset(k.decode() for k, v in pairs.items() if v == b"open"),
            frozenset(k.decode() for k, v in pairs.items() if v == b"half"),
            generation,
        )

    async def admit(self, tenant: str, tool: str) -> bool:
        return bool(
            await self._admit(keys=[self._key(tenant)], args=[tool, _ms(self.clock), TRIAL_MS])
        )

    async def record(self, tenant: str, tool: str, ok: bool, policy: BreakerPolicy) -> str | None:
        moved = await self._record(
            keys=[self._key(tenant), f"{self._key(tenant)}:w:{tool}"],
            args=[
                tool,
                _ms(self.clock),
                "1" if ok else "0",
                int(policy.window_s * 1000),
                policy.min_calls,
                policy.failure_rate,
                int(policy.cooldown_s * 1000),
            ],
        )
        return moved.decode() if moved else None

    async def close(self) -> None:
        return None  # the client belongs to the runtime


class FallbackBreakers:
    """Redis breakers while Redis answers; this node's own while it does not (calls go on,
    breakers degrade to per node), and Redis again once it is back."""

    def __init__(self, shared: RedisBreakers, local: MemoryBreakers, redis: Any) -> None:
        self.shared = shared
        self.local = local
        self.redis = redis  # a ``Dependency``

    async def _either(self, method: str, *args: Any) -> Any:
        if self.redis.should_try():
            try:
                value = await getattr(self.shared, method)(*args)
            except Exception as exc:  # any Redis failure: connection, timeout, script
                self.redis.failed(exc)
            else:
                self.redis.succeeded()
                return value
        return await getattr(self.local, method)(*args)

    async def state(self, tenant: str) -> TenantBreakers:
        state: TenantBreakers = await self._either("state", tenant)
        return state

    async def admit(self, tenant: str, tool: str) -> bool:
        return bool(await self._either("admit", tenant, tool))

    async def record(self, tenant: str, tool: str, ok: bool, policy: BreakerPolicy) -> str | None:
        moved: str | None = await self._either("record", tenant, tool, ok, policy)
        return moved

    async def close(self) -> None:
        await self.local.close()
