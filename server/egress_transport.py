"""The egress guard as an ``httpx2`` transport, for a client that speaks a protocol of its own over
HTTP and makes its requests itself — the MCP SDK's client (federated MCP servers).

Every request it sends, each redirect hop and each reconnect of a stream included, is checked by
``EgressGuard.check`` and connects to the address that was checked (the ``Host`` header and TLS
SNI keep the name), as the guard's own requests do. A response's body is cut off past
``max_bytes``: ``ResponseTooLarge`` ends the read, so a peer that streams without end costs at
most that much memory.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2

from server.egress import Allowlist, EgressDenied, EgressGuard, ResponseTooLarge


class GuardedTransport(httpx2.AsyncBaseTransport):
    def __init__(
        self,
        guard: EgressGuard,
        extra: Allowlist | None = None,
        max_bytes: int = 4 << 20,
        inner: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self.guard = guard
        self.extra = extra
        self.max_bytes = max_bytes
        # proxies from the environment are ignored, as the guard's own client ignores them.
        # A shared ``inner`` (its connections and TLS context made once) is its owner's to close
        self.owned = inner is None
        self.inner = inner or httpx2.AsyncHTTPTransport(trust_env=False)
        # the last status of 400 or more it was answered (a client that turns it into a protocol
        # error of its own can still say what the server answered)
        self.refused: int | None = None
        # what it refused itself (the guard's verdict, an answer cut off): the client may report
        # only that its stream broke
        self.failure: Exception | None = None

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            target = await self.guard.check(str(request.url), self.extra)
        except EgressDenied as exc:
            self.failure = exc
            raise
        if "host" not in request.headers:
            request.headers["Host"] = request.url.netloc.decode("ascii")
        request.url = request.url.copy_with(host=target.address)
        request.extensions = {**request.extensions, "sni_hostname": target.host}
        response = await self.inner.handle_async_request(request)
        if response.status_code >= 400:
            self.refused = response.status_code
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await response.aclose()
            self.failure = ResponseTooLarge(
                f"the response is {declared} bytes, over the {self.max_bytes} byte cap"
            )
            raise self.failure
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_Capped(response.stream, self.max_bytes, self),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        if self.owned:
            await self.inner.aclose()


class _Capped(httpx2.AsyncByteStream):
    """A response body that ends in ``ResponseTooLarge`` once it passes ``max_bytes``."""

    def __init__(
        self, stream: httpx2.AsyncByteStream, max_bytes: int, owner: GuardedTransport
    ) -> None:
        self.stream = stream
        self.max_bytes = max_bytes
        self.owner = owner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self.stream:
            seen += len(chunk)
            if seen > self.max_bytes:
                failure = ResponseTooLarge(f"the response is over the {self.max_bytes} byte cap")
                self.owner.failure = failure
                raise failure
            yield chunk

    async def aclose(self) -> None:
        await self.stream.aclose()
