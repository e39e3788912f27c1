"""Repositories over one ``AsyncSession``: the only code that writes SQL.

``Store`` is the unit of work a request gets: its repositories share one transaction, and
``changed()`` bumps the registry version and writes the audit line in that same transaction, so
a change and its announcement commit or roll back together.
"""

from __future__ import annotations

import builtins
import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import bindparam, delete, func, inspect, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from sandbox.engine import PACKAGE
from server import guardrails
from server.egress import Allowlist
from server.errors import ConflictError, FieldError, NotFoundError, ValidationFailedError
from server.guardrails import Policy
from server.keys import NewKey, new_key
from server.propagation import announce
from server.records import StoredTool, StoredVersion
from server.registry.definitions import KEEP, ToolDraft, webhook_origin
from server.registry.model import GLOBAL_TENANT, BotDef, SessionRecord, ToolDef
from server.registry.ports import RegistryVersions, TenantRegistryData
from server.secretbox import SecretBox
from server.storage.calls import CallRepository
from server.storage.connections import OAuthRepository
from server.storage.conversations import (
    EvalRunRepository,
    MessageRepository,
    ProviderRepository,
)
from server.storage.database import dialect_name
from server.storage.jobs import JobRepository
from server.storage.lifecycle import Lifecycle
from server.storage.mcp_servers import McpServerRepository
from server.storage.packages import PackageRepository
from server.storage.skills import (
    CalendarRepository,
    DatasetRepository,
    FormRepository,
    LeadRepository,
    MemoryRepository,
    PreferenceRepository,
)
from server.storage.tables import (
    ApiKeyRow,
    AuditRow,
    BotRow,
    SecretRow,
    SessionRow,
    SessionToolClaimRow,
    SessionToolFailureRow,
    SessionVariableRow,
    TenantRow,
    ToolRow,
    ToolVersionRow,
    WasmArtefactRow,
    utcnow,
)


def handoff_binding(tenant_id: str) -> str:
    return f"handoff-secret/{tenant_id}"


def granted_modules(tenant: TenantRow) -> tuple[str, ...]:
    """What a tenant's code tools may import beyond the defaults: the reviewed modules an admin
    granted, and its granted packages by content hash (``pkg:<sha256>``, ``sandbox.engine``)."""
    modules = tuple(tenant.sandbox_modules or ())
    return modules + tuple(f"{PACKAGE}{p['sha256']}" for p in tenant.packages or ())


class TenantRepository:
    def __init__(self, session: AsyncSession, box: SecretBox | None = None) -> None:
        self.session = session
        self.box = box

    async def sandbox(self, tenant_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The reviewed modules an admin granted the tenant, and its own egress allowlist."""
        tenant = await self.session.get(TenantRow, tenant_id) if tenant_id != "*" else None
        if tenant is None:
            return (), ()
        return granted_modules(tenant), tuple(tenant.egress_allow or ())

    async def allowlist(self, tenant_id: str) -> Allowlist | None:
        """The tenant's own egress allowlist, parsed (None: it has none)."""
        _, egress = await self.sandbox(tenant_id)
        return Allowlist.parse(egress) if egress else None

    async def guardrails(self, tenant_id: str) -> Policy:
        """The tenant's guardrails (``NONE``: none, or no such tenant)."""
        tenant = await self.session.get(TenantRow, tenant_id) if tenant_id != "*" else None
        return guardrails.parse(tenant.guardrails)[0] if tenant is not None else guardrails.NONE

    async def handoff_target(self, tenant_id: str) -> tuple[str | None, str, tuple[str, ...]]:
        """Where the tenant's handoffs are announced: its webhook's URL, the secret that signs
        them (decrypted; empty without one) and the tenant's egress allowlist."""
        tenant = await self.get(tenant_id)
        secret = ""
        if tenant.handoff_secret_ct and self.box is not None:
            secret = self.box.decrypt(tenant.handoff_secret_ct, handoff_binding(tenant_id))
        return tenant.handoff_url, secret, tuple(tenant.egress_allow or ())

    async def create(self, tenant_id: str, name: str) -> TenantRow:
        if await self.session.get(TenantRow, tenant_id) is not None:
            raise ConflictError(f"tenant {tenant_id!r} already exists")
        row = TenantRow(
            id=tenant_id, name=name, shared_tools=[], registry_version=0, created_at=utcnow()
        )
        self.session.add(row)
        await self.session.flush()
        return row

    async def get(self, tenant_id: str) -> TenantRow:
        row = await self.session.get(TenantRow, tenant_id)
        if row is None or tenant_id == GLOBAL_TENANT:
            raise NotFoundError(f"tenant {tenant_id!r} not found")
        return row

    async def limits(self, tenant_id: str) -> dict[str, Any] | None:
        """An admin's overrides of the tenant's rates and quotas (None: no such tenant)."""
        row = await self.session.get(TenantRow, tenant_id)
        return dict(row.limits or {}) if row is not None else None

    async def list(self) -> list[TenantRow]:
        result = await self.session.scalars(
            select(TenantRow).where(TenantRow.id != GLOBAL_TENANT).order_by(TenantRow.id)
        )
        return list(result)

    async def set_shared_tools(self, tenant_id: str, names: builtins.list[str]) -> TenantRow:
        row = await self.get(tenant_id)
        row.shared_tools = names
        return row

    async def bump(self, tenant_id: str) -> int | None:
        """The tenant's registry version, one higher; announced to other nodes at commit."""
        version = await self.session.scalar(
            update(TenantRow)
            .where(TenantRow.id == tenant_id)
            .values(registry_version=TenantRow.registry_version + 1)
            .returning(TenantRow.registry_version)
        )
        await announce(self.session, f"t:{tenant_id}:{version}")
        return version


class KeyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def create(
        self, role: str, tenant_id: str | None, label: str = "", created_by: str | None = None
    ) -> tuple[ApiKeyRow, NewKey]:
        from server.keys import hash_secret

        key = new_key()
        row = ApiKeyRow(
            id=key.id,
            tenant_id=tenant_id,
            role=role,
            secret_hash=hash_secret(key.id, key.secret),
            label=label,
            created_at=utcnow(),
            created_by=created_by,
        )
        self.session.add(row)
        await self.session.flush()
        return row, key

    async def get(self, key_id: str) -> ApiKeyRow | None:
        return await self.session.get(ApiKeyRow, key_id)

    async def list(self, tenant_id: str) -> list[ApiKeyRow]:
        result = await self.session.scalars(
            select(ApiKeyRow).where(ApiKeyRow.tenant_id == tenant_id).order_by(ApiKeyRow.created_at)
        )
        return list(result)

    async def revoke(self, key_id: str) -> ApiKeyRow:
        row = await self.get(key_id)
        if row is None:
            raise NotFoundError(f"key {key_id!r} not found")
        if row.revoked_at is None:
            row.revoked_at = utcnow()
            await announce(self.session, f"k:{key_id}")
        return row

    async def touch(self, key_id: str, when: datetime) -> None:
        await self.session.execute(
            update(ApiKeyRow).where(ApiKeyRow.id == key_id).values(last_used_at=when)
        )

    async def touch_many(self, touches: dict[str, datetime]) -> None:
        """Keys' last use, in one statement (by primary key; a key gone meanwhile is skipped)."""
        await self.session.execute(
            update(ApiKeyRow),
            [{"id": key_id, "last_used_at": when} for key_id, when in touches.items()],
        )

    async def count_active_admins(self) -> int:
        stmt = (
            select(func.count())
            .select_from(ApiKeyRow)
            .where(ApiKeyRow.role == "admin", ApiKeyRow.revoked_at.is_(None))
        )
        return int(await self.session.scalar(stmt) or 0)


# What a version holds (everything but its identity and provenance): what a rollback copies.
def _artefact_binding(version_id: int, engine: str) -> str:
    """What an artefact's MAC is bound to: copied to another version or engine, it fails."""
    return f"wasm-artefact/{version_id}/{engine}"


log = logging.getLogger("quiver")


VERSION_CONTENT = (
    "kind", "sandbox", "description", "parameters", "meta", "source", "module", "module_sha256",
    "webhook", "auth_header_ct", "content_hash", "on_error",
)  # fmt: skip


class ToolRepository:
    def __init__(self, session: AsyncSession, box: SecretBox) -> None:
        self.session = session
        self.box = box

    async def find(self, tenant_id: str, name: str) -> ToolRow | None:
        return await self.session.scalar(
            select(ToolRow).where(ToolRow.tenant_id == tenant_id, ToolRow.name == name)
        )

    async def definition(self, tenant_id: str, name: str) -> ToolDef:
        """The tool's current version as the registry knows tools (404 if none)."""
        return tool_def(*await self.get(tenant_id, name))

    async def get(self, tenant_id: str, name: str) -> tuple[ToolRow, ToolVersionRow]:
        tool = await self.find(tenant_id, name)
        if tool is None:
            raise NotFoundError(f"tool {name!r} not found")
        return tool, await self.version(tool, tool.current_version)

    async def find_version(self, tool: StoredTool, version: int) -> ToolVersionRow | None:
        return await self.session.scalar(
            select(ToolVersionRow).where(
                ToolVersionRow.tool_id == tool.id, ToolVersionRow.version == version
            )
        )

    async def version(self, tool: ToolRow, version: int) -> ToolVersionRow:
        row = await self.find_version(tool, version)
        if row is None:
            raise NotFoundError(f"tool {tool.name!r} has no version {version}")
        return row

    async def list(self, tenant_ids: str | list[str]) -> list[tuple[ToolRow, ToolVersionRow]]:
        stmt = (
            select(ToolRow, ToolVersionRow)
            .join(
                ToolVersionRow,
                (ToolVersionRow.tool_id == ToolRow.id)
                & (ToolVersionRow.version == ToolRow.current_version),
            )
            .where(
                ToolRow.tenant_id.in_([tenant_ids] if isinstance(tenant_ids, str) else tenant_ids)
            )
            .order_by(ToolRow.name)
        )
        return [(t, v) for t, v in (await self.session.execute(stmt)).all()]

    async def save(
        self, tenant_id: str, draft: ToolDraft, actor: str | None, *, expect_new: bool | None
    ) -> tuple[ToolRow, ToolVersionRow]:
        """Create the tool (``expect_new``), add a version (``not expect_new``) or either
        (``None``)."""
        tool = await self.find(tenant_id, draft.name)
        if tool is not None and expect_new:
            raise ConflictError(
                f"tool {draft.name!r} already exists; PUT /v1/tools/{draft.name} saves a new "
                "version"
            )
        if tool is None and expect_new is False:
            raise NotFoundError(f"tool {draft.name!r} not found")
        previous_secret: str | None = None
        if tool is None:
            tool = ToolRow(
                tenant_id=tenant_id,
                name=draft.name,
                current_version=0,
                enabled=True,
                created_at=utcnow(),
                updated_at=utcnow(),
            )
            self.session.add(tool)
            try:
                await self.session.flush()
            except IntegrityError:
                raise ConflictError(f"tool {draft.name!r} already exists") from None
        else:
            previous = await self.version(tool, tool.current_version)
            previous_secret = previous.auth_header_ct
            if draft.auth_header is KEEP and previous_secret and draft.kind == "webhook":
                _same_origin_or_refuse(previous.webhook, draft.webhook)
        if draft.auth_header is KEEP:
            secret_ct = previous_secret if draft.kind == "webhook" else None
        elif draft.auth_header is None:
            secret_ct = None
        else:
            secret_ct = self.box.encrypt(
                str(draft.auth_header), secret_binding(tenant_id, draft.name)
            )
        row = ToolVersionRow(
            kind=draft.kind,
            sandbox=draft.sandbox,
            description=draft.description,
            parameters=draft.parameters,
            meta=draft.metadata,
            source=draft.source,
            module=draft.module,
            module_sha256=draft.module_sha256,
            webhook=draft.webhook,
            auth_header_ct=secret_ct,
            content_hash=draft.content_hash,
            on_error=draft.on_error,
        )
        return tool, await self._add_version(tool, row, actor)

    async def _add_version(
        self, tool: ToolRow, row: ToolVersionRow, actor: str | None
    ) -> ToolVersionRow:
        """Append ``row`` as the tool's next version and make it current."""
        row.tool_id, row.version = tool.id, tool.current_version + 1
        row.created_at, row.created_by = utcnow(), actor
        self.session.add(row)
        tool.current_version = row.version
        tool.updated_at = utcnow()
        try:
            await self.session.flush()
        except IntegrityError:
            raise ConflictError(f"tool {tool.name!r} was changed concurrently; retry") from None
        return row

    async def stored_version(self, tool: ToolDef) -> ToolVersionRow:
        """The exact stored version a resolved tool is (by its row id: a tool deleted and made
        again under the same name and number is another row), of the tool's owner."""
        stmt = (
            select(ToolVersionRow)
            .join(ToolRow, ToolRow.id == ToolVersionRow.tool_id)
            .where(ToolRow.tenant_id == tool.tenant_id, ToolVersionRow.id == tool.version_id)
        )
        row = await self.session.scalar(stmt)
        if row is None or row.content_hash != tool.content_hash:  # deleted since it resolved
            raise NotFoundError(f"tool {tool.name!r} version {tool.version} not found")
        return row

    async def versions(self, tenant_id: str, name: str) -> builtins.list[ToolVersionRow]:
        tool, _ = await self.get(tenant_id, name)
        result = await self.session.scalars(
            select(ToolVersionRow)
            .where(ToolVersionRow.tool_id == tool.id)
            .order_by(ToolVersionRow.version.desc())
        )
        return list(result)

    async def rollback(
        self, tenant_id: str, name: str, version: int, actor: str | None
    ) -> tuple[ToolRow, ToolVersionRow]:
        """Restore an old version by saving a copy of it as the newest version."""
        tool, _ = await self.get(tenant_id, name)
        old = await self.version(tool, version)
        copy = ToolVersionRow(**{column: getattr(old, column) for column in VERSION_CONTENT})
        added = await self._add_version(tool, copy, actor)
        rows = await self.session.scalars(
            select(WasmArtefactRow).where(WasmArtefactRow.version_id == old.id)
        )
        for row in rows.all():  # the compiled module comes along: no node compiles it again
            artefact = self.artefact_of(row)
            if artefact is not None:
                await self.keep_artefact(added.id, row.engine, artefact)
        return tool, added

    # compiled WASM modules, kept with their version ------------------------------------------
    async def artefact(self, version_id: int, engine: str) -> bytes | None:
        """The version's module as ``engine`` compiled it, if stored and its MAC holds."""
        row = await self.session.get(WasmArtefactRow, (version_id, engine))
        return None if row is None else self.artefact_of(row)

    def artefact_of(self, row: WasmArtefactRow) -> bytes | None:
        if self.box.verify_mac(
            row.artefact, _artefact_binding(row.version_id, row.engine), row.mac
        ):
            return row.artefact
        log.warning(
            "ignoring a stored WASM artefact whose MAC does not hold (version %s)", row.version_id
        )
        return None

    async def keep_artefact(self, version_id: int, engine: str, artefact: bytes) -> None:
        mac = self.box.mac(artefact, _artefact_binding(version_id, engine))
        await self.session.execute(
            delete(WasmArtefactRow).where(
                WasmArtefactRow.version_id == version_id, WasmArtefactRow.engine == engine
            )
        )
        self.session.add(
            WasmArtefactRow(version_id=version_id, engine=engine, artefact=artefact, mac=mac)
        )
        await self.session.flush()

    async def set_enabled(
        self, tenant_id: str, name: str, enabled: bool
    ) -> tuple[ToolRow, ToolVersionRow]:
        tool, version = await self.get(tenant_id, name)
        tool.enabled = enabled
        tool.updated_at = utcnow()
        return tool, version

    async def delete(self, tenant_id: str, name: str) -> None:
        tool, _ = await self.get(tenant_id, name)
        await self.session.execute(delete(ToolVersionRow).where(ToolVersionRow.tool_id == tool.id))
        await self.session.delete(tool)

    async def unchanged(
        self, tenant_id: str, draft: ToolDraft
    ) -> tuple[ToolRow, ToolVersionRow] | None:
        """The tool and its current version when ``draft`` would save exactly that again."""
        tool, current = await self.get(tenant_id, draft.name)
        if current.content_hash != draft.content_hash:
            return None
        if draft.auth_header is not KEEP and draft.auth_header != self.decrypt_secret(
            tenant_id, draft.name, current
        ):
            return None
        return tool, current

    def decrypt_secret(self, tenant_id: str, name: str, version: StoredVersion) -> str | None:
        if version.auth_header_ct is None:
            return None
        return self.box.decrypt(version.auth_header_ct, secret_binding(tenant_id, name))

    async def rotate_secrets(self) -> int:
        """Re-encrypt every stored secret with the newest key; returns how many changed."""
        stmt = (
            select(ToolVersionRow, ToolRow)
            .join(ToolRow, ToolRow.id == ToolVersionRow.tool_id)
            .where(ToolVersionRow.auth_header_ct.is_not(None))
        )
        changed = 0
        for version, tool in (await self.session.execute(stmt)).all():
            sealed = version.auth_header_ct
            if sealed is not None and self.box.needs_rotation(sealed):
                binding = secret_binding(tool.tenant_id, tool.name)
                version.auth_header_ct = self.box.encrypt(
                    self.box.decrypt(sealed, binding), binding
                )
                changed += 1
        return changed


def secret_binding(tenant_id: str, tool_name: str) -> str:
    return f"tool-secret/{tenant_id}/{tool_name}"


def tenant_secret_binding(tenant_id: str, name: str) -> str:
    return f"tenant-secret/{tenant_id}/{name}"


class SecretRepository:
    """A tenant's secrets for code tools: written and listed by name, read only by the call
    pipeline (decrypted for the one call that declared them)."""

    def __init__(self, session: AsyncSession, box: SecretBox) -> None:
        self.session = session
        self.box = box

    async def put(
        self, tenant_id: str, name: str, value: str, actor: str | None
    ) -> tuple[SecretRow, bool]:
        """Set the secret; (its row, whether it is new)."""
        row = await self.session.get(SecretRow, (tenant_id, name))
        created = row is None
        if row is None:
            row = SecretRow(tenant_id=tenant_id, name=name, created_at=utcnow())
            self.session.add(row)
        row.value_ct = self.box.encrypt(value, tenant_secret_binding(tenant_id, name))
        row.updated_at, row.updated_by = utcnow(), actor
        await self.session.flush()
        return row, created

    async def list(self, tenant_id: str) -> list[SecretRow]:
        return list(
            await self.session.scalars(
                select(SecretRow).where(SecretRow.tenant_id == tenant_id).order_by(SecretRow.name)
            )
        )

    async def delete(self, tenant_id: str, name: str) -> None:
        row = await self.session.get(SecretRow, (tenant_id, name))
        if row is None:
            raise NotFoundError(f"secret {name!r} not found")
        await self.session.delete(row)

    async def values(self, tenant_id: str, names: builtins.list[str]) -> dict[str, str]:
        """The named secrets that exist, decrypted."""
        rows = await self.session.scalars(
            select(SecretRow).where(SecretRow.tenant_id == tenant_id, SecretRow.name.in_(names))
        )
        return {
            row.name: self.box.decrypt(row.value_ct, tenant_secret_binding(tenant_id, row.name))
            for row in rows
        }

    async def rotate(self) -> int:
        changed = 0
        for row in await self.session.scalars(select(SecretRow)):
            if self.box.needs_rotation(row.value_ct):
                binding = tenant_secret_binding(row.tenant_id, row.name)
                row.value_ct = self.box.encrypt(self.box.decrypt(row.value_ct, binding), binding)
                changed += 1
        return changed


BOT_MODEL_FIELDS = (
    "model", "tool_round_model", "max_rounds", "max_context_tokens", "action_timeout_s",
    "system_prompt", "idle_timeout_s", "intent_detection", "skills", "max_tool_calls",
    "max_turn_tool_calls", "turn_timeout_s", "approvers", "tool_loading",
    "code_mode", "job_wait_s",
)  # fmt: skip


class BotRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def find(self, tenant_id: str, name: str) -> BotRow | None:
        return await self.session.scalar(
            select(BotRow).where(BotRow.tenant_id == tenant_id, BotRow.name == name)
        )

    async def get(self, tenant_id: str, name: str) -> BotRow:
        row = await self.find(tenant_id, name)
        if row is None:
            raise NotFoundError(f"bot {name!r} not found")
        return row

    async def list(self, tenant_id: str) -> list[BotRow]:
        return list(
            await self.session.scalars(
                select(BotRow).where(BotRow.tenant_id == tenant_id).order_by(BotRow.name)
            )
        )

    async def create(
        self,
        tenant_id: str,
        name: str,
        tools: builtins.list[Any] | None,
        intents: dict[str, builtins.list[str]] | None,
        max_tools: int | None = None,
        **model: Any,
    ) -> BotRow:
        if await self.find(tenant_id, name) is not None:
            raise ConflictError(f"bot {name!r} already exists")
        row = BotRow(
            tenant_id=tenant_id,
            name=name,
            tools=tools,
            intents=intents,
            max_tools=max_tools,
            created_at=utcnow(),
            updated_at=utcnow(),
            **model,
        )
        self.session.add(row)
        await self.session.flush()
        return row

    async def replace(
        self,
        tenant_id: str,
        name: str,
        tools: builtins.list[Any] | None,
        intents: dict[str, builtins.list[str]] | None,
        max_tools: int | None = None,
        **model: Any,
    ) -> BotRow:
        row = await self.get(tenant_id, name)
        row.tools, row.intents, row.max_tools = tools, intents, max_tools
        for key in BOT_MODEL_FIELDS:
            setattr(row, key, model.get(key))
        row.updated_at = utcnow()
        return row

    async def delete(self, tenant_id: str, name: str) -> None:
        await self.session.delete(await self.get(tenant_id, name))


class AuditRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def read(
        self, tenant_id: str | None, since: datetime | None, before: int | None, limit: int
    ) -> list[AuditRow]:
        """Audit lines newest first: one tenant's (``None``: everyone's), from ``since``,
        below the id ``before`` (the previous page's last)."""
        stmt = select(AuditRow)
        if tenant_id is not None:
            stmt = stmt.where(AuditRow.tenant_id == tenant_id)
        if since is not None:
            stmt = stmt.where(AuditRow.at >= since)
        if before is not None:
            stmt = stmt.where(AuditRow.id < before)
        return list(await self.session.scalars(stmt.order_by(AuditRow.id.desc()).limit(limit)))

    def record(
        self,
        actor: str | None,
        tenant_id: str | None,
        action: str,
        target: str,
        detail: dict[str, Any] | None = None,
    ) -> None:
        self.session.add(
            AuditRow(
                at=utcnow(),
                actor=actor,
                tenant_id=tenant_id,
                action=action,
                target=target,
                detail=detail,
            )
        )


def _same_origin_or_refuse(before: dict[str, Any] | None, after: dict[str, Any] | None) -> None:
    """A stored webhook secret is bound to the origin it was entered for: a new version that
    sends elsewhere must carry the secret again (or drop it), never inherit it."""
    old = webhook_origin((before or {}).get("url", ""))
    new = webhook_origin((after or {}).get("url", ""))
    if old is None or old != new:
        shown = f"{new[0]}://{new[1]}:{new[2]}" if new else "another origin"
        raise ValidationFailedError(
            [
                FieldError(
                    f"the webhook now sends to {shown}, not to the origin its stored secret was "
                    "entered for: send auth_header again (or null to drop it)",
                    field="auth_header",
                )
            ]
        )


def tool_def(tool: ToolRow, version: ToolVersionRow) -> ToolDef:
    return ToolDef(
        name=tool.name,
        description=version.description,
        parameters=version.parameters,
        metadata=version.meta,
        kind=version.kind,  # type: ignore[arg-type]
        origin="global" if tool.tenant_id == GLOBAL_TENANT else "tenant",
        version=version.version,
        content_hash=version.content_hash,
        tenant_id=tool.tenant_id,
        sandbox=version.sandbox,
        enabled=tool.enabled,
        version_id=version.id,
        saved_at_us=int(version.created_at.timestamp() * 1_000_000),
        on_error=version.on_error,
        method=str((version.webhook or {}).get("method") or "POST").upper()
        if version.kind == "webhook"
        else None,
    )


def bot_def(row: BotRow) -> BotDef:
    intents = {k: tuple(v) for k, v in row.intents.items()} if row.intents is not None else None
    names, pins = bot_tools(row.tools)
    return BotDef(
        name=row.name,
        tools=names,
        intents=intents,
        max_tools=row.max_tools,
        pins=pins,
        skills=row.skills,
        agent={key: getattr(row, key) for key in BOT_MODEL_FIELDS},
    )


def bot_tools(
    stored: list[Any] | None,
) -> tuple[tuple[str, ...] | None, tuple[tuple[str, int], ...]]:
    """A bot's stored tool list (names, or ``{"name", "version"}`` pins) as names and pins."""
    if stored is None:
        return None, ()
    names, pins = [], []
    for item in stored:
        if isinstance(item, dict):
            names.append(item["name"])
            if item.get("version") is not None:
                pins.append((item["name"], int(item["version"])))
        else:
            names.append(item)
    return tuple(names), tuple(pins)


R = TypeVar("R")


class _Repository(Generic[R]):
    """A repository attribute of ``Store``, made on first use (and its database session with it,
    if none is open yet); then kept on the store."""

    def __init__(self, make: Callable[[Store], R]) -> None:
        self.make = make
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, store: Store, owner: type | None = None) -> R:
        made = store.__dict__[self.name] = self.make(store)  # the instance's own from now on
        return made


