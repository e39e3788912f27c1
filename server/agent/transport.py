"""Model providers are reached through the egress guard like every other outbound request: the
SDKs get an HTTP client whose transport checks each request (redirects included) against the
server's and the tenant's allowlists and connects to the address it checked (no DNS rebinding
between the check and the connection). A tenant's provider on an internal host needs an admin to
admit that host for the tenant (``PUT /v1/tenants/{tenant}/egress``).

The SDKs are built on httpx (``google-genai``) or its fork httpx2 (``openai``, ``anthropic``);
the client is made from the module the SDK is built on — given the other one, an SDK adapts
every request and response between the two (measured: ~0.25 ms a model call)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from server import tls
from server.egress import Allowlist, EgressDenied, EgressGuard

# The most of one provider answer read at all (a streamed one is cut far sooner, at the agent
# loop's message cap): a provider that sends more is failing, and must not fill the node's memory.
MAX_ANSWER_BYTES = 16 << 20
URLS = 64  # a provider client's checked URLs kept parsed (its endpoints at their addresses)


def guarded_client(
    http: ModuleType, guard: EgressGuard, extra: Allowlist | None, timeout_s: float
) -> Any:
    class GuardedTransport(http.AsyncBaseTransport):  # type: ignore[name-defined,misc]
        def __init__(self) -> None:
            self.inner = http.AsyncHTTPTransport(verify=tls.context(http.__name__))
            self.urls: dict[str, Any] = {}  # the checked URLs in the SDK's module's type

        def to_url(self, text: str) -> Any:
            url = self.urls.get(text)
            if url is None:
                if len(self.urls) >= URLS:
                    self.urls.clear()
                url = self.urls[text] = http.URL(text)
            return url

        async def handle_async_request(self, request: Any) -> Any:
            try:
                target = await guard.check(str(request.url), extra)
            except EgressDenied as exc:
                raise http.ConnectError(f"egress denied: {exc}", request=request) from None
            host = request.headers.get("Host") or target.host
            request.url = self.to_url(str(target.url))
            request.headers["Host"] = host
            request.extensions = {**request.extensions, "sni_hostname": target.host}
            response = await self.inner.handle_async_request(request)
            response.stream = Capped(response.stream, request)
            return response

        async def aclose(self) -> None:
            await self.inner.aclose()

    class Capped(http.AsyncByteStream):  # type: ignore[name-defined,misc]
        def __init__(self, inner: Any, request: Any) -> None:
            self.inner, self.request = inner, request

        async def __aiter__(self) -> Any:
            seen = 0
            async for chunk in self.inner:
                seen += len(chunk)
                if seen > MAX_ANSWER_BYTES:
                    message = f"the provider's answer passed {MAX_ANSWER_BYTES} bytes"
                    raise http.ReadError(message, request=self.request)
                yield chunk

        async def aclose(self) -> None:
            await self.inner.aclose()

    return http.AsyncClient(transport=GuardedTransport(), timeout=timeout_s)
