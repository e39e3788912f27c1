"""Host calls from sandboxed tools: the only way a tool reaches the outside.

Until the full egress guard lands, ``http`` reaches only the hosts and CIDRs named in
``QUIVER_EGRESS_ALLOW``; everything else is refused before any connection is made. Redirects are
not followed, proxies from the environment are ignored, and responses are capped.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

import httpx

METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE"})
MAX_RESPONSE_BYTES = 1024 * 1024


class HostCallRefused(Exception):
    pass


def parse_allowlist(
    value: str | None,
) -> tuple[frozenset[str], tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]]:
    hosts: set[str] = set()
    networks = []
    for item in (value or "").split(","):
        item = item.strip().lower().rstrip(".")
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            hosts.add(item)
    return frozenset(hosts), tuple(networks)


class HttpHost:
    def __init__(
        self, client: httpx.AsyncClient, allow: str | None, max_bytes: int = MAX_RESPONSE_BYTES
    ) -> None:
        self.client = client
        self.hosts, self.networks = parse_allowlist(allow)
        self.max_bytes = max_bytes

    def allowed(self, url: httpx.URL) -> bool:
        host = url.host.lower().rstrip(".")
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return host in self.hosts
        return any(address in net for net in self.networks) or host in self.hosts

    async def __call__(
        self, method: str, args: dict[str, Any], timeout_s: float = 10.0
    ) -> dict[str, Any]:
        if method not in METHODS:
            raise HostCallRefused(f"method {method} is not allowed")
        try:
            url = httpx.URL(str(args.get("url", "")))
        except (httpx.InvalidURL, TypeError) as exc:
            raise HostCallRefused(f"invalid URL: {exc}") from None
        if url.scheme not in ("http", "https") or not url.host:
            raise HostCallRefused("only http and https URLs are allowed")
        if url.userinfo:
            raise HostCallRefused("credentials in URLs are not allowed")
        if not self.allowed(url):
            raise HostCallRefused(f"egress to {url.host} is not allowed")
        headers = {str(k): str(v) for k, v in (args.get("headers") or {}).items()}
        request = self.client.build_request(
            method, url, params=args.get("params"), headers=headers, json=args.get("json"),
            content=args.get("data") if isinstance(args.get("data"), str | bytes) else None,
            timeout=min(float(args.get("timeout", timeout_s)), timeout_s),
        )  # fmt: skip
        try:
            response = await self.client.send(request, stream=True)
        except httpx.TimeoutException:
            raise HostCallRefused("the request timed out") from None
        except httpx.HTTPError as exc:
            raise HostCallRefused(f"the request failed: {type(exc).__name__}") from None
        try:
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > self.max_bytes:
                    raise HostCallRefused(f"the response is larger than {self.max_bytes} bytes")
        finally:
            await response.aclose()
        text = body.decode(response.encoding or "utf-8", errors="replace")
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = None
        return {
            "status": response.status_code,
            "headers": dict(response.headers),
            "text": text,
            "json": parsed,
        }
