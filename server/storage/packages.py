"""Reviewed packages in storage (``server.registry.packages`` checks them; ``server.calls.
packages`` decides), and the node's read of a granted package's files for its engines."""

from __future__ import annotations

import builtins
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import NotFoundError
from server.registry.packages import PackageContents, engine_spec
from server.storage.tables import PackageRow, TenantRow, utcnow

MAX_KEPT = 64  # packages' files a node keeps in memory (8 MiB of code each at most)


class PackageRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def find(self, name: str, version: str) -> PackageRow | None:
        return await self.session.get(PackageRow, (name, version))

    async def get(self, name: str, version: str) -> PackageRow:
        row = await self.find(name, version)
        if row is None:
            raise NotFoundError(f"package {name} {version} not found")
        return row

    async def by_hash(self, sha256: str) -> PackageRow | None:
        return await self.session.scalar(select(PackageRow).where(PackageRow.sha256 == sha256))

    async def list(self, name: str | None = None) -> builtins.list[PackageRow]:
        stmt = select(PackageRow).order_by(PackageRow.name, PackageRow.version)
        if name is not None:
            stmt = stmt.where(PackageRow.name == name)
        return list((await self.session.scalars(stmt)).all())

    async def add(self, contents: PackageContents, actor: str | None) -> PackageRow:
        row = PackageRow(
            name=contents.name,
            version=contents.version,
            language=contents.language,
            sha256=contents.sha256,
            size=contents.size,
            files=contents.files,
            modules=list(contents.modules),
            main=contents.main,
            uploaded_by=actor,
            created_at=utcnow(),
        )
        self.session.add(row)
        await self.session.flush()
        return row

    async def delete(self, row: PackageRow) -> None:
        await self.session.delete(row)
        await self.session.flush()

    async def grantees(self, sha256: str) -> builtins.list[str]:
        """The tenants the package is granted to."""
        rows = await self.session.scalars(select(TenantRow).order_by(TenantRow.id))
        return [t.id for t in rows if any(p.get("sha256") == sha256 for p in t.packages or ())]


class StoredPackageFiles:
    """The node's engines' ``PackageFiles``: a package's files by content hash, read once and
    kept (a package never changes: its hash is its name), the least recently used dropped."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions
        self._kept: OrderedDict[str, Mapping[str, Any]] = OrderedDict()

    async def spec(self, key: str) -> Mapping[str, Any] | None:
        hit = self._kept.get(key)
        if hit is not None:
            self._kept.move_to_end(key)
            return hit
        async with self.sessions() as session:
            row = await PackageRepository(session).by_hash(key)
        if row is None:
            return None
        spec = engine_spec(row)
        self._kept[key] = spec
        while len(self._kept) > MAX_KEPT:
            self._kept.popitem(last=False)
        return spec
