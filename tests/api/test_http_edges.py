"""What a client may hold of a node over raw HTTP, through the server's own protocol on a real
uvicorn: headers are capped (431), a request's head must arrive in time (408), and a body may
not stall (408). Each wait here is bounded by the test; the node's deadlines are made short
(a variant of the protocol) so the test does not sit through production's seconds."""

from __future__ import annotations

import asyncio
import json

from server.api.http_protocol import OneWriteHttpTools
from tests.conftest import Api
from tests.servers import served


class Hurried(OneWriteHttpTools):
    head_timeout_s = 0.3
    body_idle_s = 0.3


async def exchange(base: str, sent: bytes, close_after_send: bool = False) -> bytes:
    """What the node answers to ``sent`` (the connection kept open, as a slow client would),
    read until the node closes the connection — within ten seconds."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(sent)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


async def test_headers_over_64_kib_are_refused_before_they_are_all_read(api: Api) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000  # never finished
    async with served(api.app) as base:
        answer = await exchange(base, head)
        fine = await exchange(
            base, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )

    assert answer.startswith(b"HTTP/1.1 431 ")
    assert fine.startswith(b"HTTP/1.1 200 ")


async def test_a_head_that_never_ends_is_cut_off(api: Api) -> None:
    async with served(api.app, http=Hurried) as base:
        partial = await exchange(base, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        silent = await exchange(base, b"")  # connects, says nothing

    assert partial.startswith(b"HTTP/1.1 408 ")
    assert silent.startswith(b"HTTP/1.1 408 ")


async def test_a_body_that_stalls_is_cut_off_and_nothing_runs(api: Api) -> None:
    acme = await api.tenant("acme")
    assert (await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    head = (
        f"POST /v1/sessions/{sid}/calls HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {acme.agent_key}\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n"
    ).encode()
    async with served(api.app, http=Hurried) as base:
        answer = await exchange(base, head + b'{"tool": "check_order", ')  # then nothing
        whole = await exchange(
            base,
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )

    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert whole.startswith(b"HTTP/1.1 200 ")


async def test_a_connection_past_the_nodes_cap_is_a_clear_503_and_the_held_ones_still_work(
    api: Api,
) -> None:
    """Three connections held open (saying nothing yet) fill a node capped at three; a fourth is
    answered 503 problem+json with Retry-After, and the three held are served when they ask."""
    async with served(api.app, http=OneWriteHttpTools.bounded(3)) as base:
        host, port = base.removeprefix("http://").split(":")
        held = [await asyncio.open_connection(host, int(port)) for _ in range(3)]
        try:
            refused = await exchange(
                base, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            served_ones = []
            for reader, writer in held:
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                served_ones.append(await asyncio.wait_for(reader.read(), 10))
        finally:
            for _, writer in held:
                writer.close()

    head, _, body = refused.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 "), refused[:200]
    assert b"application/problem+json" in head and b"retry-after: 1" in head.lower()
    assert json.loads(body)["code"] == "unavailable"
    assert all(answer.startswith(b"HTTP/1.1 200 ") for answer in served_ones)
