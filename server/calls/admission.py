"""Fair admission: a node's tool calls in flight, shared between the tenants asking for them.

A node runs at most ``slots`` calls at once. While it runs fewer, a call starts at once (one
comparison: nothing is queued, no timer armed). When all are taken, a call waits in its
tenant's queue, and each slot that frees goes to the waiting tenant with the fewest calls in
flight (the longest-waiting such tenant first). A tenant flooding the node holds the slots no
one else asks for, and no more: a tenant that asks for less than its share gets its slots,
whatever the flooder's connections or rate limits, and the flooder's surplus waits here, in one
cheap queue served fairly, before any engine — in-process ones (skills, built-ins) included,
which have no per-tenant cap of their own. It shares slots, not the CPU: on a small machine a
flood still slows a neighbour's p99 (docs/benchmarks.md, fairness).

A call that waits longer than ``wait_s`` is refused (``busy``), as the pool refuses a call that
waits too long for a worker.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque

from server import metrics


class AdmissionTimeout(Exception):
    """A call waited its longest for a slot."""


class FairAdmission:
    def __init__(self, slots: int, wait_s: float = 2.0) -> None:
        if slots < 1:
            raise ValueError("slots must be at least 1")
        self.slots = slots
        self.wait_s = wait_s
        self.running = 0
        self.in_flight: dict[str, int] = {}
        # tenants with calls waiting, in the order they began to wait; each its callers' futures
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())

    async def enter(self, tenant: str) -> None:
        """Take a slot for one of ``tenant``'s calls (``leave`` gives it back);
        ``AdmissionTimeout`` after ``wait_s`` without one."""
        if self.running < self.slots:  # a slot is free, so no one waits
            self._take(tenant)
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(tenant, deque()).append(granted)
        metrics.ADMISSION_WAITS.inc()
        try:
            async with asyncio.timeout(self.wait_s):
                await granted
        except BaseException as exc:  # timed out or cancelled: never keep a slot unused
            if granted.done() and not granted.cancelled():
                self.leave(tenant)  # the slot came as it gave up: pass it on
            else:
                self._forget(tenant, granted)
            if isinstance(exc, TimeoutError):
                raise AdmissionTimeout from None
            raise

    def leave(self, tenant: str) -> None:
        self.running -= 1
        left = self.in_flight[tenant] - 1
        if left:
            self.in_flight[tenant] = left
        else:
            del self.in_flight[tenant]
        while self._waiting and self.running < self.slots:
            self._grant_next()

    def _take(self, tenant: str) -> None:
        self.running += 1
        self.in_flight[tenant] = self.in_flight.get(tenant, 0) + 1

    def _grant_next(self) -> None:
        """The slot to the waiting tenant with the fewest calls in flight."""
        chosen = min(self._waiting, key=lambda t: self.in_flight.get(t, 0))
        queue = self._waiting[chosen]
        granted = queue.popleft()
        if queue:
            self._waiting.move_to_end(chosen)  # its next call waits behind the other tenants
        else:
            del self._waiting[chosen]
        if granted.done():  # its caller gave up (timed out, cancelled) and has not said so yet
            return
        self._take(chosen)
        granted.set_result(None)

    def _forget(self, tenant: str, granted: asyncio.Future[None]) -> None:
        queue = self._waiting.get(tenant)
        if queue is None:
            return
        try:
            queue.remove(granted)
        except ValueError:
            return
        if not queue:
            del self._waiting[tenant]
