"""The session's use cases, shared by every adapter (the HTTP routes, MCP, the agent loop, the
evals): attach to a bot, load what a session request needs, change its intent, replace its
browser actions, call a tool through the session's gate, and record what a browser action
did."""

from __future__ import annotations

import dataclasses
import functools
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from server import inputs
from server.calls import envelope
from server.calls.calllog import stored_arguments, truncate
from server.calls.code_mode import Program
from server.calls.pipeline import CallRequest
from server.calls.ports import CallStore
from server.calls.services import Services
from server.errors import (
    ConflictError,
    FieldError,
    NotFoundError,
    Problems,
    SessionEndedError,
    ValidationFailedError,
)
from server.registry.definitions import check_browser_actions
from server.registry.model import SessionInputs, SessionRecord
from server.registry.service import TenantView


@dataclass
class SessionState:
    tenant_id: str
    session: SessionRecord
    view: TenantView
    inputs: SessionInputs
    variables: dict[str, Any]  # read-only: the node's cached copy
    trial: frozenset[str]  # tools whose tenant breaker is half-open


@dataclass(frozen=True)
class Attached:
    session: SessionRecord
    view: TenantView
    inputs: SessionInputs  # what the new session adds to its bot's snapshot


async def attach(
    services: Services,
    store: CallStore,
    tenant_id: str,
    bot: str,
    intent: str | None,
    actor: str | None,
    customer: str | None = None,
) -> Attached:
    """A new session of ``bot`` (404 if the tenant has no such bot; 422 naming ``intent`` if
    the bot has no such intent), created in ``store``'s unit of work."""
    view = await services.registry.view(store, tenant_id)
    view.bot(bot)
    check_intent(view, bot, intent)
    record = await store.sessions.create(tenant_id, bot, intent, actor, customer=customer)
    inputs = await services.tracker.inputs(store, record, view, {})
    return Attached(record, view, inputs)


def check_intent(view: TenantView, bot: str, intent: str | None) -> None:
    """``intent`` (unless None) is one the bot declares (``*``, its fallback, is not one)."""
    intents = view.bot(bot).intents
    if intent is not None and (not intents or intent not in intents or intent == "*"):
        known = ", ".join(sorted(k for k in (intents or {}) if k != "*")) or "none"
        raise ValidationFailedError(
            [FieldError(f"bot {bot!r} has no intent {intent!r} (known: {known})", field="intent")]
        )


async def change_intent(store: CallStore, state: SessionState, intent: str | None) -> None:
    """The session's intent, one its bot declares (422 naming ``intent`` otherwise) or None;
    its snapshot's gate follows."""
    check_intent(state.view, state.session.bot, intent)
    if intent != state.session.intent:
        await store.sessions.set_intent(state.session.id, intent)


VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
MAX_VARIABLES_SET = 64
MAX_VARIABLE_BYTES = 16 * 1024


async def set_variables(store: CallStore, state: SessionState, values: Any) -> dict[str, Any]:
    """What the host page or a flow fills in (slot filling): names the tools then read in
    ``context.variables``. Each name an identifier of at most 64 characters, not ``*_done``
    (the server's own record of once-per-session tools); at most 64 at once, each value JSON of
    at most 16 KiB; a session that ended refuses (409). 422 names each bad entry; nothing is
    written unless all are good. The session's variables after."""
    if state.session.status == "ended":
        raise SessionEndedError(
            f"session {state.session.id!r} has ended ({state.session.end_reason})"
        )
    problems: list[FieldError] = []
    if not isinstance(values, dict) or not values:
        problems.append(FieldError("an object of at least one variable", field="variables"))
    elif len(values) > MAX_VARIABLES_SET:
        problems.append(FieldError(f"at most {MAX_VARIABLES_SET} at once", field="variables"))
    else:
        for name, value in values.items():
            where = f"variables.{name}"
            if not VARIABLE_NAME.match(name):
                problems.append(
                    FieldError("a name of letters, digits and _ (at most 64)", field=where)
                )
            elif name.endswith("_done"):
                reserved = "*_done names are kept by the server (once-per-session tools)"
                problems.append(FieldError(reserved, field=where))
            elif (unusable := inputs.problem_in(value, (where,))) is not None:
                problems.append(FieldError(f"{unusable[1]}", field=unusable[0]))
            elif len(inputs.json_text(value).encode()) > MAX_VARIABLE_BYTES:
                too_big = f"at most {MAX_VARIABLE_BYTES} bytes of JSON"
                problems.append(FieldError(too_big, field=where))
    if problems:
        raise ValidationFailedError(problems)
    await store.sessions.set_variables(state.session.id, dict(values))
    return await store.sessions.variables(state.session.id)


