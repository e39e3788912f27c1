"""What the registry core needs from storage. ``server/storage`` implements these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from server.guardrails import NONE, Policy
from server.registry.model import BotDef, ToolDef


@dataclass(frozen=True)
class RegistryVersions:
    """Counters bumped by every change that can alter a tenant's snapshots."""

    tenant: int
    global_: int


@dataclass(frozen=True)
class TenantRegistryData:
    allowlist: tuple[str, ...]
    tenant_tools: tuple[ToolDef, ...]
    global_tools: tuple[ToolDef, ...]
    bots: dict[str, BotDef]
    sandbox_modules: tuple[str, ...] = ()
    egress_allow: tuple[str, ...] = ()
    guardrails: Policy = NONE
    # the versions bots pinned, by (owner tenant, name, version)
    pinned: dict[tuple[str, str, int], ToolDef] = field(default_factory=dict)


class RegistryStore(Protocol):
    async def registry_versions(self, tenant_id: str) -> RegistryVersions | None:
        """``None`` when the tenant does not exist."""
        ...

    async def load_registry(self, tenant_id: str) -> TenantRegistryData: ...
