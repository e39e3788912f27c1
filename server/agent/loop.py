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
the id of the assistant message that asked for it. The node keeps the conversations it answered
last (``Histories``): a session's next turn here reads no history back.

The model's answers are untrusted input, bounded as ``server.agent.bounds`` says: no call runs
from an answer that was offered no tools, at most so many calls run per round and per turn,
what a turn stores is capped (an answer past its cap ends the turn ``incomplete``), and its
model calls share one deadline. A paused turn takes only the answers it waits for: approvals
(from a key the bot lets approve) for calls that need approval, outcomes for browser actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from server import known_secrets, metrics
from server.agent import bounds as limits
from server.agent import handoff_marker
from server.agent.bounds import Bounds
from server.agent.history import Histories, fit_to_budget, neutral
from server.agent.intents import by_classifier, model_prompt, parse_label
from server.agent.intents import by_rules as intents_rules
from server.agent.providers import (
    FORMAT_OF_KIND,
    Provider,
    ProviderConfig,
    Reply,
    ToolCall,
    Usage,
    make_provider,
)
from server.calls import envelope as envelopes
from server.calls.connections import NeedsConnection
from server.calls.jobs import FINISHED
from server.calls.jobs import public as job_public
from server.calls.ports import CallStore
from server.calls.services import Services
from server.calls.session_calls import (
    CALL_ID,
    DEFAULT_APPROVERS,
    BrowserOutcome,
    approvers,
    call_in_session,
    change_intent,
    hand_off,
    load_state,
    report_browser_outcome,
)
from server.egress import Allowlist
from server.errors import (
    ConflictError,
    FieldError,
    ForbiddenError,
    HandedOffError,
    NotFoundError,
    ProviderError,
    SessionEndedError,
    ValidationFailedError,
)
from server.registry.formats import convert
from server.registry.service import TenantView
from server.skills.indexes import NoDataset
from server.storage.conversations import Message
from server.storage.database import is_unavailable
from server.tracing import CLIENT

log = logging.getLogger("quiver.agent")
DEFAULT_ROUNDS = 5
DEFAULT_CONTEXT_TOKENS = 32_000
DEFAULT_ACTION_TIMEOUT_S = 120
DEFAULT_JOB_WAIT_S = 30.0  # how long a turn waits for a job a tool started (job_wait_s)

Emit = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass
class Turn:
    """What one turn did: its rounds, the final message and the tokens it used — or, paused,
    the actions the page (browser actions) or an operator (approvals) must answer first."""

    message_id: str = ""
    content: str = ""
    rounds: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    tool_usage: Usage = field(default_factory=Usage)
    # or requires_action, requires_approval, requires_connection, incomplete
    status: str = "completed"
    actions: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None  # why it is incomplete: message_too_large, turn_too_large

    def as_dict(self) -> dict[str, Any]:
        out = {
            "status": self.status,
            "message": {"id": self.message_id, "role": "assistant", "content": self.content},
            "rounds": self.rounds,
            "usage": {**self.usage.as_dict(), "tool_rounds": self.tool_usage.as_dict()},
        }
        if self.status in ("requires_action", "requires_approval", "requires_connection"):
            out["actions"] = self.actions
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass
class Spent:
    """What a turn has used of its bounds so far: tool calls run, bytes stored."""

    calls: int = 0
    bytes: int = 0


@dataclass
class Context:
    tools: list[dict[str, Any]] | None
    history: list[dict[str, Any]]
    offered: list[str] = field(default_factory=list)  # the names the model may call
    browser: set[str] = field(default_factory=set)  # run by the page
    approval: set[str] = field(default_factory=set)  # run once someone approves
    # act as the end user (``metadata.auth``): run once the user has connected that account
    auth: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class Setup:
    settings: BotModel
    providers: dict[str, tuple[str, ProviderConfig]]
    action_timeout_s: float
    bot: str
    user_message: str = ""
    # a new turn's: the conversation so far (neutral messages) and the next message's number,
    # kept up to date as the turn saves messages, so its rounds read no history back
    history: list[dict[str, Any]] | None = None
    next_seq: int = 0
    # messages in the history not written yet: the user's, written with the model's first
    # answer in one transaction (``AgentLoop._write``); ``kept``: the history is the node's copy
    unsaved: list[dict[str, Any]] = field(default_factory=list)
    kept: bool = False
    # what intent detection needs: the session's intent, the bot's intents and its settings
    intent: str | None = None
    intents: dict[str, Any] | None = None
    intent_detection: dict[str, Any] | None = None
    bounds: Bounds = field(default_factory=Bounds)
    approvers: tuple[str, ...] = DEFAULT_APPROVERS
    # a round's tool results being written while the model is asked again: the next write,
    # and the end of the rounds, wait for it (``AgentLoop._write_soon``)
    pending: asyncio.Future[list[Message]] | None = None


@dataclass(frozen=True)
class BotModel:
    provider: str
    model: str
    round_provider: str
    round_model: str
    max_rounds: int
    max_context_tokens: int
    system: str | None


class _StaleHistory(Exception):
    """The node's copy of a session's history missed a message written elsewhere."""


class _Said:
    """The turn's emit, remembering whether the caller was told anything yet."""

    def __init__(self, emit: Emit) -> None:
        self.emit = emit
        self.anything = False

    async def __call__(self, kind: str, data: dict[str, Any]) -> None:
        self.anything = True
        await self.emit(kind, data)


async def _nothing(kind: str, data: dict[str, Any]) -> None:
    return None


# a provider kind's name in the GenAI semantic conventions (gen_ai.provider.name)
GENAI_PROVIDERS = {"openai": "openai", "anthropic": "anthropic", "gemini": "gcp.gemini"}