async def load_state(
    services: Services, store: CallStore, tenant_id: str, sid: str
) -> SessionState:
    """Everything a session request needs: the session (cached on this node, or one query),
    the cached registry view, the breakers. A session this unit of work changed is read from
    the database, which holds the change before it commits."""
    states = services.session_states
    hit = None if sid in store.sessions.touched else states.get(sid)
    if hit is None:
        seen = states.seen(sid)
        record, variables = await store.sessions.get_with_variables(tenant_id, sid)
        states.put(record, variables, seen)
    else:
        record, variables = hit
        if record.tenant_id != tenant_id:
            raise NotFoundError(f"session {sid!r} not found")
    view = await services.registry.view(store, tenant_id)
    view.bot(record.bot)
    breakers = await services.tracker.tenant_breakers(tenant_id)
    inputs = await services.tracker.inputs(store, record, view, variables, breakers)
    return SessionState(tenant_id, record, view, inputs, variables, breakers.half_open)


DEFAULT_APPROVERS = ("agent", "developer")


def approvers(view: TenantView, bot: str) -> tuple[str, ...]:
    """The roles whose keys may approve a call of ``bot`` that needs approval (admins always)."""
    return tuple((view.bot(bot).agent or {}).get("approvers") or DEFAULT_APPROVERS)


async def call_in_session(
    services: Services,
    store: CallStore,
    state: SessionState,
    tool_name: str,
    arguments: Any,
    message_id: str | None = None,
    test: bool = False,
    caller: str | None = None,
    on_partial: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    parent: str | None = None,
) -> dict[str, Any]:
    """Run a server tool of the session's snapshot through the gate: a tool outside the
    snapshot, held out by a breaker or run in the browser answers its failure envelope; an ended
    session refuses (409 ``session_ended``). A handoff tool's success hands the session to a
    person (``handed_off``, an event, the tenant's handoff webhook).

    A tool that needs approval (``metadata.requires_approval``) runs for a direct ``caller``
    (the role of the key calling over HTTP or MCP: its call is its approval) only if the bot
    takes approvals from that role; otherwise it answers ``not_approved``. The agent loop runs
    such a call (``caller=None``) only once it was approved. The tool's partial results
    (``context.emit``) go to the session's streams and to ``on_partial``, the door's own.

    A code-mode bot's ``run_code`` gets its program's ``Program``: the gate's tools, each
    called through here with the program's call id as ``parent``, in this unit of work
    (``program_call``). Such a call may reach the gate's tools (not offered by themselves),
    never one that needs an approval."""
    if state.session.status == "ended":
        raise SessionEndedError(
            f"session {state.session.id!r} has ended ({state.session.end_reason})"
        )
    snapshot = services.registry.snapshot(state.view, state.session.bot, state.inputs)
    entry = snapshot.entry(tool_name)
    language = state.view.bot(state.session.bot).code_language
    if entry is None and parent is not None and language is not None:
        entry = snapshot.deferred_entry(tool_name)
    tools = state.view.tools_for(state.session.bot)
    tool = tools.get(tool_name)
    request = CallRequest(
        tenant_id=state.tenant_id,
        tool=tool_name,
        arguments=arguments,
        session=state.session,
        variables=state.variables,
        modules=state.view.sandbox_modules,
        egress_allow=state.view.egress_allow,
        guardrails=state.view.guardrails,
        trial=tool_name in state.trial,
        message_id=message_id,
        test=test,
        no_side_effects=test,
        on_partial=on_partial,
    )
    if entry is None and tool is not None and tool_name in state.inputs.open_breakers:
        return await services.pipeline.circuit_open(request, tool, time.perf_counter())
    if entry is None:
        message = f"{tool_name!r} is not in this session's tools"
        return envelope.failure(tool_name, 0.0, "tool_not_available", message)
    if entry.executor == "browser":
        message = f"{tool_name!r} is a browser action: the agent runs it and reports the outcome"
        return envelope.failure(tool_name, 0.0, "browser_action", message)
    if parent is not None and tools[tool_name].metadata.get("requires_approval") is True:
        message = f"{tool_name!r} needs an approval, which a program cannot wait for"
        return envelope.failure(tool_name, 0.0, "not_approved", message)
    if caller is not None and tools[tool_name].metadata.get("requires_approval") is True:
        allowed = approvers(state.view, state.session.bot)
        if caller != "admin" and caller not in allowed:
            message = f"{tool_name!r} needs an approval by a {' or '.join(allowed)} key"
            return envelope.failure(tool_name, 0.0, "not_approved", message)
    if language is not None and tools[tool_name].metadata.get("skill") == "code_mode":
        program_id = uuid.uuid4().hex
        program = Program(
            language,
            tuple(e.name for e in snapshot.deferred),
            functools.partial(program_call, services, store, state, message_id, test, program_id),
        )
        request = dataclasses.replace(request, call_id=program_id, program=program)
    elif parent is not None:
        request = dataclasses.replace(request, parent_call_id=parent)
    result = await services.pipeline.call(store, request, tools[tool_name])
    store.answered = True  # the tool ran: its answer goes out whatever the commit meets
    if not test and _hands_off(tools[tool_name], result):
        reason = str((result.get("result") or {}).get("reason") or "")
        await hand_off(services, store, state, reason, tool_name)
    return result


