"""Cross-node propagation of changes (DESIGN §5): PostgreSQL LISTEN/NOTIFY, with polling as the
fallback. SQLite runs as a single node and needs neither.

What travels is only *what* changed, never content: ``t:<tenant>:<version>`` (a registry change;
``*`` = global tools), ``s:<session>`` (a session's snapshot inputs), ``v:<session>`` (its
variables only), ``k:<key id>`` (a revoked key), ``d:<tenant>`` (a data set of the skills),
``j:<job>:<session>`` (a long-running job's state).
Notifications are sent inside the transaction that makes the change, so they go out exactly
when it commits. A receiving node forgets its cached version counters, session states (or key)
and wakes the event streams concerned, which then rebuild from the database.

The listener holds a dedicated asyncpg connection outside the pool. When it is lost, the node
reconnects with backoff and, once back, flushes every cache and wakes every stream — whatever
was announced while it was away is picked up. While there is no listener (``QUIVER_NOTIFY``
off, or the connection down) the node polls every ``QUIVER_POLL_MS``: each poll wakes every
stream and forgets version counters; every 4th poll also drops the cached tenant views.

While the listener is up, changes are *pushed* (``pushing``): the registry's version counters
and the key cache then trust what they hold until a change says otherwise, so a call of a rarely
called tenant reads nothing from the database. SQLite has one node, but the CLI may change its
database beside it: ``SqliteWatch`` reads one fingerprint of the tenants' registry versions and
the keys every ``QUIVER_POLL_MS`` and forgets those caches when it moved — one query a poll,
however many tenants.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url

from server import metrics

CHANNEL = "quiver_changes"
APPLICATION_NAME = "quiver-listen-{pid}"  # the node's process id: operators can tell them apart
FULL_RELOAD_EVERY = 4
log = logging.getLogger("quiver.propagation")


def notify_sql() -> Any:
    return text(f"SELECT pg_notify('{CHANNEL}', :payload)")


class Propagation:
    def __init__(self, runtime: Any, *, listen: bool, poll_s: float) -> None:
        self.runtime = runtime
        self.listen = listen
        self.poll_s = poll_s
        self.connected = asyncio.Event()
        self.reconnects = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._conn: Any = None
        self._stopping = False

    # receiving -----------------------------------------------------------------------------
    def apply(self, payload: str) -> None:
        kind, _, rest = payload.partition(":")
        runtime = self.runtime
        if kind == "t":
            tenant = rest.rsplit(":", 1)[0]
            runtime.registry.invalidate({tenant})
            runtime.quotas.forget({tenant})
            runtime.events.tenant_changed(tenant)
        elif kind == "s":
            runtime.session_states.forget((rest,))
            runtime.events.session_changed(rest)
        elif kind == "v":
            runtime.session_states.forget((rest,))
        elif kind == "k":
            runtime.keys.evict({rest})
        elif kind == "d":
            runtime.indexes.forget(rest)
        elif kind == "j":
            job, _, session = rest.partition(":")
            runtime.jobs_changed({job: session or None}, remote=True)

    def pushing(self) -> bool:
        """Do other nodes' changes reach this node as they commit (the listener is up)?"""
        return self.listen and self.connected.is_set()

    def flush_everything(self, full: bool = True) -> None:
        runtime = self.runtime
        runtime.registry.forget_all(views=full)
        runtime.session_states.clear()
        runtime.quotas.forget()
        runtime.indexes.forget()
        if full:
            runtime.keys.clear()
        runtime.events.everything_changed()

    # lifecycle -----------------------------------------------------------------------------
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.listen:
            self._tasks.append(loop.create_task(self._listen_forever()))
        self._tasks.append(loop.create_task(self._poll_forever()))

    async def stop(self) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._conn is not None and not self._conn.is_closed():
            await self._conn.close()

    async def _connect(self) -> Any:
        import asyncpg

        url = make_url(self.runtime.settings.effective_database_url)
        return await asyncpg.connect(
            host=url.host,
            port=url.port,
            user=url.username,
            password=url.password,
            database=url.database,
            server_settings={"application_name": APPLICATION_NAME.format(pid=os.getpid())},
        )

    async def _listen_forever(self) -> None:
        backoff = 0.1
        first = True
        while not self._stopping:
            lost = asyncio.Event()
            try:
                conn = self._conn = await self._connect()
                conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
                await conn.add_listener(CHANNEL, lambda *args: self.apply(args[-1]))
            except Exception as exc:  # noqa: BLE001 - any failure: retry later
                log.warning("change listener could not connect (%s); retrying", exc)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
                continue
            if not first:
                self.reconnects += 1
                log.warning("change listener reconnected: flushing every cache")
                self.flush_everything()
            else:  # what was cached before it listened may have changed unannounced
                self.runtime.registry.forget_all()
                self.runtime.keys.clear()
            first, backoff = False, 0.1
            self.connected.set()
            # `_stopping` is checked as well as cancellation: on Python 3.11, a cancel that lands
            # as `wait_for` times out can come back as TimeoutError (`asyncio.timeout` does not
            # mix them up; the flag makes stopping certain either way)
            while not self._stopping and not lost.is_set() and not conn.is_closed():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):
                        await lost.wait()
                if not lost.is_set() and not self._stopping:
                    try:  # a dead TCP peer does not always say so: ask
                        await asyncio.wait_for(conn.execute("SELECT 1"), 2.0)
                    except Exception:  # noqa: BLE001
                        break
            self.connected.clear()
            if not self._stopping:
                log.warning("change listener connection lost; polling until it is back")
            with contextlib.suppress(Exception):
                await conn.close()

    async def _poll_forever(self) -> None:
        polls = 0
        while not self._stopping:
            await asyncio.sleep(self.poll_s)
            if self.listen and self.connected.is_set():
                continue
            polls += 1
            self.flush_everything(full=polls % FULL_RELOAD_EVERY == 0)


