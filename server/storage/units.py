"""Units of work over the database: ``server.calls.services.Storage`` for the use cases, and
the stores the HTTP adapters open per request. Every unit of work tells the node what it
changed as it commits (``committed``), so the node's caches follow."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.secretbox import SecretBox
from server.storage.repositories import Store


class DatabaseStorage:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        box: SecretBox,
        committed: Callable[[Store], None] = lambda store: None,
    ) -> None:
        self.sessions = sessions
        self.box = box
        self.committed = committed

    def store(self, session: AsyncSession | None = None) -> Store:
        """A unit of work in ``session`` — or, without one, in a session it opens on first use."""

        def opened(session: Any) -> Any:
            session.info.setdefault("on_commit", []).append(lambda: self.committed(store))
            return session

        if session is not None:
            store = Store(opened(session), self.box, self.sessions)
        else:
            store = Store(
                None, self.box, self.sessions, open_session=lambda: opened(self.sessions())
            )
        return store

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Store]:
        async with self.sessions() as session, session.begin():
            yield self.store(session)

    def reader(self) -> Store:
        return self.store()
