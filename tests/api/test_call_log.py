"""The call log never loses a row it can keep: strings it cannot store are escaped, a batch with
a row the database refuses is split, rows wait while the database is away, and rows a killed
node answered are replayed from its journal. SQLite and PostgreSQL, real processes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from server.calls.calllog import CallLog
from server.storage.calls import CallRows
from server.storage.database import create_engine, is_unavailable, session_factory
from server.storage.tables import ToolCallRow, utcnow
from tests.api.test_calls import ORDER_TOOL, call, python, session_for
from tests.conftest import Api, api_for
from tests.servers import node_process


async def count_rows(api: Api, **where) -> int:
    async with api.runtime.sessions() as session:
        stmt = select(func.count()).select_from(ToolCallRow)
        for key, value in where.items():
            stmt = stmt.where(getattr(ToolCallRow, key) == value)
        return int(await session.scalar(stmt) or 0)


def row(tenant: str = "acme", **extra) -> dict:
    return {
        "tenant_id": tenant, "session_id": None, "tool": "t", "version": 1, "kind": "python",
        "arguments": {}, "result": None, "success": True, "latency_ms": 1.0, "error_code": None,
        "error_message": None, "test": False, "cached": False, **extra,
    }  # fmt: skip


async def test_a_nul_in_one_call_never_costs_another_tenants_rows(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    acme_sid = await session_for(acme, [python(ORDER_TOOL)])
    globex_sid = await session_for(globex, [python(ORDER_TOOL)])

    odd = await call(acme, acme_sid, "check_order", {"order_id": "AB1234", "note": "a\x00bc"})
    others = [
        await call(globex, globex_sid, "check_order", {"order_id": "AB1234"}) for _ in range(5)
    ]
    logged = (await acme.agent.get(f"/v1/sessions/{acme_sid}/calls")).json()["calls"]

    assert odd["success"] is True and all(o["success"] for o in others)
    assert logged[0]["arguments"]["note"] == "a\x00bc"  # kept as it was, on both databases
    assert await count_rows(api, tenant_id="globex") == 5


async def test_input_that_cannot_be_stored_is_refused_at_the_edge_naming_the_field(
    api: Api,
) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(ORDER_TOOL)])
    deep: dict = {"order_id": "AB1234"}
    for _ in range(300):
        deep = {"x": deep}
    raw = '{"tool": "check_order", "arguments": {"order_id": "AB1234", "note": "ab\\ud800c"}}'

    surrogate = await acme.agent.post(
        f"/v1/sessions/{sid}/calls", content=raw, headers={"content-type": "application/json"}
    )
    nested = await acme.agent.post(
        f"/v1/sessions/{sid}/calls", json={"tool": "check_order", "arguments": deep}
    )
    tenant_nul = await api.admin.post("/v1/tenants", json={"id": "nul", "name": "a\x00b"})
    query_nul = await acme.dev.get("/v1/tools", params={"tenant": "a\x00b"})
    huge = await acme.agent.post(
        f"/v1/sessions/{sid}/calls",
        json={"tool": "check_order", "arguments": {"order_id": "AB1234", "qty": 2**70}},
    )
    garbage = await acme.agent.post(
        f"/v1/sessions/{sid}/calls",
        content=b"\xff\xfe{",
        headers={"content-type": "application/json"},
    )
    after = await call(acme, sid, "check_order", {"order_id": "AB1234"})

    assert surrogate.status_code == 422
    assert surrogate.json()["errors"][0]["field"] == "arguments.note"
    assert nested.status_code == 422 and nested.json()["errors"][0]["field"] == "body"
    assert tenant_nul.status_code == 422 and tenant_nul.json()["errors"][0]["field"] == "name"
    assert query_nul.status_code == 422 and query_nul.json()["errors"][0]["field"] == "tenant"
    assert huge.status_code == 422 and huge.json()["errors"][0]["field"] == "arguments.qty"
    assert garbage.status_code == 400 and garbage.json()["code"] == "malformed_json"
    assert after["success"] is True  # nothing reached or restarted a worker
    assert api.runtime.engines.restricted.pool.stats.killed == 0


async def test_a_refused_row_is_set_aside_and_its_batch_is_written(
    api: Api, tmp_path: Path
) -> None:
    journal = tmp_path / "journal"
    log = CallLog(CallRows(api.runtime.sessions), journal_dir=journal, unavailable=is_unavailable)
    for i in range(9):
        log.record(**row(tool=f"good{i}"))
    log.record(**row(tenant=None))  # the database refuses it (NOT NULL), on both kinds

    await log.flush()

    assert await count_rows(api, tool="good3") == 1
    assert [await count_rows(api, tool=f"good{i}") for i in range(9)] == [1] * 9
    refused = [json.loads(line) for line in (journal / "refused.jsonl").read_text().splitlines()]
    assert len(refused) == 1 and refused[0]["row"]["tenant_id"] is None
    assert sorted(os.listdir(journal)) == ["refused.jsonl"]  # the journal retired
    log.journal.close()


async def test_rows_wait_while_the_database_is_away(api: Api, tmp_path: Path) -> None:
    away = create_engine("postgresql+asyncpg://postgres@127.0.0.1:1/none")  # nothing listens
    log = CallLog(
        CallRows(session_factory(away)),
        journal_dir=tmp_path / "journal",
        unavailable=is_unavailable,
    )
    for i in range(20):
        log.record(**row(tool=f"waiting{i}"))

    await log.flush()
    kept = log.unavailable
    log.write = CallRows(api.runtime.sessions)  # the database is back
    await log.flush()

    assert kept is True and log.unavailable is False
    assert [await count_rows(api, tool=f"waiting{i}") for i in range(20)] == [1] * 20
    await away.dispose()
    log.journal.close()


async def test_rows_a_killed_node_answered_are_replayed_at_its_next_start(settings) -> None:
    """SIGKILL a node that has answered calls but not yet written them (its flush interval
    is a minute); the next start on its data directory writes every one, once."""
    async with api_for(settings) as api:
        acme = await api.tenant("acme")
        sid = await session_for(acme, [python(ORDER_TOOL)])
        with node_process(settings, QUIVER_CALL_LOG_FLUSH_MS="60000") as node2:
            async with httpx.AsyncClient(
                base_url=node2.base, headers={"Authorization": f"Bearer {acme.agent_key}"}
            ) as remote:
                answered = 0
                for i in range(25):
                    response = await remote.post(
                        f"/v1/sessions/{sid}/calls",
                        json={"tool": "check_order", "arguments": {"order_id": f"KL{i:04d}"}},
                    )
                    answered += response.status_code == 200
            os.kill(node2.pid, signal.SIGKILL)
        before = await count_rows(api, session_id=sid)
    node2_dir = Path(str(settings.data_dir) + "-node2")
    async with api_for(settings.model_copy(update={"data_dir": node2_dir})) as restarted:
        after = await count_rows(restarted, session_id=sid)
        again = await restarted.runtime.call_log.replay()  # nothing left to replay twice

    assert answered == 25 and before == 0
    assert after == 25 and again == 0
    assert not list((node2_dir / "call-log").glob("*-*.jsonl"))


async def test_a_journal_row_already_written_is_not_written_twice(api: Api, tmp_path: Path) -> None:
    (tmp_path / "journal").mkdir()
    dead = tmp_path / "journal" / "12345-deadbeef-000001.jsonl"
    rows = [row(tool="twice", uid=f"{i:032x}", at={"$at": utcnow().isoformat()}) for i in range(3)]
    dead.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"cut short')
    log = CallLog(
        CallRows(api.runtime.sessions), journal_dir=tmp_path / "journal", unavailable=is_unavailable
    )

    first = await log.replay()
    dead.write_text("".join(json.dumps(r) + "\n" for r in rows))  # as if written, then killed
    second = await log.replay()

    assert first == 3 and second == 3
    assert await count_rows(api, tool="twice") == 3
    assert not dead.exists()


async def test_sources_schemas_and_numbers_that_cannot_be_handled_are_422_naming_the_field(
    api: Api,
) -> None:
    acme = await api.tenant("acme")
    chain = "X = " + "+".join(['"a"'] * 990) + "\n" + ORDER_TOOL
    huge_enum = {
        "kind": "webhook", "name": "w", "description": "d", "webhook_url": "https://a.example/x",
        "parameters": {"type": "object", "properties": {"a": {"type": "string", "enum": [f"v{i}" for i in range(5000)]}}},
    }  # fmt: skip
    big_schema = {
        **huge_enum,
        "parameters": {
            "type": "object",
            "properties": {
                f"p{i}": {"type": "string", "description": "d" * 900} for i in range(200)
            },
        },
    }

    validated = await acme.dev.post("/v1/tools/validate", json=python(chain))
    saved = await acme.dev.post("/v1/tools", json=python(chain))
    enum = await acme.dev.post("/v1/tools", json=huge_enum)
    schema = await acme.dev.post("/v1/tools", json=big_schema)
    version = await acme.dev.post("/v1/tools/x/rollback", json={"version": 2**70})

    assert validated.status_code == 200 and validated.json()["valid"] is False
    assert validated.json()["errors"][0]["field"] == "source"
    assert saved.status_code == 422 and saved.json()["errors"][0]["field"] == "source"
    assert enum.status_code == 422
    assert enum.json()["errors"][0]["field"] == "parameters.properties.a.enum"
    assert schema.status_code == 422 and schema.json()["errors"][0]["field"] == "parameters"
    assert version.status_code == 422 and version.json()["errors"][0]["field"] == "version"


async def test_a_flush_writes_what_was_queued_when_it_began(tmp_path: Path) -> None:
    """Rows recorded while a batch is being written wait for the next flush: a flush that took
    them too would, under steady load, keep the writer in a transaction every few milliseconds
    with the handful of rows that trickled in meanwhile."""
    batches: list[list[str]] = []
    log: CallLog

    async def write(rows: list[dict]) -> None:
        batches.append([r["tool"] for r in rows])
        if len(batches) == 1:
            log.record(**row(tool="during"))  # a call answered while the batch is written

    log = CallLog(write, journal_dir=tmp_path / "journal")
    log.record(**row(tool="before"))

    await log.flush()
    after_first = list(batches)
    await log.flush()

    assert after_first == [["before"]]
    assert batches == [["before"], ["during"]]
    log.journal.close()


async def test_a_flush_cancelled_mid_write_keeps_its_rows_queued(tmp_path: Path) -> None:
    """A reader that flushes to see its own calls and then leaves cancels the flush while a
    batch is in the database's hands: its rows, and those behind it, stay queued."""
    writing = asyncio.Event()

    async def stuck(rows: list[dict]) -> None:
        writing.set()
        await asyncio.Event().wait()  # the database does not answer before the reader leaves

    log = CallLog(stuck, journal_dir=tmp_path / "journal")
    for i in range(3):
        log.record(**row(tool=f"kept{i}"))
    flush = asyncio.create_task(log.flush())
    await asyncio.wait_for(writing.wait(), 10)
    flush.cancel()
    with pytest.raises(asyncio.CancelledError):
        await flush
    written: list[str] = []

    async def write(rows: list[dict]) -> None:
        written.extend(r["tool"] for r in rows)

    log.write = write
    await log.flush()

    assert written == ["kept0", "kept1", "kept2"]
    log.journal.close()


async def test_row_uids_are_unique_and_grow_in_the_order_calls_were_recorded() -> None:
    """The writer's unique index on ``uid`` grows at its end: a random key would land each
    row on a random page of it, and every batch would rewrite as many pages as it has rows."""
    uids: list[str] = []

    async def write(rows: list[dict]) -> None:
        uids.extend(r["uid"] for r in rows)

    log = CallLog(write)
    for _ in range(2000):
        log.record(**row())
    await log.flush()

    assert len(set(uids)) == 2000
    assert uids == sorted(uids)
    assert all(len(uid) == 32 for uid in uids)  # the column's width
