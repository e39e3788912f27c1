"""uvicorn's HTTP/1.1 protocol (httptools), with a response's head and body sent as one write.

uvicorn writes a response's status line and headers as soon as the app starts the response, and
its body separately: two ``send`` calls, and — with ``TCP_NODELAY``, which uvloop sets — two
TCP segments, for each of which the client wakes. Here every write a connection makes in one
turn of the event loop reaches the socket as one (the head and a whole body are written in the
same turn; a stream's later chunks each in their own). Measured on the tool-call hot path: the
send was 14 % of the event loop's time, the largest single item.

It also bounds what a client may hold (uvicorn's httptools protocol bounds none of it): a
request's line and headers are at most ``max_head_bytes`` (431 past that, the connection
closed), must be in within ``head_timeout_s`` of the request's first byte or the connection's
opening (408), and a body may not pause longer than ``body_idle_s`` (408, or the connection
closed if the app has answered; the app sees the client leave). A node holds at most
``max_connections`` at once: one past that is answered 503 ``unavailable`` (problem+json, with
``Retry-After``) and closed before anything of it is read.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from server.ratelimit import RateLimitedLog

crowded = RateLimitedLog(logging.getLogger("quiver.http"), every_s=10.0)


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
    """uvicorn's httptools protocol on a ``OneWriteTransport``, with the client's reads bounded."""

    max_head_bytes = 64 * 1024
    head_timeout_s = 10.0
    body_idle_s = 15.0
    linger_s = 1.0  # after a refusal, what the client still sends is read and dropped this long
    max_connections = 4096  # of this process, open at once (``bounded`` sets the node's own)

    @classmethod
    def bounded(cls, max_connections: int) -> type[OneWriteHttpTools]:
        """This protocol with a node's own connection cap."""
        return type(cls.__name__, (cls,), {"max_connections": max_connections})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(OneWriteTransport(transport, self.loop))  # type: ignore[arg-type]
        self._head_bytes = 0
        self._reading_head = True
        self._in_message = False
        self._refused = False
        self._deadline: asyncio.TimerHandle | None = None
        if len(self.connections) > self.max_connections:  # this one is past the cap
            crowded.warning("refusing connections: %d are open already", self.max_connections)
            detail = f"this node holds its most connections ({self.max_connections}) now"
            self._refuse(503, detail, problem="unavailable", retry_after_s=1)
            return
        self._arm(self.head_timeout_s)  # the first request's head, from the connection's opening

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Parse, then bound what is still missing. A request that arrives whole in one read
        (nearly all) sets no timer: one is armed only while a head or a body is incomplete."""
        if self._refused:  # lingering: dropped, so closing does not reset the refusal away
            return
        reading = self._reading_head
        super().data_received(data)
        if not self._in_message or self._refused:
            return
        if not self._reading_head:  # a body in progress: it may pause only so long
            self._arm(self.body_idle_s)
        elif reading:  # all of it was head: the headers are not in yet
            self._head_bytes += len(data)
            if self._head_bytes > self.max_head_bytes:
                self._refuse(431, "the request's headers are over 64 KiB")
            elif self._deadline is None:  # from the head's first byte, however it trickles
                self._arm(self.head_timeout_s)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes, self._reading_head, self._in_message = 0, True, True

    def on_headers_complete(self) -> None:
        self._reading_head = False
        self._disarm()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_message = False
        self._disarm()
        super().on_message_complete()

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.flow is not None and self.flow.read_paused:  # the app is behind, not the client
            self._arm(self.body_idle_s)
            return
        if self.cycle is not None and self.cycle.response_started:
            self.transport.close()  # the app answered already; the body never came
        else:
            self._refuse(408, "the request was not sent in time")

    def _refuse(self, status: int, message: str, problem: str = "", retry_after_s: int = 0) -> None:
        """Answer ``status`` and close the connection (no app sees the request). The answer
        goes out first and the sending side is shut; what the client still sends is dropped for
        ``linger_s`` before the close — closing with unread bytes would reset the connection,
        and the client would lose the answer. With ``problem`` (a code), the body is
        problem+json."""
        self._disarm()
        self._refused = True
        kind = b"text/plain; charset=utf-8"
        body = message.encode()
        if problem:
            kind = b"application/problem+json"
            title = "Temporarily unavailable" if status == 503 else message
            body = json.dumps(
                {
                    "type": f"https://quiver.dev/problems/{problem}",
                    "title": title,
                    "status": status,
                    "code": problem,
                    "detail": message,
                }
            ).encode()
        retry = b"retry-after: %d\r\n" % retry_after_s if retry_after_s else b""
        self.transport.write(
            b"".join(
                [
                    STATUS_LINE[status],
                    b"content-type: " + kind + b"\r\n",
                    b"content-length: " + str(len(body)).encode() + b"\r\n",
                    retry,
                    b"connection: close\r\n\r\n",
                    body,
                ]
            )
        )
        transport: Any = self.transport
        transport.flush()  # the OneWriteTransport's pending write, now
        if transport.can_write_eof():
            transport.write_eof()
        self.loop.call_later(self.linger_s, transport.close)
