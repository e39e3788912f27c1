"""What the call path needs from storage: ``server/storage`` implements these (its ``Store``),
the use cases depend only on them, and tests may hand them in-memory fakes."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from server.egress import Allowlist
from server.guardrails import Policy
from server.records import (
    ClaimedHook,
    StoredBot,
    StoredEvalRun,
    StoredJob,
    StoredMcpServer,
    StoredMessage,
    StoredProvider,
    StoredSession,
    StoredTenant,
    StoredTool,
    StoredToolVersion,
    StoredVersion,
)
from server.registry.definitions import ToolDraft
from server.registry.federation import ServerSpec
from server.registry.model import SessionRecord, ToolDef
from server.registry.ports import RegistryStore


class ToolVersions(Protocol):
    async def stored_version(self, tool: ToolDef) -> StoredVersion: ...
    async def find(self, tenant_id: str, name: str) -> StoredTool | None: ...
    async def find_version(self, tool: StoredTool, version: int) -> StoredToolVersion | None: ...
    async def definition(self, tenant_id: str, name: str) -> ToolDef: ...  # 404 if none
    async def unchanged(
        self, tenant_id: str, draft: ToolDraft
    ) -> tuple[StoredTool, StoredToolVersion] | None: ...
    async def save(
        self, tenant_id: str, draft: ToolDraft, actor: str | None, *, expect_new: bool | None
    ) -> tuple[StoredTool, StoredToolVersion]: ...  # the tool and the version saved
    def decrypt_secret(self, tenant_id: str, name: str, version: StoredVersion) -> str | None: ...
    async def artefact(self, version_id: int, engine: str) -> bytes | None: ...
    async def keep_artefact(self, version_id: int, engine: str, artefact: bytes) -> None: ...
    async def list(
        self, tenant_ids: str | list[str]
    ) -> Sequence[tuple[StoredTool, StoredToolVersion]]: ...
    async def delete(self, tenant_id: str, name: str) -> None: ...  # 404 if none


class OAuthConnections(Protocol):
    """OAuth providers and end users' tokens (``server.storage.connections``); rows are read
    for their fields (``server.storage.tables.OAuthProviderRow``, ``OAuthConnectionRow``)."""

    async def provider(self, tenant_id: str, name: str) -> Any | None: ...
    async def connection(self, tenant_id: str, provider: str, customer: str) -> Any | None: ...
    def tokens(self, row: Any) -> tuple[str, str | None]: ...
    def client_secret(self, row: Any) -> str | None: ...
    async def connect(
        self,
        tenant_id: str,
        provider: str,
        customer: str,
        access: str,
        refresh: str | None,
        scopes: builtins.list[str],
        expires_at: datetime | None,
    ) -> Any: ...
    def seal_state(self, state: dict[str, Any]) -> str: ...
    def open_state(self, sealed: str) -> dict[str, Any] | None: ...


class McpServers(Protocol):
    """Federated MCP servers (``server.storage.mcp_servers``)."""

    async def find(self, tenant_id: str, name: str) -> StoredMcpServer | None: ...
    async def get(self, tenant_id: str, name: str) -> StoredMcpServer: ...  # 404 if none
    async def list(self, tenant_id: str | None = None) -> Sequence[StoredMcpServer]: ...
    def secret(self, row: Any) -> str | None: ...
    async def put(
        self, tenant_id: str, spec: ServerSpec, actor: str | None
    ) -> tuple[StoredMcpServer, bool]: ...
    def listed(
        self,
        row: Any,
        made: builtins.list[str],
        protocol_version: str | None,
        skipped: builtins.list[Any],
        when: datetime,
    ) -> None: ...
    def failed(self, row: Any, code: str, message: str, when: datetime) -> None: ...
    async def delete(self, tenant_id: str, name: str) -> StoredMcpServer: ...
    async def watch(
        self, node: str, now: datetime, until: datetime, most: int = 1000
    ) -> Sequence[StoredMcpServer]: ...  # the servers ``node`` holds the lease of
    async def unwatch(self, node: str) -> None: ...


class Secrets(Protocol):
    async def values(self, tenant_id: str, names: list[str]) -> dict[str, str]: ...


class TenantLimits(Protocol):
    async def get(self, tenant_id: str) -> StoredTenant: ...  # 404 if none
    async def limits(self, tenant_id: str) -> dict[str, Any] | None: ...

    async def sandbox(self, tenant_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The reviewed modules an admin granted the tenant, and its own egress allowlist."""
        ...

    async def allowlist(self, tenant_id: str) -> Allowlist | None:
        """The tenant's own egress allowlist, parsed (None: it has none)."""
        ...

    async def guardrails(self, tenant_id: str) -> Policy:
        """The tenant's guardrails (``server/guardrails.py``; ``NONE`` when it has none)."""
        ...

    async def handoff_target(self, tenant_id: str) -> tuple[str | None, str, tuple[str, ...]]:
        """The handoff webhook's URL, its signing secret and the tenant's egress allowlist."""
        ...


