"""Agents: attach to a bot (a session), read its snapshot, variables and events, register
browser actions, call server tools and report browser outcomes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Header, Path, Query, Response
from fastapi.responses import StreamingResponse

from server.agent.loop import Emit, Turn
from server.api import sse
from server.api.deps import (
    PrincipalAloneDep,
    PrincipalDep,
    RuntimeDep,
    StoreDep,
    TenantQuery,
    acting_tenant,
    developer_tenant,
    require,
    role_of,
    unit_of_work,
)
from server.api.idempotency import IdempotencyKey, answer_once
from server.api.paging import (
    CursorQuery,
    LimitQuery,
    decode_id_cursor,
    decode_time_cursor,
    encode_cursor,
    keyset,
)
from server.api.snapshots import snapshot_format, snapshot_response
from server.api.views import (
    ActionAnswer,
    ActionsBody,
    CallBody,
    DetectBody,
    EndBody,
    IntentUpdate,
    MessageBody,
    OutcomeBody,
    OutcomeError,
    SessionCreate,
    VariablesBody,
    aware,
    call_public,
    message_public,
    session_public,
)
from server.bootstrap import Runtime
from server.calls import jobs, lifecycle
from server.calls.messages import MessageFormat, tool_result_message
from server.calls.session_calls import (
    CALL_ID,
    BrowserOutcome,
    SessionState,
    call_in_session,
    change_intent,
    load_state,
    replace_browser_actions,
    report_browser_outcome,
    set_variables,
)
from server.calls.session_calls import attach as attach_session
from server.errors import (
    FieldError,
    NotFoundError,
    QuiverError,
    ValidationFailedError,
)
from server.events import diff, fingerprints
from server.keys import Principal
from server.registry.formats import Format, native
from server.registry.model import SessionRecord, Snapshot
from server.storage.repositories import Store
from server.storage.tables import SessionRow, utcnow

router = APIRouter(prefix="/v1/sessions", tags=["sessions"])
log = logging.getLogger("quiver.sessions")


async def _session(
    principal: Principal, store: Store, sid: str, tenant: str | None
) -> tuple[str, SessionRow]:
    require(principal, "agent", "developer")
    tenant_id = acting_tenant(principal, tenant)
    return tenant_id, await store.sessions.get(tenant_id, sid)


async def _state(
    principal: Principal, runtime: Runtime, store: Store, sid: str, tenant: str | None
) -> SessionState:
    require(principal, "agent", "developer")
    return await load_state(runtime.services, store, acting_tenant(principal, tenant), sid)


@router.post("", status_code=201)
async def attach(
    body: SessionCreate,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """Attach to a bot: a new session and its snapshot (native format). With an
    ``Idempotency-Key``, a retry gets the same session."""
    require(principal, "agent", "developer")
    return await answer_once(
        runtime.idempotency,
        principal,
        f"attach:{tenant}",
        idempotency_key,
        body.model_dump(),
        store,
        lambda: _attach(body, principal, runtime, store, tenant),
    )


async def _attach(
    body: SessionCreate, principal: Principal, runtime: Runtime, store: Store, tenant: str | None
) -> Response:
    tenant_id = acting_tenant(principal, tenant)
    attached = await attach_session(
        runtime.services, store, tenant_id, body.bot, body.intent, principal.key_id, body.customer
    )
    row = attached.session
    etag, snapshot = runtime.registry.rendered(attached.view, row.bot, "native", attached.inputs)
    payload = {
        "id": row.id,
        "bot": row.bot,
        "intent": row.intent,
        "customer": row.customer,
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
    """The session's tools now: the bot's tools for the current intent, minus completed and
    broken ones, capped by the bot's budget, plus the session's browser actions."""
    fmt = snapshot_format(format, strict)
    return await answer_session_snapshot(sid, principal, runtime, store, tenant, fmt, if_none_match)


async def answer_session_snapshot(
    sid: str,
    principal: Principal,
    runtime: Runtime,
    store: Store,
    tenant: str | None,
    fmt: Format,
    if_none_match: str | None,
) -> Response:
    """The route's answer, for the route and its direct door (``server.api.direct_door``)."""
    state = await _state(principal, runtime, store, sid, tenant)
    return snapshot_response(
        runtime.registry, state.view, state.session.bot, fmt, if_none_match, state.inputs
    )


