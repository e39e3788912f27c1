"""The pure snapshot builder and the resolution rules, without HTTP."""

from __future__ import annotations

from server.registry.model import BotDef, BrowserAction, SessionInputs, ToolDef
from server.registry.resolution import resolve_visible
from server.registry.snapshot import build_snapshot


def tool(name: str, origin: str = "tenant", enabled: bool = True, version: int = 1) -> ToolDef:
    return ToolDef(
        name=name, description=f"{origin} {name}", parameters={"type": "object", "properties": {}},
        metadata={}, kind="python", origin=origin, version=version, content_hash=f"h-{origin}-{name}-{version}", enabled=enabled,
    )  # fmt: skip


VISIBLE = {n: tool(n) for n in ("check_order", "refund", "escalate", "collect_lead")}
BOT = BotDef(
    name="b",
    tools=None,
    intents={"orders": ("check_order", "refund"), "leads": ("collect_lead",), "*": ("escalate",)},
)


def test_intent_filters_to_its_tools_plus_always_on_ones() -> None:
    snapshot = build_snapshot(VISIBLE, BOT, SessionInputs(intent="orders"))

    assert snapshot.names == ["check_order", "escalate", "refund"]


def test_a_snapshot_finds_its_entries_by_name_and_only_its_own() -> None:
    snapshot = build_snapshot(VISIBLE, BOT, SessionInputs(intent="orders"))

    assert [snapshot.entry(n) for n in snapshot.names] == list(snapshot.entries)
    assert snapshot.entry("collect_lead") is None  # visible, but not in this intent's snapshot
    assert snapshot == build_snapshot(VISIBLE, BOT, SessionInputs(intent="orders"))


def test_without_an_intent_the_map_does_not_filter() -> None:
    assert build_snapshot(VISIBLE, BOT).names == sorted(VISIBLE)


def test_bot_without_intent_map_ignores_the_session_intent() -> None:
    assert build_snapshot(
        VISIBLE, BotDef("b", tools=None), SessionInputs(intent="orders")
    ).names == sorted(VISIBLE)


def test_completed_and_breaker_open_tools_leave_the_snapshot() -> None:
    inputs = SessionInputs(
        completed=frozenset({"collect_lead"}), open_breakers=frozenset({"refund"})
    )

    assert build_snapshot(VISIBLE, BOT, inputs).names == ["check_order", "escalate"]


def test_browser_actions_join_with_the_browser_executor() -> None:
    action = BrowserAction("highlight", "Highlight a product", {"type": "object", "properties": {}})

    snapshot = build_snapshot(
        VISIBLE,
        BotDef("b", tools=("refund",)),
        SessionInputs(browser_actions=(action,), version=2),
        base_version=10,
    )

    assert snapshot.names == ["refund", "highlight"]
    assert snapshot.entries[1].executor == "browser"
    assert snapshot.version == 12


def test_resolution_precedence_and_allowlist() -> None:
    visible = resolve_visible(
        tenant_tools=[tool("a"), tool("d", enabled=False)],
        global_tools=[
            tool("a", "global"),
            tool("b", "global"),
            tool("d", "global"),
            tool("e", "global"),
        ],
        disk_tools=[tool("b", "builtin"), tool("c", "builtin"), tool("f", "builtin")],
        allowlist=["b", "c", "d"],
    )

    assert {n: t.origin for n, t in visible.items()} == {
        "a": "tenant",
        "b": "global",
        "c": "builtin",
    }
