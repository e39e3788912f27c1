"""Resolution: which tool a tenant gets for a name.

First match wins: the tenant's own DB tool, then a global DB tool, then a disk or built-in tool.
Global ones (DB, disk, built-in) are visible only when their name is on the tenant's shared-tools
allowlist (``"*"`` admits all). A disabled tool still owns its name: it hides the tools below it
rather than letting them show through, so disabling a tool always removes that name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from server.registry.model import ToolDef


def is_shared(name: str, allowlist: Iterable[str]) -> bool:
    allowed = allowlist if isinstance(allowlist, set | frozenset) else set(allowlist)
    return "*" in allowed or name in allowed


def resolve_visible(
    tenant_tools: Iterable[ToolDef],
    global_tools: Iterable[ToolDef],
    disk_tools: Iterable[ToolDef],
    allowlist: Iterable[str],
) -> dict[str, ToolDef]:
    """Every tool the tenant can see, by name, after precedence and the allowlist."""
    allowed = frozenset(allowlist)
    winners: dict[str, ToolDef] = {}
    for layer, shared in ((disk_tools, True), (global_tools, True), (tenant_tools, False)):
        for tool in layer:
            if not shared or is_shared(tool.name, allowed):
                winners[tool.name] = tool
    return {name: tool for name, tool in winners.items() if tool.enabled}


def resolve_tool(name: str, visible: Mapping[str, ToolDef]) -> ToolDef | None:
    return visible.get(name)
