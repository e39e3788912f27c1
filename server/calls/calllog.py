"""The tool-call log: journalled before the answer, written in batches off the request path.

Nothing answered is lost:

* ``admit`` refuses a call before it runs while this node's journal has no room (its disk is
  full or failing): 503, the tool did not run.
* ``record`` gives the row a ``uid``, makes its strings storable (lone surrogates escaped,
  never the row dropped) and appends it to this process's journal on local disk; ``durable``
  returns once it is synced (``server.calls.journal``). Only then does the call answer: a row
  that could not be journalled is a 503 that says the tool ran (``NotRecordedError``), and
  the row is still kept for the database.
* ``flush`` (every ``flush_interval_s``, or sooner when a batch fills) inserts the queued rows.
  A batch the database refuses is split and retried, so one bad row cannot take others with
  it; a row refused on its own is set aside in a bounded ``refused`` file. While the database
  does not answer, rows stay queued (bounded in memory; the journal holds them all) and the
  next flush tries again. A database on this node's disk (SQLite) is written only while that
  disk has room (``room``): a backlog written back must not fill it again.
* A journal segment is deleted once all of its rows are in the database. At start, segments
  left by a process that died are replayed; ``uid`` makes a replayed row that was already
  written a no-op. A stop writes what it holds, and journals what it cannot write.

Failures are counted (``quiver_call_log_failures_total``) and logged at most every 10 s.
Arguments are those the tool received, redacted and capped; results are truncated.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from server import metrics
from server.calls.journal import Journal
from server.errors import NotRecordedError
from server.inputs import json_text, storable
from server.ratelimit import RateLimitedLog

log = logging.getLogger("quiver.calls")
SECRET_KEY = re.compile(
    r"(pass(word)?|secret|token|api[_-]?key|auth|credential|card|cvv|ssn|pin)", re.I
)
MAX_RESULT_CHARS = 4096
MAX_ARGUMENT_CHARS = 8192
MAX_LOG_LINES = 100  # of a call's own log lines, the log keeps the last 100 …
MAX_LOG_CHARS = 16_384  # … of at most 16 KiB together …
MAX_LOG_LINE_CHARS = 1_000  # … each line cut at 1,000 characters
SECRET_ASSIGNMENT = re.compile(
    r"((?:pass(?:word)?|secret|token|api[_-]?key|auth(?:orization)?|credential)"
    r"\w*[\"']?\s*[:=]\s*[\"']?)"
    # a value the tenant's secrets already masked (``[secret NAME]``) keeps its one clean mask
    r"(?!\[secret [A-Za-z0-9_]+\]|\[redacted\])"
    r"(?:bearer\s+|basic\s+)?[^\s\"',;&]+",
    re.I,
)
BEARER = re.compile(r"\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}", re.I)
BATCH = 500
MAX_QUEUED = 200_000  # rows held in memory while the database is away (all are journalled)
MAX_REFUSED_BYTES = 64 << 20


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
    text = json_text(value)
    if len(text) <= MAX_ARGUMENT_CHARS:
        return value
    return {"truncated": True, "size": len(text), "preview": text[:1000]}


def stored_logs(lines: Any) -> list[str] | None:
    """What the log keeps of a call's own log lines: the last ``MAX_LOG_LINES`` within
    ``MAX_LOG_CHARS``, each capped, with ``key=value`` secrets and bearer tokens masked (the
    tenant's stored secrets are masked before this, by value); a first line says what was
    dropped."""
    if not lines:
        return None
    kept: list[str] = []
    size = 0
    for line in reversed(list(lines)):
        text = str(line)
        if len(text) > MAX_LOG_LINE_CHARS:
            text = text[:MAX_LOG_LINE_CHARS] + "…"
        text = BEARER.sub(r"\1 [redacted]", SECRET_ASSIGNMENT.sub(r"\1[redacted]", text))
        if len(kept) == MAX_LOG_LINES or size + len(text) > MAX_LOG_CHARS:
            break
        kept.append(text)
        size += len(text)
    kept.reverse()
    dropped = len(lines) - len(kept)
    if dropped:
        kept.insert(0, f"[{dropped} earlier line{'s' if dropped != 1 else ''} not kept]")
    return kept


def truncate(result: Any) -> str | None:
    if result is None:
        return None
    text = json_text(redact(result))
    return text if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS] + "…[truncated]"


class CallLog:
    def __init__(
        self,
        write: Callable[[list[dict[str, Any]]], Awaitable[None]],
        flush_interval_s: float = 0.5,
        journal_dir: Path | None = None,
        unavailable: Callable[[BaseException], bool] = lambda exc: False,
        journal: Journal | None = None,
        room: Callable[[], bool] = lambda: True,
    ) -> None:
        self.unavailable_error = unavailable  # the database is away (storage's is_unavailable)
        self.write = write  # inserts a batch (a row already written is skipped): storage's
        self.flush_interval_s = flush_interval_s
        if journal is None and journal_dir is not None:
            journal = Journal(journal_dir)
        self.journal = journal
        self.room = room  # may a batch be written now (a database on this disk needs room)?
        self._pending: list[tuple[int, dict[str, Any]]] = []  # (journal segment, row)
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._lock = asyncio.Lock()
        self._failures = RateLimitedLog(log, every_s=10.0)
        self.unavailable = False  # the last flush found the database away
        self._written = asyncio.Event()  # set (and replaced) each time rows reach the database

    def written(self) -> asyncio.Event:
        """An event set when this node's next rows reach the database (the live tail waits on
        it; other nodes' rows it finds by polling)."""
        return self._written

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def replay(self) -> int:
        """Queue the rows of journal segments that dead processes left; how many."""
        if self.journal is None:
            return 0
        count = 0
        for path, rows in self.journal.orphans():
            for row in rows:
                self._pending.append((0, row))
            count += len(rows)
            await self.flush()
            if self._pending:  # the database is away: keep the file for the next start
                self._pending = [p for p in self._pending if p[0] != 0]
                continue
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        if count:
            log.warning("replayed %d call-log rows journalled by a process that ended", count)
        return count

    def admit(self) -> None:
        """Before a call runs: ``NotRecordedError`` while its row could not be journalled."""
        journal = self.journal
        if journal is not None and not journal.accepting():
            metrics.CALL_LOG_FAILURES.labels(reason="journal_full").inc()
            raise NotRecordedError(ran=False)

    def status(self) -> str:
        """For ``/readyz``: "ok", or why calls are refused."""
        return "ok" if self.journal is None else self.journal.status()

    async def durable(self) -> None:
        """Return once the rows recorded so far are synced to the journal's disk;
        ``NotRecordedError`` if they could not be (the rows stay queued for the database)."""
        if self.journal is None:
            return
        try:
            await self.journal.durable()
        except OSError as exc:
            metrics.CALL_LOG_FAILURES.labels(reason="journal").inc()
            self._failures.warning("call-log journal sync failed: %s", exc)
            raise NotRecordedError(ran=True) from exc

    def record(self, **row: Any) -> None:
        """Queue a call's row, journalled (not yet synced: ``durable``). ``NotRecordedError``
        if the journal could not take it; the row is queued for the database all the same."""
        row.setdefault("at", datetime.now(UTC))
        # unique (the writer skips a row it already has), not secret: the time in nanoseconds
        # and 64 random bits, without a read of the kernel's random source for each call as
        # uuid4 makes. Time first, so the unique index grows at its end: a random key lands on
        # a random page of it, and each batch rewrote as many pages as it had rows (measured on
        # SQLite at 400,000 rows: 20.5 us a row, growing with the table; 9.2 us, flat).
        row["uid"] = f"{time.time_ns():016x}{random.getrandbits(64):016x}"  # noqa: S311
        row["arguments"] = stored_arguments(storable(row.get("arguments") or {}))
        if row.get("logs"):
            row["logs"] = storable(stored_logs(row["logs"]))
        for key in ("error_message", "result", "error_code"):
            if isinstance(row.get(key), str):
                row[key] = storable(row[key])
        segment, failed = 0, None
        if self.journal is not None:
            try:
                segment = self.journal.append(row)
            except OSError as exc:  # a full disk: the row still goes to the database
                metrics.CALL_LOG_FAILURES.labels(reason="journal").inc()
                self._failures.warning("call-log journal write failed: %s", exc)
                failed = exc
        self._pending.append((segment, row))
        if len(self._pending) > MAX_QUEUED:
            self._shed()
        if len(self._pending) >= BATCH:
            self._wakeup.set()
        if failed is not None:
            raise NotRecordedError(ran=True) from failed

    def _shed(self) -> None:
        """Too many rows held while the database is away: let the oldest journalled ones go
        from memory (the journal replays them at the next start); never one it lacks."""
        over = len(self._pending) - MAX_QUEUED
        kept = []
        for item in self._pending:
            if over and item[0]:
                over -= 1
                continue
            kept.append(item)
        metrics.CALL_LOG_FAILURES.labels(reason="queue_full").inc(len(self._pending) - len(kept))
        self._pending = kept

    async def flush(self) -> None:
        """Write what is queued; returns once rows queued before the call are committed (a flush
        already in flight is waited for, so readers of the log see their own calls) — or once
        the database has been found away (the rows stay queued)."""
        async with self._lock:
            if self.journal is not None:
                self.journal.seal()  # what is queued now can be retired once written
            # only what is queued now: rows that come while it is written wait for the next
            # flush (writing them too, in the small batches they trickle in by, kept the writer
            # in a transaction every ~10 ms under load — measured: 80 a second at 1,800 calls/s)
            taken, self._pending = self._pending, []
            while taken:
                if not self.room():  # the database's disk is nearly full: the journal keeps
                    self._pending[:0] = taken  # them until there is room again
                    metrics.CALL_LOG_FAILURES.labels(reason="no_room").inc()
                    self._failures.warning(
                        "call log: %d rows wait for room on the database's disk", len(taken)
                    )
                    self.unavailable = True
                    return
                batch, taken = taken[:BATCH], taken[BATCH:]
                try:
                    kept = await self._write(batch)
                except asyncio.CancelledError:  # a reader that left (``_write`` handles errors):
                    self._pending[:0] = batch + taken  # the rows stay queued; committed ones
                    raise  # are skipped by uid when written again
                if kept:
                    self._pending[:0] = kept + taken  # before the newer rows, in order
                    self.unavailable = True
                    return
            self.unavailable = False

    async def _write(
        self, batch: list[tuple[int, dict[str, Any]]]
    ) -> list[tuple[int, dict[str, Any]]]:
        """Insert ``batch``; the rows to try again later (the database is away). A batch the
        database refuses is halved until the refused row stands alone and is set aside."""
        try:
            await self.write([row for _, row in batch])
            written, self._written = self._written, asyncio.Event()
            written.set()
        except Exception as exc:
            if not (self.unavailable_error(exc) or isinstance(exc, OSError)):
                return await self._split(batch, exc)
            metrics.CALL_LOG_FAILURES.labels(reason="unavailable").inc()
            self._failures.warning(
                "call log: the database is away, %d rows kept queued (%s)",
                len(self._pending) + len(batch),
                str(exc).splitlines()[0][:200],
            )
            return batch
        self._done(batch)
        return []

    async def _split(
        self, batch: list[tuple[int, dict[str, Any]]], exc: Exception
    ) -> list[tuple[int, dict[str, Any]]]:
        """The database refused ``batch``: halve it until the refused row stands alone."""
        if len(batch) == 1:
            self._refused(batch[0][1], exc)
            self._done(batch)
            return []
        half = len(batch) // 2
        kept = await self._write(batch[:half])
        if kept:
            return kept + batch[half:]
        return await self._write(batch[half:])

    def _done(self, batch: list[tuple[int, dict[str, Any]]]) -> None:
        if self.journal is None:
            return
        for segment, _ in batch:
            if segment:
                self.journal.written(segment)

    def _refused(self, row: dict[str, Any], exc: Exception) -> None:
        """A row the database will not take even alone: kept aside, never silently dropped."""
        metrics.CALL_LOG_FAILURES.labels(reason="refused").inc()
        self._failures.warning("call log: a row was refused and set aside: %s", exc)
        if self.journal is None:
            return
        path = self.journal.directory / "refused.jsonl"
        with contextlib.suppress(OSError):
            if not path.exists() or path.stat().st_size < MAX_REFUSED_BYTES:
                with path.open("a") as f:
                    f.write(json.dumps({"row": row, "error": str(exc)[:500]}, default=str) + "\n")

    async def _run(self) -> None:
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), self.flush_interval_s)
            self._wakeup.clear()
            try:
                await self.flush()
            except Exception as exc:  # never let the writer die: the rows are queued and journalled
                metrics.CALL_LOG_FAILURES.labels(reason="unexpected").inc()
                self._failures.warning("call log: flush failed unexpectedly: %r", exc)

    async def stop(self) -> None:
        self._stopping = True
        self._wakeup.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.flush()
        while self._pending and not self.unavailable:  # rows of calls that ended meanwhile
            await self.flush()
        if self.journal is not None:
            self._journal_the_rest(self.journal)
            self.journal.close()
        elif self._pending:
            log.error("%d call-log rows were not written: the database is away", len(self._pending))

    def _journal_the_rest(self, journal: Journal) -> None:
        """At a stop, the rows the database could not take and the journal does not hold (its
        disk was full when they were recorded) are journalled now, for the next start."""
        lost = 0
        for segment, row in self._pending:
            if segment:
                continue
            try:
                journal.append(row)
            except OSError:
                lost += 1
        if lost:
            metrics.CALL_LOG_FAILURES.labels(reason="lost").inc(lost)
            log.error(
                "%d call-log rows could be neither written nor journalled (%s); their calls "
                "were answered 503",
                lost,
                journal.last_error,
            )
