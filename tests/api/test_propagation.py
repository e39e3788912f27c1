"""Two server processes on one PostgreSQL: changes on node 1 reach node 2's snapshots and the
event streams attached to node 2 — by NOTIFY, after the listen connection is killed, and by
polling when NOTIFY is off."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
import pytest

from server.settings import Settings
from tests.api.test_breakers import STEADY, setup
from tests.conftest import Api, TenantKeys
from tests.servers import EventReader, bearer_client, node_process

pytestmark = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def tool(name: str) -> dict:
    return {**STEADY, "source": STEADY["source"].replace('"steady"', f'"{name}"')}


async def remote_session(node_base: str, t: TenantKeys) -> tuple[httpx.AsyncClient, str]:
    client = bearer_client(node_base, t.agent_key)
    attached = await client.post("/v1/sessions", json={"bot": "b"})
    assert attached.status_code == 201, attached.text
    return client, attached.json()["id"]


async def save_and_wait(t: TenantKeys, stream: EventReader, name: str, within: float) -> None:
    """Save a tool; its event must reach ``stream`` within ``within`` seconds (a bounded wait
    that fails the test past it)."""
    assert (await t.dev.post("/v1/tools", json=tool(name))).status_code == 201
    await stream.until(lambda d: name in d["added"], within=within)


async def test_a_save_on_node_1_reaches_node_2_within_a_second(
    api: Api, settings: Settings
) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    with node_process(settings) as node2:
        remote, sid = await remote_session(node2.base, acme)
        async with EventReader(remote, f"/v1/sessions/{sid}/events") as stream:
            await stream.next()
            await save_and_wait(acme, stream, "fresh", within=1.0)
            await acme.dev.patch("/v1/tools/fresh", json={"enabled": False})
            await stream.until(lambda d: d["removed"] == ["fresh"], within=1.0)
            # a session change made on node 1 (its intent, actions…) reaches node 2's stream too
            await acme.agent.put(
                f"/v1/sessions/{sid}/actions",
                json={"actions": [{"name": "open_cart", "description": "Cart", "parameters": {}}]},
            )
            await stream.until(lambda d: d["added"] == ["open_cart"], within=1.0)
        snapshot = (await remote.get(f"/v1/sessions/{sid}/snapshot")).json()
        await remote.aclose()

    assert [t["name"] for t in snapshot["tools"]] == ["flaky", "steady", "open_cart"]


async def _listeners(postgres_url: str, pid: int) -> list[int]:
    conn = await asyncpg.connect(postgres_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        rows = await conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1", f"quiver-listen-{pid}"
        )
        return [r["pid"] for r in rows]
    finally:
        await conn.close()


async def _kill(postgres_url: str, backend_pids: list[int]) -> None:
    conn = await asyncpg.connect(postgres_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        for pid in backend_pids:
            await conn.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()


async def test_node_2_recovers_when_its_listen_connection_is_killed(
    api: Api, settings: Settings
) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    url = settings.effective_database_url
    with node_process(settings) as node2:
        remote, sid = await remote_session(node2.base, acme)
        async with EventReader(remote, f"/v1/sessions/{sid}/events") as stream:
            await stream.next()
            listeners = await _listeners(url, node2.pid)
            await _kill(url, listeners)
            # announced while node 2 is not listening: picked up by the fallback and the flush
            await save_and_wait(acme, stream, "during", within=3.0)
            for _ in range(50):
                back = await _listeners(url, node2.pid)
                if back and back != listeners:
                    break
                await asyncio.sleep(0.1)
            await save_and_wait(acme, stream, "after", within=1.0)
        snapshot = (await remote.get(f"/v1/sessions/{sid}/snapshot")).json()
        await remote.aclose()

    assert len(listeners) == 1 and back and back != listeners  # a new listen connection
    assert {"during", "after"} <= {t["name"] for t in snapshot["tools"]}


async def test_polling_carries_changes_when_notify_is_off(api: Api, settings: Settings) -> None:
    acme = await api.tenant("acme")
    await setup(acme)
    with node_process(settings, QUIVER_NOTIFY="false", QUIVER_POLL_MS="200") as node2:
        remote, sid = await remote_session(node2.base, acme)
        async with EventReader(remote, f"/v1/sessions/{sid}/events") as stream:
            await stream.next()
            await save_and_wait(acme, stream, "polled", within=1.0)
            assert await _listeners(settings.effective_database_url, node2.pid) == []
        await remote.aclose()