FINGERPRINT = text(
    "SELECT (SELECT coalesce(sum(registry_version), 0) || ':' || count(*) FROM tenants)"
    " || '/' || (SELECT count(*) || ':' || count(revoked_at) FROM api_keys)"
)


class SqliteWatch:
    """SQLite's one node: what the CLI changes beside it, seen within ``poll_s``."""

    def __init__(self, runtime: Any, poll_s: float, clock: Any = time.monotonic) -> None:
        self.runtime = runtime
        self.poll_s = poll_s
        self.clock = clock
        self.seen: str | None = None
        self.seen_at: float | None = None
        self._task: asyncio.Task[None] | None = None

    def pushing(self) -> bool:
        """Has a poll succeeded lately (so a change would have been seen)?"""
        return self.seen_at is not None and self.clock() - self.seen_at <= 3 * self.poll_s

    async def check(self) -> bool:
        """One poll; whether the caches were forgotten."""
        async with self.runtime.engine.connect() as conn:
            now = str(await conn.scalar(FINGERPRINT))
        moved = self.seen is not None and now != self.seen
        if moved:  # the node's own commits move it too; those it has forgotten precisely
            self.runtime.registry.forget_all()  # already, so streams are not woken here
            self.runtime.keys.clear()
            self.runtime.quotas.forget()
        self.seen, self.seen_at = now, self.clock()
        return moved

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._poll_forever())

    async def _poll_forever(self) -> None:
        while True:
            try:
                await self.check()
            except Exception as exc:  # noqa: BLE001 - a failed poll: the caches' TTLs apply
                metrics.BACKGROUND_FAILURES.labels(task="sqlite_watch").inc()
                log.warning("watching the database for changes failed: %s", exc)
            await asyncio.sleep(self.poll_s)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


async def announce(session: Any, payload: str) -> None:
    """Send a notification in the caller's transaction (PostgreSQL only)."""
    if session.bind.dialect.name == "postgresql":
        await session.execute(notify_sql(), {"payload": payload})


async def announce_now(engine: Any, payload: str) -> None:
    """Send a notification on its own (for changes that are not database writes: breakers)."""
    if engine.dialect.name != "postgresql":
        return
    async with engine.begin() as conn:
        await conn.execute(notify_sql(), {"payload": payload})
