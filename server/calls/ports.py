"""What the call path needs from storage: ``server/storage`` implements these (its ``Store``),
the use cases depend only on them, and tests may hand them in-memory fakes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from server.registry.model import SessionRecord, ToolDef
from server.registry.ports import RegistryStore


class StoredVersion(Protocol):
    """A tool version as stored: what runs it."""

    @property
    def id(self) -> int: ...
    @property
    def source(self) -> str | None: ...
    @property
    def module(self) -> bytes | None: ...
    @property
    def webhook(self) -> dict[str, Any] | None: ...


class ToolVersions(Protocol):
    async def stored_version(self, tool: ToolDef) -> Any: ...  # a StoredVersion
    def decrypt_secret(self, tenant_id: str, name: str, version: Any) -> str | None: ...
    async def artefact(self, version_id: int, engine: str) -> bytes | None: ...
    async def keep_artefact(self, version_id: int, engine: str, artefact: bytes) -> None: ...


class Secrets(Protocol):
    async def values(self, tenant_id: str, names: list[str]) -> dict[str, str]: ...


class TenantLimits(Protocol):
    async def limits(self, tenant_id: str) -> dict[str, Any] | None: ...


class Sessions(Protocol):
    """A session's state and what a call writes to it; ``touched``: the sessions this unit of
    work changed (their cached states are forgotten when it commits)."""

    touched: set[str]

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


class Handoffs(Protocol):
    async def hand_off(self, tenant_id: str, sid: str, now: datetime) -> bool: ...


class CallStore(RegistryStore, Protocol):
    """One unit of work of the call path."""

    answered: bool  # a tool ran and its answer is ready (a failed commit must not hide it)

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
    def lifecycle(self) -> Handoffs: ...
