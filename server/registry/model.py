"""Value types of the registry core."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ToolKind = Literal["python", "wasm", "webhook", "javascript", "mcp"]
Origin = Literal["tenant", "global", "builtin"]
Executor = Literal["server", "browser"]
Role = Literal["admin", "developer", "agent"]

GLOBAL_TENANT = "*"


@dataclass(frozen=True, slots=True)
class ToolDef:
    """One tool's current definition, as the registry resolves it."""

    name: str
    description: str
    parameters: dict[str, Any]
    metadata: dict[str, Any]
    kind: ToolKind
    origin: Origin
    version: int
    content_hash: str
    tenant_id: str = GLOBAL_TENANT
    sandbox: str | None = None
    enabled: bool = True
    version_id: int = 0  # the stored version's row id; 0 for disk and built-in tools
    saved_at_us: int = 0  # when that version was stored (SQLite reuses a deleted row's id)
    on_error: bool | None = None  # declares an on_error handler (None: saved before it was kept)
    method: str | None = None  # a webhook's HTTP method (what MCP clients are told of it)

    @property
    def identity(self) -> str:
        """What every cache of this tool is keyed by: its content and the stored version it is.
        A delete and re-create, or a new secret with the same content, changes it."""
        return f"{self.content_hash}.{self.version_id}.{self.saved_at_us}"


@dataclass(frozen=True, slots=True)
class BotDef:
    """A bot: which tools it offers (``None`` = all visible, ``[]`` = none) and its intent map."""

    name: str
    tools: tuple[str, ...] | None = None
    intents: dict[str, tuple[str, ...]] | None = None
    max_tools: int | None = None  # the per-turn tool budget
    # staged rollout: (tool name, version) this bot keeps while newer versions go to the others
    pins: tuple[tuple[str, int], ...] = ()
    # the built-in skills it uses and their settings: {"qa": {"dataset": "faq", "top_k": 3}}
    skills: dict[str, dict[str, Any]] | None = None
    # the agent loop's settings (model, tool_round_model, max_rounds, max_context_tokens,
    # action_timeout_s, system_prompt, intent_detection, …): read with the registry, so a turn
    # needs no query for them
    agent: dict[str, Any] | None = None

    @property
    def code_language(self) -> str | None:
        """``code_mode``: the language of the programs ``run_code`` runs, or None."""
        language = (self.agent or {}).get("code_mode")
        return language if language in ("python", "javascript") else None

    @property
    def searches(self) -> bool:
        """``tool_loading: "search"``: a session starts with the always-on (``*``) tools and
        ``search_tools``; the tools it finds join the session's snapshot."""
        return (self.agent or {}).get("tool_loading") == "search"


@dataclass(frozen=True, slots=True)
class BrowserAction:
    """An action a web agent registered for its session; it runs in the browser."""

    name: str
    description: str
    parameters: dict[str, Any]
    fingerprint: str = ""  # a hash of the three above: what caches and diffs compare


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A session as the call path sees it: plain data, safe to keep between requests (a
    node caches it: ``server.calls.session_state``)."""

    id: str
    tenant_id: str
    bot: str
    intent: str | None = None
    version: int = 0
    status: str = "active"  # active | handed_off | ended
    customer: str | None = None
    end_reason: str | None = None
    open_breakers: tuple[dict[str, Any], ...] = ()  # [{"tool", "until"}] (epoch seconds)
    actions: tuple[dict[str, Any], ...] = ()  # the browser actions it registered
    loaded: tuple[str, ...] = ()  # the tools search_tools found for it (``tool_loading``)


@dataclass(frozen=True, slots=True)
class SessionInputs:
    """What a session adds to a bot's snapshot. The defaults describe a bare bot snapshot."""

    intent: str | None = None
    completed: frozenset[str] = frozenset()
    open_breakers: frozenset[str] = frozenset()
    browser_actions: tuple[BrowserAction, ...] = ()
    version: int = 0
    # The tenant's tools by recent use, most used first, for the per-turn budget; the epoch
    # numbers each refresh of that ranking so a budgeted snapshot's version moves with it.
    ranking: tuple[str, ...] = ()
    ranking_epoch: int = 0
    loaded: frozenset[str] = frozenset()  # the tools search_tools found (searching bots)

    @property
    def cache_key(self) -> tuple[Any, ...]:
        return (
            self.intent,
            self.completed,
            self.open_breakers,
            self.version,
            tuple((a.name, a.fingerprint) for a in self.browser_actions),
            self.ranking,
            self.loaded,
        )


@dataclass(frozen=True, slots=True)
class SnapshotEntry:
    name: str
    description: str
    parameters: dict[str, Any]
    executor: Executor
    kind: str
    origin: str
    version: int
    content_hash: str = ""


@dataclass(frozen=True, slots=True)
class Snapshot:
    version: int
    entries: tuple[SnapshotEntry, ...] = field(default_factory=tuple)
    # the gate's tools not offered by themselves: a searching bot's not yet found (not
    # callable; the provider formats with deferred loading list them), a code-mode bot's
    # (callable from its programs only)
    deferred: tuple[SnapshotEntry, ...] = field(default_factory=tuple)
    # by name, built with the snapshot (which is built once and cached): a call's gate is a
    # lookup, not a scan of every tool of the bot
    _by_name: dict[str, SnapshotEntry] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {e.name: e for e in self.entries})

    def entry(self, name: str) -> SnapshotEntry | None:
        return self._by_name.get(name)

    def deferred_entry(self, name: str) -> SnapshotEntry | None:
        """A tool of the gate that is not offered by itself (a searching or code-mode bot's)."""
        return next((e for e in self.deferred if e.name == name), None)

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entries]
