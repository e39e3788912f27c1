"""The call log's batch writer stores a row exactly as the ORM does, on both databases, and a
row written twice (a batch retried after a commit whose answer was lost) counts once."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, select

from server.storage import rollups
from server.storage.calls import COLUMNS, CallRows
from server.storage.database import create_engine, session_factory
from server.storage.tables import ToolCallDailyRow, ToolCallRow

pytestmark = pytest.mark.asyncio

ROWS = [
    {  # every kind of value the log holds
        "at": datetime(2026, 12, 5, 9, 30, 0, 0, tzinfo=UTC),  # no microseconds: still six digits
        "tenant_id": "acme", "session_id": "s-1", "tool": "lookup", "version": 3, "kind": "python",
        "arguments": {"q": "café ☕", "n": 2**63 - 1, "nested": {"list": [1, 2.5, None, True]}},
        "result": '{"ok":true}', "success": True, "latency_ms": 1.25, "error_code": None,
        "error_message": None, "test": False, "cached": True, "call_id": None,
        "message_id": "m-1", "parent_call_id": "p-1", "logs": ["one", "two"],
    },
    {
        "at": datetime(2026, 12, 5, 9, 30, 0, 123456, tzinfo=UTC),
        "tenant_id": "acme", "session_id": None, "tool": "lookup", "version": None, "kind": "webhook",
        "arguments": {}, "result": None, "success": False, "latency_ms": 0.0,
        "error_code": "timeout", "error_message": "slow 'quotes' and \"more\"", "test": False,
        "cached": False, "call_id": "c-2", "message_id": None, "parent_call_id": None, "logs": None,
    },
]  # fmt: skip


async def _stored(engine, uids: list[str]) -> list[tuple]:
    names = ", ".join(COLUMNS)
    async with engine.connect() as connection:
        raw = await connection.exec_driver_sql(f"SELECT {names} FROM tool_calls ORDER BY uid")
        rows = [tuple(r) for r in raw.fetchall()]
    return [
        {c: _json(v) if c in ("arguments", "logs") else v for c, v in zip(COLUMNS, r, strict=True) if c != "uid"}
        for r in rows if r[COLUMNS.index("uid")] in uids
    ]  # fmt: skip


def _json(value: Any) -> Any:
    """SQLite's JSON is text, whose spacing may differ; PostgreSQL's, already parsed."""
    return json.loads(value) if isinstance(value, str) else value


async def test_a_batch_is_stored_as_the_orm_stores_it_and_counted_once(database_url) -> None:
    engine = create_engine(database_url)
    sessions = session_factory(engine)
    try:
        by_orm = [{**row, "uid": f"orm-{i}"} for i, row in enumerate(ROWS)]
        async with sessions() as session, session.begin():
            session.add_all(ToolCallRow(**row) for row in by_orm)
        batch = [{**row, "uid": f"new-{i}"} for i, row in enumerate(ROWS)]
        write = CallRows(sessions)
        await write([dict(r) for r in batch])
        await write([dict(r) for r in batch])  # retried: nothing new

        orm = await _stored(engine, [r["uid"] for r in by_orm])
        new = await _stored(engine, [r["uid"] for r in batch])
        async with sessions() as session:
            read = (await session.scalars(select(ToolCallRow).where(ToolCallRow.uid.like("new-%")).order_by(ToolCallRow.uid))).all()  # fmt: skip
            counted = await session.scalar(select(func.sum(ToolCallDailyRow.calls)))
        async with sessions() as session, session.begin():  # the same rows by SQLAlchemy's upserts
            await rollups.add(session, [{**row, "tenant_id": "orm"} for row in ROWS])
        rollup_rows = {table: await _rollups(engine, table) for table in ROLLUPS}
    finally:
        await engine.dispose()

    assert new == orm  # the stored text itself (SQLite's queries compare ``at`` as text)
    assert [{c: getattr(r, c) for c in COLUMNS if c != "uid"} for r in read] == [
        {c: v for c, v in row.items() if c != "uid"} for row in ROWS
    ]
    assert counted == len(ROWS)  # the ORM's rows are not in the rollups; the batch's once
    for table, stored in rollup_rows.items():  # the stored text itself, ``day`` included
        assert stored["acme"] == stored["orm"] != [], table


ROLLUPS = ("tool_call_daily", "tool_call_latency")


async def _rollups(engine, table: str) -> dict[str, list[tuple]]:
    async with engine.connect() as connection:
        raw = await connection.exec_driver_sql(f"SELECT * FROM {table} ORDER BY 1, 2, 3, 4")
        rows = [tuple(r) for r in raw.fetchall()]
    return {tenant: [r[1:] for r in rows if r[0] == tenant] for tenant in ("acme", "orm")}
