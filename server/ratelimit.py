"""A log that says a recurring thing at most once per interval, with how often it happened
meanwhile — so an outage writes a few lines, not megabytes of tracebacks."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any


class RateLimitedLog:
    def __init__(
        self, log: logging.Logger, every_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.log = log
        self.every_s = every_s
        self.clock = clock
        self._last: float | None = None
        self.suppressed = 0

    def warning(self, message: str, *args: Any) -> bool:
        """Log now if the interval has passed (True), else count it (False)."""
        now = self.clock()
        if self._last is not None and now - self._last < self.every_s:
            self.suppressed += 1
            return False
        if self.suppressed:
            message += f" (and {self.suppressed} more like it in the last {self.every_s:g} s)"
        self.log.warning(message, *args)
        self._last, self.suppressed = now, 0
        return True
