"""Tool search's rules against in-memory fakes (``server.calls.tool_search``,
``server.calls.tool_words``): how names and plurals are read, what a name's verbs bring, that a
search never leaves the session's gate, that usage only reorders, what a session keeps, and the
ranking's recall on the eval set. Over HTTP, MCP and the agent loop: tests/api/test_tool_search.py
and the contract suite."""

from __future__ import annotations

import pytest

from sandbox.engine import ToolFailure
from server.calls.tool_search import MAX_LOADED, ToolIndex, ToolSearch
from server.calls.tool_words import action_words, fold, terms, words_of_name
from server.registry.model import BotDef, SessionInputs, SessionRecord, ToolDef
from server.registry.service import TenantView
from server.registry.snapshot import SEARCH_TOOL, build_snapshot
from tests.calls.fakes import Database, Store
from tests.calls.tool_search_eval import recall_at, requests, tools

SEARCHING = {"tool_loading": "search"}


def tool(name: str, description: str = "", **properties: object) -> ToolDef:
    schema = {"type": "object", "properties": {k: {"type": "string"} for k in properties}}
    return ToolDef(name, description, schema, {}, "python", "tenant", 1, f"h-{name}", "acme")


SEARCH = ToolDef(SEARCH_TOOL, "find tools", {"type": "object"}, {"skill": "tool_search"}, "python", "builtin", 1, "h-search")  # fmt: skip


def view(*defs: ToolDef, bot: BotDef | None = None) -> TenantView:
    bot = bot or BotDef("b", agent=SEARCHING)
    return TenantView("acme", (1, 1, 1), {t.name: t for t in defs}, {"b": bot}, search_tool=SEARCH)


def test_names_read_as_words_and_plurals_fold() -> None:
    assert words_of_name("checkOrderStatus") == "check Order Status"
    assert words_of_name("check_order-status") == "check order status"
    assert [fold(w) for w in ("invoices", "policies", "status", "address", "bus", "news")] == [
        "invoice", "policy", "status", "address", "bus", "new",
    ]  # fmt: skip
    assert terms("Las políticas") == ["las", "políticas"]  # only ASCII words are folded
    assert "add" in action_words("create_lead").split() and action_words("frobnicate") == ""


def test_a_search_ranks_the_matching_tools_and_keeps_to_those_it_may_offer() -> None:
    index = ToolIndex.of(
        [
            tool("refund_order", "Refund the payment of an order", order_id=1),
            tool("cancel_order", "Cancel an order before it ships", order_id=1),
            tool("reset_password", "Send a reset link", email=1),
        ]
    )
    everything = frozenset({"refund_order", "cancel_order", "reset_password"})

    assert (
        index.search("give me my money back for the order", everything, (), 5)[0] == "refund_order"
    )
    assert index.search("call off my order", everything, (), 5)[0] == "cancel_order"
    assert "refund_order" not in index.search("refund", everything - {"refund_order"}, (), 5)
    assert index.search("weather in Paris", everything, (), 5) == []


def test_usage_breaks_near_ties_but_admits_nothing() -> None:
    index = ToolIndex.of([tool("get_invoice", "Look up an invoice"), tool("get_receipt", "Look up a receipt"), tool("ping")])  # fmt: skip
    everything = frozenset({"get_invoice", "get_receipt", "ping"})

    plain = index.search("look up", everything, (), 5)
    used = index.search("look up", everything, ("ping", "get_receipt"), 5)

    assert set(plain) == {"get_invoice", "get_receipt"}
    assert used == ["get_receipt", "get_invoice"]  # usage reorders; ping never matched


def test_recall_at_five_on_the_eval_set_is_at_least_nine_in_ten() -> None:
    defs = [tool(t["name"], t["description"], **dict.fromkeys(t["parameters"]["properties"], 1)) for t in tools()]  # fmt: skip
    index = ToolIndex.of(defs)
    asked = requests()
    names = frozenset(d.name for d in defs)

    ranked = {r.text: index.search(r.text, names, (), 5) for r in asked}

    assert len(defs) == 500 and len(asked) == 100 and len({r.tool for r in asked}) == 100
    assert recall_at(5, ranked, asked) >= 0.9


def test_a_snapshot_offers_search_the_always_on_and_the_found_tools() -> None:
    defs = [tool("faq"), tool("refund_order"), tool("cancel_order"), SEARCH]
    bot = BotDef("b", intents={"*": ("faq",), "orders": ("refund_order", "cancel_order")}, agent=SEARCHING)  # fmt: skip
    visible = {t.name: t for t in defs}

    fresh = build_snapshot(visible, bot, SessionInputs(intent="orders"))
    found = build_snapshot(visible, bot, SessionInputs(intent="orders", loaded=frozenset({"cancel_order"})))  # fmt: skip
    done = build_snapshot(visible, bot, SessionInputs(intent="orders", completed=frozenset({"refund_order"})))  # fmt: skip
    plain = build_snapshot(visible, BotDef("b", intents=bot.intents), SessionInputs(intent="orders"))  # fmt: skip

    assert fresh.names == [SEARCH_TOOL, "faq"]
    assert [e.name for e in fresh.deferred] == ["cancel_order", "refund_order"]  # the gate's order
    assert found.names == [SEARCH_TOOL, "cancel_order", "faq"]
    assert [e.name for e in done.deferred] == ["cancel_order"]  # done is out of the gate
    assert SEARCH_TOOL not in plain.names and plain.deferred == ()


async def test_a_search_loads_what_it_found_into_the_session_only() -> None:
    db = Database()
    db.sessions["s"] = session = SessionRecord("s", "acme", "b")
    shop = view(tool("refund_order", "Refund an order"), tool("cancel_order", "Cancel an order"))
    store = Store(db)

    answer = await ToolSearch().run(store, shop, session, SessionInputs(), (), {"query": "refund", "limit": 1})  # fmt: skip

    assert [t["name"] for t in answer["tools"]] == ["refund_order"]
    assert db.sessions["s"].loaded == ("refund_order",) and db.sessions["s"].version == 1


async def test_a_session_keeps_its_latest_finds() -> None:
    db = Database()
    db.sessions["s"] = SessionRecord("s", "acme", "b", loaded=tuple(f"t{i}" for i in range(MAX_LOADED)))  # fmt: skip
    shop = view(tool("refund_order", "Refund an order"))

    await ToolSearch().run(Store(db), shop, db.sessions["s"], SessionInputs(), (), {"query": "refund"})  # fmt: skip

    loaded = db.sessions["s"].loaded
    assert len(loaded) == MAX_LOADED and loaded[-1] == "refund_order" and "t0" not in loaded


@pytest.mark.parametrize(
    ("session", "bot", "query", "code"),
    [
        (None, None, "refund", "invalid_input"),
        (SessionRecord("s", "acme", "b"), BotDef("b"), "refund", "not_configured"),
        (SessionRecord("s", "acme", "b"), None, "?!", "invalid_input"),
    ],
)
async def test_what_a_search_refuses(session, bot, query: str, code: str) -> None:  # type: ignore[no-untyped-def]
    db = Database()
    shop = view(tool("refund_order", "Refund an order"), bot=bot)

    with pytest.raises(ToolFailure) as refused:
        await ToolSearch().run(Store(db), shop, session, SessionInputs(), (), {"query": query})

    assert refused.value.code == code
