"""Developers: bots (which tools they offer, and the intent map) and their snapshots."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Response

from server.agent import bots
from server.agent.evals import check_cases, run_evals
from server.api.deps import (
    PrincipalAloneDep,
    PrincipalDep,
    RuntimeDep,
    StoreDep,
    TenantQuery,
    acting_tenant,
    developer_tenant,
    require,
    same_name,
)
from server.api.paging import CursorQuery, LimitQuery, page
from server.api.routes.datasets import items_page
from server.api.snapshots import snapshot_format, snapshot_response
from server.api.views import BotBody, EvalCase, bot_public
from server.bootstrap import Runtime
from server.errors import FieldError, NotFoundError, ValidationFailedError
from server.keys import Principal
from server.registry.formats import Format
from server.registry.model import SessionInputs
from server.storage.repositories import BOT_MODEL_FIELDS, Store

MAX_EVAL_CASES = 200

router = APIRouter(prefix="/v1/bots", tags=["bots"])


@router.post("", status_code=201)
async def create_bot(
    body: BotBody, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    tenant_id = developer_tenant(principal, tenant)
    return bot_public(await bots.create(store, principal.key_id, tenant_id, _spec(body)))


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
    every = await store.bots.list(acting_tenant(principal, tenant))
    rows, next_cursor = page(every, lambda r: [r.name], limit, cursor)
    return {"bots": [bot_public(r) for r in rows], "next_cursor": next_cursor}


@router.get("/{bot}")
async def get_bot(
    bot: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    require(principal, "developer")
    return bot_public(await store.bots.get(acting_tenant(principal, tenant), bot))


@router.put("/{bot}", responses={201: {"description": "Created (there was no such bot)"}})
async def replace_bot(
    bot: str,
    body: BotBody,
    response: Response,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Set every setting of the bot, creating it if it does not exist yet (201)."""
    tenant_id = developer_tenant(principal, tenant)
    same_name(body.name, bot)
    row, created = await bots.save(store, principal.key_id, tenant_id, _spec(body))
    if created:
        response.status_code = 201
    return bot_public(row)


def _spec(body: BotBody) -> bots.BotSpec:
    settings = body.model_dump(include=set(BOT_MODEL_FIELDS))
    return bots.BotSpec(body.name, body.stored_tools(), body.intents, body.max_tools, settings)


