"""The tool-call log, written in batches off the request path.

Calls are queued in memory and inserted every ``flush_interval_s`` (or sooner when a batch
fills). A graceful stop flushes everything; a crash loses at most the last interval's calls.
The arguments stored are those the tool received (undeclared ones dropped, values validated
and coerced), with secret-looking keys redacted and the whole capped at ``MAX_ARGUMENT_CHARS``;
results are truncated at ``MAX_RESULT_CHARS``. Both caps leave a marker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.storage import rollups
from server.storage.tables import ToolCallRow, utcnow

log = logging.getLogger("quiver.calls")
SECRET_KEY = re.compile(
    r"(pass(word)?|secret|token|api[_-]?key|auth|credential|card|cvv|ssn|pin)", re.I
)
MAX_RESULT_CHARS = 4096
MAX_ARGUMENT_CHARS = 8192
BATCH = 500


def redact(value: Any, depth: int = 0) -> Any:
    if depth > 8:
        return "…"
    if isinstance(value, dict):
        return {
            k: "[redacted]" if SECRET_KEY.search(str(k)) else redact(v, depth + 1)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [redact(v, depth + 1) for v in value[:100]]
    if isinstance(value, str) and len(value) > 1000:
        return value[:1000] + "…"
    return value


def stored_arguments(arguments: Any) -> Any:
    """What the log keeps of a call's arguments: redacted, and a marker past the cap."""
    value = redact(arguments if isinstance(arguments, dict) else {})
    text = json.dumps(value, default=str)
    if len(text) <= MAX_ARGUMENT_CHARS:
        return value
    return {"truncated": True, "size": len(text), "preview": text[:1000]}


def truncate(result: Any) -> str | None:
    if result is None:
        return None
    text = json.dumps(redact(result), default=str)
    return text if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS] + "…[truncated]"


class CallLog:
    def __init__(self, sessions: async_sessionmaker, flush_interval_s: float = 0.5) -> None:
        self.sessions = sessions
        self.flush_interval_s = flush_interval_s
        self._pending: list[dict[str, Any]] = []
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._lock = asyncio.Lock()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def record(self, **row: Any) -> None:
        row.setdefault("at", utcnow())
        row["arguments"] = stored_arguments(row.get("arguments") or {})
        self._pending.append(row)
        if len(self._pending) >= BATCH:
            self._wakeup.set()

    async def flush(self) -> None:
        """Write what is queued; returns once rows queued before the call are committed (a flush
        already in flight is waited for, so readers of the log see their own calls)."""
        async with self._lock:
            while self._pending:
                batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
                try:
                    async with self.sessions() as session, session.begin():
                        await session.execute(insert(ToolCallRow), batch)
                        await rollups.add(session, batch)
                except Exception:
                    log.exception("could not write %d tool-call log rows", len(batch))
                    return

    async def _run(self) -> None:
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), self.flush_interval_s)
            self._wakeup.clear()
            await self.flush()

    async def stop(self) -> None:
        self._stopping = True
        self._wakeup.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.flush()
