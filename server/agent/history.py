"""What of a session's stored conversation is sent to the model: every message in the neutral
shape (``server.agent.providers``), cut to the bot's context budget — the oldest turns dropped
first, long tool results shortened with a marker. The stored transcript stays whole."""

from __future__ import annotations

from typing import Any

CHARS_PER_TOKEN = 4  # an estimate: budgets are approximate, what the provider counts is exact
CUT_MARKER = "\n[… {n} characters cut]"


def neutral(row: Any) -> dict[str, Any]:
    if row.role == "assistant":
        return {"role": "assistant", "content": row.content, "tool_calls": row.tool_calls or []}
    if row.role == "tool":
        return {
            "role": "tool", "tool_call_id": row.tool_call_id, "name": row.name,
            "content": row.content or "",
        }  # fmt: skip
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