class AgentLoop:
    def __init__(self, services: Services) -> None:
        self.services = services
        self._busy: set[str] = set()  # sessions answering a message on this node
        self._timers: dict[tuple[str, str], asyncio.Task[None]] = {}  # paused turns' timeouts
        self.clients = ProviderClients()
        self._providers: OrderedDict[tuple[Any, ...], tuple[str, ProviderConfig]] = OrderedDict()
        self.test_sessions: set[str] = set()  # evals: their tools run in test mode
        self.histories = Histories()  # the conversations answered here last
        self.messages = services.messages

    async def close(self) -> None:
        await self.clients.close()
        await self.messages.close()

    async def turn(
        self, tenant_id: str, sid: str, content: str, emit: Emit | None = None, stream: bool = False
    ) -> Turn:
        """A new user message and the bot's answer to it."""
        async with self._session_busy(sid):
            said = _Said(emit or _nothing)
            try:
                return await self._turn(tenant_id, sid, content, said, stream)
            except _StaleHistory:  # the node's copy missed a turn answered elsewhere
                if said.anything:  # the caller heard part of that answer already
                    raise ConflictError(
                        "this session was answered elsewhere meanwhile; send the message again"
                    ) from None
            return await self._turn(tenant_id, sid, content, said, stream)  # the history read

    async def _turn(self, tenant_id: str, sid: str, content: str, emit: Emit, stream: bool) -> Turn:
        setup = await self._setup(tenant_id, sid, content)
        try:
            await self.detect_intent(tenant_id, sid, content, emit, setup)
            turn = await self._rounds(setup, tenant_id, sid, setup.user_message, 0, emit, stream)
        except _StaleHistory:
            raise  # nothing of this turn is stored: it is answered again, or refused
        except BaseException:  # any failure, a cancelled stream too: the user's message is
            await self._write_unsaved(setup, tenant_id, sid)  # stored, then the failure goes on
            raise
        if setup.history is not None and setup.next_seq:
            self.histories.keep(sid, setup.history, setup.next_seq)
        return turn

    async def detect_intent(
        self, tenant_id: str, sid: str, text: str, emit: Emit = _nothing, setup: Setup | None = None
    ) -> dict[str, Any]:
        """The message's intent by the bot's ``intent_detection``; a new one becomes the
        session's (its snapshot's gate follows) and is announced."""
        services = self.services
        if setup is not None:  # a turn read them a moment ago, in its setup
            intent, bot_intents, config = setup.intent, setup.intents, setup.intent_detection
        else:
            async with services.storage.transaction() as store:
                row = await store.sessions.get(tenant_id, sid)
                bot = await store.bots.get(tenant_id, row.bot)
            intent, bot_intents, config = row.intent, bot.intents, bot.intent_detection
        if not config:
            return {"intent": intent, "detected": None, "changed": False, "mode": None}
        intents = [k for k in (bot_intents or {}) if k != "*"]
        extra: dict[str, Any] = {}
        if config["mode"] == "rules":
            detected = intents_rules(config, text)
        elif config["mode"] == "classifier":
            try:
                model = await services.indexes.get(tenant_id, config["dataset"], "samples")
            except NoDataset as exc:  # the turn goes on with the session's intent; say why
                detected, extra = None, {"error": str(exc)}
            else:
                detected, probability = by_classifier(model, config, text, intents)
                extra = {"score": round(probability, 4)}
        else:
            setup = setup or await self._setup(tenant_id, sid)
            settings = setup.settings
            kind, provider_config = setup.providers[settings.round_provider]
            reply = await self._ask(
                self.clients.get(provider_config),
                kind,
                settings.round_model,
                model_prompt(intents),
                [{"role": "user", "content": text}],
                None,
                None,
            )
            detected = parse_label(reply.text, intents)
        changed = detected is not None and detected != intent
        if changed:
            async with services.storage.transaction() as store:
                state = await load_state(services, store, tenant_id, sid)
                await change_intent(store, state, detected)
            await emit("intent", {"intent": detected, "mode": config["mode"]})
        return {
            "intent": detected if changed else intent,
            "detected": detected,
            "changed": changed,
            "mode": config["mode"],
            **extra,
        }

    async def resume(
        self,
        tenant_id: str,
        sid: str,
        message_id: str,
        answers: list[dict[str, Any]],
        emit: Emit | None = None,
        stream: bool = False,
        role: str | None = None,
    ) -> Turn:
        """A paused turn goes on: the page's outcomes of browser actions, or the approvals of a
        key the bot lets approve (an approved call runs here; a denial reaches the model as
        text). ``role``: the answering key's (None: the node itself, timing actions out)."""
        async with self._session_busy(sid):
            self.histories.take(sid)  # the results join the history: the next turn reads it
            setup = await self._setup(tenant_id, sid)
            assistant, pending, rounds_done, spent = await self._pending(tenant_id, sid, message_id)
            _check_answers(answers, pending, role, setup.approvers)
            calls, results = [], []
            for answer in answers:
                call, waits = pending.pop(answer["call_id"])
                calls.append(call)
                results.append(await self._answer(tenant_id, sid, message_id, call, waits, answer))
            await self._save_results(setup, tenant_id, sid, assistant.turn, calls, results, spent)
            if pending:
                calls_left = [call for call, waits in pending.values() if waits == "connection"]
                links = await self._links(tenant_id, sid, calls_left)
                actions = [
                    _action(call, waits, links.get(call.id)) for call, waits in pending.values()
                ]
                status = _paused_status(actions)
                return Turn(message_id=message_id, status=status, actions=actions)
            timer = self._timers.pop((sid, message_id), None)
            if timer is not None:
                timer.cancel()
            return await self._rounds(
                setup, tenant_id, sid, assistant.turn, rounds_done, emit or _nothing, stream, spent
            )

    @contextlib.asynccontextmanager
    async def _session_busy(self, sid: str) -> AsyncIterator[None]:
        if sid in self._busy:
            raise ConflictError("this session is already answering a message; wait for it")
        self._busy.add(sid)
        try:
            yield
        finally:
            self._busy.discard(sid)

    async def _setup(self, tenant_id: str, sid: str, user_content: str | None = None) -> Setup:
        """The bot's model settings and providers, from the node's caches; with
        ``user_content``, the session's history with the user's message at its end (not written
        yet: ``Setup.unsaved``)."""
        services = self.services
        store = services.storage.reader()  # opens a database session only for what no cache holds
        try:
            row = (await load_state(services, store, tenant_id, sid)).session  # cached per node
            if row.status == "ended":
                raise SessionEndedError(f"session {sid!r} has ended ({row.end_reason})")
            if row.status == "handed_off":
                raise HandedOffError("a person has this conversation; POST …/resume gives it back")
            view = await services.registry.view(store, tenant_id)  # cached per node
            bot = view.bot(row.bot)
            agent = bot.agent or {}
            settings = _bot_model(bot.name, agent)
            providers = {
                name: await self._provider(store, view, name)
                for name in {settings.provider, settings.round_provider}
            }
            known = self.histories.take(sid) if user_content is not None else None
            kept = known is not None  # the node's copy, which may miss a message written elsewhere
            if user_content is not None and known is None:
                rows = await store.messages.history(sid)
                known = [*map(neutral, rows)], (rows[-1].seq if rows else 0) + 1
        finally:
            await store.close()
        user, history, next_seq = None, None, 0
        if user_content is not None and known is not None:
            history, next_seq = known
            user = Message(str(uuid.uuid4()), next_seq, "user", user_content)
            history.append(neutral(user))
        timeout_s = float(agent.get("action_timeout_s") or DEFAULT_ACTION_TIMEOUT_S)
        node = services.settings
        return Setup(
            settings,
            providers,
            timeout_s,
            row.bot,
            user.id if user else "",
            history,
            next_seq,
            [{"id": user.id, "role": "user", "content": user.content}] if user else [],
            kept,
            row.intent,
            bot.intents,
            agent.get("intent_detection"),
            Bounds.of(agent, node.agent_message_bytes, node.agent_turn_bytes),
            approvers(view, row.bot),
        )

    async def _provider(
        self, store: CallStore, view: TenantView, name: str
    ) -> tuple[str, ProviderConfig]:
        """A provider's kind and client settings, kept per node for the tenant's registry
        version (a provider's change bumps it, on every node)."""
        key = (view.tenant_id, view.key, name)
        found = self._providers.get(key)
        if found is not None:
            self._providers.move_to_end(key)
            return found
        services = self.services
        row = await store.providers.get(view.tenant_id, name)
        extra = Allowlist.parse(view.egress_allow) if view.egress_allow else None
        found = self._providers[key] = (
            row.kind,
            ProviderConfig(
                row.kind,
                store.providers.api_key(row),
                row.base_url,
                timeout_s=services.settings.provider_timeout_s,
                max_retries=services.settings.provider_retries,
                egress=(services.egress, extra) if services.egress else None,
            ),
        )
        while len(self._providers) > ProviderClients.MAX:
            self._providers.popitem(last=False)
        return found

    async def _rounds(
        self,
        setup: Setup,
        tenant_id: str,
        sid: str,
        turn_id: str,
        first_round: int,
        emit: Emit,
        stream: bool,
        spent: Spent | None = None,
    ) -> Turn:
        """The model asked, and the tools it calls run, round after round; every message of
        them stored before the rounds end (a failure's: ``_write_unsaved``)."""
        settings, providers, bounds = setup.settings, setup.providers, setup.bounds
        spent = spent or Spent()
        turn = Turn()
        clients = {name: self.clients.get(config) for name, (_, config) in providers.items()}
        deadline = asyncio.get_running_loop().time() + bounds.timeout_s
        for round_no in range(first_round, settings.max_rounds + 1):
            room = bounds.turn_bytes - spent.bytes
            if room <= 0:  # nothing more may be stored: the model is not asked again
                await self._settled(setup)
                return await self._incomplete(turn, "turn_too_large", emit)
            max_bytes = min(bounds.message_bytes, room)
            offer_tools = round_no < settings.max_rounds and spent.calls < bounds.turn_calls
            cheap = offer_tools and (settings.round_model, settings.round_provider) != (
                settings.model,
                settings.provider,
            )
            provider_name = settings.round_provider if cheap else settings.provider
            model = settings.round_model if cheap else settings.model
            kind = providers[provider_name][0]
            context = await self._context(setup, tenant_id, sid, kind, offer_tools)
            reply = await self._ask(
                clients[provider_name],
                kind,
                model,
                settings.system,
                context.history,
                context.tools,
                emit if stream and not cheap else None,
                max_bytes,
                deadline,
            )
            if cheap and not reply.tool_calls and not reply.cut:
                # the cheap model is done dispatching: the main model writes the answer
                turn.tool_usage.add(reply.usage)
                turn.usage.add(reply.usage)
                await self._save_assistant(
                    setup,
                    tenant_id,
                    sid,
                    turn_id,
                    model,
                    Reply("", [], reply.usage),
                    tool_round=True,
                )
                main_kind = providers[settings.provider][0]
                context = await self._context(setup, tenant_id, sid, main_kind, False)
                reply = await self._ask(
                    clients[settings.provider],
                    main_kind,
                    settings.model,
                    settings.system,
                    context.history,
                    None,
                    emit if stream else None,
                    max_bytes,
                    deadline,
                )
                model = settings.model
            record: dict[str, Any] = {
                "model": model,
                "usage": reply.usage.as_dict(),
                "tool_calls": [],
            }
            if reply.hands_off:  # [[HANDOFF]]: to a person, as escalate_to_human does
                await self._hand_off(tenant_id, sid)
            reply = limits.held(reply, max_bytes)
            if reply.tool_calls and context.tools is None:  # offered none: none may run
                limits.refused("final_round_tool_calls", len(reply.tool_calls))
                record["dropped_tool_calls"] = [
                    {"id": c.id, "name": c.name} for c in reply.tool_calls
                ]
                log.info(
                    "session %s: %d tool calls of an answer offered no tools dropped",
                    sid,
                    len(reply.tool_calls),
                )
                reply = Reply(reply.text, [], reply.usage)
            calls, invalid, dropped = limits.checked_calls(reply.tool_calls)
            reply = Reply(reply.text, calls, reply.usage, reply.cut)
            if dropped:
                record["dropped_tool_calls"] = dropped
            runnable = [c for c in calls if c not in invalid]
            allowed = max(min(bounds.round_calls, bounds.turn_calls - spent.calls), 0)
            run, excess = runnable[:allowed], runnable[allowed:]
            per = "round" if allowed == bounds.round_calls else "turn"
            limits.refused(f"{per}_tool_calls", len(excess))
            spent.calls += len(run)
            tool_round = bool(reply.tool_calls)
            waits = {
                c.id: "approval" if c.name in context.approval else "browser_action"
                for c in run
                if c.name in context.browser or c.name in context.approval
            }
            links = await self._links(
                tenant_id, sid, [c for c in run if c.id not in waits and c.name in context.auth]
            )
            waits.update({call_id: "connection" for call_id in links})
            saved = await self._save_assistant(
                setup,
                tenant_id,
                sid,
                turn_id,
                model,
                reply,
                tool_round=tool_round,
                waits=waits,
                offered=context.offered,
            )
            spent.bytes += limits.reply_bytes(reply)
            turn.usage.add(reply.usage)
            if tool_round:
                turn.tool_usage.add(reply.usage)
            await emit("usage", {"round": round_no + 1, "model": model, **reply.usage.as_dict()})
            turn.rounds.append(record)
            if reply.cut:
                turn.message_id, turn.content = saved, reply.text
                reason = (
                    "message_too_large" if max_bytes == bounds.message_bytes else "turn_too_large"
                )
                return await self._incomplete(turn, reason, emit)
            if not reply.tool_calls:
                turn.message_id, turn.content = saved, reply.text
                break
            for call in reply.tool_calls:
                await emit(
                    "tool_call", {"id": call.id, "name": call.name, "arguments": call.arguments}
                )
            waiting = [c for c in run if c.id in waits]
            now = [c for c in run if c.id not in waits]
            results = list(
                await asyncio.gather(*(self._run_tool(tenant_id, sid, saved, c, emit) for c in now))
            )
            answered = now + invalid + excess
            results += [limits.no_such_tool(c) for c in invalid]
            results += [limits.too_many(c, allowed, len(runnable), per) for c in excess]
            for call, envelope in zip(answered, results, strict=True):
                record["tool_calls"].append(
                    {
                        "id": call.id,
                        "name": call.name,
                        "arguments": call.arguments,
                        "envelope": envelope,
                    }
                )
                await emit("tool_result", {"id": call.id, "name": call.name, "envelope": envelope})
            # stored while the model is asked again (a paused turn's: before it pauses)
            await self._save_results(
                setup, tenant_id, sid, turn_id, answered, results, spent, soon=not waiting
            )
            if waiting:  # the turn pauses until the page or an operator answers
                turn.message_id = saved
                turn.actions = [_action(c, waits[c.id], links.get(c.id)) for c in waiting]
                turn.status = _paused_status(turn.actions)
                await emit(turn.status, {"message_id": saved, "actions": turn.actions})
                self._expire_later(
                    tenant_id,
                    sid,
                    saved,
                    [(c.id, waits[c.id]) for c in waiting],
                    setup.action_timeout_s,
                )
                return turn
        await self._settled(setup)
        await emit("done", turn.as_dict())
        return turn

    @staticmethod
    async def _incomplete(turn: Turn, reason: str, emit: Emit) -> Turn:
        """The turn ends short of an answer: what it stored would pass a byte cap."""
        limits.refused(reason)
        turn.status, turn.reason = "incomplete", reason
        await emit("done", turn.as_dict())
        return turn

    def _expire_later(
        self,
        tenant_id: str,
        sid: str,
        message_id: str,
        calls: list[tuple[str, str]],
        after_s: float,
    ) -> None:
        """Actions nobody answers within the bot's ``action_timeout_s`` fail to the model as a
        timeout, approvals as denied, and the turn goes on (on this node; answers sent later
        are refused)."""

        async def expire() -> None:
            await asyncio.sleep(after_s)
            self._timers.pop((sid, message_id), None)
            answers = [
                {"call_id": c, "approved": False, "reason": "nobody answered in time"}
                if waits == "approval"
                else {"call_id": c, "connected": False}
                if waits == "connection"
                else {
                    "call_id": c,
                    "success": False,
                    "error": {"code": "timeout", "message": "no answer from the page in time"},
                }
                for c, waits in calls
            ]
            try:
                await self.resume(tenant_id, sid, message_id, answers)
            except (ValidationFailedError, ConflictError):
                pass  # answered meanwhile, or the session is busy with the answer: nothing to do
            except Exception:  # no caller waits on this task: a failure is logged and counted
                metrics.BACKGROUND_FAILURES.labels(task="action_timeout").inc()
                log.exception("the agent loop could not time out actions of session %s", sid)

        task = asyncio.get_running_loop().create_task(expire())
        self._timers[(sid, message_id)] = task

    async def expired(self, sid: str, message_id: str) -> None:
        """Wait for a paused turn's timeout to have run (tests bound the wait)."""
        task = self._timers.get((sid, message_id))
        if task is not None:
            await asyncio.shield(task)

    async def _pending(
        self, tenant_id: str, sid: str, message_id: str
    ) -> tuple[Any, dict[str, tuple[ToolCall, str]], int, Spent]:
        """The paused assistant message, its calls still waiting, its turn's rounds so far and
        what the turn has used of its bounds."""
        services = self.services
        async with services.storage.transaction() as store:
            await store.sessions.get(tenant_id, sid)
            rows = await store.messages.history(sid)
        assistant = next((r for r in rows if r.id == message_id and r.role == "assistant"), None)
        if assistant is None:
            raise NotFoundError(f"message {message_id!r} not found in this session")
        answered = {r.tool_call_id for r in rows if r.role == "tool" and r.turn == assistant.turn}
        pending = {
            c["id"]: (
                ToolCall(c["id"], c["name"], c["arguments"]),
                c.get("waits", "browser_action"),
            )
            for c in assistant.tool_calls or ()
            if c["id"] not in answered
        }
        of_turn = [r for r in rows if r.turn == assistant.turn and r.role != "user"]
        rounds = sum(1 for r in of_turn if r.role == "assistant")
        spent = Spent(
            sum(1 for r in of_turn if r.role == "tool") + len(pending),
            sum(
                len((r.content or "").encode()) + sum(map(limits.call_bytes, r.tool_calls or ()))
                for r in of_turn
            ),
        )
        return assistant, pending, rounds, spent

    async def _answer(
        self,
        tenant_id: str,
        sid: str,
        message_id: str,
        call: ToolCall,
        waits: str,
        answer: dict[str, Any],
    ) -> dict[str, Any]:
        """The envelope a paused call ends with. A browser action's outcome is recorded as one
        reported to ``POST …/calls/{call_id}/result`` is: logged, and counted for the session
        breaker."""
        if answer.get("approved") is True or answer.get("connected") is True:
            return await self._run_tool(tenant_id, sid, message_id, call)  # connected: asks again
        if answer.get("connected") is False:
            return envelopes.failure(
                call.name,
                0.0,
                "requires_connection",
                "the user did not connect the account",
                f"The user did not connect the account {call.name} acts through. Do not call it "
                "again; continue without it.",
            )
        if answer.get("approved") is False:
            reason = answer.get("reason") or "no reason given"
            return envelopes.failure(
                call.name,
                0.0,
                "not_approved",
                f"the call was not approved: {reason}",
                f"The user did not approve calling {call.name} ({reason}). Do not call it again; "
                "continue without it.",
            )
        success = bool(answer.get("success"))
        error = answer.get("error")
        code, message = (
            ("browser_error", str(error or "the action failed"))
            if not isinstance(error, dict)
            else (
                str(error.get("code") or "browser_error"),
                str(error.get("message") or "the action failed"),
            )
        )
        if waits == "browser_action" and sid not in self.test_sessions:  # an eval's are made up
            call_id = call.id if CALL_ID.match(call.id) else None  # longer ids: logged without
            outcome = BrowserOutcome(
                call.name,
                success,
                call_id,
                answer.get("result"),
                code,
                message,
                arguments=call.arguments,
            )
            await self._report(tenant_id, sid, outcome)
        if success:
            return envelopes.success(call.name, 0.0, answer.get("result"))
        return envelopes.failure(call.name, 0.0, code, message)

    async def _report(self, tenant_id: str, sid: str, outcome: BrowserOutcome) -> None:
        services = self.services
        try:
            async with services.storage.transaction() as store:
                state = await load_state(services, store, tenant_id, sid)
                await report_browser_outcome(services, store, state, outcome)
        except (ConflictError, ValidationFailedError) as exc:
            # reported already through the route, or the page has since unregistered the
            # action: the model still gets the outcome; the log keeps what it had
            log.info("browser outcome of %s not recorded: %s", outcome.tool, exc)

    async def _ask(
        self,
        client: Provider,
        kind: str,
        model: str,
        system: str | None,
        history: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        emit: Emit | None,
        max_bytes: int | None = None,
        deadline: float | None = None,
    ) -> Reply:
        """One model call, within the turn's ``deadline`` (the event loop's clock) and with its
        answer held to ``max_bytes``; in a ``chat`` span when traces are on."""
        attributes = {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": GENAI_PROVIDERS.get(kind, kind),
            "gen_ai.request.model": model,
        }
        with self.services.tracing.maybe(f"chat {model}", CLIENT, attributes) as span:
            on_text = None
            if emit is not None:

                async def say(delta: str) -> None:
                    await emit("text", {"delta": delta})

                redacted = known_secrets.RedactedStream(say)  # a key the model repeats stays unsaid
                on_text = handoff_marker.WithoutMarker(redacted, redacted.end)

            outcome = "ok"
            try:
                async with asyncio.timeout_at(deadline):
                    reply = await client.complete(model, system, history, tools, on_text, max_bytes)
                if on_text is not None:
                    await on_text.end()
            except TimeoutError:  # the turn's deadline, not the provider's own timeout
                outcome = "provider_timeout"
                limits.refused("turn_deadline")
                raise ProviderError(
                    "provider_timeout",
                    "the turn passed its deadline (the bot's turn_timeout_s) waiting for the model",
                ) from None
            except (
                Exception
            ) as exc:  # counted under its code (a ProviderError's, else a bug), re-raised
                outcome = getattr(exc, "code", "internal")
                raise
            finally:
                metrics.MODEL_CALLS.labels(kind=kind, outcome=outcome).inc()
            for name, value in (
                ("input", reply.usage.input),
                ("output", reply.usage.output),
                ("cached", reply.usage.cached),
            ):
                metrics.MODEL_TOKENS.labels(kind=name).inc(value)
            reply.text, reply.hands_off = handoff_marker.take(reply.text)
            if known_secrets.KNOWN:
                reply.text = known_secrets.redact(reply.text)
                for call in reply.tool_calls:
                    call.arguments = known_secrets.redact_value(call.arguments)
            if span is not None:
                span.set_attribute("gen_ai.usage.input_tokens", reply.usage.input)
                span.set_attribute("gen_ai.usage.output_tokens", reply.usage.output)
                span.set_attribute("quiver.tool_calls", len(reply.tool_calls))
            return reply

    async def _context(
        self, setup: Setup, tenant_id: str, sid: str, kind: str, offer_tools: bool
    ) -> Context:
        """What the model is given now: the session's tools (the snapshot, read again: server
        tools and the page's browser actions) and the history, cut to the budget. A new turn
        carries its history; the session's state is the node's cached one (no database
        session is opened when it is cached)."""
        services = self.services
        store = services.storage.reader()
        try:
            state = await load_state(services, store, tenant_id, sid)
            if setup.history is None:  # a resumed turn: read what the pause left
                setup.history = [neutral(r) for r in await store.messages.history(sid)]
                setup.next_seq = 0  # unknown here: the next append finds it
        finally:
            await store.close()
        context = Context(
            None, fit_to_budget(list(setup.history), setup.settings.max_context_tokens)
        )
        if offer_tools:
            snapshot = services.registry.snapshot(state.view, state.session.bot, state.inputs)
            tools = state.view.tools_for(state.session.bot)
            context.browser = {e.name for e in snapshot.entries if e.executor == "browser"}
            context.approval = {
                e.name
                for e in snapshot.entries
                if e.executor == "server"
                and e.name in tools
                and tools[e.name].metadata.get("requires_approval") is True
            }
            context.auth = {
                e.name: tools[e.name].metadata["auth"]
                for e in snapshot.entries
                if e.executor == "server" and e.name in tools and tools[e.name].metadata.get("auth")
            }
            context.tools = [convert(e, FORMAT_OF_KIND[kind]) for e in snapshot.entries] or None
            context.offered = [e.name for e in snapshot.entries]
        return context

    async def _links(
        self, tenant_id: str, sid: str, calls: list[ToolCall]
    ) -> dict[str, dict[str, Any]]:
        """The calls that cannot run until the session's customer connects an account, each
        with the provider and the link that connects it (one check per provider)."""
        connections = self.services.pipeline.connections
        if not calls or connections is None:
            return {}
        services, found = self.services, {}
        checked: dict[str, dict[str, Any] | None] = {}
        async with services.storage.transaction() as store:  # a refresh it makes is kept
            state = await load_state(services, store, tenant_id, sid)
            tools = state.view.tools_for(state.session.bot)
            for call in calls:
                tool = tools.get(call.name)
                auth = tool.metadata.get("auth") if tool is not None else None
                if not isinstance(auth, dict):
                    continue
                key = orjson.dumps(auth, option=orjson.OPT_SORT_KEYS).decode()
                if key not in checked:
                    user = await connections.bearer(
                        store, tenant_id, auth, state.session.customer, sid
                    )
                    needs = isinstance(user, NeedsConnection) and user.url is not None
                    checked[key] = (
                        {"provider": user.provider, "url": user.url}
                        if isinstance(user, NeedsConnection) and needs
                        else None
                    )
                link = checked[key]
                if link is not None:
                    found[call.id] = link
        return found

    async def _run_tool(
        self, tenant_id: str, sid: str, message_id: str, call: ToolCall, emit: Emit = _nothing
    ) -> dict[str, Any]:
        """The call through the session's gate; its partial results go out on the turn's
        stream as ``tool_partial`` (with the call's id) while it runs."""
        services = self.services

        async def partial(data: dict[str, Any]) -> None:
            await emit("tool_partial", {"id": call.id, "name": call.name, **data})

        async with services.storage.transaction() as store:
            state = await load_state(services, store, tenant_id, sid)
            envelope = await call_in_session(
                services,
                store,
                state,
                call.name,
                call.arguments,
                message_id,
                test=sid in self.test_sessions,
                on_partial=partial,
            )
            agent = state.view.bot(state.session.bot).agent or {}
        if "job" in envelope:  # queued as this unit of work committed: wait for its end
            wait_s = agent.get("job_wait_s")
            wait_s = DEFAULT_JOB_WAIT_S if wait_s is None else float(wait_s)
            envelope = await self._job_end(tenant_id, envelope, wait_s, call, emit)
        return envelope

    async def _job_end(
        self,
        tenant_id: str,
        started: dict[str, Any],
        wait_s: float,
        call: ToolCall,
        emit: Emit,
    ) -> dict[str, Any]:
        """A job a tool call started: its final envelope if it ends within the bot's
        ``job_wait_s`` (its changes go out on a streamed turn as ``job`` events); else the call's
        answer says it runs, and the job's end comes as a later message of the conversation."""
        jobs = self.services.jobs
        job = started["job"]

        async def changed(row: Any) -> None:
            await emit("job", {"id": call.id, "name": call.name, **job_public(row)})

        row = await jobs.wait(tenant_id, job, wait_s, changed)
        if row.status not in FINISHED:
            async with self.services.storage.transaction() as store:
                deferred = await store.jobs.defer(job)
            if deferred:
                note = (
                    "The job is still running. Its result will come in a later message; tell "
                    "the user it is under way."
                )
                return {**started, "result": {**started["result"], "note": note}}
            row = await jobs.wait(tenant_id, job, 0)  # it ended meanwhile
        return dict(row.result or {})

    async def _hand_off(self, tenant_id: str, sid: str) -> None:
        services = self.services
        async with services.storage.transaction() as store:
            state = await load_state(services, store, tenant_id, sid)
            reason = "the assistant asked for a person"
            await hand_off(services, store, state, reason, handoff_marker.MARKER, note=True)

    async def _save_assistant(
        self,
        setup: Setup,
        tenant_id: str,
        sid: str,
        turn_id: str,
        model: str,
        reply: Reply,
        tool_round: bool,
        waits: dict[str, str] | None = None,
        offered: list[str] | None = None,
    ) -> str:
        calls = [
            {
                "id": c.id,
                "name": c.name,
                "arguments": c.arguments,
                **({"waits": waits[c.id]} if waits and c.id in waits else {}),
            }
            for c in reply.tool_calls
        ]
        message = {
            "role": "assistant",
            "content": reply.text or None,
            "tool_calls": calls or None,
            "turn": turn_id,
            "model": model,
            "input_tokens": reply.usage.input,
            "output_tokens": reply.usage.output,
            "cached_tokens": reply.usage.cached,
            "tool_round": tool_round,
            "offered": offered or None,
        }
        (saved,) = await self._write(setup, tenant_id, sid, [message])
        return saved.id

    async def _save_results(
        self,
        setup: Setup,
        tenant_id: str,
        sid: str,
        turn_id: str,
        calls: list[ToolCall],
        results: list[dict[str, Any]],
        spent: Spent,
        soon: bool = False,
    ) -> None:
        """The results as the model will read them, each within the message cap and all within
        what the turn may still store; ``soon``: written while the turn goes on."""
        messages = []
        for call, envelope in zip(calls, results, strict=True):
            room = max(min(setup.bounds.message_bytes, setup.bounds.turn_bytes - spent.bytes), 0)
            content = limits.clip_result(tool_text(envelope), room)
            spent.bytes += len(content.encode())
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "name": call.name,
                    "content": content,
                    "turn": turn_id,
                }
            )
        if soon:
            await self._write_soon(setup, tenant_id, sid, messages)
        else:
            await self._write(setup, tenant_id, sid, messages)

    async def _write_soon(
        self, setup: Setup, tenant_id: str, sid: str, messages: list[dict[str, Any]]
    ) -> None:
        """Start storing ``messages`` and go on: the history learns them now, and the next
        write (or the end of the rounds: ``_settled``) waits for this one, so they are stored
        in order, before the caller reads an answer. A round's tool results are written while
        the model reads them — measured, the write was a fifth of a round's overhead on SQLite
        and a third on PostgreSQL. Only when their numbers are known here (a new turn carries
        its history) and nothing before them waits to be written; else written now."""
        if setup.unsaved or not setup.next_seq or setup.history is None or not messages:
            await self._write(setup, tenant_id, sid, messages)
            return
        await self._settled(setup)
        first, setup.next_seq = setup.next_seq, setup.next_seq + len(messages)
        setup.history.extend(neutral(_unwritten(m)) for m in messages)
        setup.pending = asyncio.ensure_future(
            self.messages.append(sid, tenant_id, setup.bot, messages, first)
        )
        setup.pending.add_done_callback(_looked_at)

    @staticmethod
    async def _settled(setup: Setup) -> None:
        """The write ``_write_soon`` started, finished (its failure raised here)."""
        pending, setup.pending = setup.pending, None
        if pending is not None:  # a turn cancelled meanwhile leaves the write to finish
            await asyncio.shield(pending)

    async def _write(
        self, setup: Setup, tenant_id: str, sid: str, messages: list[dict[str, Any]]
    ) -> list[Message]:
        """Store the turn's ``messages`` after those of the history not written yet (the user's:
        held back until the model's first answer, the two are one transaction — a turn's
        first durable step, before any tool runs or the caller reads an answer). The history
        the turn carries learns the new ones."""
        await self._settled(setup)
        unsaved = setup.unsaved
        if not unsaved and not messages:
            return []
        try:
            saved = await self.messages.append(
                sid, tenant_id, setup.bot, [*unsaved, *messages], setup.next_seq or None
            )
        except ConflictError:  # the number is taken: someone wrote since the history was read
            if unsaved and setup.kept:
                raise _StaleHistory from None
            raise
        setup.unsaved = []
        new = saved[len(unsaved) :]
        if setup.history is not None:
            setup.history.extend(map(neutral, new))
        setup.next_seq = saved[-1].seq + 1 if setup.next_seq else 0
        return new

    async def _write_unsaved(self, setup: Setup, tenant_id: str, sid: str) -> None:
        """A turn that fails before its first write (the provider, a cancelled stream) still
        leaves the user's message in the history, as if written first; one that fails later
        still waits for its tool results' write (``_write_soon``)."""
        with contextlib.suppress(Exception):  # its failure is logged (``_looked_at``): the
            await self._settled(setup)  # turn's own is the one the caller hears
        if not setup.unsaved:
            return
        try:
            await asyncio.shield(self._write(setup, tenant_id, sid, []))
        except (ConflictError, _StaleHistory):
            pass  # written elsewhere meanwhile: the caller hears the turn's failure and resends
        except Exception as exc:  # the turn's own failure is what the caller hears: this one
            # is logged and counted under its code, never raised over it
            code = "unavailable" if is_unavailable(exc) else "internal"
            metrics.UNSTORED_MESSAGES.labels(code=code).inc()
            log.warning(
                "the user's message of session %s was not stored (%s)", sid, code, exc_info=True
            )


