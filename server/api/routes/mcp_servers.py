"""Federated MCP servers (docs/federation.md): a remote MCP server whose tools become tools of the
tenant (kind ``mcp``). Developer keys manage their tenant's (admins name it with ``?tenant=``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Response

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, developer_tenant
from server.calls import federation

router = APIRouter(prefix="/v1/mcp-servers", tags=["mcp-servers"])

ServerName = Annotated[str, Path(max_length=32, description="the server's name in the tenant")]
EXAMPLE = {
    "url": "https://mcp.example.com/mcp",
    "tools": ["search_*", "get_ticket"],
    "auth_header": "Bearer s3cr3t",
    "timeout_ms": 10000,
}
ServerBody = Annotated[dict[str, Any], Body(openapi_examples={"server": {"value": EXAMPLE}})]


@router.put("/{name}", responses={201: {"description": "Declared a new server"}})
async def put_server(
    name: ServerName,
    body: ServerBody,
    response: Response,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Declare a remote MCP server (`url`; `tools`: the remote tools to take, by name or glob,
    `["*"]` for all; `prefix`, the server's name unless given; `auth_header`, sent to it and
    kept encrypted; `timeout_ms` per call). It is listed at once through the egress guard: each
    allowed tool becomes the tool `<prefix>__<name>`, and what could not is in `skipped`. A
    remote that cannot be listed is a 422 naming `url`, and nothing is stored."""
    tenant_id = developer_tenant(principal, tenant)
    view, created = await federation.put(
        runtime.services, store, principal.key_id, tenant_id, name, body
    )
    response.status_code = 201 if created else 200
    return view


@router.get("")
async def list_servers(
    principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    """The tenant's MCP servers, by name."""
    tenant_id = developer_tenant(principal, tenant)
    return {"servers": [federation.view(r) for r in await store.mcp_servers.list(tenant_id)]}


@router.get("/{name}")
async def get_server(
    name: ServerName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    """One server: its declaration, the tools it made, and how its last listing went."""
    tenant_id = developer_tenant(principal, tenant)
    return federation.view(await store.mcp_servers.get(tenant_id, name))


@router.post("/{name}/refresh")
async def refresh_server(
    name: ServerName,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """List the server again now (the node also does on the remote's `list_changed`, and every
    few minutes). A remote that cannot be listed leaves its tools as they were: `status` is
    `failing` and `error` says why."""
    tenant_id = developer_tenant(principal, tenant)
    return await federation.refresh(runtime.services, store, principal.key_id, tenant_id, name)


@router.delete("/{name}", status_code=204)
async def delete_server(
    name: ServerName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    """Remove the server and every tool it made."""
    tenant_id = developer_tenant(principal, tenant)
    await federation.delete(store, principal.key_id, tenant_id, name)
    return Response(status_code=204)