class Sessions(Protocol):
    """A session's state and what a call writes to it; ``touched``: the sessions this unit of
    work changed (their cached states are forgotten when it commits)."""

    touched: set[str]

    async def get(self, tenant_id: str, session_id: str) -> StoredSession: ...  # 404 if none
    async def create(
        self,
        tenant_id: str,
        bot: str,
        intent: str | None,
        created_by: str | None,
        customer: str | None = None,
    ) -> SessionRecord: ...
    async def get_with_variables(
        self, tenant_id: str, session_id: str
    ) -> tuple[SessionRecord, dict[str, Any]]: ...
    async def variables(self, session_id: str) -> dict[str, Any]: ...
    async def set_variables(self, session_id: str, values: dict[str, Any]) -> None: ...
    async def bump(self, session_id: str) -> None: ...
    async def set_intent(self, session_id: str, intent: str | None) -> None: ...
    async def load_tools(self, session_id: str, names: Sequence[str], keep: int) -> None: ...
    async def set_actions(self, session_id: str, actions: list[dict[str, Any]]) -> None: ...
    async def count_failure(self, session_id: str, tool: str) -> int: ...
    async def finish_claim(self, session_id: str, tool: str, done: bool) -> None: ...
    async def open_breaker(self, session_id: str, tool: str, until: float) -> None: ...


class CallRecords(Protocol):
    def breaker_opened(
        self, tenant: str, tool: str, scope: str, session_id: str | None
    ) -> None: ...
    async def most_used(self, tenant: str, since_s: float, limit: int = 200) -> list[str]: ...
    async def reported(self, session_id: str, call_id: str) -> bool: ...
    async def record(self, **row: Any) -> None: ...  # one row, in this unit of work


class Lifecycle(Protocol):
    """A session's end and handoff, and the end hooks queued when it ends."""

    async def hand_off(self, tenant_id: str, sid: str, now: datetime) -> bool: ...
    async def end(self, tenant_id: str, sid: str, reason: str, now: datetime) -> StoredSession: ...
    async def end_if_idle(self, sid: str, now: datetime) -> bool: ...
    async def idle_candidates(self, now: datetime, limit: int = 500) -> list[tuple[str, str]]: ...
    async def queue_hooks(
        self, tenant_id: str, sid: str, tools: list[str], now: datetime
    ) -> None: ...
    async def claim_hooks(
        self, now: datetime, lease_s: float, limit: int = 20
    ) -> Sequence[ClaimedHook]: ...
    async def extend_hook(self, sid: str, tool: str, attempt: int, until: datetime) -> bool: ...
    async def finish_hook(self, sid: str, tool: str, status: str, outcome: str | None) -> None: ...