@router.put("/{sid}/intent")
async def set_intent(
    sid: str,
    body: IntentUpdate,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    state = await _state(principal, runtime, store, sid, tenant)
    await change_intent(store, state, body.intent)
    return {"id": sid, "intent": body.intent}


@router.put("/{sid}/actions")
async def set_actions(
    sid: str,
    body: ActionsBody,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Replace the session's browser actions. A name taken by a server tool is refused (409)."""
    state = await _state(principal, runtime, store, sid, tenant)
    actions = await replace_browser_actions(runtime.services, store, state, body.actions)
    return {"id": sid, "actions": [a["name"] for a in actions]}


@router.get("/{sid}/variables")
async def variables(
    sid: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    _, row = await _session(principal, store, sid, tenant)
    return {"id": row.id, "variables": await store.sessions.variables(row.id)}


@router.patch("/{sid}/variables")
async def patch_variables(
    sid: str,
    body: VariablesBody,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Set session variables from the host page or a flow (slot filling); the session's tools
    read them in ``context.variables``. Audited by name (values are the customer's)."""
    state = await _state(principal, runtime, store, sid, tenant)
    values = await set_variables(store, state, body.variables)
    names = sorted(body.variables)
    store.audit.record(principal.key_id, state.tenant_id, "session.variables", sid, {"set": names})
    return {"id": sid, "variables": values}


@router.post("/{sid}/calls")
async def call_tool(
    sid: str,
    body: CallBody,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    idempotency_key: IdempotencyKey = None,
    format: Annotated[
        MessageFormat | None,
        Query(
            description=(
                "also answer `message`: the tool-result message to append, in this "
                "provider's shape (give the model's `call_id`)"
            )
        ),
    ] = None,
) -> Response:
    """Run a server tool of the session's snapshot; the envelope says whether the tool succeeded.
    With an ``Idempotency-Key``, a retry gets the first envelope again and runs nothing."""
    digest = {**body.model_dump(), "format": format}
    return await answer_once(
        runtime.idempotency,
        principal,
        f"call:{sid}",
        idempotency_key,
        digest,
        store,
        lambda: answer_call(sid, body, principal, runtime, store, tenant, format),
    )


async def answer_call(
    sid: str,
    body: CallBody,
    principal: Principal,
    runtime: Runtime,
    store: Store,
    tenant: str | None,
    fmt: MessageFormat | None = None,
) -> Response:
    """The call through the session's gate (both doors of the hot route answer with this)."""
    state = await _state(principal, runtime, store, sid, tenant)
    answer = await call_in_session(
        runtime.services, store, state, body.tool, body.arguments, caller=role_of(principal)
    )
    if fmt is not None:
        answer = {**answer, "message": tool_result_message(fmt, answer, body.call_id)}
    return _json(answer)


@router.post("/{sid}/calls/{call_id}/result", status_code=201)
async def report_outcome(
    sid: str,
    call_id: Annotated[str, Path(pattern=CALL_ID.pattern)],
    body: OutcomeBody,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Record what a browser action did: logged with the session's calls, and counted for the
    session breaker (three failures take the action out of the snapshot)."""
    state = await _state(principal, runtime, store, sid, tenant)
    error = body.error or OutcomeError(code="browser_error", message="the browser action failed")
    outcome = BrowserOutcome(
        body.tool,
        body.success,
        call_id,
        body.result,
        error.code,
        error.message,
        body.latency_ms,
        body.arguments,
    )
    await report_browser_outcome(runtime.services, store, state, outcome)
    return {"id": call_id, "recorded": True}


@router.get("/{sid}/calls")
async def session_calls(
    sid: str,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The tool calls of one conversation, oldest first (server calls and browser outcomes),
    a page at a time."""
    _, row = await _session(principal, store, sid, tenant)
    after = _call_cursor(cursor)
    await runtime.call_log.flush()  # this node's pending log rows first: read your own calls
    calls = await store.calls.of_session(row.id, limit + 1, after)
    more, calls = len(calls) > limit, calls[:limit]
    last = calls[-1] if calls else None
    return {
        "id": row.id,
        "next_cursor": encode_cursor(last.at.isoformat(), last.id) if more and last else None,
        "calls": [call_public(c) for c in calls],
    }


def _call_cursor(cursor: str | None) -> tuple[datetime, int] | None:
    return decode_time_cursor(cursor, int)


@router.get("/{sid}/events")
async def events(
    sid: str,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    """Server-sent events: a `snapshot` event (version, diff, tools) whenever this session's
    tools change, a `tool_partial` event (tool, seq, partial) for each partial result a running
    call emits, a `job` event (the job as `GET /v1/jobs/{id}` shows it) whenever one of its
    jobs starts, reports progress or ends, heartbeats in between. Send `Last-Event-ID` to
    resume with a diff (partials are not kept: a stream resumed misses those sent while it was
    away)."""
    state = await _state(principal, runtime, store, sid, tenant)
    last = (
        int(last_event_id) if last_event_id and re.fullmatch(r"\d{1,18}", last_event_id) else None
    )
    hub = runtime.events
    watcher = sse.watch(runtime, state.tenant_id, sid)  # each rebuilds its snapshot on a change

    async def stream() -> AsyncIterator[bytes]:
        sent_version, sent = last, hub.recall(sid, last) if last is not None else None
        sent_status = "active"
        try:
            yield b"retry: 1000\n\n"
            while not hub.closing.is_set():
                watcher.wake.clear()
                current = await _current_snapshot(runtime, state.tenant_id, sid)
                if current is None:
                    yield b'event: closed\ndata: {"reason": "session deleted"}\n\n'
                    return
                snapshot, record = current
                if record.status != sent_status:  # handed to a person, given back, or ended
                    sent_status = record.status
                    public = await _public(runtime, state.tenant_id, sid)
                    yield b"event: status\ndata: " + orjson.dumps(public) + b"\n\n"
                prints = fingerprints(snapshot)
                if snapshot.version != sent_version or prints != sent:
                    hub.remember(sid, snapshot.version, prints)
                    yield _event(snapshot, diff(sent, prints))
                    sent_version, sent = snapshot.version, prints
                while watcher.partials:
                    partial = orjson.dumps(watcher.partials.popleft())
                    yield b"event: tool_partial\ndata: " + partial + b"\n\n"
                if watcher.jobs:
                    changed, watcher.jobs = sorted(watcher.jobs), set()
                    for job in await _jobs(runtime, state.tenant_id, changed):
                        yield b"event: job\ndata: " + orjson.dumps(job) + b"\n\n"
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watcher.wake.wait(), runtime.settings.sse_heartbeat_s)
                    continue
                yield b": heartbeat\n\n"
            yield b'event: closed\ndata: {"reason": "server shutting down"}\n\n'
        finally:
            hub.unwatch(watcher)

    return sse.event_stream(stream())


async def _current_snapshot(
    runtime: Runtime, tenant_id: str, sid: str
) -> tuple[Snapshot, SessionRecord] | None:
    """The session's snapshot now — from what the node holds when nothing changed (a stream
    woken for another session's change opens no database session)."""
    async with unit_of_work(runtime) as store:
        try:
            state = await load_state(runtime.services, store, tenant_id, sid)
        except NotFoundError:
            return None
    return runtime.registry.snapshot(state.view, state.session.bot, state.inputs), state.session


async def _jobs(runtime: Runtime, tenant_id: str, ids: list[str]) -> list[dict[str, Any]]:
    """The session's jobs as they are now (a job event says what it is, never what it was)."""
    async with runtime.sessions() as session, session.begin():
        store = runtime.store(session)
        found = [await store.jobs.find(job) for job in ids]
    return [jobs.public(row) for row in found if row is not None and row.tenant_id == tenant_id]


async def _public(runtime: Runtime, tenant_id: str, sid: str) -> dict[str, Any]:
    async with runtime.sessions() as session, session.begin():
        return session_public(await runtime.store(session).sessions.get(tenant_id, sid))


def _event(snapshot: Snapshot, change: dict[str, Any]) -> bytes:
    data = orjson.dumps(
        {"version": snapshot.version, **change, "tools": [native(e) for e in snapshot.entries]}
    )
    return b"id: %d\nevent: snapshot\ndata: %s\n\n" % (snapshot.version, data)


def _json(envelope_: dict[str, Any]) -> Response:
    # The envelope is plain JSON data already: skip FastAPI's generic encoder on the hot path.
    return Response(orjson.dumps(envelope_), media_type="application/json")


@router.post("/{sid}/messages")
async def send_message(
    sid: str,
    body: MessageBody,
    principal: PrincipalAloneDep,
    runtime: RuntimeDep,
    tenant: TenantQuery = None,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """The agent loop: the user's message joins the session's history and the bot's model
    answers, calling the session's tools as it needs (at most the bot's `max_rounds` rounds).
    `stream: true` answers with server-sent events — `text` deltas, `tool_call` and `tool_result`
    with call ids, `usage` per round, then `done` (or `error`); otherwise the final message, the
    rounds and the tokens used. When the model calls a browser action (or a tool whose metadata
    says `requires_approval`), the turn pauses: `status: requires_action` (`requires_approval`)
    lists the calls; `POST …/messages/{mid}/results` answers them and the turn goes on.
    With an ``Idempotency-Key`` (an answer that is not streamed), a retry gets the first answer
    again and no second turn runs."""
    tenant_id = await _loop_scope(principal, runtime, sid, tenant, check=body.stream)
    _not_streamed(idempotency_key, body.stream)
    return await answer_once(
        runtime.idempotency,
        principal,
        f"message:{sid}",
        idempotency_key,
        body.model_dump(),
        None,
        lambda: _run_turn(
            lambda emit, stream: runtime.agent.turn(tenant_id, sid, body.content, emit, stream),
            body.stream,
            sid,
        ),
    )


@router.post("/{sid}/messages/{mid}/results")
async def answer_actions(
    sid: str,
    mid: str,
    answers: list[ActionAnswer],
    principal: PrincipalAloneDep,
    runtime: RuntimeDep,
    tenant: TenantQuery = None,
    stream: bool = False,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """The outcomes of a paused turn's browser actions (`[{call_id, success, result|error}]`)
    or the decisions on its approvals (`[{call_id, approved, reason}]`, from a key the bot's
    `approvers` name); once every call is answered the loop resumes and answers as
    `POST …/messages` does (`?stream=true` for SSE). An answer of the wrong kind for its call
    (an outcome for a call waiting for approval, say) is a 422 naming it. With an
    ``Idempotency-Key`` (not streamed), a retry gets the first answer again."""
    tenant_id = await _loop_scope(principal, runtime, sid, tenant, check=stream)
    _not_streamed(idempotency_key, stream)
    given = [a.model_dump(exclude_unset=True) for a in answers]
    role = role_of(principal)
    return await answer_once(
        runtime.idempotency,
        principal,
        f"results:{sid}:{mid}",
        idempotency_key,
        given,
        None,
        lambda: _run_turn(
            lambda emit, live: runtime.agent.resume(tenant_id, sid, mid, given, emit, live, role),
            stream,
            sid,
        ),
    )


def _not_streamed(idempotency_key: str | None, stream: bool) -> None:
    """A streamed answer cannot be kept whole to replay: such a request takes no key."""
    if idempotency_key is not None and stream:
        raise ValidationFailedError(
            [FieldError("is kept only for answers that are not streamed", field="Idempotency-Key")]
        )


async def _loop_scope(
    principal: Principal, runtime: Runtime, sid: str, tenant: str | None, check: bool = True
) -> str:
    """The tenant acted for; with ``check`` (an answer streamed: its status is sent before the
    turn runs) a missing session is a 404 first. Otherwise the turn's own first read says so."""
    require(principal, "agent", "developer")
    tenant_id = acting_tenant(principal, tenant)
    if check:
        async with unit_of_work(runtime) as store:  # cached per node
            await load_state(runtime.services, store, tenant_id, sid)
    return tenant_id


async def _run_turn(
    run_turn: Callable[[Emit | None, bool], Awaitable[Turn]], stream: bool, sid: str
) -> Response:
    """The turn's answer as JSON, or as server-sent events while it happens."""
    if not stream:
        turn = await run_turn(None, False)
        return _json(turn.as_dict())
    events: asyncio.Queue[bytes | None] = asyncio.Queue()

    async def emit(kind: str, data: dict[str, Any]) -> None:
        await events.put(b"event: " + kind.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n")

    async def run() -> None:
        try:
            await run_turn(emit, True)
        except QuiverError as exc:
            await emit("error", {"code": exc.code, "message": exc.detail})
        except Exception:  # a bug: said once in the log, the stream ends with an error event
            log.exception("the agent loop failed for session %s", sid)
            await emit("error", {"code": "internal", "message": "the agent loop failed"})
        finally:
            await events.put(None)

    task = asyncio.get_running_loop().create_task(run())

    async def body() -> AsyncIterator[bytes]:
        try:
            while (chunk := await events.get()) is not None:
                yield chunk
        finally:
            if not task.done():  # the client went away: the turn stops
                task.cancel()

    return sse.event_stream(body())


@router.get("/{sid}/messages")
async def list_messages(
    sid: str,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The session's transcript in order: user, assistant (with its tool calls and tokens) and
    tool messages, whole — a page at a time."""
    _, row = await _session(principal, store, sid, tenant)
    after = decode_id_cursor(cursor)
    rows = await store.messages.page(row.id, after, limit + 1)
    rows, next_cursor = keyset(rows, limit, lambda m: [m.seq])
    return {"messages": [message_public(m) for m in rows], "next_cursor": next_cursor}


@router.get("")
async def list_sessions(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    bot: Annotated[str | None, Query(max_length=64)] = None,
    status: Annotated[Literal["active", "handed_off", "ended"] | None, Query()] = None,
    customer: Annotated[str | None, Query(max_length=128)] = None,
    since: Annotated[
        datetime | None, Query(description="created from (ISO 8601 with zone)")
    ] = None,
    until: Annotated[datetime | None, Query(description="created before")] = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The tenant's sessions, newest first, a page at a time (developers)."""
    tenant_id = developer_tenant(principal, tenant)
    since, until = aware(since, "since"), aware(until, "until")
    after = decode_time_cursor(cursor)
    rows = await store.lifecycle.page(
        tenant_id,
        bot=bot,
        status=status,
        customer=customer,
        since=since,
        until=until,
        limit=limit + 1,
        after=after,
    )
    more, rows = len(rows) > limit, rows[:limit]
    last = rows[-1] if rows else None
    return {
        "sessions": [session_public(r) for r in rows],
        "next_cursor": encode_cursor(last.created_at.isoformat(), last.id)
        if more and last
        else None,
    }


@router.get("/{sid}")
async def get_session(
    sid: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    """A session: its status, times, why it ended, and how many messages and calls it had."""
    _, row = await _session(principal, store, sid, tenant)
    messages, calls = await store.lifecycle.counts(row.id)
    return session_public(row, messages, calls)


@router.post("/{sid}/end")
async def end_session(
    sid: str,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    body: EndBody | None = None,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """End the conversation: calls and messages are refused from now on (409 `session_ended`);
    ending it again is a 409 `conflict`."""
    tenant_id, row = await _session(principal, store, sid, tenant)
    await lifecycle.end_session(
        runtime.services, store, tenant_id, row.id, (body or EndBody()).reason, utcnow()
    )
    runtime.services.hooks_due.set()  # its end hooks run soon (after this commit), on some node
    return session_public(await store.sessions.get(tenant_id, row.id))


@router.post("/{sid}/resume")
async def resume_session(
    sid: str, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    """Give a handed-off conversation back to the agent loop."""
    tenant_id, row = await _session(principal, store, sid, tenant)
    row = await store.lifecycle.resume(tenant_id, row.id)
    return session_public(row)


@router.post("/{sid}/intent/detect")
async def detect_intent(
    sid: str,
    body: DetectBody,
    principal: PrincipalAloneDep,
    runtime: RuntimeDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """The intent of a text by the bot's `intent_detection` (for agents that run their own
    model loop); a new intent becomes the session's, as the agent loop does."""
    tenant_id = await _loop_scope(principal, runtime, sid, tenant)
    return await runtime.agent.detect_intent(tenant_id, sid, body.text)
