"""uvicorn's HTTP/1.1 protocol (httptools), with a response's head and body sent as one write.

uvicorn writes a response's status line and headers as soon as the app starts the response, and
its body separately: two ``send`` calls, and — with ``TCP_NODELAY``, which uvloop sets — two
TCP segments, for each of which the client wakes. Here every write a connection makes in one
turn of the event loop reaches the socket as one (the head and a whole body are written in the
same turn; a stream's later chunks each in their own). Measured on the tool-call hot path: the
send was 14 % of the event loop's time, the largest single item.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class OneWriteTransport:
    """A connection's transport whose writes within one turn of the event loop are one write;
    everything else is the transport's own."""

    __slots__ = ("_transport", "_loop", "_pending")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        if self._pending is None:
            self._pending = [data]
            self._loop.call_soon(self.flush)
        else:
            self._pending.append(data)

    def writelines(self, lines: Any) -> None:
        for data in lines:
            self.write(data)

    def flush(self) -> None:
        pending, self._pending = self._pending, None
        if pending:
            self._transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        self.flush()  # what was written goes out before the connection closes
        self._transport.close()

    def abort(self) -> None:
        self._pending = None
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class OneWriteHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol on a ``OneWriteTransport``."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(OneWriteTransport(transport, self.loop))  # type: ignore[arg-type]
