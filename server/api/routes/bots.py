"""Developers: bots (which tools they offer, and the intent map) and their snapshots."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response

from server.api.deps import (
    PrincipalDep,
    RuntimeDep,
    StoreDep,
    TenantQuery,
    acting_tenant,
    require,
    same_name,
)
from server.api.views import BotBody, bot_public
from server.errors import FieldError, ValidationFailedError
from server.registry.formats import FORMATS

router = APIRouter(prefix="/v1/bots", tags=["bots"])


@router.post("", status_code=201)
async def create_bot(
    body: BotBody, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    require(principal, "developer")
    tenant_id = acting_tenant(principal, tenant)
    await store.tenants.get(tenant_id)
    row = await store.bots.create(tenant_id, body.name, body.tools, body.intents)
    await store.changed(principal.key_id, tenant_id, "bot.create", body.name)
    return bot_public(row)


@router.get("")
async def list_bots(
    principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    require(principal, "developer")
    return {
        "bots": [bot_public(r) for r in await store.bots.list(acting_tenant(principal, tenant))]
    }


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
    row = await store.bots.replace(tenant_id, bot, body.tools, body.intents)
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
    request: Request,
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
    if format not in FORMATS:
        raise ValidationFailedError(
            [FieldError(f"must be one of {', '.join(FORMATS)}", field="format")]
        )
    fmt = "openai-strict" if format == "openai" and strict else format
    view = await runtime.registry.view(store, acting_tenant(principal, tenant))
    view.bot(bot)
    etag = runtime.registry.etag(view, bot, fmt)  # type: ignore[arg-type]
    if if_none_match is not None and etag in [t.strip() for t in if_none_match.split(",")]:
        return Response(status_code=304, headers={"ETag": etag})
    etag, body = runtime.registry.rendered(view, bot, fmt)  # type: ignore[arg-type]
    return Response(
        body, media_type="application/json", headers={"ETag": etag, "Cache-Control": "no-cache"}
    )
