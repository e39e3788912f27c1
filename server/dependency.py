"""An optional dependency (Redis) that may go away: who uses it asks whether to try it now,
and says how it went. After a failure the node works without it (the in-process tier) for
``retry_s``, then tries again; coming back is noticed at the first success. The state is on
``/readyz`` and ``quiver_degraded{dependency}``, and said in the log once per change."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from server import metrics

log = logging.getLogger("quiver.dependency")


class Dependency:
    def __init__(
        self, name: str, retry_s: float = 2.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.name = name
        self.retry_s = retry_s
        self.clock = clock
        self.down_since: float | None = None
        self._retry_at = 0.0
        self.last_error = ""
        metrics.DEGRADED.labels(dependency=name).set(0)

    @property
    def degraded(self) -> bool:
        return self.down_since is not None

    def should_try(self) -> bool:
        return self.down_since is None or self.clock() >= self._retry_at

    def failed(self, exc: BaseException) -> None:
        now = self.clock()
        self._retry_at = now + self.retry_s
        self.last_error = f"{type(exc).__name__}: {str(exc)[:200]}"
        if self.down_since is None:
            self.down_since = now
            metrics.DEGRADED.labels(dependency=self.name).set(1)
            log.warning("%s is unreachable (%s): working without it", self.name, self.last_error)

    def succeeded(self) -> None:
        if self.down_since is not None:
            log.warning("%s is back after %.1f s", self.name, self.clock() - self.down_since)
            self.down_since = None
            metrics.DEGRADED.labels(dependency=self.name).set(0)