class ProviderClients:
    """The SDK clients of the providers in use on this node, kept between turns: a client holds
    its connection pool (and TLS context, costly to build), so a turn reuses warm connections.
    Keyed by everything a client is made of — a changed key or URL makes a new one."""

    MAX = 256

    def __init__(self) -> None:
        self._clients: OrderedDict[tuple[Any, ...], Provider] = OrderedDict()
        self._closing: set[asyncio.Task[None]] = set()

    def get(self, config: ProviderConfig) -> Provider:
        guard, extra = config.egress or (None, None)
        key = (
            config.kind,
            config.base_url,
            hashlib.sha256((config.api_key or "").encode()).hexdigest(),
            id(guard),
            repr(extra),
            config.timeout_s,
            config.max_retries,
        )
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = make_provider(config)
            while len(self._clients) > self.MAX:
                _, old = self._clients.popitem(last=False)
                task = asyncio.get_running_loop().create_task(old.close())
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
        else:
            self._clients.move_to_end(key)
        return client

    async def close(self) -> None:
        for client in self._clients.values():
            await client.close()
        self._clients.clear()


def _check_answers(
    answers: list[dict[str, Any]],
    pending: dict[str, tuple[ToolCall, str]],
    role: str | None,
    approvers: tuple[str, ...],
) -> None:
    """A paused turn takes only what it waits for: an approval (``approved``, ``reason``) for a
    call that needs one — from a key the bot lets approve — and an outcome (``success``,
    ``result`` or ``error``) for a browser action. Anything else would hand the model a result
    no tool produced."""
    problems, seen = [], set()
    for i, answer in enumerate(answers):
        call_id = answer["call_id"]
        given = {k for k, v in answer.items() if v is not None} - {"call_id"}
        if call_id not in pending:
            problems.append(
                FieldError(
                    f"{call_id!r} is not an action this message waits for", field=f"[{i}].call_id"
                )
            )
        elif call_id in seen:
            problems.append(FieldError(f"{call_id!r} is answered twice", field=f"[{i}].call_id"))
        elif pending[call_id][1] == "approval" and (
            "approved" not in given or given - {"approved", "reason"}
        ):
            problems.append(
                FieldError(
                    f"call {call_id!r} waits for an approval: send {{call_id, approved, reason?}} "
                    "and nothing else",
                    field=f"[{i}]",
                )
            )
        elif pending[call_id][1] == "connection" and given != {"connected"}:
            problems.append(
                FieldError(
                    f"call {call_id!r} waits for the user to connect an account: send "
                    "{call_id, connected} and nothing else",
                    field=f"[{i}]",
                )
            )
        elif pending[call_id][1] == "browser_action" and (
            "success" not in given or given & {"approved", "reason", "connected"}
        ):
            problems.append(
                FieldError(
                    f"call {call_id!r} is a browser action: send its outcome {{call_id, success, "
                    "result | error}",
                    field=f"[{i}]",
                )
            )
        seen.add(call_id)
    if problems:
        limits.refused("wrong_answer", len(problems))
        raise ValidationFailedError(problems)
    approving = any(pending[a["call_id"]][1] == "approval" for a in answers)
    may = role is None or role == "admin" or role in approvers
    if approving and not may:
        limits.refused("not_an_approver")
        raise ForbiddenError(f"this bot takes approvals from {' or '.join(approvers)} keys only")