class JobRecords(Protocol):
    """Long-running calls (``server.storage.jobs``): every write of a running job is
    conditional on the run (``attempt``) that holds it."""

    async def create(
        self,
        *,
        tenant_id: str,
        session_id: str | None,
        bot: str | None,
        tool: str,
        version: int,
        kind: str,
        arguments: Any,
        timeout_s: int,
        now: datetime,
        message_id: str | None = None,
        location: str | None = None,
    ) -> StoredJob: ...
    def arguments(self, row: StoredJob) -> Any: ...
    async def unfinished(self, tenant_id: str) -> int: ...
    async def get(self, tenant_id: str, job_id: str) -> StoredJob: ...  # 404 if none
    async def find(self, job_id: str) -> StoredJob | None: ...
    async def claim(self, now: datetime, lease_s: float, limit: int) -> Sequence[StoredJob]: ...
    async def extend(self, job_id: str, attempt: int, until: datetime) -> tuple[bool, bool]: ...
    async def report(
        self,
        job_id: str,
        attempt: int,
        session_id: str | None,
        progress: float | None,
        message: str | None,
    ) -> bool: ...
    async def locate(self, job_id: str, attempt: int, location: str) -> bool: ...
    async def finish(
        self,
        job_id: str,
        attempt: int | None,
        session_id: str | None,
        status: str,
        result: dict[str, Any],
        now: datetime,
        cpu_ms: float = 0.0,
    ) -> StoredJob | None: ...
    async def cancel(self, tenant_id: str, job_id: str) -> StoredJob: ...  # 409 if finished
    async def defer(self, job_id: str) -> bool: ...
    async def page(
        self,
        tenant_id: str,
        *,
        session_id: str | None,
        status: str | None,
        limit: int,
        after: tuple[datetime, str] | None,
    ) -> Sequence[StoredJob]: ...


class Transcripts(Protocol):
    async def history(self, session_id: str) -> Sequence[StoredMessage]: ...


class Bots(Protocol):
    async def get(self, tenant_id: str, name: str) -> StoredBot: ...  # 404 if none
    async def find(self, tenant_id: str, name: str) -> StoredBot | None: ...
    async def create(
        self,
        tenant_id: str,
        name: str,
        tools: list[str] | None,
        intents: dict[str, list[str]] | None,
        max_tools: int | None = None,
        **settings: Any,
    ) -> StoredBot: ...  # 409 if the name is taken
    async def replace(
        self,
        tenant_id: str,
        name: str,
        tools: list[str] | None,
        intents: dict[str, list[str]] | None,
        max_tools: int | None = None,
        **settings: Any,
    ) -> StoredBot: ...  # 404 if none


class Providers(Protocol):
    """The tenant's model providers; a provider's key is decrypted only on asking."""

    async def get(self, tenant_id: str, name: str) -> StoredProvider: ...  # 404 if none
    async def find(self, tenant_id: str, name: str) -> StoredProvider | None: ...
    async def list(self, tenant_id: str) -> Sequence[StoredProvider]: ...
    def api_key(self, row: StoredProvider) -> str | None: ...


class EvalRuns(Protocol):
    def add(self, tenant_id: str, bot: str, report: dict[str, Any]) -> StoredEvalRun: ...


class CallStore(RegistryStore, Protocol):
    """One unit of work of the call path."""

    answered: bool  # a tool ran and its answer is ready (a failed commit must not hide it)
    holds_write_lock: bool  # SQLite: it holds the write lock (claims are made in it)
    servers_due: bool  # a federated MCP server changed: the watcher looks once this commits

    @property
    def tools(self) -> ToolVersions: ...
    @property
    def secrets(self) -> Secrets: ...
    @property
    def tenants(self) -> TenantLimits: ...
    @property
    def sessions(self) -> Sessions: ...
    @property
    def calls(self) -> CallRecords: ...
    @property
    def lifecycle(self) -> Lifecycle: ...
    @property
    def jobs(self) -> JobRecords: ...
    @property
    def mcp_servers(self) -> McpServers: ...
    @property
    def oauth(self) -> OAuthConnections: ...
    @property
    def messages(self) -> Transcripts: ...
    @property
    def bots(self) -> Bots: ...
    @property
    def providers(self) -> Providers: ...
    @property
    def eval_runs(self) -> EvalRuns: ...

    async def close(self) -> None:
        """End a unit of work that only read (``Storage.reader``)."""
        ...

    async def checkpoint(self) -> None:
        """Commit what this unit of work did so far and give its connection back; its next use
        begins anew (a job's run holds no connection while its tool runs)."""
        ...

    async def changed(
        self,
        actor: str | None,
        tenant_id: str,
        action: str,
        target: str,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """A change that can alter snapshots: the tenant's version bumped, an audit line."""
        ...
