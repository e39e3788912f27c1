"""Developers: tool definitions of every kind, their versions, validation dry runs."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Body, Header, Path, Response

from server.api.deps import (
    PrincipalDep,
    RuntimeDep,
    StoreDep,
    TenantQuery,
    developer_tenant,
    same_name,
)
from server.api.idempotency import IdempotencyKey, answer_once
from server.api.paging import CursorQuery, LimitQuery, page
from server.api.views import (
    EnabledUpdate,
    OpenApiImport,
    RollbackRequest,
    TestRequest,
    tool_public,
    version_public,
)
from server.calls import tool_saves
from server.calls.loading import checked_draft
from server.errors import (
    LoadTimeoutError,
    Problems,
    ValidationFailedError,
    VersionConflictError,
)
from server.keys import Principal
from server.registry.definitions import check_tool_body
from server.registry.openapi_import import parse_document, plan_import
from server.storage.repositories import Store

router = APIRouter(prefix="/v1/tools", tags=["tools"])

PYTHON_TOOL = """def execute(params, context):
    return {"success": True, "message": "Order " + params["order_id"] + " has shipped"}

tool = {
    "name": "check_order",
    "description": "Look up the status of an order by its id",
    "parameters": {"order_id": {"type": "string", "required": True}},
    "execute": execute,
    "metadata": {"timeout": 2000, "category": "orders"},
}
"""
EXAMPLES = {
    "python": {
        "summary": "Python tool (RestrictedPython)",
        "value": {"kind": "python", "sandbox": "restricted", "source": PYTHON_TOOL},
    },
    "webhook": {
        "summary": "Webhook tool",
        "value": {
            "kind": "webhook",
            "name": "get_weather",
            "description": "Current weather for a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
            "webhook_url": "https://api.example.com/weather/{city}",
            "method": "GET",
            "headers": {"Accept": "application/json"},
            "auth_header": "Bearer s3cr3t",
            "timeout_ms": 5000,
        },
    },
    "wasm": {
        "summary": "WASM module",
        "value": {
            "kind": "wasm",
            "name": "word_count",
            "description": "Count words",
            "module": "AGFzbQEAAAA=",
            "parameters": {"text": {"type": "string"}},
        },
    },
}
ToolBody = Annotated[dict[str, Any], Body(openapi_examples=EXAMPLES)]


def _developer_scope(principal: Principal, tenant: str | None) -> str:
    return developer_tenant(principal, tenant, allow_global=True)


@router.post("/validate")
async def validate_tool(
    body: ToolBody,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Dry run: every problem of a tool body (a Python file is loaded for real), nothing stored."""
    tenant_id = _developer_scope(principal, tenant)
    return await tool_saves.validate(runtime.services, store, tenant_id, body)


