"""A turn's messages, written by the message log past SQLAlchemy's ORM, are stored as the ORM
stores them, on both databases; a write whose number is taken stores none of its rows."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from server.errors import ConflictError
from server.storage.conversations import BLANK_MESSAGE, MessageLog
from server.storage.database import create_engine, session_factory
from server.storage.tables import MessageRow, SessionRow, TenantRow

pytestmark = pytest.mark.asyncio

MESSAGES = [  # every kind of value a message holds
    {"role": "user", "content": "café ☕ with a NUL \x00 and 'quotes'"},
    {
        "role": "assistant", "content": None, "model": "m",
        "tool_calls": [{"id": "c1", "name": "lookup", "arguments": {"q": "é", "n": 2**53}}],
        "input_tokens": 12, "output_tokens": 3, "cached_tokens": 1, "tool_round": True,
        "offered": ["lookup", "other"], "turn": "t-1",
    },
    {"role": "tool", "content": '{"ok":true}', "tool_call_id": "c1", "name": "lookup"},
]  # fmt: skip
COLUMNS = [c.name for c in MessageRow.__table__.columns]


async def _stored(engine: Any, session_id: str) -> list[dict[str, Any]]:
    async with engine.connect() as connection:
        raw = await connection.exec_driver_sql(
            f"SELECT {', '.join(COLUMNS)} FROM messages WHERE session_id = '{session_id}' "
            "ORDER BY seq"
        )
        rows = [dict(zip(COLUMNS, r, strict=True)) for r in raw.fetchall()]
    for row in rows:
        for column in ("tool_calls", "offered"):  # SQLite's JSON is text; PostgreSQL's, parsed
            if isinstance(row[column], str):
                row[column] = json.loads(row[column])
        row.pop("id"), row.pop("session_id")
    return rows


async def _sessions(engine: Any) -> None:
    async with session_factory(engine)() as session, session.begin():
        session.add(TenantRow(id="acme", name="Acme"))
        await session.flush()
        session.add_all(SessionRow(id=s, tenant_id="acme", bot="b") for s in ("orm", "log"))


async def test_messages_are_stored_as_the_orm_stores_them(database_url) -> None:
    engine = create_engine(database_url)
    at = datetime(2026, 12, 7, 9, 30, 0, 123456, tzinfo=UTC)
    try:
        await _sessions(engine)
        async with session_factory(engine)() as session, session.begin():
            session.add_all(
                MessageRow(
                    **{**BLANK_MESSAGE, **m}, id=f"orm-{i}", session_id="orm", tenant_id="acme",
                    bot="b", seq=i + 1, created_at=at,
                )
                for i, m in enumerate(MESSAGES)
            )  # fmt: skip
        log = MessageLog(engine)
        written = await log.append("log", "acme", "b", MESSAGES)
        orm, new = await _stored(engine, "orm"), await _stored(engine, "log")
        await log.close()
    finally:
        await engine.dispose()
    orm_at, new_at = [r.pop("created_at") for r in orm], [r.pop("created_at") for r in new]

    assert [m.seq for m in written] == [1, 2, 3]
    assert new == orm  # the stored values themselves, text spelled as the ORM spells it
    # another instant, stored the same way (SQLite's queries compare the text)
    assert {type(a) for a in new_at} == {type(a) for a in orm_at}
    assert [_shape(a) for a in new_at] == [_shape(a) for a in orm_at]


def _shape(at: Any) -> str:
    """What a stored instant looks like, digits aside: ``dddd-dd-dd dd:dd:dd.dddddd``."""
    return "".join("d" if ch.isdigit() else ch for ch in str(at))


async def test_a_write_whose_number_is_taken_stores_none_of_its_rows(database_url) -> None:
    engine = create_engine(database_url)
    try:
        await _sessions(engine)
        log = MessageLog(engine)
        await log.append("log", "acme", "b", MESSAGES[:2], 1)
        with pytest.raises(ConflictError):  # rows 0 and 1: the second's number is taken
            await log.append("log", "acme", "b", [{"role": "user", "content": "lost"}] * 2, 0)
        after = await log.append("log", "acme", "b", [{"role": "user", "content": "next"}])
        stored = await _stored(engine, "log")
        await log.close()
    finally:
        await engine.dispose()

    assert [m.seq for m in after] == [3]
    assert [(r["seq"], r["role"]) for r in stored] == [(1, "user"), (2, "assistant"), (3, "user")]
    assert stored[2]["content"] == "next"  # and nothing of the write that clashed