@router.delete("/{bot}", status_code=204)
async def delete_bot(
    bot: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    tenant_id = developer_tenant(principal, tenant)
    await store.bots.delete(tenant_id, bot)
    await store.changed(principal.key_id, tenant_id, "bot.delete", bot)
    return Response(status_code=204)


PANELS = {"qa": "faq", "search": "catalog"}  # the skill whose data set a panel shows: its kind


@router.get("/{bot}/panel/{skill}")
async def panel(
    bot: str,
    skill: Literal["qa", "search"],
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """What the bot's FAQ (``qa``) or catalog (``search``) skill answers from, a page at a
    time, for a panel the end user browses (an agent key may read it): the items as the skill
    shows them. 404 if the bot does not use that skill."""
    require(principal, "agent", "developer")
    tenant_id = acting_tenant(principal, tenant)
    row = await store.bots.get(tenant_id, bot)
    kind = PANELS[skill]
    skills = row.skills or {}
    if skill not in skills:
        raise NotFoundError(f"bot {bot!r} does not use the {skill} skill")
    name = (skills[skill] or {}).get("dataset")
    if name is None:  # the skill's default: the tenant's only data set of the kind
        named = [d.name for d in await store.datasets.list(tenant_id) if d.kind == kind]
        if len(named) != 1:
            raise NotFoundError(f"bot {bot!r} names no {kind} data set for its {skill} skill")
        name = named[0]
    dataset = await store.datasets.get(tenant_id, name)
    if dataset.kind != kind:
        raise NotFoundError(f"data set {name!r} is not a {kind} data set")
    items, next_cursor = await items_page(store, tenant_id, dataset, limit, cursor)
    shown = [_panel_item(kind, data) for data in items]
    return {"bot": bot, "skill": skill, "dataset": name, "items": shown, "next_cursor": next_cursor}


def _panel_item(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    if kind == "faq":
        fields = ("id", "question", "answer", "category")
        return {k: data.get(k) for k in fields}
    return {
        "id": data.get("id"),
        "fields": data.get("fields") or {},
        "meta": data.get("meta") or {},
    }


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
    fmt = snapshot_format(format, strict)
    return await answer_bot_snapshot(bot, principal, runtime, store, tenant, fmt, if_none_match)


async def answer_bot_snapshot(
    bot: str,
    principal: Principal,
    runtime: Runtime,
    store: Store,
    tenant: str | None,
    fmt: Format,
    if_none_match: str | None,
) -> Response:
    """The route's answer, for the route and its direct door (``server.api.direct_door``)."""
    require(principal, "developer", "agent")
    tenant_id = acting_tenant(principal, tenant)
    view = await runtime.registry.view(store, tenant_id)
    view.bot(bot)
    breakers = await runtime.tracker.tenant_breakers(tenant_id)
    inputs = SessionInputs(open_breakers=breakers.open, version=breakers.generation)
    return snapshot_response(runtime.registry, view, bot, fmt, if_none_match, inputs)


@router.put("/{bot}/evals")
async def put_evals(
    bot: str,
    cases: list[EvalCase],
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Replace the bot's eval cases: messages to send, and the tools the agent should call
    (with at least these arguments), should not call, and how many rounds a turn may take."""
    tenant_id = developer_tenant(principal, tenant)
    row = await store.bots.get(tenant_id, bot)
    if len(cases) > MAX_EVAL_CASES:
        raise ValidationFailedError([FieldError(f"at most {MAX_EVAL_CASES} cases", field="cases")])
    view = await runtime.registry.view(store, tenant_id)
    offered = {e.name for e in runtime.registry.snapshot(view, bot).entries}
    given = [c.model_dump() for c in cases]
    check_cases(given, offered)
    row.evals = given
    store.audit.record(principal.key_id, tenant_id, "bot.evals", bot, {"cases": len(given)})
    return {"bot": bot, "cases": given}


@router.get("/{bot}/evals")
async def get_evals(
    bot: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    row = await store.bots.get(developer_tenant(principal, tenant), bot)
    return {"bot": bot, "cases": row.evals or []}


@router.post("/{bot}/evals/run")
async def run_bot_evals(
    bot: str, principal: PrincipalAloneDep, runtime: RuntimeDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    """Run every case through the agent loop with the tools in test mode; the report (per case
    pass/fail with its transcript, per expected tool its pass rate) is stored and returned."""
    tenant_id = developer_tenant(principal, tenant)
    async with runtime.sessions() as session, session.begin():
        row = await runtime.store(session).bots.get(tenant_id, bot)
    if not row.evals:
        raise ValidationFailedError(
            [FieldError("the bot has no eval cases (PUT …/evals)", field="evals")]
        )
    return await run_evals(runtime.services, runtime.agent, tenant_id, bot)


@router.get("/{bot}/evals/runs")
async def list_eval_runs(
    bot: str,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The bot's eval runs, newest first: when, and how many cases passed."""
    tenant_id = developer_tenant(principal, tenant)
    runs = await store.eval_runs.of_bot(tenant_id, bot)
    rows, next_cursor = page(runs, lambda r: [-r.created_at.timestamp(), r.id], limit, cursor)
    return {
        "runs": [
            {
                "id": r.id,
                "created_at": r.created_at.isoformat(),
                "pass_rate": r.pass_rate,
                "passed": r.report.get("passed"),
                "total": r.report.get("total"),
                "tools": r.report.get("tools"),
            }
            for r in rows
        ],
        "next_cursor": next_cursor,
    }
