"""Developers: bots (which tools they offer, and the intent map) and their snapshots."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Response

from server.agent.intents import check_detection
from server.api.deps import (
    PrincipalDep,
    RuntimeDep,
    StoreDep,
    TenantQuery,
    acting_tenant,
    require,
    same_name,
)
from server.api.paging import CursorQuery, LimitQuery, page
from server.api.snapshots import snapshot_format, snapshot_response
from server.api.views import BotBody, bot_public
from server.errors import FieldError, ValidationFailedError
from server.registry.model import SessionInputs
from server.storage.repositories import BOT_MODEL_FIELDS

router = APIRouter(prefix="/v1/bots", tags=["bots"])


@router.post("", status_code=201)
async def create_bot(
    body: BotBody, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    require(principal, "developer")
    tenant_id = acting_tenant(principal, tenant)
    await store.tenants.get(tenant_id)
    await _check_pins(store, tenant_id, body)
    await _check_model(store, tenant_id, body)
    row = await store.bots.create(
        tenant_id, body.name, body.stored_tools(), body.intents, body.max_tools,
        **body.model_dump(include=set(BOT_MODEL_FIELDS)),
    )  # fmt: skip
    await store.changed(principal.key_id, tenant_id, "bot.create", body.name)
    return bot_public(row)


@router.get("")
async def list_bots(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The tenant's bots by name, a page at a time."""
    require(principal, "developer")
    bots = await store.bots.list(acting_tenant(principal, tenant))
    rows, next_cursor = page(bots, lambda r: [r.name], limit, cursor)
    return {"bots": [bot_public(r) for r in rows], "next_cursor": next_cursor}


@router.get("/{bot}")
async def get_bot(
    bot: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    require(principal, "developer")
    return bot_public(await store.bots.get(acting_tenant(principal, tenant), bot))


@router.put("/{bot}")
async def replace_bot(
    bot: str, body: BotBody, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    require(principal, "developer")
    tenant_id = acting_tenant(principal, tenant)
    same_name(body.name, bot)
    await _check_pins(store, tenant_id, body)
    await _check_model(store, tenant_id, body)
    row = await store.bots.replace(
        tenant_id, bot, body.stored_tools(), body.intents, body.max_tools,
        **body.model_dump(include=set(BOT_MODEL_FIELDS)),
    )  # fmt: skip
    await store.changed(principal.key_id, tenant_id, "bot.update", bot)
    return bot_public(row)


@router.delete("/{bot}", status_code=204)
async def delete_bot(
    bot: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    require(principal, "developer")
    tenant_id = acting_tenant(principal, tenant)
    await store.bots.delete(tenant_id, bot)
    await store.changed(principal.key_id, tenant_id, "bot.delete", bot)
    return Response(status_code=204)


@router.get("/{bot}/snapshot")
async def bot_snapshot(
    bot: str,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    format: Annotated[str, Query(description="native, openai, anthropic or gemini")] = "native",
    strict: Annotated[bool, Query(description="OpenAI strict mode schemas")] = False,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    """The bot's tools in a provider format, with an ETag (send `If-None-Match` for a 304)."""
    require(principal, "developer", "agent")
    fmt = snapshot_format(format, strict)
    tenant_id = acting_tenant(principal, tenant)
    view = await runtime.registry.view(store, tenant_id)
    view.bot(bot)
    breakers = await runtime.tracker.tenant_breakers(tenant_id)
    inputs = SessionInputs(open_breakers=breakers.open, version=breakers.generation)
    return snapshot_response(runtime.registry, view, bot, fmt, if_none_match, inputs)


async def _check_pins(store, tenant_id: str, body: BotBody) -> None:
    """A pinned version must exist (of the tenant's tool, else the global one of that name)."""
    problems = []
    for i, pin in body.pins():
        tool = await store.tools.find(tenant_id, pin.name) or await store.tools.find("*", pin.name)
        if tool is None:
            problems.append(FieldError(f"no tool {pin.name!r} to pin", field=f"tools[{i}].name"))
        elif await store.tools.find_version(tool, pin.version) is None:
            message = f"{pin.name!r} has no version {pin.version}"
            problems.append(FieldError(message, field=f"tools[{i}].version"))
    if problems:
        raise ValidationFailedError(problems)


async def _check_model(store, tenant_id: str, body: BotBody) -> None:
    """A bot's models name providers of its tenant."""
    problems = []
    for field in ("model", "tool_round_model"):
        ref = getattr(body, field)
        if ref and await store.providers.find(tenant_id, ref.split("/", 1)[0]) is None:
            message = f"no provider {ref.split('/', 1)[0]!r} (PUT /v1/providers/{{name}} first)"
            problems.append(FieldError(message, field=field))
    if body.tool_round_model and not body.model:
        problems.append(FieldError("needs `model` too", field="tool_round_model"))
    problems += check_detection(body.intent_detection, body.intents)
    if body.intent_detection and body.intent_detection.get("mode") == "model" and not body.model:
        problems.append(FieldError("the model mode needs the bot's `model`", field="intent_detection.mode"))  # fmt: skip
    if problems:
        raise ValidationFailedError(problems)
