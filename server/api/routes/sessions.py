"""Agents: attach to a bot (a session), read its snapshot and variables, call server tools."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Header, Query, Response

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, acting_tenant, require
from server.api.snapshots import snapshot_format, snapshot_response
from server.api.views import CallBody, IntentUpdate, SessionCreate
from server.bootstrap import Runtime
from server.calls import envelope
from server.calls.pipeline import CallRequest, session_inputs
from server.errors import FieldError, ValidationFailedError
from server.registry.model import SessionInputs
from server.registry.service import TenantView
from server.storage.repositories import Store
from server.storage.tables import SessionRow

router = APIRouter(prefix="/v1/sessions", tags=["sessions"])


async def _session(principal, store: Store, sid: str, tenant: str | None) -> tuple[str, SessionRow]:
    require(principal, "agent", "developer")
    tenant_id = acting_tenant(principal, tenant)
    return tenant_id, await store.sessions.get(tenant_id, sid)


async def _state(
    principal, runtime: Runtime, store: Store, sid: str, tenant: str | None
) -> tuple[str, SessionRow, TenantView, SessionInputs, dict[str, Any]]:
    """Everything a session request needs: one query, plus the cached registry view."""
    require(principal, "agent", "developer")
    tenant_id = acting_tenant(principal, tenant)
    row, variables = await store.sessions.get_with_variables(tenant_id, sid)
    view = await runtime.registry.view(store, tenant_id)
    view.bot(row.bot)
    return tenant_id, row, view, session_inputs(row, view, variables), variables


def _check_intent(view: TenantView, bot: str, intent: str | None) -> None:
    intents = view.bot(bot).intents
    if intent is not None and (not intents or intent not in intents or intent == "*"):
        known = ", ".join(sorted(k for k in (intents or {}) if k != "*")) or "none"
        raise ValidationFailedError(
            [FieldError(f"bot {bot!r} has no intent {intent!r} (known: {known})", field="intent")]
        )


@router.post("", status_code=201)
async def attach(
    body: SessionCreate,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> Response:
    """Attach to a bot: a new session and its snapshot (native format)."""
    require(principal, "agent", "developer")
    tenant_id = acting_tenant(principal, tenant)
    view = await runtime.registry.view(store, tenant_id)
    view.bot(body.bot)
    _check_intent(view, body.bot, body.intent)
    row = await store.sessions.create(tenant_id, body.bot, body.intent, principal.key_id)
    inputs = session_inputs(row, view, {})
    etag, snapshot = runtime.registry.rendered(view, body.bot, "native", inputs)
    payload = {
        "id": row.id,
        "bot": row.bot,
        "intent": row.intent,
        "snapshot": orjson.loads(snapshot),
    }
    return Response(
        orjson.dumps(payload),
        status_code=201,
        media_type="application/json",
        headers={"ETag": etag},
    )


@router.get("/{sid}/snapshot")
async def session_snapshot(
    sid: str,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    format: Annotated[str, Query(description="native, openai, anthropic or gemini")] = "native",
    strict: bool = False,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    """The session's tools now: the bot's tools for the current intent, minus completed and broken ones."""
    fmt = snapshot_format(format, strict)
    _, row, view, inputs, _ = await _state(principal, runtime, store, sid, tenant)
    return snapshot_response(runtime.registry, view, row.bot, fmt, if_none_match, inputs)


@router.put("/{sid}/intent")
async def set_intent(
    sid: str,
    body: IntentUpdate,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    tenant_id, row = await _session(principal, store, sid, tenant)
    view = await runtime.registry.view(store, tenant_id)
    _check_intent(view, row.bot, body.intent)
    row.intent = body.intent
    await store.sessions.bump(row.id)
    return {"id": row.id, "intent": body.intent}


@router.get("/{sid}/variables")
async def variables(
    sid: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    _, row = await _session(principal, store, sid, tenant)
    return {"id": row.id, "variables": await store.sessions.variables(row.id)}


@router.post("/{sid}/calls")
async def call_tool(
    sid: str,
    body: CallBody,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> Response:
    """Run a server tool of the session's snapshot; the envelope says whether the tool succeeded."""
    tenant_id, row, view, inputs, variables = await _state(principal, runtime, store, sid, tenant)
    snapshot = runtime.registry.snapshot(view, row.bot, inputs)
    entry = next((e for e in snapshot.entries if e.name == body.tool), None)
    if entry is None or entry.executor != "server":
        result = envelope.failure(
            body.tool, 0.0, "tool_not_available", f"{body.tool!r} is not in this session's tools"
        )
        return _json(result)
    request = CallRequest(
        tenant_id=tenant_id,
        tool=body.tool,
        arguments=body.arguments,
        session=row,
        variables=variables,
        modules=view.sandbox_modules,
        egress_allow=view.egress_allow,
    )
    return _json(await runtime.pipeline.call(store, request, view.visible[body.tool]))


def _json(envelope_: dict[str, Any]) -> Response:
    # The envelope is plain JSON data already: skip FastAPI's generic encoder on the hot path.
    return Response(orjson.dumps(envelope_), media_type="application/json")
