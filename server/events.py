"""Live snapshot events (DESIGN §5): a per-node fan-out of "this may have changed" to the event
streams attached here, and the diff an agent is sent.

Streams do not trust the notification's content: a wake-up makes each stream rebuild its
session's snapshot and send an event only when the version or the tools differ from what it
sent last. So any change source — a commit on this node, a breaker, another node's NOTIFY, a
poll — only has to say *which tenant or session* to look at.

Tools' partial results (``context.emit``) are the exception: they are the content, handed to
the session's streams on the node that runs the call as they come, and kept nowhere else.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.registry.model import GLOBAL_TENANT, Snapshot

HISTORY = 32  # versions kept per session, so a resuming agent gets a diff rather than a reset
MAX_SESSIONS_WITH_HISTORY = 10_000
PARTIALS_KEPT = 256  # a stream's partial results not yet sent


def fingerprints(snapshot: Snapshot) -> dict[str, str]:
    return {e.name: f"{e.executor}:{e.version}:{e.content_hash}" for e in snapshot.entries}


def diff(before: dict[str, str] | None, after: dict[str, str]) -> dict[str, Any]:
    if before is None:
        return {"added": sorted(after), "removed": [], "changed": [], "full": True}
    return {
        "added": sorted(after.keys() - before.keys()),
        "removed": sorted(before.keys() - after.keys()),
        "changed": sorted(n for n in after.keys() & before.keys() if after[n] != before[n]),
        "full": False,
    }


@dataclass(eq=False)
class Watcher:
    tenant: str
    session: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    # tools' partial results for this stream, sent as they come (``tool_partial``); a stream
    # that cannot keep up loses the oldest
    partials: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=PARTIALS_KEPT))
    # the session's jobs that changed since the stream last looked (``job`` events)
    jobs: set[str] = field(default_factory=set)


class EventHub:
    def __init__(self) -> None:
        self._by_tenant: dict[str, set[Watcher]] = defaultdict(set)
        self._by_session: dict[str, set[Watcher]] = defaultdict(set)
        self._history: OrderedDict[str, OrderedDict[int, dict[str, str]]] = OrderedDict()
        self.closing = asyncio.Event()
        # Called with each changed tenant (``*`` = all), e.g. to tell MCP clients.
        self.tenant_listeners: list[Callable[[str], None]] = []
        # Called with each session whose snapshot changed, e.g. to tell its MCP client.
        self.session_listeners: list[Callable[[str], None]] = []

    @property
    def streams(self) -> int:
        return sum(len(w) for w in self._by_session.values())

    def streams_of(self, tenant: str) -> int:
        return len(self._by_tenant.get(tenant, ()))

    def watch(self, tenant: str, session: str) -> Watcher:
        watcher = Watcher(tenant, session)
        self._by_tenant[tenant].add(watcher)
        self._by_session[session].add(watcher)
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        for index, key in ((self._by_tenant, watcher.tenant), (self._by_session, watcher.session)):
            watchers = index.get(key)
            if watchers is not None:
                watchers.discard(watcher)
                if not watchers:
                    del index[key]

    def tenant_changed(self, tenant: str) -> None:
        """Wake every stream of a tenant; a global change (``*``) wakes every stream."""
        for listener in self.tenant_listeners:
            listener(tenant)
        groups = (
            self._by_tenant.values()
            if tenant == GLOBAL_TENANT
            else [self._by_tenant.get(tenant, ())]
        )
        for watchers in list(groups):
            for watcher in watchers:
                watcher.wake.set()

    def everything_changed(self) -> None:
        self.tenant_changed(GLOBAL_TENANT)

    def session_changed(self, session: str) -> None:
        for listener in self.session_listeners:
            listener(session)
        for watcher in self._by_session.get(session, ()):
            watcher.wake.set()

    def partial(self, session: str, data: dict[str, Any]) -> None:
        """A partial result of a call in ``session``: to its streams on this node, at once."""
        for watcher in self._by_session.get(session, ()):
            watcher.partials.append(data)
            watcher.wake.set()

    def job_changed(self, session: str, job: str) -> None:
        """A job of ``session`` changed: its streams read it and send a ``job`` event."""
        for watcher in self._by_session.get(session, ()):
            if len(watcher.jobs) < PARTIALS_KEPT:
                watcher.jobs.add(job)
            watcher.wake.set()

    def remember(self, session: str, version: int, prints: dict[str, str]) -> None:
        versions = self._history.setdefault(session, OrderedDict())
        self._history.move_to_end(session)
        versions[version] = prints
        while len(versions) > HISTORY:
            versions.popitem(last=False)
        while len(self._history) > MAX_SESSIONS_WITH_HISTORY:
            self._history.popitem(last=False)

    def recall(self, session: str, version: int) -> dict[str, str] | None:
        versions = self._history.get(session)
        return versions.get(version) if versions is not None else None

    def close(self) -> None:
        """Shutting down: every stream ends after its current event."""
        self.closing.set()
        self.everything_changed()