async def program_call(
    services: Services,
    store: CallStore,
    state: SessionState,
    message_id: str | None,
    test: bool,
    parent: str,
    name: str,
    arguments: dict[str, Any],
) -> dict[str, Any]:
    """One call a ``run_code`` program makes, in ``run_code``'s unit of work (the program makes
    one at a time, and ``run_code`` waits for the last: ``code_mode.Program``). What the
    program gets: ``{success, result}`` or ``{success: false, error}``."""
    now = await load_state(services, store, state.tenant_id, state.session.id)
    answered = await call_in_session(
        services, store, now, name, arguments, message_id, test, parent=parent
    )
    if answered["success"]:
        return {"success": True, "result": answered.get("result")}
    error = answered.get("error") or {}
    return {"success": False, "error": {"code": error.get("code"), "message": error.get("message")}}


async def hand_off(
    services: Services,
    store: CallStore,
    state: SessionState,
    reason: str,
    by: str,
    note: bool = False,
) -> bool:
    """The session to a person: handed off (if it was active) and announced to the tenant's
    handoff webhook. ``by``: the handoff tool that asked, or the agent loop's ``[[HANDOFF]]``;
    ``note``: write the escalation to the session's variables as the built-in tool does (a
    tool writes its own)."""
    if not await store.lifecycle.hand_off(state.tenant_id, state.session.id, datetime.now(UTC)):
        return False
    if note:
        await store.sessions.set_variables(
            state.session.id, {"escalated": True, "escalation_reason": reason}
        )
    services.handoffs.announce(state.tenant_id, state.session.id, state.session.bot, by, reason)
    return True


async def replace_browser_actions(
    services: Services, store: CallStore, state: SessionState, raw: Any
) -> list[dict[str, Any]]:
    """Replace the session's browser actions with ``raw`` (checked like tool definitions: 422
    naming the field); a name a server tool of the session's snapshot takes is a 409. The
    actions as kept; the same actions again write nothing."""
    problems = Problems()
    actions = check_browser_actions(raw, problems)
    problems.raise_if_any()
    snapshot = services.registry.snapshot(state.view, state.session.bot, state.inputs)
    server_tools = {e.name: e for e in snapshot.entries if e.executor == "server"}
    taken = [a["name"] for a in actions if a["name"] in server_tools]
    if taken:
        clashes = "; ".join(
            f"browser action {n!r} and server tool {n!r} ({server_tools[n].origin} "
            f"{server_tools[n].kind} tool, version {server_tools[n].version})"
            for n in taken
        )
        raise ConflictError(f"names already in this session's snapshot: {clashes}")
    if actions != list(state.session.actions):
        await store.sessions.set_actions(state.session.id, actions)
    return actions


CALL_ID = re.compile(r"^[A-Za-z0-9_-]{1,36}$")  # a reported call's id, as the log keeps it
ERROR_CODE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")  # a reported failure's code


@dataclass(frozen=True)
class BrowserOutcome:
    """What the page says a browser action did."""

    tool: str
    success: bool
    call_id: str | None = None  # the agent's id for the call: reported once
    result: Any = None
    error_code: str = "browser_error"
    error_message: str = "the browser action failed"
    latency_ms: float = 0.0
    arguments: dict[str, Any] = field(default_factory=dict)  # what the model asked the page


async def report_browser_outcome(
    services: Services, store: CallStore, state: SessionState, outcome: BrowserOutcome
) -> None:
    """Log a browser action's outcome with the session's calls and count it for the session
    breaker (three failures take the action out of the snapshot). 422 naming ``tool`` if the
    session has no such browser action; 409 if the call was reported already. An error code
    that is not one (lower-case words, at most 32 characters) is logged as ``browser_error``."""
    if outcome.tool not in {a.name for a in state.inputs.browser_actions}:
        message = f"{outcome.tool!r} is not a browser action of this session"
        raise ValidationFailedError([FieldError(message, field="tool")])
    sid = state.session.id
    if outcome.call_id is not None and await store.calls.reported(sid, outcome.call_id):
        raise ConflictError(f"call {outcome.call_id!r} was already reported")
    code = None
    if not outcome.success:
        code = outcome.error_code if ERROR_CODE.match(outcome.error_code) else "browser_error"
    await store.calls.record(
        tenant_id=state.tenant_id,
        session_id=sid,
        tool=outcome.tool,
        version=0,
        kind="browser",
        arguments=stored_arguments(outcome.arguments),  # redacted and capped, as calls are
        result=truncate(outcome.result),
        success=outcome.success,
        latency_ms=outcome.latency_ms,
        error_code=code,
        error_message=None if outcome.success else outcome.error_message[:2000],
        test=False,
        cached=False,
        call_id=outcome.call_id,
    )
    await services.tracker.outcome(
        store, state.tenant_id, state.session, outcome.tool, code, {}, "browser", rolling=False
    )


def _hands_off(tool: Any, result: dict[str, Any]) -> bool:
    """A handoff tool (``metadata.category: handoff``) that succeeded asking for a person."""
    value = result.get("result")
    return (
        result.get("success") is True
        and tool.metadata.get("category") == "handoff"
        and isinstance(value, dict)
        and value.get("handoff") is True
    )
