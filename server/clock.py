"""The node's clock: every breaker, cache, queue and timer that waits on time reads it here, so
that a test can move time forward instead of sleeping through it (``advance``). In a server it
is the system's clock (``offset`` 0)."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass
class Clock:
    offset: float = 0.0  # seconds a test has moved time forward

    def time(self) -> float:
        """Wall time (Unix seconds): for what other nodes and the database also read."""
        return time.time() + self.offset

    def monotonic(self) -> float:
        """For intervals this process measures alone."""
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds
