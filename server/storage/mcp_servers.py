"""Federated MCP servers in storage (``server.calls.federation`` decides what they hold). A server's
auth header is encrypted and bound to the tenant and the server's name, as a tool's secret is."""

from __future__ import annotations

import builtins
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import NotFoundError
from server.registry.definitions import KEEP
from server.registry.federation import ServerSpec
from server.secretbox import SecretBox
from server.storage.tables import McpServerRow, utcnow


def server_binding(tenant_id: str, name: str) -> str:
    return f"mcp-server/{tenant_id}/{name}"


class McpServerRepository:
    def __init__(self, session: AsyncSession, box: SecretBox) -> None:
        self.session = session
        self.box = box

    async def find(self, tenant_id: str, name: str) -> McpServerRow | None:
        return await self.session.get(McpServerRow, (tenant_id, name))

    async def get(self, tenant_id: str, name: str) -> McpServerRow:
        row = await self.find(tenant_id, name)
        if row is None:
            raise NotFoundError(f"MCP server {name!r} not found")
        return row

    async def list(self, tenant_id: str | None = None) -> builtins.list[McpServerRow]:
        """A tenant's servers by name; every tenant's (``None``: the node's watcher)."""
        stmt = select(McpServerRow).order_by(McpServerRow.tenant_id, McpServerRow.name)
        if tenant_id is not None:
            stmt = stmt.where(McpServerRow.tenant_id == tenant_id)
        return list((await self.session.scalars(stmt)).all())

    def secret(self, row: McpServerRow) -> str | None:
        if row.secret_ct is None:
            return None
        return self.box.decrypt(row.secret_ct, server_binding(row.tenant_id, row.name))

    async def put(
        self, tenant_id: str, spec: ServerSpec, actor: str | None
    ) -> tuple[McpServerRow, bool]:
        """Store the declaration (its secret kept unless the spec gives one); returns the row
        and whether it is new. What its listing made is recorded by ``listed``."""
        row = await self.find(tenant_id, spec.name)
        created = row is None
        if row is None:
            row = McpServerRow(
                tenant_id=tenant_id, name=spec.name, made=[], status="new", created_at=utcnow()
            )
            self.session.add(row)
        row.url, row.tools, row.prefix = spec.url, list(spec.tools), spec.prefix
        row.timeout_ms = spec.timeout_ms
        row.cacheable, row.cache_ttl = list(spec.cacheable), spec.cache_ttl
        if spec.auth_header is not KEEP:
            row.secret_ct = (
                None
                if spec.auth_header is None
                else self.box.encrypt(str(spec.auth_header), server_binding(tenant_id, spec.name))
            )
        row.updated_at, row.updated_by = utcnow(), actor
        await self.session.flush()
        return row, created

    @staticmethod
    def listed(
        row: McpServerRow,
        made: builtins.list[str],
        protocol_version: str | None,
        skipped: builtins.list[Any],
        when: datetime,
    ) -> None:
        row.made, row.protocol_version, row.skipped = made, protocol_version, skipped
        row.status, row.error, row.refreshed_at = "ok", None, when

    @staticmethod
    def failed(row: McpServerRow, code: str, message: str, when: datetime) -> None:
        """The last listing failed: the tools it made stay as they were."""
        row.status, row.refreshed_at = "failing", when
        row.error = {"code": code, "message": message}

    async def delete(self, tenant_id: str, name: str) -> McpServerRow:
        row = await self.get(tenant_id, name)
        await self.session.delete(row)
        return row

    async def rotate(self) -> int:
        """Re-encrypt every server's secret with the newest key; returns how many changed."""
        changed = 0
        for row in await self.list():
            if row.secret_ct is None:
                continue
            if self.box.needs_rotation(row.secret_ct):
                binding = server_binding(row.tenant_id, row.name)
                row.secret_ct = self.box.encrypt(self.box.decrypt(row.secret_ct, binding), binding)
                changed += 1
        return changed

    async def watch(
        self, node: str, now: datetime, until: datetime, most: int = 1000
    ) -> builtins.list[McpServerRow]:
        """The servers ``node`` listens to from now until ``until``: the ones it held (renewed)
        and, up to ``most`` in all, ones nobody holds (a lease never taken, or run out: its node
        is gone) — so the first node up does not take every server. Each is taken by a
        conditional update, so two nodes never both hold one."""
        holding = await self.session.scalar(
            select(func.count()).select_from(McpServerRow).where(McpServerRow.watched_by == node)
        )
        await self.session.execute(
            update(McpServerRow).where(McpServerRow.watched_by == node).values(watch_until=until)
        )
        free = await self.session.execute(
            select(McpServerRow.tenant_id, McpServerRow.name, McpServerRow.watched_by)
            .where(or_(McpServerRow.watched_by.is_(None), McpServerRow.watch_until < now))
            .order_by(McpServerRow.tenant_id, McpServerRow.name)
            .limit(max(most - int(holding or 0), 0))
        )
        for tenant_id, name, holder in free.all():
            held = (
                McpServerRow.watched_by.is_(None)
                if holder is None
                else and_(McpServerRow.watched_by == holder, McpServerRow.watch_until < now)
            )
            await self.session.execute(
                update(McpServerRow)
                .where(McpServerRow.tenant_id == tenant_id, McpServerRow.name == name, held)
                .values(watched_by=node, watch_until=until)
            )
        rows = await self.session.scalars(
            select(McpServerRow)
            .where(McpServerRow.watched_by == node)
            .execution_options(populate_existing=True)
        )
        return list(rows.all())

    async def unwatch(self, node: str) -> None:
        """``node`` stops: its servers are free for another node at once."""
        await self.session.execute(
            update(McpServerRow)
            .where(McpServerRow.watched_by == node)
            .values(watched_by=None, watch_until=None)
        )
