"""The agent loop: a user's message in, the bot's answer out, the registry's tools in between.

One turn: the message joins the session's history; the bot's model is called with the session's
snapshot in its provider's format; the tool calls it asks for run through the session's gate and
the call pipeline (validation, breakers, cache, once-per-session — unchanged), concurrently, each
in its own unit of work; their results go back as the provider's tool-result messages; repeat
until the model answers in text or ``max_rounds`` is reached, then the model is asked once more
without tools. A failed tool reaches the model as its ``modelMessage``. The snapshot is read again
each round, so a tool a breaker removed mid-turn is gone for the next round.

With a ``tool_round_model``, the rounds that offer tools use it; as soon as it answers in text
rather than dispatching tools, the final answer is written by ``model`` (without tools), so the
words the user reads come from the main model and the mechanical rounds from the cheaper one.

Everything is stored as it happens (user message, each assistant message with its tool calls and
the tokens the provider reported, each tool result), and the call-log row of each call carries
the id of the assistant message that asked for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from server import metrics
from server.agent.history import fit_to_budget, neutral
from server.agent.providers import (
    FORMAT_OF_KIND,
    Provider,
    ProviderConfig,
    Reply,
    ToolCall,
    Usage,
    make_provider,
)
from server.calls.session_calls import call_in_session, load_state
from server.egress import Allowlist
from server.errors import ConflictError, FieldError, ValidationFailedError
from server.registry.formats import convert

if TYPE_CHECKING:
    from server.bootstrap import Runtime

log = logging.getLogger("quiver.agent")
DEFAULT_ROUNDS = 5
DEFAULT_CONTEXT_TOKENS = 32_000

Emit = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass
class Turn:
    """What one turn did: its rounds, the final message and the tokens it used."""

    message_id: str = ""
    content: str = ""
    rounds: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    tool_usage: Usage = field(default_factory=Usage)

    def as_dict(self) -> dict[str, Any]:
        return {
            "message": {"id": self.message_id, "role": "assistant", "content": self.content},
            "rounds": self.rounds,
            "usage": {**self.usage.as_dict(), "tool_rounds": self.tool_usage.as_dict()},
        }


@dataclass(frozen=True)
class BotModel:
    provider: str
    model: str
    round_provider: str
    round_model: str
    max_rounds: int
    max_context_tokens: int
    system: str | None


async def _nothing(kind: str, data: dict[str, Any]) -> None:
    return None


class AgentLoop:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._busy: set[str] = set()  # sessions answering a message on this node

    async def turn(
        self, tenant_id: str, sid: str, content: str, emit: Emit | None = None, stream: bool = False
    ) -> Turn:
        if sid in self._busy:
            raise ConflictError("this session is already answering a message; wait for it")
        self._busy.add(sid)
        try:
            return await self._turn(tenant_id, sid, content, emit or _nothing, stream)
        finally:
            self._busy.discard(sid)

    async def _turn(self, tenant_id: str, sid: str, content: str, emit: Emit, stream: bool) -> Turn:
        runtime = self.runtime
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            row = await store.sessions.get(tenant_id, sid)
            bot_row = await store.bots.get(tenant_id, row.bot)
            settings = _bot_model(bot_row)
            view = await runtime.registry.view(store, tenant_id)
            extra = Allowlist.parse(view.egress_allow) if view.egress_allow else None
            providers = {}
            for name in {settings.provider, settings.round_provider}:
                provider_row = await store.providers.get(tenant_id, name)
                timeout = runtime.settings.provider_timeout_s
                providers[name] = (
                    provider_row.kind,
                    ProviderConfig(
                        provider_row.kind, store.providers.api_key(provider_row),
                        provider_row.base_url, timeout_s=timeout,
                        max_retries=runtime.settings.provider_retries,
                        egress=(runtime.egress, extra) if runtime.egress else None,
                    ),
                )  # fmt: skip
            user = await store.messages.append(
                sid, tenant_id, row.bot, role="user", content=content
            )
        turn = Turn()
        clients = {name: make_provider(config) for name, (_, config) in providers.items()}
        try:
            for round_no in range(settings.max_rounds + 1):
                offer_tools = round_no < settings.max_rounds
                cheap = offer_tools and (settings.round_model, settings.round_provider) != (settings.model, settings.provider)  # fmt: skip
                provider_name = settings.round_provider if cheap else settings.provider
                model = settings.round_model if cheap else settings.model
                kind = providers[provider_name][0]
                tools, history = await self._context(tenant_id, sid, kind, settings, offer_tools)
                reply = await self._ask(
                    clients[provider_name], kind, model, settings.system, history, tools,
                    emit if stream and not cheap else None,
                )  # fmt: skip
                if cheap and not reply.tool_calls:
                    # the cheap model is done dispatching: the main model writes the answer
                    turn.tool_usage.add(reply.usage)
                    turn.usage.add(reply.usage)
                    await self._save_assistant(tenant_id, sid, user.id, model, Reply("", [], reply.usage), tool_round=True)  # fmt: skip
                    main_kind = providers[settings.provider][0]
                    tools, history = await self._context(tenant_id, sid, main_kind, settings, False)
                    reply = await self._ask(
                        clients[settings.provider], main_kind, settings.model, settings.system,
                        history, None, emit if stream else None,
                    )  # fmt: skip
                    model, cheap = settings.model, False
                tool_round = bool(reply.tool_calls)
                saved = await self._save_assistant(tenant_id, sid, user.id, model, reply, tool_round=tool_round)  # fmt: skip
                turn.usage.add(reply.usage)
                if tool_round:
                    turn.tool_usage.add(reply.usage)
                await emit(
                    "usage", {"round": round_no + 1, "model": model, **reply.usage.as_dict()}
                )
                record: dict[str, Any] = {"model": model, "usage": reply.usage.as_dict(), "tool_calls": []}  # fmt: skip
                turn.rounds.append(record)
                if not reply.tool_calls:
                    turn.message_id, turn.content = saved, reply.text
                    break
                for call in reply.tool_calls:
                    await emit("tool_call", {"id": call.id, "name": call.name, "arguments": call.arguments})  # fmt: skip
                results = await asyncio.gather(
                    *(self._run_tool(tenant_id, sid, saved, call) for call in reply.tool_calls)
                )
                for call, envelope in zip(reply.tool_calls, results, strict=True):
                    record["tool_calls"].append({"id": call.id, "name": call.name, "arguments": call.arguments, "envelope": envelope})  # fmt: skip
                    await emit("tool_result", {"id": call.id, "name": call.name, "envelope": envelope})  # fmt: skip
                await self._save_results(tenant_id, sid, user.id, reply.tool_calls, results)
        finally:
            for client in clients.values():
                await client.close()
        await emit("done", turn.as_dict())
        return turn

    async def _ask(self, client: Provider, kind: str, model: str, system, history, tools, emit) -> Reply:  # fmt: skip
        on_text = None
        if emit is not None:

            async def on_text(delta: str) -> None:
                await emit("text", {"delta": delta})

        outcome = "ok"
        try:
            reply = await client.complete(model, system, history, tools, on_text)
        except Exception as exc:
            outcome = getattr(exc, "code", "provider_error")
            raise
        finally:
            metrics.MODEL_CALLS.labels(kind=kind, outcome=outcome).inc()
        for name, value in (("input", reply.usage.input), ("output", reply.usage.output), ("cached", reply.usage.cached)):  # fmt: skip
            metrics.MODEL_TOKENS.labels(kind=name).inc(value)
        return reply

    async def _context(self, tenant_id: str, sid: str, kind: str, settings: BotModel, offer_tools: bool):  # fmt: skip
        """The tools the model is offered now (the snapshot, read again) and the history to send."""
        runtime = self.runtime
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            state = await load_state(runtime, store, tenant_id, sid)
            rows = await store.messages.history(sid)
        tools = None
        if offer_tools:
            snapshot = runtime.registry.snapshot(state.view, state.row.bot, state.inputs)
            server_only = [e for e in snapshot.entries if e.executor == "server"]
            tools = [convert(e, FORMAT_OF_KIND[kind]) for e in server_only] or None
        return tools, fit_to_budget([neutral(r) for r in rows], settings.max_context_tokens)

    async def _run_tool(self, tenant_id: str, sid: str, message_id: str, call: ToolCall) -> dict[str, Any]:  # fmt: skip
        runtime = self.runtime
        async with runtime.sessions() as session:
            store = runtime.store(session)
            async with session.begin():
                state = await load_state(runtime, store, tenant_id, sid)
                envelope = await call_in_session(runtime, store, state, call.name, call.arguments, message_id)  # fmt: skip
        runtime.committed(store)
        return envelope

    async def _save_assistant(self, tenant_id, sid, turn_id, model, reply: Reply, tool_round: bool) -> str:  # fmt: skip
        runtime = self.runtime
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            row = await store.sessions.get(tenant_id, sid)
            calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in reply.tool_calls]  # fmt: skip
            saved = await store.messages.append(
                sid, tenant_id, row.bot, role="assistant", content=reply.text or None,
                tool_calls=calls or None, turn=turn_id, model=model,
                input_tokens=reply.usage.input, output_tokens=reply.usage.output,
                cached_tokens=reply.usage.cached, tool_round=tool_round,
            )  # fmt: skip
            return saved.id

    async def _save_results(self, tenant_id, sid, turn_id, calls: list[ToolCall], results) -> None:  # fmt: skip
        runtime = self.runtime
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            row = await store.sessions.get(tenant_id, sid)
            for call, envelope in zip(calls, results, strict=True):
                await store.messages.append(
                    sid, tenant_id, row.bot, role="tool", tool_call_id=call.id, name=call.name,
                    content=tool_text(envelope), turn=turn_id,
                )  # fmt: skip


def tool_text(envelope: dict[str, Any]) -> str:
    """What the model reads of a call: the result's JSON, or the failure's ``modelMessage``."""
    if envelope.get("success"):
        return orjson.dumps(envelope.get("result")).decode()
    return str(envelope.get("modelMessage") or (envelope.get("error") or {}).get("message") or "the tool failed")  # fmt: skip


def _bot_model(bot: Any) -> BotModel:
    if not bot.model:
        raise ValidationFailedError(
            [
                FieldError(
                    f"bot {bot.name!r} has no model: set `model` (provider/model)", field="model"
                )
            ]  # fmt: skip
        )
    provider, model = bot.model.split("/", 1)
    round_provider, round_model = (bot.tool_round_model or bot.model).split("/", 1)
    return BotModel(
        provider, model, round_provider, round_model, bot.max_rounds or DEFAULT_ROUNDS,
        bot.max_context_tokens or DEFAULT_CONTEXT_TOKENS, bot.system_prompt,
    )  # fmt: skip
