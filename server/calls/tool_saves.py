"""A developer's tools: check a body (a Python or JavaScript file loaded for real), save it as a
new version, and test it — the use cases the routes, the CLI and the client share. Each save is
a change of the tenant's registry (its version bumped, an audit line written) in the caller's
unit of work."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.calls.loading import checked_draft, keep_compiled, load_draft
from server.calls.pipeline import CallRequest
from server.calls.ports import CallStore
from server.calls.services import Services
from server.errors import NotFoundError
from server.records import StoredTool, StoredToolVersion
from server.registry.definitions import ToolDraft, check_tool_body


@dataclass(frozen=True)
class Saved:
    tool: StoredTool  # the tool as stored, and the version saved (or kept)
    version: StoredToolVersion
    created: bool = False  # a new tool, not a new version of one
    unchanged: bool = False  # the body was the current version's: nothing saved


async def validate(
    services: Services, store: CallStore, tenant_id: str, body: dict[str, Any]
) -> dict[str, Any]:
    """Every problem of a tool body, nothing stored: ``{valid, errors, warnings, code?}``."""
    draft, problems = check_tool_body(body, services.limits)
    code = None
    if draft is not None:
        loaded, code = await load_draft(services, store, tenant_id, draft)
        problems.extend(loaded)
    out: dict[str, Any] = {
        "valid": not problems.errors,
        "errors": [e.as_dict() for e in problems.errors],
        "warnings": [w.as_dict() for w in problems.warnings],
    }
    if code:
        out["code"] = code
    return out


async def checked(
    services: Services,
    store: CallStore,
    tenant_id: str,
    body: dict[str, Any],
    *,
    update: bool = False,
) -> ToolDraft:
    """The body as a draft to save (422 naming each problem; the file loaded for real)."""
    draft, problems = check_tool_body(body, services.limits, update=update)
    problems.raise_if_any()
    assert draft is not None
    return await checked_draft(services, store, tenant_id, draft)


async def create(
    services: Services, store: CallStore, actor: str | None, tenant_id: str, body: dict[str, Any]
) -> Saved:
    """A new tool, version 1 (409 if the name is taken)."""
    draft = await checked(services, store, tenant_id, body)
    if tenant_id != "*":
        await store.tenants.get(tenant_id)  # 404 for an unknown tenant before storing
    tool, version = await store.tools.save(tenant_id, draft, actor, expect_new=True)
    await keep_compiled(services, store, tenant_id, draft, version)
    await store.changed(actor, tenant_id, "tool.create", tool.name, {"version": version.version})
    return Saved(tool, version, created=True)


async def replace(
    services: Services,
    store: CallStore,
    actor: str | None,
    tenant_id: str,
    draft: ToolDraft,
    found: StoredTool | None,
) -> Saved:
    """A new version of ``found`` (the stored tool, or None: the tool is created). Saving
    exactly what the current version holds saves nothing."""
    if found is not None:
        unchanged = await store.tools.unchanged(tenant_id, draft)
        if unchanged is not None:
            return Saved(*unchanged, unchanged=True)
    elif tenant_id != "*":
        await store.tenants.get(tenant_id)
    tool, version = await store.tools.save(tenant_id, draft, actor, expect_new=None)
    await keep_compiled(services, store, tenant_id, draft, version)
    action = "tool.update" if found is not None else "tool.create"
    await store.changed(actor, tenant_id, action, draft.name, {"version": version.version})
    return Saved(tool, version, created=found is None)


async def test(
    services: Services,
    store: CallStore,
    tenant_id: str,
    name: str,
    arguments: dict[str, Any],
    *,
    llm: bool = False,
    variables: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the tool for real with ``context.test_mode`` true: the envelope, with its logs. A
    global tool (``*``) is the stored one, else the one on disk."""
    if tenant_id == "*" and await store.tools.find("*", name) is None:
        disk = services.registry.disk.tools.get(name)
        if disk is None:
            raise NotFoundError(f"tool {name!r} not found")
        tool = disk.tool
    else:
        tool = await store.tools.definition(tenant_id, name)
    request = CallRequest(
        tenant_id=tenant_id,
        tool=name,
        arguments=arguments,
        test=True,
        allow_llm=llm,
        variables=variables if variables is not None else {},
    )
    return await services.pipeline.call(store, request, tool)