def _action(call: ToolCall, waits: str, link: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a paused turn asks for a call; a connection's names the provider and the link the
    user opens (``url``)."""
    action = {"call_id": call.id, "name": call.name, "arguments": call.arguments, "kind": waits}
    return {**action, **(link or {})}


def _paused_status(actions: list[dict[str, Any]]) -> str:
    """The page's part first (browser actions), then the user's (connections), then an
    operator's (approvals)."""
    kinds = {a["kind"] for a in actions}
    if "browser_action" in kinds:
        return "requires_action"
    return "requires_connection" if "connection" in kinds else "requires_approval"


def tool_text(envelope: dict[str, Any]) -> str:
    """What the model reads of a call: the result's JSON, or the failure's ``modelMessage``."""
    return envelopes.model_text(envelope)


def _bot_model(name: str, agent: dict[str, Any]) -> BotModel:
    if not agent.get("model"):
        raise ValidationFailedError(
            [FieldError(f"bot {name!r} has no model: set `model` (provider/model)", field="model")]
        )
    provider, model = agent["model"].split("/", 1)
    round_provider, round_model = (agent.get("tool_round_model") or agent["model"]).split("/", 1)
    return BotModel(
        provider,
        model,
        round_provider,
        round_model,
        agent.get("max_rounds") or DEFAULT_ROUNDS,
        agent.get("max_context_tokens") or DEFAULT_CONTEXT_TOKENS,
        agent.get("system_prompt"),
    )


def _unwritten(message: dict[str, Any]) -> Message:
    """A message on its way to the log, as the history needs it (``_write_soon``)."""
    return Message(
        "",
        0,
        message["role"],
        message.get("content"),
        message.get("tool_calls"),
        message.get("tool_call_id"),
        message.get("name"),
    )


def _looked_at(pending: asyncio.Future[Any]) -> None:
    """A write ``_write_soon`` started failed: logged here, whether or not its turn is still
    there to fail with it (a cancelled one is not)."""
    if not pending.cancelled() and pending.exception() is not None:
        log.warning("a turn's tool results were not stored", exc_info=pending.exception())
