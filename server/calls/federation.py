"""Federated MCP servers, the use cases the routes, the clients and the node's watcher share:
declare a server (its tools listed at once, through the egress guard), refresh it, delete it.

A server's tools are tools of the tenant (kind ``mcp``), saved as versions like any other, so
they are resolved, gated, validated, broken, cached, logged and rate-limited as every tool is,
and every snapshot and MCP client hears of a change as of any save. A refresh saves only what
changed (a tool whose listing is the same keeps its version) and deletes the tools the remote no
longer offers; a remote that cannot be listed leaves the tools as they were and the server
``failing``, with the reason. A name the tenant already uses for a tool of its own, or that
another server's tools use, is not taken: it is reported in ``skipped``.

The remote is asked with no database transaction open (``checkpoint``): SQLite's one writer is
never held while a remote answers, and a PostgreSQL connection is not either.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from server.calls import tool_saves
from server.calls.mcp_remote import McpEngine, RemoteFailure
from server.calls.ports import CallStore
from server.calls.services import Services
from server.errors import Problems, UnavailableError
from server.records import StoredMcpServer
from server.registry.definitions import KEEP
from server.registry.federation import ServerSpec, check_server, plan_tools

log = logging.getLogger("quiver.federation")
LIST_TIMEOUT_S = 15.0


def _engine(services: Services) -> McpEngine:
    engine = services.engines.mcp
    if engine is None:
        raise UnavailableError("this node cannot reach MCP servers")
    return engine


def spec_of(row: StoredMcpServer) -> ServerSpec:
    return ServerSpec(
        name=row.name,
        url=row.url,
        tools=tuple(row.tools),
        prefix=row.prefix,
        timeout_ms=row.timeout_ms,
        auth_header=KEEP,
        cacheable=tuple(row.cacheable or ()),
        cache_ttl=row.cache_ttl,
    )


async def put(
    services: Services,
    store: CallStore,
    actor: str | None,
    tenant_id: str,
    name: str,
    body: Any,
) -> tuple[dict[str, Any], bool]:
    """Declare (or change) a server and take its tools. The remote is listed first: one that
    cannot be (refused by the guard, unreachable, not MCP) is a 422 naming ``url`` with the
    reason, and nothing is stored. Returns the server's view and whether it is new."""
    spec = check_server(name, body, services.limits)
    await store.tenants.get(tenant_id)  # 404 for an unknown tenant
    stored = await store.mcp_servers.find(tenant_id, name)
    if spec.auth_header is KEEP:
        secret = store.mcp_servers.secret(stored) if stored is not None else None
    else:
        secret = spec.auth_header if isinstance(spec.auth_header, str) else None
    try:
        listing, protocol = await _listing(services, store, tenant_id, spec.url, secret)
    except RemoteFailure as failure:
        problems = Problems()
        problems.add("url", f"the MCP server could not be listed ({failure.code}): {failure}")
        problems.raise_if_any()
        raise  # unreachable: raise_if_any raised
    row, created = await store.mcp_servers.put(tenant_id, spec, actor)
    view = await _apply(services, store, actor, tenant_id, row, spec, listing, protocol, secret)
    await store.changed(actor, tenant_id, "mcp_server.put", name, {"tools": row.made})
    store.servers_due = True  # the node's watcher takes it once this commits
    return view, created


async def refresh(
    services: Services, store: CallStore, actor: str | None, tenant_id: str, name: str
) -> dict[str, Any]:
    """List the server again and bring its tools up to date. A remote that cannot be listed
    leaves them as they were: the server is ``failing``, with the reason."""
    row = await store.mcp_servers.get(tenant_id, name)
    spec, secret = spec_of(row), store.mcp_servers.secret(row)
    try:
        listing, protocol = await _listing(services, store, tenant_id, spec.url, secret)
    except RemoteFailure as failure:
        row = await store.mcp_servers.get(tenant_id, name)
        store.mcp_servers.failed(row, failure.code, str(failure), _now())
        log.info("MCP server %s of %s could not be listed: %s", name, tenant_id, failure.code)
        return view(row)
    row = await store.mcp_servers.get(tenant_id, name)  # changed meanwhile: its latest
    spec = spec_of(row)
    return await _apply(services, store, actor, tenant_id, row, spec, listing, protocol, secret)


async def delete(store: CallStore, actor: str | None, tenant_id: str, name: str) -> None:
    """Remove the server and every tool it made."""
    row = await store.mcp_servers.delete(tenant_id, name)
    for tool, version in await store.tools.list(tenant_id):
        if _made_by(version.kind, version.webhook, name):
            await store.tools.delete(tenant_id, tool.name)
    await store.changed(actor, tenant_id, "mcp_server.delete", name, {"tools": row.made})


async def _apply(
    services: Services,
    store: CallStore,
    actor: str | None,
    tenant_id: str,
    row: StoredMcpServer,
    spec: ServerSpec,
    listing: list[Any],
    protocol: str,
    secret: str | None,
) -> dict[str, Any]:
    remote = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listing]
    plan = plan_tools(spec, remote, secret)
    existing = {tool.name: (tool, version) for tool, version in await store.tools.list(tenant_id)}
    made: list[str] = []
    for draft in plan.drafts:
        found = existing.get(draft.name)
        if found is not None and not _made_by(found[1].kind, found[1].webhook, spec.name):
            taken = f"the tenant has a tool {draft.name!r} already"
            remote_name = str((draft.webhook or {}).get("tool"))
            error = {"field": "name", "message": taken}
            plan.skipped.append({"tool": remote_name, "errors": [error]})
            continue
        await tool_saves.replace(
            services, store, actor, tenant_id, draft, found[0] if found else None
        )
        made.append(draft.name)
    for name, (_, version) in existing.items():
        if name not in made and _made_by(version.kind, version.webhook, spec.name):
            await store.tools.delete(tenant_id, name)
            await store.changed(actor, tenant_id, "tool.delete", name, {"mcp_server": spec.name})
    made.sort()
    store.mcp_servers.listed(row, made, protocol, plan.skipped, _now())
    out = view(row)
    out["missing"] = plan.missing
    return out


def _made_by(kind: str, config: dict[str, Any] | None, server: str) -> bool:
    return kind == "mcp" and (config or {}).get("server") == server


async def _listing(
    services: Services, store: CallStore, tenant_id: str, url: str, secret: str | None
) -> tuple[list[Any], str]:
    """The remote's tools and protocol version, asked with no transaction open (Raises
    ``RemoteFailure``)."""
    extra = await store.tenants.allowlist(tenant_id)
    await store.checkpoint()
    return await _engine(services).list_tools(url, secret, extra, LIST_TIMEOUT_S)


def _now() -> datetime:
    return datetime.now(UTC)


def view(row: StoredMcpServer) -> dict[str, Any]:
    """A server as its tenant's developers see it (its secret never)."""
    return {
        "name": row.name,
        "url": row.url,
        "tools": list(row.tools),
        "prefix": row.prefix,
        "timeout_ms": row.timeout_ms,
        "cacheable": list(row.cacheable or []),
        "cache_ttl": row.cache_ttl,
        "status": row.status,
        "error": row.error,
        "protocol_version": row.protocol_version,
        "made": list(row.made),
        "skipped": list(row.skipped or []),
        "refreshed_at": row.refreshed_at.isoformat() if row.refreshed_at else None,
        "created_at": row.created_at.isoformat(),
        "updated_at": row.updated_at.isoformat(),
    }
