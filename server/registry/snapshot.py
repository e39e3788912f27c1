"""The snapshot builder: a pure function of the visible tools, the bot and the session inputs."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from server.registry.code_mode import CODE_TOOL, describe
from server.registry.model import BotDef, SessionInputs, Snapshot, SnapshotEntry, ToolDef

NO_SESSION = SessionInputs()
SEARCH_TOOL = "search_tools"  # the built-in a searching bot offers (``tool_loading: "search"``)


def tool_entry(tool: ToolDef) -> SnapshotEntry:
    return SnapshotEntry(
        name=tool.name,
        description=tool.description,
        parameters=tool.parameters,
        executor="server",
        kind=tool.kind,
        origin=tool.origin,
        version=tool.version,
        content_hash=tool.content_hash,
    )


def bot_tool_names(visible: Mapping[str, ToolDef], bot: BotDef) -> list[str]:
    """The bot's tools that resolve: all visible ones (sorted) for ``None``, else in bot order.
    A skill's tools (``metadata.skill``) come with the bot's settings for that skill (after the
    listed tools); unconfigured, only when the bot lists them by name."""
    configured = set(bot.skills or ())
    skill_tools = sorted(n for n, t in visible.items() if t.metadata.get("skill") in configured)

    def plain(name: str) -> bool:
        return visible[name].metadata.get("skill") is None

    if bot.tools is None:
        return sorted({*(n for n in visible if plain(n)), *skill_tools})
    listed = [name for name in dict.fromkeys(bot.tools) if name in visible]
    return list(dict.fromkeys([*listed, *skill_tools]))


def by_relevance(names: list[str], bot: BotDef, inputs: SessionInputs) -> list[str]:
    """The intent's own tools, then its always-on (``*``) tools, then by recent use, then bot
    order: what a per-turn budget keeps first."""
    intents = bot.intents or {}
    own = set(intents.get(inputs.intent, ())) if inputs.intent is not None else set()
    always = set(intents.get("*", ()))
    used = {name: rank for rank, name in enumerate(inputs.ranking)}
    position = {name: i for i, name in enumerate(names)}
    return sorted(
        names,
        key=lambda n: (
            0 if n in own else 1 if n in always else 2,
            used.get(n, len(used)),
            position[n],
        ),
    )


def gate_names(visible: Mapping[str, ToolDef], bot: BotDef, inputs: SessionInputs) -> list[str]:
    """bot tools ∩ intent tools − completed once-per-session − open breakers: every server
    tool the session may be offered (``search_tools`` and ``run_code`` aside)."""
    names = [n for n in bot_tool_names(visible, bot) if n not in (SEARCH_TOOL, CODE_TOOL)]
    if bot.intents and inputs.intent is not None:
        allowed = set(bot.intents.get(inputs.intent, ())) | set(bot.intents.get("*", ()))
        names = [n for n in names if n in allowed]
    hidden = inputs.completed | inputs.open_breakers
    return [n for n in names if n not in hidden]


def build_snapshot(
    visible: Mapping[str, ToolDef],
    bot: BotDef,
    inputs: SessionInputs = NO_SESSION,
    base_version: int = 0,
) -> Snapshot:
    """The gate's tools, capped by the bot's budget, + browser actions (the agent's own, never
    cut by the budget). A searching bot offers ``search_tools``, its always-on (``*``) tools
    and the ones the session found; the rest of the gate is ``deferred``. A code-mode bot
    offers ``run_code`` (``code_snapshot``)."""
    names = gate_names(visible, bot, inputs)
    language = bot.code_language
    if language is not None and CODE_TOOL in visible:
        return code_snapshot(visible, bot, inputs, names, language, base_version)
    deferred: list[str] = []
    searching = bot.searches and SEARCH_TOOL in visible
    if searching:
        always = set((bot.intents or {}).get("*", ()))
        offered = [n for n in names if n in always or n in inputs.loaded]
        kept = set(offered)
        deferred = [n for n in names if n not in kept]
        names = offered
    version = base_version + inputs.version
    if bot.max_tools is not None and len(names) > bot.max_tools:
        names = by_relevance(names, bot, inputs)[: bot.max_tools]
        version += inputs.ranking_epoch
    if searching:
        names = [SEARCH_TOOL, *names]
    entries = [tool_entry(visible[n]) for n in names]
    entries += browser_entries(inputs, set(names))
    return Snapshot(
        version=version,
        entries=tuple(entries),
        deferred=tuple(tool_entry(visible[n]) for n in deferred),
    )


def code_snapshot(
    visible: Mapping[str, ToolDef],
    bot: BotDef,
    inputs: SessionInputs,
    names: list[str],
    language: str,
    base_version: int,
) -> Snapshot:
    """A code-mode bot's: ``run_code``, described with the gate's tools as functions (which
    its programs may call, and nothing else), + browser actions."""
    code = visible[CODE_TOOL]
    text = describe(code.description, (visible[n] for n in names), language)
    entry = SnapshotEntry(
        name=CODE_TOOL,
        description=text,
        parameters=code.parameters,
        executor="server",
        kind=code.kind,
        origin=code.origin,
        version=code.version,
        content_hash=hashlib.blake2b(text.encode(), digest_size=12).hexdigest(),
    )
    return Snapshot(
        version=base_version + inputs.version,
        entries=(entry, *browser_entries(inputs, {CODE_TOOL})),
        deferred=tuple(tool_entry(visible[n]) for n in names),
    )


def browser_entries(inputs: SessionInputs, taken: set[str]) -> list[SnapshotEntry]:
    """The page's actions (not the server tools' names, not held out by a breaker)."""
    entries = []
    for action in inputs.browser_actions:
        if action.name in taken or action.name in inputs.open_breakers:
            continue
        entries.append(
            SnapshotEntry(
                name=action.name,
                description=action.description,
                parameters=action.parameters,
                executor="browser",
                kind="browser",
                origin="session",
                version=0,
                content_hash=action.fingerprint,
            )
        )
    return entries
