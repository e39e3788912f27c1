"""Deadlines of many concurrent waits on one event-loop timer.

``asyncio.timeout`` arms and disarms a timer for every wait; the pool waits with a deadline on
every call (for a tenant slot, a free worker, the worker's reply), so under load that was a
timer created and cancelled for each, most of them never due. Here the waits register in a
set, and one timer is armed for the earliest deadline among them: a wait that starts later
than the armed one costs a set insertion and nothing else. When the timer fires, every wait
that is due is cancelled, as ``asyncio.timeout`` cancels it, and the timer is armed again for
the earliest wait left.

    with deadlines.within(2.0):
        await something()  # TimeoutError once 2 s have passed on the loop's clock
"""

from __future__ import annotations

import asyncio
import math
from types import TracebackType

EARLY_S = 0.001  # a timer may fire up to this early (uvloop counts whole milliseconds)


class Deadline:
    """One wait's deadline: a context manager that turns its cancellation into ``TimeoutError``,
    as ``asyncio.timeout`` does (a cancellation from elsewhere stays a cancellation)."""

    __slots__ = ("_owner", "when", "_task", "_cancelling", "expired")

    def __init__(self, owner: Deadlines, when: float) -> None:
        self._owner = owner
        self.when = when  # on the event loop's clock
        self._task: asyncio.Task[object] | None = None
        self._cancelling = 0
        self.expired = False

    def __enter__(self) -> Deadline:
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("a deadline must be used inside a task")
        self._task = task
        self._cancelling = task.cancelling()
        self._owner._add(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._owner._entries.discard(self)
        if (
            self.expired
            and exc_type is asyncio.CancelledError
            and self._task is not None
            and self._task.uncancel() <= self._cancelling
        ):
            raise TimeoutError from exc

    def _expire(self) -> None:
        self.expired = True
        if self._task is not None:
            self._task.cancel()


class Deadlines:
    """The deadlines of one event loop's waits (create it on that loop)."""

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._entries: set[Deadline] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._armed_at = math.inf

    def within(self, seconds: float) -> Deadline:
        return Deadline(self, self._loop.time() + seconds)

    def __len__(self) -> int:
        """Waits registered now."""
        return len(self._entries)

    def _add(self, deadline: Deadline) -> None:
        self._entries.add(deadline)
        if deadline.when < self._armed_at:
            self._arm(deadline.when)

    def _arm(self, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._loop.call_at(when, self._fire)
        self._armed_at = when

    def _fire(self) -> None:
        self._timer, self._armed_at = None, math.inf
        now = self._loop.time()
        earliest = math.inf
        for deadline in list(self._entries):
            if deadline.expired:
                continue  # cancelled already, its task has not left the wait yet
            if deadline.when <= now + EARLY_S:
                deadline._expire()
            elif deadline.when < earliest:
                earliest = deadline.when
        if earliest < math.inf:
            self._arm(earliest)
