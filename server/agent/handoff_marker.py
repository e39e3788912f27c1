"""``[[HANDOFF]]`` in a model's answer: the persona trigger of the seed bots. The marker is
taken out of the text (also while it streams, when it arrives split across pieces) and the
session is handed to a person as ``escalate_to_human`` hands it (server/calls/session_calls.py).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

MARKER = "[[HANDOFF]]"
_MARKER = re.compile(r"[ \t]*\[\[HANDOFF\]\][ \t]*")


def take(text: str) -> tuple[str, bool]:
    """The text without the marker (and the spaces around it), and whether it was there."""
    if MARKER not in text:
        return text, False
    return _MARKER.sub(" ", text).strip(), True


class WithoutMarker:
    """Streamed text with the marker left out: a tail that could be the marker's beginning
    waits for the next piece (or ``end``)."""

    def __init__(self, send: Callable[[str], Awaitable[None]], end: Callable[[], Awaitable[None]]):
        self.send = send
        self._end = end
        self.held = ""

    async def __call__(self, piece: str) -> None:
        text = (self.held + piece).replace(MARKER, "")
        keep = next(
            (n for n in range(min(len(MARKER) - 1, len(text)), 0, -1) if text.endswith(MARKER[:n])),
            0,
        )
        self.held = text[len(text) - keep :] if keep else ""
        if len(text) > keep:
            await self.send(text[: len(text) - keep])

    async def end(self) -> None:
        if self.held:
            held, self.held = self.held, ""
            await self.send(held)
        await self._end()
