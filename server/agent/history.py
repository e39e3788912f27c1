"""What of a session's stored conversation is sent to the model: every message in the neutral
shape (``server.agent.providers``), cut to the bot's context budget — the oldest turns dropped
first, long tool results shortened with a marker. The stored transcript stays whole."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

CHARS_PER_TOKEN = 4  # an estimate: budgets are approximate, what the provider counts is exact
CUT_MARKER = "\n[… {n} characters cut]"


def neutral(row: Any) -> dict[str, Any]:
    if row.role == "assistant":
        return {"role": "assistant", "content": row.content, "tool_calls": row.tool_calls or []}
    if row.role == "tool":
        return {
            "role": "tool",
            "tool_call_id": row.tool_call_id,
            "name": row.name,
            "content": row.content or "",
        }
    return {"role": "user", "content": row.content or ""}


def tokens(message: dict[str, Any]) -> int:
    size = len(message.get("content") or "")
    for call in message.get("tool_calls") or ():
        size += len(str(call.get("arguments"))) + len(call.get("name", ""))
    return size // CHARS_PER_TOKEN + 4


def fit_to_budget(messages: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """The newest turns that fit in ``budget`` tokens (the current turn always); a tool result
    longer than a quarter of the budget is cut with a marker."""
    limit = max(200, budget // 4) * CHARS_PER_TOKEN
    shaped = []
    for m in messages:
        text = m.get("content") or ""
        if m["role"] == "tool" and len(text) > limit:
            m = {**m, "content": text[:limit] + CUT_MARKER.format(n=len(text) - limit)}
        shaped.append(m)
    turns: list[list[dict[str, Any]]] = []
    for m in shaped:  # a turn starts at a user message
        if m["role"] == "user" or not turns:
            turns.append([])
        turns[-1].append(m)
    kept: list[list[dict[str, Any]]] = []
    used = 0
    for turn in reversed(turns):
        cost = sum(tokens(m) for m in turn)
        if kept and used + cost > budget:
            break
        kept.append(turn)
        used += cost
    return [m for turn in reversed(kept) for m in turn]


class Histories:
    """The conversations this node answered last, so that a session's next turn reads no
    history back: each one's neutral messages and the number its next message takes.

    Kept exact without being told of other nodes' writes: a turn takes its copy out (``take``)
    and writes its user message under the copy's next number; when another node (or anything
    else) added a message meanwhile, that number is taken and the write is a conflict, upon
    which the turn reads the history from the database. A turn gives the copy back (``keep``)
    only when it ends knowing every message it wrote; a session attached through this node
    starts with its empty history (``Runtime.committed``). Bounded by sessions (an empty one
    costs a few hundred bytes) and characters, the least recently used going first."""

    def __init__(self, max_sessions: int = 10_000, max_chars: int = 32 * 1024 * 1024) -> None:
        self.max_sessions = max_sessions
        self.max_chars = max_chars
        self.chars = 0
        self._entries: OrderedDict[str, tuple[list[dict[str, Any]], int, int]] = OrderedDict()

    def take(self, session_id: str) -> tuple[list[dict[str, Any]], int] | None:
        """The session's history and next message number, no longer kept; or None."""
        entry = self._entries.pop(session_id, None)
        if entry is None:
            return None
        self.chars -= entry[2]
        return entry[0], entry[1]

    def keep(self, session_id: str, history: list[dict[str, Any]], next_seq: int) -> None:
        self.take(session_id)
        size = sum(tokens(m) * CHARS_PER_TOKEN for m in history)
        if size > self.max_chars // 8:  # one long conversation must not push out all others
            return
        self._entries[session_id] = (history, next_seq, size)
        self.chars += size
        while len(self._entries) > self.max_sessions or self.chars > self.max_chars:
            self.chars -= self._entries.popitem(last=False)[1][2]

    def __len__(self) -> int:
        return len(self._entries)
