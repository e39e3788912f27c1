"""Per-user connections (docs/connections.md): a tenant's OAuth providers (developer keys), the
end user's way back from a provider (``/v1/oauth/callback``: no key — the state it carries is
the proof), a session's connect link (agent keys), and the connections themselves."""

from __future__ import annotations

import html
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Response
from fastapi.responses import HTMLResponse

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, developer_tenant
from server.api.routes.sessions import _state
from server.calls.connections import ConnectionFailed
from server.errors import NotFoundError, UnavailableError
from server.registry.connections import check_provider
from server.storage.tables import OAuthConnectionRow, OAuthProviderRow

router = APIRouter(tags=["connections"])

Name = Annotated[str, Path(max_length=32, description="the provider's name in the tenant")]
EXAMPLE = {
    "authorize_url": "https://auth.example.com/authorize",
    "token_url": "https://auth.example.com/token",
    "client_id": "quiver-acme",
    "client_secret": "s3cr3t",
    "scopes": ["profile"],
    "api": ["https://api.example.com"],
}
ProviderBody = Annotated[dict[str, Any], Body(openapi_examples={"provider": {"value": EXAMPLE}})]


def provider_view(row: OAuthProviderRow) -> dict[str, Any]:
    return {
        "name": row.name,
        "authorize_url": row.authorize_url,
        "token_url": row.token_url,
        "client_id": row.client_id,
        "client_secret": "********" if row.client_secret_ct else None,
        "scopes": list(row.scopes),
        "api": list(row.api),
        "created_at": row.created_at.isoformat(),
        "updated_at": row.updated_at.isoformat(),
    }


def connection_view(row: OAuthConnectionRow) -> dict[str, Any]:
    return {
        "provider": row.provider,
        "customer": row.customer,
        "scopes": list(row.scopes),
        "expires_at": row.expires_at.isoformat() if row.expires_at else None,
        "refreshable": row.refresh_ct is not None,
        "created_at": row.created_at.isoformat(),
        "updated_at": row.updated_at.isoformat(),
    }


@router.put("/v1/oauth-providers/{name}", responses={201: {"description": "A new provider"}})
async def put_provider(
    name: Name,
    body: ProviderBody,
    response: Response,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """An OAuth 2.1 provider the tenant's tools act through for their end users: its
    authorization and token endpoints, Quiver's client there (`client_secret` kept encrypted,
    left out for a public client), the scopes every connection asks for, and the API origins
    (`api`) its access tokens are added to."""
    tenant_id = developer_tenant(principal, tenant)
    spec = check_provider(name, body)
    await store.tenants.get(tenant_id)
    row, created = await store.oauth.put_provider(tenant_id, spec)
    await store.changed(principal.key_id, tenant_id, "oauth_provider.put", name)
    response.status_code = 201 if created else 200
    return provider_view(row)


@router.get("/v1/oauth-providers")
async def list_providers(
    principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    tenant_id = developer_tenant(principal, tenant)
    return {"providers": [provider_view(r) for r in await store.oauth.providers(tenant_id)]}


@router.get("/v1/oauth-providers/{name}")
async def get_provider(
    name: Name, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    tenant_id = developer_tenant(principal, tenant)
    row = await store.oauth.provider(tenant_id, name)
    if row is None:
        raise NotFoundError(f"OAuth provider {name!r} not found")
    return provider_view(row)


@router.delete("/v1/oauth-providers/{name}", status_code=204)
async def delete_provider(
    name: Name, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    """Remove the provider and every end user's connection to it."""
    tenant_id = developer_tenant(principal, tenant)
    await store.oauth.delete_provider(tenant_id, name)
    await store.changed(principal.key_id, tenant_id, "oauth_provider.delete", name)
    return Response(status_code=204)


@router.get("/v1/connections")
async def list_connections(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    customer: Annotated[str | None, Query(max_length=128)] = None,
) -> dict[str, Any]:
    """The tenant's end users' connections (never their tokens), of one customer if named."""
    tenant_id = developer_tenant(principal, tenant)
    rows = await store.oauth.connections(tenant_id, customer)
    return {"connections": [connection_view(r) for r in rows]}


@router.delete("/v1/connections/{provider}/{customer}", status_code=204)
async def delete_connection(
    provider: Name,
    customer: Annotated[str, Path(max_length=128)],
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> Response:
    """Forget an end user's tokens: their next call asks them to connect again."""
    tenant_id = developer_tenant(principal, tenant)
    await store.oauth.disconnect(tenant_id, provider, customer)
    await store.changed(principal.key_id, tenant_id, "connection.delete", f"{provider}/{customer}")
    return Response(status_code=204)


@router.post("/v1/sessions/{sid}/connections/{provider}")
async def connect_link(
    sid: str,
    provider: Name,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Whether the session's customer is connected to the provider with every scope the bot's
    tools need of it, and if not, the link that connects them (a page may offer it before any
    tool asks)."""
    state = await _state(principal, runtime, store, sid, tenant)
    connections = runtime.pipeline.connections
    if connections is None:
        raise UnavailableError("this node cannot act as end users")
    needed: set[str] = set()
    for tool in state.view.tools_for(state.session.bot).values():
        auth = tool.metadata.get("auth")
        if isinstance(auth, dict) and auth.get("provider") == provider:
            needed.update(auth.get("scopes") or ())
    asked = {"provider": provider, "scopes": sorted(needed)}
    user = await connections.bearer(store, state.tenant_id, asked, state.session.customer, sid)
    if isinstance(user, list):
        return {"provider": provider, "connected": True}
    return {
        "provider": provider,
        "connected": False,
        "code": user.code,
        "message": user.message,
        "url": user.url,
    }


@router.get("/v1/oauth/callback", response_class=HTMLResponse, include_in_schema=False)
async def callback(
    runtime: RuntimeDep,
    store: StoreDep,
    code: Annotated[str | None, Query(max_length=2048)] = None,
    state: Annotated[str | None, Query(max_length=4096)] = None,
    error: Annotated[str | None, Query(max_length=200)] = None,
) -> HTMLResponse:
    """Where a provider sends the end user back: the code is exchanged and the connection
    kept; the page says so (or what went wrong) and can be closed."""
    connections = runtime.pipeline.connections
    if error is not None or not code or not state or connections is None:
        said = f"The provider said: {error}" if error else "This link is incomplete."
        return _page("Not connected", said, 400)
    try:
        done = await connections.finish(store, code, state)
    except ConnectionFailed as exc:
        said = str(exc)
        return _page("Not connected", said[:1].upper() + said[1:] + ".", 400)
    await store.changed(
        None, done["tenant"], "connection.create", f"{done['provider']}/{done['customer']}"
    )
    return _page(
        "Connected",
        f"Your {done['provider']} account is connected. You can close this window.",
        200,
    )


def _page(title: str, message: str, status: int) -> HTMLResponse:
    body = (
        f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>"
        "<main style='font:16px system-ui;margin:4rem auto;max-width:32rem'>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(message)}</p></main>"
    )
    headers = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    return HTMLResponse(body, status_code=status, headers=headers)