@router.post("", status_code=201)
async def create_tool(
    body: ToolBody,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """Create a tool (version 1). With an ``Idempotency-Key``, a retry gets the first answer
    (not a 409 for the name it created)."""
    tenant_id = _developer_scope(principal, tenant)

    async def create() -> Response:
        saved = await tool_saves.create(runtime.services, store, principal.key_id, tenant_id, body)
        public = orjson.dumps(tool_public(saved.tool, saved.version))
        return Response(public, status_code=201, media_type="application/json")

    return await answer_once(
        runtime.idempotency, principal, f"tool:{tenant_id}", idempotency_key, body, store, create
    )


@router.post("/import/openapi", responses={201: {"description": "Created the tools"}})
async def import_openapi(
    body: OpenApiImport,
    response: Response,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """One webhook tool per operation of an OpenAPI 3.x document (all, or those named by
    `operations` or `tags`). Every tool is checked as a save would; an operation that cannot
    become one is left out and listed in `skipped` with its reasons (none left: 422 with them).
    A name already taken is a 409 and nothing is stored. `dry_run` shows the tools without
    storing them."""
    tenant_id = _developer_scope(principal, tenant)
    problems = Problems()
    if (body.document is None) == (body.source is None):
        problems.add("document", "give the OpenAPI document as `document` or as `source`")
        problems.raise_if_any()
    document = body.document or parse_document(body.source or "", problems)
    problems.raise_if_any()
    assert document is not None
    plan = plan_import(
        document,
        problems,
        operations=body.operations,
        tags=body.tags,
        server=body.server,
        credentials=body.credentials,
        prefix=body.prefix,
        timeout_ms=body.timeout_ms,
    )
    problems.raise_if_any()
    drafts, kept, operations, ids = [], [], [], []
    for tool_body, operation, operation_id in zip(
        plan.tools, plan.operations, plan.operation_ids, strict=True
    ):
        draft, found = check_tool_body(tool_body, runtime.limits)
        if draft is not None and not found.errors:
            try:
                draft = await checked_draft(runtime.services, store, tenant_id, draft)
            except ValidationFailedError as exc:  # a load timeout is not this tool's to skip
                if isinstance(exc, LoadTimeoutError):
                    raise
                found.errors.extend(exc.errors)
        if draft is None or found.errors:  # left out, named by the tool it would have made
            named = Problems()
            for error in found.errors:
                named.add(
                    f"tools.{tool_body['name']}.{error.field or ''}".rstrip("."), error.message
                )
            plan.skip(operation, operation_id, named)
            continue
        drafts.append(draft)
        kept.append(tool_body)
        operations.append(operation)
        ids.append(operation_id)
    plan.tools, plan.operations, plan.operation_ids = kept, operations, ids
    plan.refuse_if_nothing_left(problems)
    problems.raise_if_any()
    shown = [{**t, "auth_header": "********"} if "auth_header" in t else t for t in plan.tools]
    if body.dry_run:
        return {
            "dry_run": True,
            "tools": shown,
            "operations": plan.operations,
            "skipped": plan.skipped,
        }
    if tenant_id != "*":
        await store.tenants.get(tenant_id)
    created = []
    for draft in drafts:
        tool, version = await store.tools.save(tenant_id, draft, principal.key_id, expect_new=True)
        created.append(tool_public(tool, version))
    await store.changed(
        principal.key_id,
        tenant_id,
        "tool.import",
        "openapi",
        {"tools": [t["name"] for t in created]},
    )
    response.status_code = 201
    return {
        "dry_run": False,
        "tools": created,
        "operations": plan.operations,
        "skipped": plan.skipped,
    }


@router.get("")
async def list_tools(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The tenant's tools by name, a page at a time."""
    tenant_id = _developer_scope(principal, tenant)
    rows, next_cursor = page(await store.tools.list(tenant_id), _by_tool_name, limit, cursor)
    return {"tools": [tool_public(t, v) for t, v in rows], "next_cursor": next_cursor}


def _by_tool_name(row: tuple[Any, Any]) -> list[Any]:
    return [row[0].name]


@router.get("/{name}")
async def get_tool(
    name: str,
    response: Response,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """The tool's current version; its `ETag` is the version, for `If-Match` on the next save."""
    tenant_id = _developer_scope(principal, tenant)
    tool, version = await store.tools.get(tenant_id, name)
    response.headers["ETag"] = f'"{version.version}"'
    return tool_public(tool, version)


@router.put("/{name}", responses={201: {"description": "Created (version 1 of a new tool)"}})
async def replace_tool(
    name: str,
    body: ToolBody,
    response: Response,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    if_match: Annotated[
        str | None,
        Header(
            max_length=64,
            description='`"<version>"` (the `ETag` read): save only if that is still the current '
            "version, else 412 `version_conflict` with the newest one (nothing overwritten)",
        ),
    ] = None,
) -> dict[str, Any]:
    """Save a new version (creates the tool if it does not exist yet). Saving exactly what
    the current version holds is a no-op: no new version, no change event."""
    tenant_id = _developer_scope(principal, tenant)
    services = runtime.services
    draft = await tool_saves.checked(services, store, tenant_id, body, update=True)
    same_name(draft.name, name)
    found = await store.tools.find(tenant_id, name)
    if if_match is not None:
        await _still_current(store, tenant_id, name, found, if_match)
    saved = await tool_saves.replace(services, store, principal.key_id, tenant_id, draft, found)
    if saved.unchanged:
        response.headers["Quiver-Unchanged"] = "true"
    response.status_code = 201 if saved.created else 200
    return tool_public(saved.tool, saved.version)


async def _still_current(
    store: Store, tenant_id: str, name: str, found: Any, if_match: str
) -> None:
    """``If-Match``: the version the writer read must still be the current one (``*``: any)."""
    wanted = if_match.strip()
    if wanted == "*" and found is not None:
        return
    current = found.current_version if found is not None else None
    if current is not None and wanted in (f'"{current}"', f'W/"{current}"'):
        return
    newest = tool_public(*await store.tools.get(tenant_id, name)) if found is not None else None
    said = f"version {current} is current" if current is not None else "the tool does not exist"
    raise VersionConflictError(
        f"{name!r} changed since you read it ({said}, you read {wanted}); "
        "compare with `current`, then save again with its ETag",
        newest,
    )


@router.patch("/{name}")
async def set_enabled(
    name: str,
    body: EnabledUpdate,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    tenant_id = _developer_scope(principal, tenant)
    tool, version = await store.tools.set_enabled(tenant_id, name, body.enabled)
    await store.changed(
        principal.key_id, tenant_id, "tool.enable" if body.enabled else "tool.disable", name
    )
    return tool_public(tool, version)


@router.delete("/{name}", status_code=204)
async def delete_tool(
    name: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    tenant_id = _developer_scope(principal, tenant)
    await store.tools.delete(tenant_id, name)
    await store.changed(principal.key_id, tenant_id, "tool.delete", name)
    return Response(status_code=204)


@router.get("/{name}/versions")
async def list_versions(
    name: str,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """A tool's versions, newest first, a page at a time."""
    tenant_id = _developer_scope(principal, tenant)
    versions = await store.tools.versions(tenant_id, name)
    rows, next_cursor = page(versions, lambda v: [-v.version], limit, cursor)
    return {
        "name": name,
        "versions": [version_public(v) for v in rows],
        "next_cursor": next_cursor,
    }


@router.get("/{name}/versions/{version}")
async def get_version(
    name: str,
    version: Annotated[int, Path(ge=1, le=2**31 - 1)],
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """One version of a tool as it was saved (its source or config), e.g. to compare two."""
    tenant_id = _developer_scope(principal, tenant)
    tool, _current = await store.tools.get(tenant_id, name)
    return tool_public(tool, await store.tools.version(tool, version))


@router.post("/{name}/rollback")
async def rollback_tool(
    name: str,
    body: RollbackRequest,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Restore an earlier version by saving it again as the newest version."""
    tenant_id = _developer_scope(principal, tenant)
    tool, version = await store.tools.rollback(tenant_id, name, body.version, principal.key_id)
    await store.changed(
        principal.key_id,
        tenant_id,
        "tool.rollback",
        name,
        {"from": body.version, "version": version.version},
    )
    return tool_public(tool, version)


@router.post("/{name}/test")
async def test_tool(
    name: str,
    body: TestRequest,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Run the tool for real with ``context.test_mode`` true; returns the envelope and the logs.

    Developers test their own tenant's tools; global tools (``?tenant=*``) need an admin.
    """
    tenant_id = _developer_scope(principal, tenant)
    return await tool_saves.test(
        runtime.services,
        store,
        tenant_id,
        name,
        body.arguments,
        llm=body.llm,
        variables=body.variables,
    )
