"""A session's state is cached on each node and kept exact: a call that changes nothing opens
no database session; what a call, the agent or another node changes is what the next call sees."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from server.calls.session_marks import NoMarks, SharedMarks
from server.calls.session_state import SessionStates
from server.registry.model import SessionRecord
from server.settings import Settings
from tests.api.test_calls import call, session_for, simple_tool
from tests.conftest import Api
from tests.servers import bearer_client, node_process

COUNTER = simple_tool(
    "count",
    'n = context.variables.get("n", 0) + 1\n'
    'context.update_context({"n": n})\n'
    'return {"success": True, "message": str(n), "n": n}',
)
ECHO = simple_tool("echo", 'return {"success": True, "message": "hi", "seen": context.variables}')


def record(sid: str, tenant: str = "acme") -> SessionRecord:
    return SessionRecord(id=sid, tenant_id=tenant, bot="b")


# the cache itself ------------------------------------------------------------------------------


def test_a_state_read_before_a_change_is_not_kept_after_the_change_was_forgotten() -> None:
    states = SessionStates()
    seen = states.seen("s1")  # a reader looks at the epoch, then reads the database…
    states.forget(["s1"])  # …while a change to s1 commits on this node

    states.put(record("s1"), {"n": 1}, seen)  # what it read may predate the change

    assert states.get("s1") is None


def test_states_are_kept_until_forgotten_and_bounded() -> None:
    states = SessionStates(max_sessions=2)
    for sid in ("s1", "s2", "s3"):
        states.put(record(sid), {}, states.seen(sid))
    kept = [sid for sid in ("s1", "s2", "s3") if states.get(sid) is not None]
    states.forget(["s3"])
    after_forget = states.get("s3")
    states.clear()

    assert kept == ["s2", "s3"]  # the least recently used went first
    assert after_forget is None and len(states) == 0


def test_a_change_another_process_of_the_host_commits_is_seen_by_the_next_read(
    tmp_path: Path,
) -> None:
    """Two processes' caches over one table of marks: what one commits, the other no longer
    serves from its cache — nor keeps, if it read the state before the change was marked."""
    path = SharedMarks.create(tmp_path)
    mine, theirs = SessionStates(marks=SharedMarks(path)), SessionStates(marks=SharedMarks(path))
    mine.put(record("s1"), {"n": 1}, mine.seen("s1"))
    mine.put(record("s2"), {"n": 1}, mine.seen("s2"))
    reading = mine.seen("s3")  # mine reads s3 from the database, while…

    theirs.changed(["s1", "s3"])  # …the other process commits changes to s1 and s3
    mine.put(record("s3"), {"n": 1}, reading)

    assert mine.get("s1") is None  # read again from the database
    assert mine.get("s3") is None  # what it read may predate the change
    assert mine.get("s2") is not None  # untouched (unless it shares a slot: then read again)
    mine.put(record("s1"), {"n": 2}, mine.seen("s1"))
    assert mine.get("s1") == (record("s1"), {"n": 2})  # until the next change


def test_two_processes_writing_one_slot_at_once_leave_it_changed_for_both(tmp_path: Path) -> None:
    """Tokens, not counts: a lost increment would look unchanged to one of the writers."""
    path = SharedMarks.create(tmp_path)
    first, second = SharedMarks(path), SharedMarks(path)
    second._pid += 1  # another process
    before = first.token("s1")
    first.mark(["s1"])
    mine = first.token("s1")
    second.mark(["s1"])

    assert len({before, mine, second.token("s1")}) == 3
    assert NoMarks().token("s1") == 0


# through HTTP, on both databases ----------------------------------------------------------------


@contextmanager
def opened_sessions(api: Api) -> Iterator[Callable[[], int]]:
    """Counts the database sessions the node opens meanwhile."""
    runtime = api.runtime
    real = runtime.sessions
    count = 0

    def counting() -> Any:
        nonlocal count
        count += 1
        return real()

    runtime.sessions = counting
    try:
        yield lambda: count
    finally:
        runtime.sessions = real


def frozen_registry_clock(api: Api) -> None:
    """The test's own clock for the registry: the tenant's version counters, read once, stay
    fresh — on a slow machine their refresh (after 1 s) must not land in a counted window."""
    api.runtime.registry.clock = lambda: 0.0


async def test_a_call_that_changes_nothing_opens_no_database_session(api: Api) -> None:
    frozen_registry_clock(api)
    acme = await api.tenant("acme")
    sid = await session_for(acme, [ECHO])
    await call(acme, sid, "echo")  # the node reads the session once
    await api.runtime.call_log.flush()

    with opened_sessions(api) as opened:
        answers = [await call(acme, sid, "echo") for _ in range(5)]

    assert [a["success"] for a in answers] == [True] * 5
    assert opened() == 0


async def test_each_call_sees_the_variables_the_call_before_wrote(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [COUNTER])

    counts = [(await call(acme, sid, "count"))["result"]["n"] for _ in range(4)]
    stored = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]

    assert counts == [1, 2, 3, 4]
    assert stored == {"n": 4}


async def test_a_cached_session_that_ends_refuses_the_next_call(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [ECHO])
    await call(acme, sid, "echo")

    ended = await acme.agent.post(f"/v1/sessions/{sid}/end", json={"reason": "done"})
    refused = await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "echo"})

    assert ended.status_code == 200
    assert refused.status_code == 409 and refused.json()["code"] == "session_ended"


async def test_another_tenants_key_cannot_use_a_cached_session(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    sid = await session_for(acme, [ECHO])
    await call(acme, sid, "echo")  # cached on this node now

    stranger = await globex.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "echo"})

    assert stranger.status_code == 404


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_change_on_another_node_reaches_this_nodes_cached_state(
    api: Api, settings: Settings
) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [COUNTER])
    assert (await call(acme, sid, "count"))["result"]["n"] == 1  # cached here with n = 1
    with node_process(settings) as node2:
        remote = bearer_client(node2.base, acme.agent_key)
        there = await remote.post(f"/v1/sessions/{sid}/calls", json={"tool": "count"})
        ended = await remote.post(f"/v1/sessions/{sid}/end", json={"reason": "elsewhere"})
        await remote.aclose()
    assert there.json()["result"]["n"] == 2 and ended.status_code == 200

    # the announcement of node 2's commit reaches this node within moments: look until then
    deadline = time.monotonic() + 5
    while True:
        answer = await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "count"})
        if answer.status_code == 409 or time.monotonic() > deadline:
            break

    assert answer.status_code == 409 and answer.json()["code"] == "session_ended"


async def test_a_session_attached_through_this_node_is_known_to_it_from_the_first_call(api: Api) -> None:  # fmt: skip
    """Attaching commits the session's whole state (no variables, nothing open or completed):
    the node keeps it as it commits, so the session's first call reads nothing either."""
    frozen_registry_clock(api)
    acme = await api.tenant("acme")
    await call(acme, await session_for(acme, [ECHO]), "echo")  # the tool's code is loaded
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    await api.runtime.call_log.flush()

    with opened_sessions(api) as opened:
        first = await call(acme, sid, "echo")

    assert first["success"] is True and first["result"]["seen"] == {}
    assert opened() == 0


async def test_a_session_whose_creation_rolled_back_is_not_kept(api: Api) -> None:
    """Only a committed creation is kept: a session its transaction took back stays unknown
    (a call to it is 404), while one created in the next transaction of the same unit of work
    is kept."""
    acme = await api.tenant("acme")
    await session_for(acme, [ECHO])  # the bot "b"
    runtime = api.runtime
    async with runtime.sessions() as session:
        store = runtime.store(session)
        transaction = await session.begin()
        gone = (await store.sessions.create("acme", "b", None, None)).id
        await transaction.rollback()
        async with session.begin():
            kept = (await store.sessions.create("acme", "b", None, None)).id

    assert runtime.session_states.get(gone) is None
    assert runtime.session_states.get(kept) is not None
    refused = await acme.agent.post(f"/v1/sessions/{gone}/calls", json={"tool": "echo"})
    assert refused.status_code == 404
