"""What the use cases (``server.calls``, ``server.agent``) need of the node, and nothing more: the
registry, the call pipeline, the session state, the engines that load tool files, and ports for
storage and for the node's announcements. ``server.bootstrap`` builds one ``Services`` at start;
the adapters (HTTP, MCP, the CLI) hand it to the use cases. A use case never sees the node's
runtime, so it depends on nothing it does not name here — and a test builds one from fakes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.calls.engines import Engines
from server.calls.pipeline import CallPipeline
from server.calls.ports import CallStore
from server.calls.session_state import SessionStates
from server.calls.sessions import SessionTracker
from server.egress import EgressGuard
from server.events import EventHub
from server.quotas import Quotas
from server.records import StoredJob
from server.registry.definitions import DefinitionLimits
from server.registry.service import Registry
from server.settings import Settings
from server.skills.indexes import Indexes
from server.tracing import OFF, Tracing


class Storage(Protocol):
    """The database as the use cases open it (``server.storage`` implements it)."""

    def transaction(self) -> AbstractAsyncContextManager[CallStore]:
        """A store in one transaction: committed when the block ends, rolled back if it raises."""
        ...

    def reader(self) -> CallStore:
        """A store that opens a database session only for what no cache holds; ``close`` it."""
        ...


class Announcer(Protocol):
    """Tells the tenant's handoff webhook that a person should take a session over."""

    def announce(self, tenant_id: str, sid: str, bot: str, tool: str, reason: str) -> None: ...


class JobRunner(Protocol):
    """Long-running calls as the use cases wait for and cancel them (``server.calls.jobs``)."""

    async def wait(
        self,
        tenant_id: str,
        job_id: str,
        timeout_s: float,
        on_change: Callable[[StoredJob], Awaitable[None]] | None = None,
    ) -> StoredJob: ...

    async def cancel(self, store: CallStore, tenant_id: str, job_id: str) -> StoredJob: ...


class Messages(Protocol):
    """A session's transcript, appended to atomically (``server.storage.conversations``)."""

    async def append(
        self,
        session_id: str,
        tenant_id: str,
        bot: str,
        messages: list[dict[str, Any]],
        seq: int | None = None,
    ) -> list[Any]: ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Services:
    settings: Settings
    storage: Storage
    registry: Registry
    pipeline: CallPipeline
    tracker: SessionTracker  # breakers and what a session's snapshot is made of
    session_states: SessionStates  # the node's cache of sessions and their variables
    events: EventHub  # live updates: streams and MCP hear of a change here
    engines: Engines  # what runs each kind of tool, and loads its files at save
    limits: DefinitionLimits  # how large a definition may be
    indexes: Indexes  # the skills' search and classifier models
    handoffs: Announcer
    messages: Messages
    hooks_due: asyncio.Event  # set when a session ended: its end hooks may be due
    jobs: JobRunner  # long-running calls: waited for, cancelled (``server.calls.jobs``)
    egress: EgressGuard | None = None
    quotas: Quotas | None = None
    tracing: Tracing = OFF  # spans of model rounds (the calls' are the pipeline's)
    # set when a federated MCP server's declaration committed: the watcher looks at once
    servers_due: asyncio.Event = field(default_factory=asyncio.Event)
