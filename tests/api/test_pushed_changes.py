"""A call of a rarely called tenant reads nothing from the database while changes are pushed to
the node (PostgreSQL's LISTEN/NOTIFY; SQLite's watch of what the CLI changes beside it), and a
change made elsewhere is still seen: a key revoked by the CLI is refused at the next poll."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import event

from server.keycache import KeyTouches
from server.keys import parse_token
from server.propagation import Propagation, SqliteWatch
from tests.api.test_calls import ORDER_TOOL, call, python, session_for
from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]


async def pushing(api: Api) -> None:
    """Until the node hears of changes as they commit, within 10 s (PostgreSQL: the listener
    connects; SQLite's watch has read its first fingerprint before the node serves)."""
    propagation = api.runtime.propagation
    if isinstance(propagation, Propagation):
        await asyncio.wait_for(propagation.connected.wait(), 10)
    assert propagation is not None and propagation.pushing()


async def test_a_call_reads_no_version_counter_or_key_while_changes_are_pushed(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(ORDER_TOOL)])
    await call(acme, sid, "check_order", {"order_id": "KL0001"})
    await pushing(api)
    # as if the tenant were last called long ago: no time-to-live would trust these now
    api.runtime.registry.version_ttl_s = 0
    api.runtime.keys.ttl_s = 0
    statements: list[str] = []

    def seen(conn, cursor, statement, parameters, context, executemany) -> None:  # noqa: ANN001
        statements.append(statement)

    event.listen(api.runtime.engine.sync_engine, "before_cursor_execute", seen)
    try:
        answers = [
            await call(acme, sid, "check_order", {"order_id": f"KL000{i}"}) for i in range(3)
        ]
    finally:
        event.remove(api.runtime.engine.sync_engine, "before_cursor_execute", seen)

    assert all(answer["success"] for answer in answers)
    assert not [s for s in statements if "registry_version" in s or "api_keys" in s], statements


async def test_a_key_the_cli_revokes_beside_a_node_is_refused_at_once_or_its_next_poll(
    api: Api, tmp_path: Path
) -> None:
    acme = await api.tenant("acme")
    assert (await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201
    before = await acme.agent.post("/v1/sessions", json={"bot": "b"})
    key_id = parse_token(acme.agent_key)
    assert key_id is not None
    await pushing(api)
    api.runtime.keys.ttl_s = 3600  # only what is pushed may end the cached entry
    watch, heard = api.runtime.propagation, asyncio.Event()
    if isinstance(watch, Propagation):
        hear = watch.apply

        def apply(payload: str) -> None:
            hear(payload)
            if payload == f"k:{key_id[0]}":
                heard.set()

        watch.apply = apply  # type: ignore[method-assign]

    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")},
        "QUIVER_DATABASE_URL": api.runtime.settings.effective_database_url,
        "QUIVER_DATA_DIR": str(tmp_path / "cli"),
        "QUIVER_SECRET_KEY": api.runtime.settings.secret_key.get_secret_value(),
    }
    revoked = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "server.cli", "keys", "revoke", key_id[0]],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert revoked.returncode == 0, revoked.stderr
    if isinstance(watch, SqliteWatch):
        await watch.check()  # its next poll, now (or the one that ran meanwhile saw it)
    else:  # the revocation's NOTIFY, heard by the node within ten seconds
        await asyncio.wait_for(heard.wait(), 10)
    after = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).status_code

    assert before.status_code == 201
    assert after == 401


async def test_a_keys_last_use_is_written_in_a_batch_not_in_its_request(api: Api) -> None:
    acme = await api.tenant("acme")
    statements: list[str] = []

    def seen(conn, cursor, statement, parameters, context, executemany) -> None:  # noqa: ANN001
        statements.append(statement)

    event.listen(api.runtime.engine.sync_engine, "before_cursor_execute", seen)
    try:
        first = await acme.dev.get("/v1/tools")  # the developer key's first use
    finally:
        event.remove(api.runtime.engine.sync_engine, "before_cursor_execute", seen)
    keys = (await api.admin.get("/v1/tenants/acme/keys")).json()["keys"]  # flushes, then reads

    assert first.status_code == 200
    assert not [s for s in statements if s.lstrip().upper().startswith("UPDATE API_KEYS")]
    used = {k["role"]: k["last_used_at"] for k in keys}
    assert used["developer"] is not None and used["agent"] is None


async def test_uses_that_could_not_be_written_are_kept_for_the_next_flush() -> None:
    written: list[dict[str, datetime]] = []
    away = True

    async def write(touches: dict[str, datetime]) -> None:
        if away:
            raise ConnectionRefusedError("the database is away")
        written.append(dict(touches))

    touches = KeyTouches(write)
    at = datetime(2026, 12, 6, tzinfo=UTC)
    touches.note("k1", at)
    with pytest.raises(ConnectionRefusedError):
        await touches.flush()
    touches.note("k2", at)
    away = False
    await touches.flush()

    assert written == [{"k1": at, "k2": at}] and touches.pending == {}
