"""The request's unit of work: committed when all went well; rolled back and raised when not —
except a commit that fails because the database went away after a tool answered, whose answer
still goes out. Against a fake store: the HTTP and MCP fault tests run the real one."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest

from server.api.deps import unit_of_work


class FakeSession:
    def __init__(self, commit_error: BaseException | None = None) -> None:
        self.commit_error = commit_error
        self.calls: list[str] = []

    async def commit(self) -> None:
        self.calls.append("commit")
        if self.commit_error is not None:
            raise self.commit_error

    async def rollback(self) -> None:
        self.calls.append("rollback")


class FakeStore:
    def __init__(self, opened: FakeSession | None) -> None:
        self.opened = opened
        self.answered = False
        self.closed = False

    async def close(self) -> None:
        self.closed = True


class FakeRuntime:
    def __init__(self, store: FakeStore) -> None:
        self._store = store

    def store(self) -> Any:
        return self._store


AWAY = sqlite3.OperationalError("disk I/O error")  # the database is away


async def test_a_unit_of_work_that_opened_a_session_commits_and_closes() -> None:
    store = FakeStore(FakeSession())
    async with unit_of_work(FakeRuntime(store)) as given:  # type: ignore[arg-type]
        assert given is store
    assert store.opened.calls == ["commit"] and store.closed  # type: ignore[union-attr]


async def test_one_that_never_needed_the_database_only_closes() -> None:
    store = FakeStore(None)
    async with unit_of_work(FakeRuntime(store)):  # type: ignore[arg-type]
        pass
    assert store.closed


async def test_an_error_in_the_request_rolls_back_and_is_raised() -> None:
    store = FakeStore(FakeSession())
    with pytest.raises(ValueError, match="bad"):
        async with unit_of_work(FakeRuntime(store)):  # type: ignore[arg-type]
            raise ValueError("bad")
    assert store.opened.calls == ["rollback"] and store.closed  # type: ignore[union-attr]


async def test_a_commit_the_database_refuses_after_the_tool_answered_lets_the_answer_out() -> None:
    store = FakeStore(FakeSession(commit_error=AWAY))
    async with unit_of_work(FakeRuntime(store)):  # type: ignore[arg-type]
        store.answered = True
    assert store.opened.calls == ["commit", "rollback"] and store.closed  # type: ignore[union-attr]


async def test_the_database_away_inside_the_request_after_the_answer_is_swallowed_too() -> None:
    store = FakeStore(FakeSession())
    async with unit_of_work(FakeRuntime(store)):  # type: ignore[arg-type]
        store.answered = True
        raise AWAY
    assert store.opened.calls == ["rollback"] and store.closed  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("error", "answered"),
    [
        (AWAY, False),  # nothing was answered yet: the client is told (503)
        (ValueError("a wrong statement"), True),  # not the database being away: an error
    ],
)
async def test_any_other_failed_commit_is_raised(error: Exception, answered: bool) -> None:
    store = FakeStore(FakeSession(commit_error=error))
    with pytest.raises(type(error)):
        async with unit_of_work(FakeRuntime(store)):  # type: ignore[arg-type]
            store.answered = answered
    assert store.opened.calls == ["commit", "rollback"] and store.closed  # type: ignore[union-attr]


async def test_a_cancelled_request_is_not_rolled_back_here_but_still_closed() -> None:
    """A cancellation goes on as it is (closing the store ends its transaction)."""
    store = FakeStore(FakeSession())
    with pytest.raises(asyncio.CancelledError):
        async with unit_of_work(FakeRuntime(store)):  # type: ignore[arg-type]
            raise asyncio.CancelledError
    assert store.opened.calls == [] and store.closed  # type: ignore[union-attr]
