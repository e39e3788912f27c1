"""What a federated server's listing makes (``server.registry.federation``), pure: the allowlist
(names and globs), the namespace, the remote's hints and the declaration's caching as metadata,
and every tool that cannot be one reported with its reason."""

from __future__ import annotations

import pytest

from server.errors import ValidationFailedError
from server.registry.definitions import DefinitionLimits
from server.registry.federation import MAX_TOOLS, ServerSpec, check_server, plan_tools

OBJECT = {"type": "object", "properties": {"q": {"type": "string"}}}


def spec(tools: tuple[str, ...] = ("*",), **extra) -> ServerSpec:
    return ServerSpec("crm", "https://mcp.crm.example/mcp", tools, "crm", 5000, **extra)


def remote(name: str, **extra) -> dict:
    return {"name": name, "description": f"does {name}", "inputSchema": OBJECT, **extra}


def test_allowed_tools_become_namespaced_drafts_with_the_remotes_hints() -> None:
    listing = [
        remote("search_contacts", annotations={"readOnlyHint": True, "idempotentHint": True}),
        remote("search_deals", title="Deals"),
        remote("delete_all", annotations={"destructiveHint": True}),
    ]
    plan = plan_tools(spec(("search_*", "get_ticket"), cacheable=("search_deals",), cache_ttl=60),
                      listing, "Bearer s")  # fmt: skip

    drafts = {d.name: d for d in plan.drafts}
    assert sorted(drafts) == ["crm__search_contacts", "crm__search_deals"]
    assert drafts["crm__search_contacts"].metadata == {"read_only": True, "idempotent": True}
    assert drafts["crm__search_deals"].metadata == {"title": "Deals", "cacheable": True, "cache_ttl": 60}  # fmt: skip
    contacts = drafts["crm__search_contacts"]
    assert contacts.kind == "mcp" and contacts.auth_header == "Bearer s"
    assert contacts.webhook == {"server": "crm", "url": "https://mcp.crm.example/mcp",
                                "tool": "search_contacts", "timeout_ms": 5000}  # fmt: skip
    assert plan.missing == ["get_ticket"] and plan.skipped == []


def test_what_cannot_be_a_tool_is_left_out_with_its_reason() -> None:
    listing = [
        remote("bad.name"),
        remote("twice"),
        remote("twice"),
        remote(
            "odd_schema", inputSchema={"type": "object", "properties": {"x": {"type": "bogus"}}}
        ),
        remote("x" * 70),
    ]
    plan = plan_tools(spec(), listing, None)

    reasons = {s["tool"]: s["errors"][0]["message"] for s in plan.skipped}
    assert [d.name for d in plan.drafts] == ["crm__twice"]
    assert set(reasons) == {"bad.name", "twice", "odd_schema", "x" * 70}
    assert "more than once" in reasons["twice"]


def test_a_remote_that_offers_too_many_is_cut_at_the_cap() -> None:
    plan = plan_tools(spec(), [remote(f"t{i}") for i in range(MAX_TOOLS + 5)], None)

    assert len(plan.drafts) == MAX_TOOLS and len(plan.skipped) == 5


def test_a_declaration_names_each_bad_field() -> None:
    with pytest.raises(ValidationFailedError) as refused:
        check_server("crm", {"url": "ftp://x", "tools": [], "prefix": "1x", "timeout_ms": 5,
                             "cacheable": "all", "cache_ttl": -1, "auth_header": 7, "other": 1},
                     DefinitionLimits())  # fmt: skip

    fields = {e.field for e in refused.value.errors}
    assert fields == {"url", "tools", "prefix", "timeout_ms", "cacheable", "cache_ttl",
                      "auth_header", "other"}  # fmt: skip
