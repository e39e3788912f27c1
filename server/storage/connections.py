"""OAuth providers and end users' connections in storage (``server.calls.connections`` decides
what they hold). Every secret is encrypted and bound to where it belongs: a provider's client
secret to the tenant and the provider, a connection's tokens to the tenant, the provider and the
customer — a value copied to another row does not decrypt. The ``state`` of an authorization in
progress is sealed the same way, so it needs no table and cannot be forged or read."""

from __future__ import annotations

import builtins
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import NotFoundError
from server.registry.connections import ProviderSpec
from server.registry.definitions import KEEP
from server.secretbox import SecretBox, SecretBoxError
from server.storage.tables import OAuthConnectionRow, OAuthProviderRow, utcnow

STATE = "oauth-state"


def _client_binding(tenant_id: str, name: str) -> str:
    return f"oauth-client/{tenant_id}/{name}"


def _token_binding(tenant_id: str, provider: str, customer: str, kind: str) -> str:
    return f"oauth-{kind}/{tenant_id}/{provider}/{customer}"


class OAuthRepository:
    def __init__(self, session: AsyncSession, box: SecretBox) -> None:
        self.session = session
        self.box = box

    # providers
    async def provider(self, tenant_id: str, name: str) -> OAuthProviderRow | None:
        return await self.session.get(OAuthProviderRow, (tenant_id, name))

    async def providers(self, tenant_id: str) -> builtins.list[OAuthProviderRow]:
        stmt = (
            select(OAuthProviderRow)
            .where(OAuthProviderRow.tenant_id == tenant_id)
            .order_by(OAuthProviderRow.name)
        )
        return list((await self.session.scalars(stmt)).all())

    async def put_provider(
        self, tenant_id: str, spec: ProviderSpec
    ) -> tuple[OAuthProviderRow, bool]:
        row = await self.provider(tenant_id, spec.name)
        created = row is None
        if row is None:
            row = OAuthProviderRow(tenant_id=tenant_id, name=spec.name, created_at=utcnow())
            self.session.add(row)
        row.authorize_url, row.token_url = spec.authorize_url, spec.token_url
        row.client_id, row.scopes, row.api = spec.client_id, list(spec.scopes), list(spec.api)
        if spec.client_secret is not KEEP:
            row.client_secret_ct = (
                None
                if spec.client_secret is None
                else self.box.encrypt(
                    str(spec.client_secret), _client_binding(tenant_id, spec.name)
                )
            )
        row.updated_at = utcnow()
        await self.session.flush()
        return row, created

    def client_secret(self, row: OAuthProviderRow) -> str | None:
        if row.client_secret_ct is None:
            return None
        return self.box.decrypt(row.client_secret_ct, _client_binding(row.tenant_id, row.name))

    async def delete_provider(self, tenant_id: str, name: str) -> None:
        row = await self.provider(tenant_id, name)
        if row is None:
            raise NotFoundError(f"OAuth provider {name!r} not found")
        await self.session.execute(
            delete(OAuthConnectionRow).where(
                OAuthConnectionRow.tenant_id == tenant_id, OAuthConnectionRow.provider == name
            )
        )
        await self.session.delete(row)

    # connections
    async def connection(
        self, tenant_id: str, provider: str, customer: str
    ) -> OAuthConnectionRow | None:
        return await self.session.get(OAuthConnectionRow, (tenant_id, provider, customer))

    async def connections(
        self, tenant_id: str, customer: str | None = None
    ) -> builtins.list[OAuthConnectionRow]:
        stmt = select(OAuthConnectionRow).where(OAuthConnectionRow.tenant_id == tenant_id)
        if customer is not None:
            stmt = stmt.where(OAuthConnectionRow.customer == customer)
        stmt = stmt.order_by(OAuthConnectionRow.customer, OAuthConnectionRow.provider)
        return list((await self.session.scalars(stmt)).all())

    def tokens(self, row: OAuthConnectionRow) -> tuple[str, str | None]:
        """The connection's access token and refresh token (if any), decrypted."""
        where = (row.tenant_id, row.provider, row.customer)
        access = self.box.decrypt(row.access_ct, _token_binding(*where, "access"))
        refresh = (
            self.box.decrypt(row.refresh_ct, _token_binding(*where, "refresh"))
            if row.refresh_ct is not None
            else None
        )
        return access, refresh

    async def connect(
        self,
        tenant_id: str,
        provider: str,
        customer: str,
        access: str,
        refresh: str | None,
        scopes: builtins.list[str],
        expires_at: datetime | None,
    ) -> OAuthConnectionRow:
        """Store the customer's tokens (replacing what a connection held; a refresh that
        brings no new refresh token keeps the old one)."""
        row = await self.connection(tenant_id, provider, customer)
        if row is None:
            row = OAuthConnectionRow(
                tenant_id=tenant_id, provider=provider, customer=customer, created_at=utcnow()
            )
            self.session.add(row)
        where = (tenant_id, provider, customer)
        row.access_ct = self.box.encrypt(access, _token_binding(*where, "access"))
        if refresh is not None:
            row.refresh_ct = self.box.encrypt(refresh, _token_binding(*where, "refresh"))
        row.scopes, row.expires_at, row.updated_at = scopes, expires_at, utcnow()
        await self.session.flush()
        return row

    async def disconnect(self, tenant_id: str, provider: str, customer: str) -> None:
        row = await self.connection(tenant_id, provider, customer)
        if row is None:
            raise NotFoundError(f"{customer!r} has no connection to {provider!r}")
        await self.session.delete(row)

    # the state of an authorization in progress
    def seal_state(self, state: dict[str, Any]) -> str:
        return self.box.encrypt(orjson.dumps(state).decode(), STATE)

    def open_state(self, sealed: str) -> dict[str, Any] | None:
        """The state Quiver sealed, or None for anything else (forged, altered, another key's)."""
        try:
            opened = orjson.loads(self.box.decrypt(sealed, STATE))
        except (SecretBoxError, ValueError):
            return None
        return opened if isinstance(opened, dict) else None

    async def rotate(self) -> int:
        """Re-encrypt every client secret and token with the newest key."""
        changed = 0
        for provider in (await self.session.scalars(select(OAuthProviderRow))).all():
            sealed = provider.client_secret_ct
            if sealed is not None and self.box.needs_rotation(sealed):
                binding = _client_binding(provider.tenant_id, provider.name)
                provider.client_secret_ct = self.box.encrypt(
                    self.box.decrypt(sealed, binding), binding
                )
                changed += 1
        for row in (await self.session.scalars(select(OAuthConnectionRow))).all():
            where = (row.tenant_id, row.provider, row.customer)
            if self.box.needs_rotation(row.access_ct):
                binding = _token_binding(*where, "access")
                row.access_ct = self.box.encrypt(self.box.decrypt(row.access_ct, binding), binding)
                changed += 1
            if row.refresh_ct is not None and self.box.needs_rotation(row.refresh_ct):
                binding = _token_binding(*where, "refresh")
                row.refresh_ct = self.box.encrypt(
                    self.box.decrypt(row.refresh_ct, binding), binding
                )
                changed += 1
        return changed
