"""Each session's state on this node — its record and variables — so that a call that changes
nothing makes no database round trip.

Kept exact by invalidation, never by age: a unit of work that changes a session (its variables,
intent, actions, breakers, status) names it (``SessionRepository.changed``); when it commits,
this node forgets the session at once, and the announcement that commits with it (``s:`` or
``v:``) makes every other node forget it too. When a node cannot hear announcements it forgets
everything at each poll (``server.propagation``).

A read races a commit: a state read from the database before a change committed must not be
kept after the change was forgotten. Every forget moves ``epoch``; a state is kept only when the
epoch is the one seen before it was read (``seen``).

Processes serving one port (``quiver serve --workers N``) take a client's calls in turn: there
a change must be seen by the next call in any of them, before any announcement could arrive.
``changed`` marks what this process committed in the shared marks
(``server.calls.session_marks``), and a state is used only while its mark is the one read
before it was.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from server.calls.session_marks import NoMarks, SharedMarks
from server.registry.model import SessionRecord

DEFAULT_MAX_SESSIONS = 20_000  # QUIVER_SESSION_CACHE_SIZE


Seen = tuple[int, int]  # (the epoch, the session's mark) before a state was read


class SessionStates:
    def __init__(
        self, max_sessions: int = DEFAULT_MAX_SESSIONS, marks: NoMarks | SharedMarks | None = None
    ) -> None:
        self.max_sessions = max_sessions
        self.marks = marks if marks is not None else NoMarks()
        self.epoch = 0
        self._entries: OrderedDict[str, tuple[SessionRecord, dict[str, Any], int]] = OrderedDict()

    def get(self, session_id: str) -> tuple[SessionRecord, dict[str, Any]] | None:
        """The session's record and variables (the caller must not change them), or None."""
        hit = self._entries.get(session_id)
        if hit is None:
            return None
        record, variables, mark = hit
        if mark != self.marks.token(session_id):  # another process changed it
            del self._entries[session_id]
            return None
        self._entries.move_to_end(session_id)
        return record, variables

    def seen(self, session_id: str) -> Seen:
        """What to pass to ``put`` for a state about to be read."""
        return self.epoch, self.marks.token(session_id)

    def put(self, record: SessionRecord, variables: dict[str, Any], seen: Seen) -> None:
        """Keep a state read after ``seen`` — unless something was forgotten since."""
        epoch, mark = seen
        if epoch != self.epoch or self.max_sessions <= 0:
            return
        self._entries[record.id] = (record, variables, mark)
        self._entries.move_to_end(record.id)
        while len(self._entries) > self.max_sessions:
            self._entries.popitem(last=False)

    def changed(self, session_ids: Iterable[str]) -> None:
        """This process committed a change to these sessions: the other processes of the host
        see it from now on, and this one forgets them."""
        ids = list(session_ids)
        self.marks.mark(ids)
        self.forget(ids)

    def forget(self, session_ids: Iterable[str]) -> None:
        for session_id in session_ids:
            self.epoch += 1
            self._entries.pop(session_id, None)

    def clear(self) -> None:
        self.epoch += 1
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
