"""Each session's state on this node — its record and variables — so that a call that changes
nothing makes no database round trip.

Kept exact by invalidation, never by age: a unit of work that changes a session (its variables,
intent, actions, breakers, status) names it (``SessionRepository.changed``); when it commits,
this node forgets the session at once, and the announcement that commits with it (``s:`` or
``v:``) makes every other node forget it too. When a node cannot hear announcements it forgets
everything at each poll (``server.propagation``).

A read races a commit: a state read from the database before a change committed must not be
kept after the change was forgotten. Every forget moves ``epoch``; a state is kept only when the
epoch is the one seen before it was read.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from server.registry.model import SessionRecord

DEFAULT_MAX_SESSIONS = 20_000  # QUIVER_SESSION_CACHE_SIZE


class SessionStates:
    def __init__(self, max_sessions: int = DEFAULT_MAX_SESSIONS) -> None:
        self.max_sessions = max_sessions
        self.epoch = 0
        self._entries: OrderedDict[str, tuple[SessionRecord, dict[str, Any]]] = OrderedDict()

    def get(self, session_id: str) -> tuple[SessionRecord, dict[str, Any]] | None:
        """The session's record and variables (the caller must not change them), or None."""
        hit = self._entries.get(session_id)
        if hit is not None:
            self._entries.move_to_end(session_id)
        return hit

    def put(self, record: SessionRecord, variables: dict[str, Any], epoch: int) -> None:
        """Keep a state read after ``epoch`` was seen — unless something was forgotten since."""
        if epoch != self.epoch or self.max_sessions <= 0:
            return
        self._entries[record.id] = (record, variables)
        self._entries.move_to_end(record.id)
        while len(self._entries) > self.max_sessions:
            self._entries.popitem(last=False)

    def forget(self, session_ids: Iterable[str]) -> None:
        for session_id in session_ids:
            self.epoch += 1
            self._entries.pop(session_id, None)

    def clear(self) -> None:
        self.epoch += 1
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
