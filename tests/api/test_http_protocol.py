"""The HTTP protocol's one write per turn of the event loop: a response's head and body reach
the socket together; a stream's chunks still go out as they come; nothing written is lost on
close."""

from __future__ import annotations

import asyncio
import socket

from server.api.http_protocol import OneWriteTransport
from tests.conftest import Api
from tests.servers import served


class Recording(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = self.aborted = False

    def write(self, data: bytes) -> None:  # type: ignore[override]
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"peername": ("127.0.0.1", 1234)}.get(name, default)


async def turn() -> None:
    """Until the event loop has run what this turn queued (callbacks run in order), bounded."""
    ran = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().call_soon(ran.set_result, None)
    await asyncio.wait_for(ran, 5)


async def test_writes_in_one_turn_are_one_write_and_later_ones_their_own() -> None:
    real = Recording()
    one = OneWriteTransport(real, asyncio.get_running_loop())
    one.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    one.write(b"ok")
    assert real.writes == []  # not yet: at the end of this turn
    await turn()
    one.write(b"chunk 1")
    await turn()
    one.writelines([b"chunk ", b"2"])
    await turn()

    assert real.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok", b"chunk 1", b"chunk 2"]  # fmt: skip
    assert one.get_extra_info("peername") == ("127.0.0.1", 1234)  # the rest is the transport's


async def test_close_sends_what_was_written_first_and_abort_drops_it() -> None:
    closing, aborting = Recording(), Recording()
    one = OneWriteTransport(closing, asyncio.get_running_loop())
    one.write(b"last words")
    one.close()
    gone = OneWriteTransport(aborting, asyncio.get_running_loop())
    gone.write(b"never sent")
    gone.abort()
    await turn()

    assert closing.writes == [b"last words"] and closing.closed
    assert aborting.writes == [] and aborting.aborted


async def test_a_served_response_arrives_whole_over_keep_alive(api: Api) -> None:
    """Through the real server: two requests on one connection, each answered whole."""
    async with served(api.app) as base:
        host, port = base.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port), family=socket.AF_INET)
        try:
            answers = []
            for _ in range(2):
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                answers.append((head.split(b"\r\n")[0], await reader.readexactly(length)))
        finally:
            writer.close()

    assert [status for status, _ in answers] == [b"HTTP/1.1 200 OK"] * 2
    assert all(body for _, body in answers)
