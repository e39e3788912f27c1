"""Tool search (deferred loading): what ``search_tools`` does for a bot with
``tool_loading: "search"``.

Such a session is offered ``search_tools``, the bot's always-on (``*``) tools and the tools it
found so far; the rest of its gate is deferred (``server.registry.snapshot``). A search ranks the
deferred tools by BM25 over their names, descriptions and parameter names (tantivy, one index
per bot and registry view, built on first use; ``server.calls.tool_words`` says how names and
plurals are read and what a name's verbs bring), nudged by how much the tenant used each lately;
the best ones are added to the session's loaded tools in the call's unit of work, so they are in
its snapshot — offered, callable, announced as any change — from the next request on.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sandbox.engine import ToolFailure
from server.calls.ports import CallStore
from server.calls.tool_words import action_words, terms, words_of_name
from server.registry.model import SessionInputs, SessionRecord, ToolDef
from server.registry.service import TenantView
from server.registry.snapshot import gate_names
from server.skills.search import EmptyQuery, TextIndex

FIELDS = ("name", "actions", "description", "parameters")
# a name's words weigh double; the words users say for its verbs as much as a description's
WEIGHTS = {"name": 2.0, "actions": 1.0, "description": 1.0, "parameters": 1.0}
USAGE_WEIGHT = 0.3  # the most used tool's score × 1.3, the least used ranked one's × ~1.0
DEFAULT_LIMIT = 5
MAX_LIMIT = 10
MAX_LOADED = 64  # a session keeps its latest finds up to this many
MAX_INDEXES = 256  # per node: (tenant, registry view, bot)
MAX_QUERY_TERMS = 64


def parameter_names(schema: dict[str, Any]) -> str:
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return " ".join(words_of_name(str(k)) for k in properties or ())


@dataclass(frozen=True)
class ToolIndex:
    """BM25 over the tools' fields; ``folded`` and ``verbs`` switch the two aids off for a
    comparison (``benchmarks.tool_search``)."""

    names: tuple[str, ...]
    index: TextIndex
    folded: bool = True

    @classmethod
    def of(cls, tools: Iterable[ToolDef], folded: bool = True, verbs: bool = True) -> ToolIndex:
        listed = list(tools)

        def text(value: str) -> str:
            return " ".join(terms(value, folded))

        rows = (
            (
                text(words_of_name(t.name)),
                text(action_words(t.name)) if verbs else "",
                text(t.description),
                text(parameter_names(t.parameters)),
            )
            for t in listed
        )
        return cls(tuple(t.name for t in listed), TextIndex.build(FIELDS, rows), folded)

    def search(
        self, query: str, among: frozenset[str], ranking: Sequence[str], limit: int
    ) -> list[str]:
        """The best ``limit`` of ``among`` for ``query``, best first (``EmptyQuery`` if it has
        no words); usage breaks near-ties, never lets a tool that does not match in."""
        words = list(dict.fromkeys(terms(query, self.folded)))[:MAX_QUERY_TERMS]
        if not words:
            raise EmptyQuery("the query has no words to search for")
        skip = frozenset(i for i, name in enumerate(self.names) if name not in among)
        hits = self.index.search_terms(words, WEIGHTS, limit=max(limit * 3, 10), skip=skip)
        used = {name: rank for rank, name in enumerate(ranking)}

        def prior(name: str) -> float:
            rank = used.get(name)
            return 1.0 if rank is None else 1.0 + USAGE_WEIGHT * (1 - rank / len(used))

        scored = [(hit.score * prior(self.names[hit.position]), hit.position) for hit in hits]
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [self.names[position] for _, position in scored[:limit]]


class ToolSearch:
    """The node's indexes of searching bots' tools, by tenant, registry view and bot."""

    def __init__(self, max_indexes: int = MAX_INDEXES) -> None:
        self._indexes: OrderedDict[tuple[Any, ...], ToolIndex] = OrderedDict()
        self._max = max_indexes

    async def index(self, view: TenantView, bot: str) -> ToolIndex:
        """The bot's index for this registry view, built on first use off the event loop
        (500 tools: ~30 ms; docs/benchmarks.md)."""
        key = (view.tenant_id, view.key, bot)
        found = self._indexes.get(key)
        if found is None:
            tools = view.tools_for(bot)
            everything = gate_names(tools, view.bot(bot), SessionInputs())
            found = await asyncio.to_thread(ToolIndex.of, [tools[n] for n in everything])
            self._indexes[key] = found
            if len(self._indexes) > self._max:
                self._indexes.popitem(last=False)
        else:
            self._indexes.move_to_end(key)
        return found

    async def run(
        self,
        store: CallStore,
        view: TenantView,
        session: SessionRecord | None,
        inputs: SessionInputs,
        ranking: Sequence[str],
        args: dict[str, Any],
    ) -> dict[str, Any]:
        """Search the session's deferred tools and load the best ones into it."""
        if session is None:
            message = "search_tools finds tools for a session: call it in one"
            raise ToolFailure("invalid_input", message)
        bot = view.bot(session.bot)
        if not bot.searches:
            message = f"bot {bot.name!r} does not search its tools (tool_loading)"
            raise ToolFailure("not_configured", message)
        query = str(args.get("query") or "")
        limit = min(int(args.get("limit") or DEFAULT_LIMIT), MAX_LIMIT)
        tools = view.tools_for(session.bot)
        offered = set((bot.intents or {}).get("*", ())) | inputs.loaded
        deferred = frozenset(n for n in gate_names(tools, bot, inputs) if n not in offered)
        try:
            index = await self.index(view, session.bot)
            found = index.search(query, deferred, ranking, limit)
        except EmptyQuery as exc:
            raise ToolFailure("invalid_input", f"query: {exc}") from None
        if found:
            await store.sessions.load_tools(session.id, found, keep=MAX_LOADED)
        return {
            "query": query,
            "tools": [
                {
                    "name": name,
                    "description": tools[name].description,
                    "parameters": tools[name].parameters,
                }
                for name in found
            ],
            "note": "these tools can be called from now on"
            if found
            else "no tool matches: search again with other words",
        }
