"""The node's clock: every breaker, cache, queue and timer that waits on time reads it here, so
that a test can move time forward instead of sleeping through it. A server runs on ``Clock``,
the system's own functions (no cost on the call path); tests run on a ``MovableClock``."""

from __future__ import annotations

import time as system


class Clock:
    time = staticmethod(system.time)  # wall time (Unix seconds): what other nodes read too
    monotonic = staticmethod(system.monotonic)  # for intervals this process measures alone


class MovableClock(Clock):
    """The system's clock, ``offset`` seconds ahead: ``advance`` moves it."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return system.time() + self.offset

    def monotonic(self) -> float:
        return system.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds
