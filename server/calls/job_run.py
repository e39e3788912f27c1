"""What a long-running job's run gives the call pipeline (``CallRequest.job``), and what a tool
may say of its progress (``server.calls.jobs`` runs jobs)."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

MAX_PROGRESS_MESSAGE = 200


@dataclass(frozen=True)
class JobRun:
    id: str
    timeout_ms: int  # the job's deadline, in place of a call's
    # ``context.progress(fraction, message)``: False when it was not written yet (too soon)
    progress: Callable[[Any, Any], Awaitable[bool]]
    # a webhook's job: where to ask for its state (a takeover asks there), and how to keep it
    location: str | None = None
    locate: Callable[[str], Awaitable[None]] | None = None


def progress_values(fraction: Any, message: Any) -> tuple[float | None, str | None]:
    """What a tool reports of its progress, checked: a fraction from 0 to 1 (or None), a message
    (or None) cut to 200 characters. ``ValueError`` says what is wrong."""
    if fraction is not None:
        if isinstance(fraction, bool) or not isinstance(fraction, (int, float)):
            raise ValueError("progress is a number from 0 to 1")
        if not math.isfinite(fraction) or not 0 <= fraction <= 1:
            raise ValueError("progress is a number from 0 to 1")
        fraction = float(fraction)
    if message is not None:
        if not isinstance(message, str):
            raise ValueError("a progress message is a string")
        message = message[:MAX_PROGRESS_MESSAGE]
    return fraction, message
