"""The session use cases (``server.calls.session_calls``: attach, load the state, call through
the gate, record a browser action's outcome)
and the call pipeline's rules, against in-memory fakes of their ports (tests/calls/fakes.py):
no database, no worker, milliseconds per test. The same rules are tested through HTTP and MCP
on SQLite and PostgreSQL in tests/api."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from sandbox.engine import RunResult
from server.calls.session_calls import (
    BrowserOutcome,
    attach,
    call_in_session,
    change_intent,
    load_state,
    replace_browser_actions,
    report_browser_outcome,
)
from server.errors import ConflictError, NotFoundError, SessionEndedError, ValidationFailedError
from server.registry.model import BotDef, SessionRecord
from tests.calls.fakes import Database, Store, composed, python_tool

TENANT, SID = "acme", "s-1"


class World:
    def __init__(self) -> None:
        self.db = Database()
        self.services, self.engine, self.log, self.clock = composed(self.db)
        self.db.versions[TENANT] = 1
        self.db.bots[TENANT] = {"b": BotDef("b")}
        self.db.sessions[SID] = SessionRecord(SID, TENANT, "b")

    def tool(self, name: str, behaviour: Any, **metadata: Any) -> None:
        tools = self.db.tools.setdefault(TENANT, [])
        tools.append(python_tool(TENANT, name, len(tools) + 1, **metadata))
        self.db.versions[TENANT] += 1
        self.engine.behaviours[name] = behaviour

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[Store]:
        """A unit of work; at its commit the node forgets the sessions it changed."""
        store = Store(self.db)
        yield store
        self.services.session_states.forget(store.sessions.touched)

    async def call(self, tool: str, arguments: Any = None, **kwargs: Any) -> tuple[dict[str, Any], Store]:  # fmt: skip
        async with self.unit() as store:
            state = await load_state(self.services, store, TENANT, SID)
            result = await call_in_session(self.services, store, state, tool, arguments or {}, **kwargs)  # fmt: skip
        return result, store


def ok(value: dict[str, Any] | None = None, **updates: Any) -> Any:
    return lambda params, context: RunResult(ok=True, value={"success": True, **(value or {})}, updates=updates)  # fmt: skip


def failing(params: dict[str, Any], context: dict[str, Any]) -> RunResult:
    return RunResult(ok=False, code="tool_error", message="the CRM is down")


@pytest.fixture
def world() -> World:
    return World()


async def test_a_call_in_a_cached_session_reads_nothing_and_its_writes_are_seen_next(world: World) -> None:  # fmt: skip
    seen: list[dict[str, Any]] = []

    def counting(params: dict[str, Any], context: dict[str, Any]) -> RunResult:
        seen.append(dict(context["variables"]))
        return RunResult(ok=True, value={"success": True}, updates={"count": len(seen)})

    world.tool("count", counting)
    first, store = await world.call("count")
    assert first["success"] and store.sessions.reads == 1  # the first call reads the session
    assert world.db.variables[SID] == {"count": 1}  # durable through the port before answering
    second, store = await world.call("count")
    assert store.sessions.reads == 1  # the write made the node forget the state: read again
    assert seen == [{}, {"count": 1}]  # and the tool saw the first call's write
    _, store = await world.call("missing")  # the second call wrote too: read once more …
    assert store.sessions.reads == 1
    fourth, store = await world.call("missing")  # … and no more while nothing changes
    assert store.sessions.reads == 0
    assert fourth["error"]["code"] == "tool_not_available"


async def test_invalid_arguments_name_the_argument_and_run_nothing(world: World) -> None:
    world.tool("check_order", ok())
    result, _ = await world.call("check_order", {"order_id": "nope"})
    assert (result["success"], result["error"]["code"]) == (False, "invalid_arguments")
    assert result["argument"] == "order_id"
    assert world.engine.runs == []
    await world.log.flush()
    assert world.db.logged[0]["error_code"] == "invalid_arguments"  # logged all the same


async def test_three_failures_open_the_session_breaker_and_take_the_tool_out(world: World) -> None:
    world.tool("crm", failing)
    for _ in range(3):
        result, _ = await world.call("crm")
        assert result["error"]["code"] == "tool_error"
    assert world.db.openings == [(TENANT, "crm", "session", SID)]
    held, _ = await world.call("crm")
    assert held["error"]["code"] == "circuit_open"  # out of the snapshot, not run again
    assert len(world.engine.runs) == 3
    world.clock.now += 3600  # past the cool-down (the tracker's clock, not a sleep)
    world.services.session_states.clear()
    world.engine.behaviours["crm"] = ok()
    again, _ = await world.call("crm")
    assert again["success"]


async def test_a_once_per_session_tool_runs_once_and_leaves_the_snapshot(world: World) -> None:
    world.tool("welcome", ok({"message": "hi"}), once_per_session=True)
    first, _ = await world.call("welcome")
    second, _ = await world.call("welcome")
    assert first["success"] and len(world.engine.runs) == 1
    assert second["error"]["code"] in ("already_done", "tool_not_available")
    assert world.db.variables[SID]["welcome_done"] is True


async def test_a_cacheable_tool_answers_from_the_cache(world: World) -> None:
    world.tool("rates", ok({"eur": 1.1}), cacheable=True, cache_ttl=60)
    first, _ = await world.call("rates")
    second, _ = await world.call("rates")
    assert first["result"] == second["result"] == {"success": True, "eur": 1.1}
    assert (first.get("cached"), second.get("cached")) == (None, True)
    assert len(world.engine.runs) == 1


async def test_a_handoff_tools_success_hands_the_session_to_a_person(world: World) -> None:
    world.tool("escalate", ok({"handoff": True, "reason": "angry"}), category="handoff")
    result, _ = await world.call("escalate")
    assert result["success"]
    assert world.db.sessions[SID].status == "handed_off"
    assert world.services.handoffs.announced == [(TENANT, SID, "b", "escalate", "angry")]


async def test_attaching_creates_a_session_whose_state_a_call_then_loads(world: World) -> None:
    world.db.bots[TENANT]["b"] = BotDef("b", intents={"billing": ("count",)})
    world.db.versions[TENANT] += 1
    world.tool("count", ok())
    async with world.unit() as store:
        attached = await attach(world.services, store, TENANT, "b", "billing", "key-1", "c-9")
    assert (attached.session.bot, attached.session.intent) == ("b", "billing")
    assert attached.session.customer == "c-9"
    assert attached.inputs.intent == "billing"
    async with world.unit() as store:
        state = await load_state(world.services, store, TENANT, attached.session.id)
        result = await call_in_session(world.services, store, state, "count", {})
    assert result["success"] is True


async def test_attaching_refuses_an_unknown_bot_or_intent_and_creates_nothing(world: World) -> None:  # fmt: skip
    async with world.unit() as store:
        with pytest.raises(NotFoundError):
            await attach(world.services, store, TENANT, "no-such-bot", None, "key-1")
        with pytest.raises(ValidationFailedError) as refused:
            await attach(world.services, store, TENANT, "b", "billing", "key-1")
    assert refused.value.errors[0].field == "intent"
    assert store.sessions.created == 0


async def test_a_new_intent_gates_the_next_call_and_an_unknown_one_changes_nothing(world: World) -> None:  # fmt: skip
    world.db.bots[TENANT]["b"] = BotDef("b", intents={"billing": ("count",), "other": ()})
    world.db.versions[TENANT] += 1
    world.tool("count", ok())
    before, _ = await world.call("count")
    async with world.unit() as store:
        state = await load_state(world.services, store, TENANT, SID)
        with pytest.raises(ValidationFailedError) as unknown:
            await change_intent(store, state, "shipping")
        await change_intent(store, state, "other")
    after, _ = await world.call("count")

    assert unknown.value.errors[0].field == "intent"
    assert before["success"] is True
    assert after["error"]["code"] == "tool_not_available"
    assert world.db.sessions[SID].intent == "other"


async def test_browser_actions_join_the_snapshot_unless_a_server_tool_has_the_name(world: World) -> None:  # fmt: skip
    world.tool("count", ok())
    cart = {"name": "open_cart", "description": "Show the cart", "parameters": {}}
    clash = {"name": "count", "description": "Count on the page", "parameters": {}}

    async def replace(actions: Any) -> list[dict[str, Any]]:
        async with world.unit() as store:
            state = await load_state(world.services, store, TENANT, SID)
            return await replace_browser_actions(world.services, store, state, actions)

    kept = await replace([cart])
    version = world.db.sessions[SID].version
    await replace([cart])  # the same again: nothing written
    with pytest.raises(ConflictError):
        await replace([cart, clash])
    with pytest.raises(ValidationFailedError) as invalid:
        await replace([{"name": "no spaces allowed", "description": "x", "parameters": {}}])
    called, _ = await world.call("open_cart")

    assert [a["name"] for a in kept] == ["open_cart"]
    assert world.db.sessions[SID].version == version
    assert [a["name"] for a in world.db.sessions[SID].actions] == ["open_cart"]
    assert invalid.value.errors[0].field.startswith("actions")
    assert called["error"]["code"] == "browser_action"


async def test_browser_outcomes_are_logged_once_and_three_failures_take_the_action_out(world: World) -> None:  # fmt: skip
    cart = {"name": "open_cart", "description": "Show the cart", "parameters": {}}
    world.db.sessions[SID] = SessionRecord(SID, TENANT, "b", actions=(cart,))

    async def report(outcome: BrowserOutcome) -> None:
        async with world.unit() as store:
            state = await load_state(world.services, store, TENANT, SID)
            await report_browser_outcome(world.services, store, state, outcome)

    for i in range(3):
        await report(BrowserOutcome("open_cart", False, f"c-{i}", error_code="Not A Code"))
    with pytest.raises(ConflictError):
        await report(BrowserOutcome("open_cart", True, "c-0"))
    with pytest.raises(ValidationFailedError) as unknown:
        await report(BrowserOutcome("scroll_to", True, "c-9"))
    async with world.unit() as store:
        state = await load_state(world.services, store, TENANT, SID)

    assert [r["call_id"] for r in world.db.reported] == ["c-0", "c-1", "c-2"]
    assert {r["error_code"] for r in world.db.reported} == {"browser_error"}
    assert unknown.value.errors[0].field == "tool"
    assert "open_cart" in state.inputs.open_breakers


async def test_an_ended_session_refuses_and_a_missing_one_is_not_found(world: World) -> None:
    world.tool("count", ok())
    world.db.sessions[SID] = SessionRecord(SID, TENANT, "b", status="ended", end_reason="done")
    with pytest.raises(SessionEndedError):
        await world.call("count")
    async with world.unit() as store:
        with pytest.raises(NotFoundError):
            await load_state(world.services, store, TENANT, "no-such-session")
        with pytest.raises(NotFoundError):  # another tenant's session looks absent
            await load_state(world.services, store, "globex", SID)


async def test_the_log_keeps_the_arguments_the_tool_received_and_its_lines(world: World) -> None:
    def noisy(params: dict[str, Any], context: dict[str, Any]) -> RunResult:
        return RunResult(ok=True, value={"success": True}, logs=("info: looking up", "info: token=abc123secret"))  # fmt: skip

    world.tool("check_order", noisy)
    result, _ = await world.call("check_order", {"order_id": "AB1234", "extra": "dropped"})
    assert result["success"] and "logs" not in result
    await world.log.flush()
    row = world.db.logged[-1]
    assert row["arguments"] == {"order_id": "AB1234"}
    assert row["logs"] == ["info: looking up", "info: token=[redacted]"]
    assert row["session_id"] == SID and row["success"] is True
