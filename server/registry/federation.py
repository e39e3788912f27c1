"""Federated MCP servers: a tenant's declaration of a remote MCP server, and the tools its listing
makes (kind ``mcp``), checked as any tool is. Pure: the listing is read elsewhere
(``server.calls.mcp_remote``) and handed in as the remote said it.

A remote's tool ``lookup`` on server ``crm`` becomes the tool ``crm__lookup`` (the server's
``prefix``, ``crm`` unless it says otherwise): namespaced, so two servers' ``search`` are two
tools and no remote can take a name of the tenant's own. Only the tools the declaration's
allowlist names are taken (``["*"]``: all, said outright). A remote tool that cannot be a tool
(its name, its schema) is left out and reported with its reasons; a remote that offers more than
``MAX_TOOLS`` is cut there.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from typing import Any

from server.egress import EgressDenied, parse_url
from server.errors import Problems
from server.registry.definitions import (
    KEEP,
    MAX_CACHE_TTL_S,
    MAX_DESCRIPTION,
    MAX_URL,
    TOOL_NAME,
    DefinitionLimits,
    ToolDraft,
    _Keep,
)
from server.registry.schema import normalise_parameters

SERVER_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
PREFIX = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")
SEPARATOR = "__"
MAX_TOOLS = 200  # a remote's tools taken by one server
MAX_ALLOW = 200  # names or patterns in an allowlist
MAX_SECRET = 4096
FIELDS = frozenset(
    {"url", "tools", "prefix", "auth_header", "timeout_ms", "cacheable", "cache_ttl"}
)
# the remote's effect hints, as Quiver's metadata names them
HINTS = {
    "readOnlyHint": "read_only",
    "destructiveHint": "destructive",
    "idempotentHint": "idempotent",
}


@dataclass(frozen=True)
class ServerSpec:
    """A checked declaration of a federated server."""

    name: str
    url: str
    tools: tuple[str, ...]  # the allowlist: names, glob patterns, or "*"
    prefix: str
    timeout_ms: int
    auth_header: str | None | _Keep = KEEP  # KEEP: the stored one stays
    cacheable: tuple[str, ...] = ()  # the remote tools whose results may be cached: names, globs
    cache_ttl: int | None = None

    def allows(self, remote_name: str) -> bool:
        return any(fnmatch.fnmatchcase(remote_name, pattern) for pattern in self.tools)

    def caches(self, remote_name: str) -> bool:
        return any(fnmatch.fnmatchcase(remote_name, pattern) for pattern in self.cacheable)

    def config(self, remote_name: str) -> dict[str, Any]:
        """What a tool of this server stores as its config (``ToolDraft.webhook``)."""
        return {
            "server": self.name,
            "url": self.url,
            "tool": remote_name,
            "timeout_ms": self.timeout_ms,
        }


@dataclass
class FederationPlan:
    drafts: list[ToolDraft] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)  # {"tool", "errors"}
    missing: list[str] = field(default_factory=list)  # names allowed but not offered


def check_server(name: str, body: Any, limits: DefinitionLimits) -> ServerSpec:
    """The body of ``PUT /v1/mcp-servers/{name}`` as a spec (422 naming each problem)."""
    problems = Problems()
    if not SERVER_NAME.match(name):
        problems.add("name", "must match ^[a-z][a-z0-9_-]{0,31}$")
    if not isinstance(body, dict):
        problems.add(None, "must be a JSON object")
        problems.raise_if_any()
    for key in sorted(set(body) - FIELDS):
        problems.add(key, f"is not a field of an MCP server (fields: {', '.join(sorted(FIELDS))})")
    url = body.get("url")
    if not isinstance(url, str) or not url or len(url) > MAX_URL:
        problems.add("url", f"must be an http(s) URL of at most {MAX_URL} characters")
    else:
        try:
            parse_url(url)
        except EgressDenied as exc:
            problems.add("url", str(exc))
    tools = body.get("tools")
    if (
        not isinstance(tools, list)
        or not tools
        or len(tools) > MAX_ALLOW
        or not all(isinstance(t, str) and 0 < len(t) <= 128 for t in tools)
    ):
        problems.add(
            "tools",
            f"must list the remote tools to take (1 to {MAX_ALLOW} names or patterns; "
            '["*"] takes all)',
        )
    prefix = body.get("prefix", name)
    if not isinstance(prefix, str) or not PREFIX.match(prefix):
        problems.add("prefix", "must match ^[A-Za-z][A-Za-z0-9_-]{0,31}$")
    timeout = body.get("timeout_ms", limits.default_timeout_ms)
    if (
        not isinstance(timeout, int)
        or isinstance(timeout, bool)
        or not 100 <= timeout <= limits.max_timeout_ms
    ):
        problems.add("timeout_ms", f"must be an integer from 100 to {limits.max_timeout_ms}")
    cacheable = body.get("cacheable", [])
    if (
        not isinstance(cacheable, list)
        or len(cacheable) > MAX_ALLOW
        or not all(isinstance(t, str) and 0 < len(t) <= 128 for t in cacheable)
    ):
        problems.add(
            "cacheable", "must list remote tools (names or patterns) whose results may be cached"
        )
    ttl = body.get("cache_ttl")
    if ttl is not None and (
        not isinstance(ttl, int) or isinstance(ttl, bool) or not 0 <= ttl <= MAX_CACHE_TTL_S
    ):
        problems.add("cache_ttl", f"must be an integer from 0 to {MAX_CACHE_TTL_S}")
    secret: str | None | _Keep = KEEP
    if "auth_header" in body:
        secret = body["auth_header"]
        if secret is not None and (
            not isinstance(secret, str) or not 0 < len(secret) <= MAX_SECRET
        ):
            said = f"must be a string of at most {MAX_SECRET} characters, or null"
            problems.add("auth_header", said)
    problems.raise_if_any()
    return ServerSpec(
        name=name,
        url=str(url),
        tools=tuple(tools),
        prefix=str(prefix),
        timeout_ms=int(timeout),
        auth_header=secret,
        cacheable=tuple(cacheable),
        cache_ttl=ttl,
    )


def plan_tools(
    spec: ServerSpec, remote: list[dict[str, Any]], secret: str | None
) -> FederationPlan:
    """The tools a remote's listing makes: one draft per allowed remote tool (each with the
    server's secret, stored encrypted with it), and what was left out and why."""
    plan = FederationPlan()
    seen: set[str] = set()
    offered: set[str] = set()
    for item in remote:
        remote_name = item.get("name")
        if not isinstance(remote_name, str) or not spec.allows(remote_name):
            continue
        offered.add(remote_name)
        problems = Problems()
        local = f"{spec.prefix}{SEPARATOR}{remote_name}"
        if not TOOL_NAME.match(local):
            problems.add("name", f"{local!r} must match ^[A-Za-z][A-Za-z0-9_-]{{0,63}}$")
        elif local in seen:
            problems.add("name", f"the server offers {remote_name!r} more than once")
        elif len(plan.drafts) >= MAX_TOOLS:
            problems.add("name", f"the server offers more than {MAX_TOOLS} tools")
        parameters = normalise_parameters(item.get("inputSchema"), problems, "inputSchema")
        if problems.errors:
            errors = [{"field": e.field, "message": e.message} for e in problems.errors]
            plan.skipped.append({"tool": str(remote_name)[:128], "errors": errors})
            continue
        seen.add(local)
        plan.drafts.append(
            ToolDraft(
                name=local,
                description=_description(item, spec),
                parameters=parameters,
                metadata=_metadata(item, spec),
                kind="mcp",
                webhook=spec.config(remote_name),
                auth_header=secret,
            )
        )
    plan.missing = sorted(
        t for t in spec.tools if not any(c in t for c in "*?[") and t not in offered
    )
    return plan


def _description(item: dict[str, Any], spec: ServerSpec) -> str:
    said = item.get("description") or item.get("title")
    text = said.strip() if isinstance(said, str) else ""
    return (text or f"{item['name']} (a tool of the MCP server {spec.name})")[:MAX_DESCRIPTION]


def _metadata(item: dict[str, Any], spec: ServerSpec) -> dict[str, Any]:
    """What the remote says of the tool that Quiver's metadata can carry — its title and effect
    hints (which MCP clients of Quiver are told again) — and whether the declaration lets its
    results be cached (never assumed from a hint: read-only is not unchanging)."""
    metadata: dict[str, Any] = {}
    if spec.caches(item["name"]):
        metadata["cacheable"] = True
        if spec.cache_ttl is not None:
            metadata["cache_ttl"] = spec.cache_ttl
    title = item.get("title")
    if isinstance(title, str) and title.strip():
        metadata["title"] = title.strip()[:200]
    annotations = item.get("annotations")
    if isinstance(annotations, dict):
        for hint, key in HINTS.items():
            if isinstance(annotations.get(hint), bool):
                metadata[key] = annotations[hint]
    return metadata