class Store:
    """One request's unit of work. Its database session is opened on first use, so a request
    that reads only what the node caches (a call in a cached session) opens none."""

    def __init__(
        self,
        session: AsyncSession | None,
        box: SecretBox,
        parallel: async_sessionmaker[AsyncSession] | None = None,
        *,
        open_session: Callable[[], AsyncSession] | None = None,
    ) -> None:
        self._session = session
        self._open_session = open_session
        self.box = box
        self.parallel = parallel
        self.sessions = SessionRepository(lambda: self.session)
        self.changed_tenants: set[str] = set()
        self.changed_datasets: set[str] = set()  # tenants whose data sets changed
        self.revoked_keys: set[str] = set()
        # A tool has run for this unit of work and its answer is ready: from here on a database
        # that goes away must not turn that answer into an error a client would retry (which
        # would run the tool again). What the call changed in the session is lost then (logged).
        self.answered = False
        # SQLite: this unit of work already holds the database's one write lock (an
        # Idempotency-Key claimed in it), so a once-per-session claim is made in it too — in a
        # transaction of its own it would wait for this one until the database gave up
        self.holds_write_lock = False
        # a federated MCP server was declared or changed: once this commits, the node's watcher
        # looks at once (``server.calls.federation_watch``)
        self.servers_due = False

    @property
    def session(self) -> AsyncSession:
        if self._session is None:
            assert self._open_session is not None
            self._session = self._open_session()
        return self._session

    @property
    def opened(self) -> AsyncSession | None:
        """The database session, if this unit of work has opened one."""
        return self._session

    async def close(self) -> None:
        """End a unit of work that only read: its database session, if it opened one, closes
        (nothing to commit)."""
        if self._session is not None:
            await self._session.close()

    async def checkpoint(self) -> None:
        """Commit what this unit of work did so far and give its connection back (a job's run
        holds none while its tool runs); its next use begins anew."""
        if self._session is not None and self._session.in_transaction():
            await self._session.commit()

    @property
    def changed_jobs(self) -> dict[str, str | None]:
        """The jobs this unit of work changed and their sessions (none if it touched none)."""
        jobs = self.__dict__.get("jobs")
        return jobs.changed if jobs is not None else {}

    # the repositories, each made on first use
    tenants = _Repository(lambda s: TenantRepository(s.session, s.box))
    keys = _Repository(lambda s: KeyRepository(s.session))
    tools = _Repository(lambda s: ToolRepository(s.session, s.box))
    secrets = _Repository(lambda s: SecretRepository(s.session, s.box))
    providers = _Repository(lambda s: ProviderRepository(s.session, s.box))
    messages = _Repository(lambda s: MessageRepository(s.session))
    eval_runs = _Repository(lambda s: EvalRunRepository(s.session))
    bots = _Repository(lambda s: BotRepository(s.session))
    audit = _Repository(lambda s: AuditRepository(s.session))
    lifecycle = _Repository(lambda s: Lifecycle(s.session, s.sessions))
    jobs = _Repository(lambda s: JobRepository(s.session, s.box))
    mcp_servers = _Repository(lambda s: McpServerRepository(s.session, s.box))
    oauth = _Repository(lambda s: OAuthRepository(s.session, s.box))
    packages = _Repository(lambda s: PackageRepository(s.session))
    calls = _Repository(lambda s: CallRepository(s.session, s.parallel))
    datasets = _Repository(lambda s: DatasetRepository(s.session))
    preferences = _Repository(lambda s: PreferenceRepository(s.session))
    leads = _Repository(lambda s: LeadRepository(s.session))
    forms = _Repository(lambda s: FormRepository(s.session))
    calendars = _Repository(lambda s: CalendarRepository(s.session))
    memory = _Repository(lambda s: MemoryRepository(s.session))

    async def changed(
        self,
        actor: str | None,
        tenant_id: str,
        action: str,
        target: str,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Record a change that can alter snapshots: bump the version, write the audit line."""
        await self.tenants.bump(tenant_id)
        self.changed_tenants.add(tenant_id)
        self.audit.record(actor, tenant_id, action, target, detail)

    async def datasets_changed(
        self, actor: str | None, tenant_id: str, action: str, target: str
    ) -> None:
        """A data set changed: every node's skills see it once this commits."""
        self.changed_datasets.add(tenant_id)
        self.audit.record(actor, tenant_id, action, target, None)
        await announce(self.session, f"d:{tenant_id}")

    # RegistryStore port
    async def registry_versions(self, tenant_id: str) -> RegistryVersions | None:
        rows = (
            await self.session.execute(
                select(TenantRow.id, TenantRow.registry_version).where(
                    TenantRow.id.in_([tenant_id, GLOBAL_TENANT])
                )
            )
        ).all()
        versions = dict(rows)
        if tenant_id not in versions or tenant_id == GLOBAL_TENANT:
            return None
        return RegistryVersions(tenant=versions[tenant_id], global_=versions.get(GLOBAL_TENANT, 0))

    async def load_registry(self, tenant_id: str) -> TenantRegistryData:
        tenant = await self.tenants.get(tenant_id)
        rows = await self.tools.list([tenant_id, GLOBAL_TENANT])
        defs = [tool_def(t, v) for t, v in rows]
        bots = {row.name: bot_def(row) for row in await self.bots.list(tenant_id)}
        pinned: dict[tuple[str, str, int], ToolDef] = {}
        wanted = {pin for bot in bots.values() for pin in bot.pins}
        by_name = {(t.tenant_id, t.name): t for t, _ in rows}
        for name, version in wanted:
            for owner in (tenant_id, GLOBAL_TENANT):
                tool = by_name.get((owner, name))
                if tool is None:
                    continue
                row = await self.tools.find_version(tool, version)
                if row is not None:
                    pinned[(owner, name, version)] = tool_def(tool, row)
        return TenantRegistryData(
            allowlist=tuple(tenant.shared_tools or ()),
            tenant_tools=tuple(d for d in defs if d.tenant_id == tenant_id),
            global_tools=tuple(d for d in defs if d.tenant_id == GLOBAL_TENANT),
            bots=bots,
            sandbox_modules=granted_modules(tenant),
            egress_allow=tuple(tenant.egress_allow or ()),
            guardrails=guardrails.parse(tenant.guardrails)[0],
            pinned=pinned,
        )


# A session and its variables (one row per variable, or one with none): built once, as the
# statement of every call whose session state is not cached.
_STATE = (
    select(
        SessionRow.id,
        SessionRow.tenant_id,
        SessionRow.bot,
        SessionRow.intent,
        SessionRow.version,
        SessionRow.status,
        SessionRow.customer,
        SessionRow.end_reason,
        SessionRow.open_breakers,
        SessionRow.actions,
        SessionRow.loaded_tools,
        SessionVariableRow.name,
        SessionVariableRow.value,
    )
    .outerjoin(SessionVariableRow, SessionVariableRow.session_id == SessionRow.id)
    .where(SessionRow.id == bindparam("sid"))
)


def _new_record(row: SessionRow) -> SessionRecord:
    """A session this unit of work created, as the call path sees it (the rest: a new one's)."""
    return SessionRecord(
        id=row.id, tenant_id=row.tenant_id, bot=row.bot, intent=row.intent, customer=row.customer
    )


class SessionRepository:
    def __init__(self, session: Callable[[], AsyncSession]) -> None:
        self._session = session  # opened on first use (``Store.session``)
        self.bumped: set[str] = set()  # sessions whose snapshot this unit of work changed
        self.touched: set[str] = set()  # sessions whose state (snapshot or variables) it changed
        self._created: list[SessionRow] = []  # sessions it created (``committed_creations``)

    @property
    def session(self) -> AsyncSession:
        return self._session()

    async def changed(self, session_id: str, *, snapshot: bool = True) -> None:
        """This unit of work changes the session: every node's cached state of it is dropped
        when it commits (``s:`` wakes its event streams too; ``v:`` is variables only)."""
        if snapshot and session_id not in self.bumped:
            self.bumped.add(session_id)
            self.touched.add(session_id)
            await announce(self.session, f"s:{session_id}")
        elif session_id not in self.touched:
            self.touched.add(session_id)
            await announce(self.session, f"v:{session_id}")

    async def create(
        self,
        tenant_id: str,
        bot: str,
        intent: str | None,
        created_by: str | None,
        customer: str | None = None,
    ) -> SessionRecord:
        """A new session, flushed (its row exists in this unit of work), as plain data."""
        row = SessionRow(
            id=str(uuid.uuid4()),
            tenant_id=tenant_id,
            bot=bot,
            intent=intent,
            version=0,
            created_at=utcnow(),
            created_by=created_by,
            customer=customer,
        )
        self.session.add(row)
        await self.session.flush()
        self._created.append(row)
        return _new_record(row)

    def committed_creations(self) -> list[SessionRecord]:
        """The sessions this unit of work created, as it commits them (a row that a rollback
        took back is not among them): their state is known without reading it."""
        rows, self._created = self._created, []
        return [_new_record(r) for r in rows if inspect(r).persistent]

    async def get(self, tenant_id: str, session_id: str) -> SessionRow:
        row = await self.session.get(SessionRow, session_id)
        if row is None or row.tenant_id != tenant_id:
            raise NotFoundError(f"session {session_id!r} not found")
        return row

    async def get_with_variables(
        self, tenant_id: str, session_id: str
    ) -> tuple[SessionRecord, dict[str, Any]]:
        """A session and its variables in one round trip (a call's, when not cached)."""
        rows = (await self.session.execute(_STATE, {"sid": session_id})).all()
        if not rows or rows[0][1] != tenant_id:
            raise NotFoundError(f"session {session_id!r} not found")
        first = rows[0]
        record = SessionRecord(
            id=first[0],
            tenant_id=first[1],
            bot=first[2],
            intent=first[3],
            version=first[4],
            status=first[5],
            customer=first[6],
            end_reason=first[7],
            open_breakers=tuple(e for e in first[8] or () if isinstance(e, dict)),
            actions=tuple(first[9] or ()),
            loaded=tuple(str(n) for n in first[10] or ()),
        )
        return record, {row[11]: row[12] for row in rows if row[11] is not None}

    async def variables(self, session_id: str) -> dict[str, Any]:
        rows = await self.session.execute(
            select(SessionVariableRow.name, SessionVariableRow.value).where(
                SessionVariableRow.session_id == session_id
            )
        )
        return dict(rows.all())

    async def set_variables(self, session_id: str, values: dict[str, Any]) -> None:
        """Write-through: each variable is its own row, so concurrent calls do not clobber
        others."""
        if not values:
            return
        insert_ = pg_insert if dialect_name(self.session) == "postgresql" else sqlite_insert
        rows = [
            {"session_id": session_id, "name": k, "value": v, "updated_at": utcnow()}
            for k, v in values.items()
        ]
        stmt = insert_(SessionVariableRow).values(rows)
        stmt = stmt.on_conflict_do_update(
            index_elements=["session_id", "name"],
            set_={"value": stmt.excluded.value, "updated_at": stmt.excluded.updated_at},
        )
        await self.session.execute(stmt)
        await self.changed(session_id, snapshot=False)

    async def bump(self, session_id: str) -> None:
        """A change to this session's snapshot: a new version (and an event for its stream)."""
        await self.session.execute(
            update(SessionRow)
            .where(SessionRow.id == session_id)
            .values(version=SessionRow.version + 1)
        )
        await self.changed(session_id)

    async def count_failure(self, session_id: str, tool: str) -> int:
        """One more failure of ``tool`` in this session; the new count (atomic upsert)."""
        insert_ = pg_insert if dialect_name(self.session) == "postgresql" else sqlite_insert
        row = insert_(SessionToolFailureRow).values(session_id=session_id, tool=tool, failures=1)
        counted = row.on_conflict_do_update(
            index_elements=["session_id", "tool"],
            set_={"failures": SessionToolFailureRow.failures + 1},
        ).returning(SessionToolFailureRow.failures)
        return int((await self.session.execute(counted)).scalar_one())

    async def finish_claim(self, session_id: str, tool: str, done: bool) -> None:
        """End a once-per-session claim (``server.storage.claims``): done, or released for
        another try."""
        row = SessionToolClaimRow
        match = (row.session_id == session_id, row.tool == tool, row.done.is_(False))
        if done:
            await self.session.execute(update(row).where(*match).values(done=True))
        else:
            await self.session.execute(delete(row).where(*match))

    async def open_breaker(self, session_id: str, tool: str, until: float) -> None:
        """Take ``tool`` out of the session until ``until`` (epoch seconds); its failure count
        starts again."""
        row = await self.session.get(
            SessionRow, session_id, with_for_update=True, populate_existing=True
        )
        if row is None:
            return
        kept = [e for e in row.open_breakers or () if isinstance(e, dict) and e["tool"] != tool]
        row.open_breakers = [*kept, {"tool": tool, "until": until}]
        await self.session.execute(
            delete(SessionToolFailureRow).where(
                SessionToolFailureRow.session_id == row.id, SessionToolFailureRow.tool == tool
            )
        )
        await self.session.flush()
        await self.bump(row.id)

    async def set_intent(self, session_id: str, intent: str | None) -> None:
        """The session's intent: its snapshot changes (a new version)."""
        await self.session.execute(
            update(SessionRow)
            .where(SessionRow.id == session_id)
            .values(intent=intent, version=SessionRow.version + 1)
        )
        await self.changed(session_id)

    async def load_tools(self, session_id: str, names: Sequence[str], keep: int) -> None:
        """Add tools search_tools found to the session's (its latest ``keep``): its snapshot
        changes (a new version)."""
        row = await self.session.get(
            SessionRow, session_id, with_for_update=True, populate_existing=True
        )
        if row is None:
            raise NotFoundError(f"session {session_id!r} not found")
        before = list(row.loaded_tools or ())
        after = [n for n in before if n not in names] + list(dict.fromkeys(names))
        after = after[-keep:]
        if after == before:
            return
        row.loaded_tools = after
        row.version = row.version + 1
        await self.session.flush()
        await self.changed(session_id)

    async def set_actions(self, session_id: str, actions: list[dict[str, Any]]) -> None:
        row = await self.session.get(SessionRow, session_id)
        if row is None:
            raise NotFoundError(f"session {session_id!r} not found")
        row.actions = actions
        await self.session.flush()
        await self.bump(row.id)
