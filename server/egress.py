"""The one guarded way out to the network, used by webhook tools and ``context.modules.http``.

For every request and every redirect hop:

* only ``http``/``https``, no credentials in the URL, only ports 80/443/8080/8443 unless the host is
  admitted by an allowlist;
* the host name is resolved off the event loop and **every** address must be global: loopback,
  private, link-local (169.254.169.254, fd00:ec2::254), CGNAT, 0.0.0.0/8, multicast, reserved,
  benchmarking (198.18/15) and documentation ranges are refused, and an IPv4 address embedded
  in an IPv6 one (mapped, compatible, SIIT, NAT64, 6to4, ISATAP: ``embedded_ipv4``) is checked
  too (Python 3.11's ``ipaddress`` calls ``::ffff:127.0.0.1`` and ``::7f00:1`` global);
* the connection goes to the address that was checked — the URL is rewritten to it and the
  ``Host`` header and TLS SNI keep the name — so a resolver that answers differently the second
  time (DNS rebinding) changes nothing; a name's addresses are kept for 10 s
  (``CachedResolver``), never its verdict;
* redirects are followed by hand, each hop checked again, at most three; a hop to another
  origin (scheme, host or port) drops the secret headers.

Forms like ``2130706433``, ``0x7f.1``, ``127.1`` or ``0`` are caught because the resolved
address is what gets checked. ``QUIVER_EGRESS_ALLOW`` (and a tenant's own allowlist, set by an
admin) admits named internal hosts and CIDRs. Proxies from the environment are ignored.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import socket
import time
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from server.tracing import CLIENT, OFF, Tracing, failed

log = logging.getLogger("quiver.egress")
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], Awaitable[list[str]]]

DEFAULT_PORTS = frozenset({80, 443, 8080, 8443})
MAX_REDIRECTS = 3
DENIED_NETWORKS: tuple[Network, ...] = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.88.99.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
        "255.255.255.255/32",
        "::/128",
        "::1/128",
        "64:ff9b:1::/48",
        "100::/64",
        "2001::/23",
        "2001:db8::/32",
        "fc00::/7",
        "fe80::/10",
        "fec0::/10",
        "ff00::/8",
        # embedding forms no public host answers from: refused whatever they carry
        "::/96",
        "::ffff:0:0:0/96",
    )
)
# IPv6 forms that carry an IPv4 address (each unwrapped and checked as that address):
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # RFC 4291 2.5.5.1 (deprecated, still parsed)
IPV4_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")  # RFC 2765 / 6145 (SIIT)
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052 well-known prefix
SIX_TO_FOUR = ipaddress.ip_network("2002::/16")  # RFC 3056
ISATAP_IDS = (0x00005EFE, 0x02005EFE)  # RFC 5214: an interface id of 0[2]00:5efe:a.b.c.d


class EgressDenied(Exception):
    """The destination is not allowed; nothing was sent."""


class NameNotResolved(EgressDenied):
    """The host name does not resolve (a typo, or DNS is down): nothing was sent, and it is not a
    policy refusal — the model and the developer are told which it is."""


def embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address embeds by any of the standard forms, if it does:
    IPv4-mapped (RFC 4291), IPv4-compatible (RFC 4291), SIIT-translated (RFC 6145), NAT64's
    well-known prefix (RFC 6052), 6to4 (RFC 3056) and ISATAP (RFC 5214). Teredo (2001::/32) and
    NAT64's local-use prefix (64:ff9b:1::/48) are refused whole, whatever they embed."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    value = int(address)
    low32 = ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in IPV4_COMPATIBLE or address in IPV4_TRANSLATED or address in NAT64:
        return low32
    if address.sixtofour is not None:
        return address.sixtofour
    if (value >> 32) & 0xFFFFFFFF in ISATAP_IDS:
        return low32
    return None


def unwrap(address: Address) -> Address:
    """The IPv4 address hidden in an IPv6 address, if any (``embedded_ipv4``); else itself."""
    return embedded_ipv4(address) or address


def is_public(address: Address) -> bool:
    """Both the address and any IPv4 address it embeds must be public."""
    for candidate in {address, unwrap(address)}:
        if any(candidate in net for net in DENIED_NETWORKS if net.version == candidate.version):
            return False
        if not candidate.is_global or candidate.is_multicast:
            return False
    return True


HOST_PORT = re.compile(
    r"\[(?P<v6>[^\]]+)\]:(?P<v6port>\d{1,5})|(?P<host>[^:\[\]]+):(?P<port>\d{1,5})"
)
HOST_NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*")


def allow_entry(item: str) -> tuple[str | Network, int | None] | None:
    """One allowlist entry: a host name, an address or CIDR, either with ``:port`` to admit that
    port only (``127.0.0.1:8000``, ``[::1]:8000``, ``crm.internal:8443``); None if it is none."""
    item = item.strip().lower().rstrip(".")
    port: int | None = None
    bound = HOST_PORT.fullmatch(item)
    if bound:
        item = bound["v6"] or bound["host"]
        port = int(bound["v6port"] or bound["port"])
        if not 1 <= port <= 65535:
            return None
    try:
        return ipaddress.ip_network(item, strict=False), port
    except ValueError:  # not an address or CIDR: a host name, if it is one
        return (item, port) if HOST_NAME.fullmatch(item) else None


@dataclass(frozen=True)
class Allowlist:
    """Internal hosts and networks that may be reached; an entry with a port admits that port
    only (``None``: any port)."""

    hosts: frozenset[tuple[str, int | None]] = frozenset()
    networks: tuple[tuple[Network, int | None], ...] = ()

    @classmethod
    def parse(cls, *values: str | Iterable[str] | None) -> Allowlist:
        hosts: set[tuple[str, int | None]] = set()
        networks: list[tuple[Network, int | None]] = []
        for value in values:
            items = value.split(",") if isinstance(value, str) else (value or [])
            for item in items:
                entry = allow_entry(item)
                if entry is None:
                    continue  # checked where it is set (settings at start, the admin route)
                target, port = entry
                if isinstance(target, str):
                    hosts.add((target, port))
                else:
                    networks.append((target, port))
        return cls(frozenset(hosts), tuple(networks))

    def admits_host(self, host: str, port: int) -> bool:
        return (host, None) in self.hosts or (host, port) in self.hosts

    def admits_address(self, address: Address, port: int) -> bool:
        inner = unwrap(address)
        return any(
            (address in net or inner in net) and only in (None, port)
            for net, only in self.networks
            if net.version in (address.version, inner.version)
        )


def parse_url(raw: httpx.URL | str) -> httpx.URL:
    """The URL if a request could be sent to it, else ``EgressDenied`` saying why: http(s), a
    host that encodes (IDNA) with labels of 1-63 characters, a port from 1 to 65535, no
    credentials, no zone id. Save-time checks of webhook URLs use the same function, so a URL
    that was accepted can always be called."""
    try:
        url = httpx.URL(raw)
        host = url.host
        raw_host = url.raw_host.decode("ascii")
        port = url.port
    except Exception as exc:  # httpx, idna and the codecs each raise their own kinds
        # bad input, not a fault: refused as egress_denied (422 naming the field at save)
        log.debug("refused an unparsable URL: %r", exc)
        raise EgressDenied(f"invalid URL: {str(exc)[:200]}") from None
    if url.scheme not in ("http", "https"):
        raise EgressDenied(f"scheme {url.scheme or '(none)'!r} is not allowed; use http or https")
    if url.userinfo:
        raise EgressDenied("credentials in URLs are not allowed")
    if not host:
        raise EgressDenied("the URL has no host")
    if port is not None and not 1 <= port <= 65535:
        raise EgressDenied(f"port {port} is out of range")
    if "%" in raw_host:
        raise EgressDenied("the host may not carry an encoded character or a zone id")
    if not raw_host.startswith("[") and ":" not in raw_host:
        labels = raw_host.rstrip(".").split(".")
        if len(raw_host) > 253 or any(not 1 <= len(label) <= 63 for label in labels):
            raise EgressDenied("the host name is not valid (empty or over-long labels)")
    return url


async def system_resolver(host: str, port: int) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class CachedResolver:
    """A name's addresses, asked of ``resolve`` at most once per ``ttl_s`` (the system's
    resolver is a thread hop per request and, where the host keeps no DNS cache, a round trip to
    the name server — on every webhook call and model request). Only the addresses are kept:
    each request's verdict is still worked out from them against the lists of that request, and
    the connection still goes to the address checked, so an answer that changes within the TTL
    is seen at the next ask and never connected to unchecked. Failures are not kept."""

    def __init__(
        self,
        resolve: Resolver = system_resolver,
        ttl_s: float = 10.0,
        max_names: int = 1024,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.resolve = resolve
        self.ttl_s = ttl_s
        self.max_names = max_names
        self.clock = clock
        self._names: OrderedDict[str, tuple[float, list[str]]] = OrderedDict()

    async def __call__(self, host: str, port: int) -> list[str]:
        kept = self._names.get(host)
        if kept is not None and kept[0] > self.clock():
            return list(kept[1])
        addresses = await self.resolve(host, port)
        if not addresses:  # no answer is a failure too
            return addresses
        self._names[host] = (self.clock() + self.ttl_s, list(addresses))
        self._names.move_to_end(host)
        while len(self._names) > self.max_names:
            self._names.popitem(last=False)
        return addresses


@dataclass(frozen=True)
class Target:
    """A checked destination: connect to ``address``, speak to ``host``."""

    url: httpx.URL
    host: str
    address: str
    admitted: bool = False  # by an allowlist (an internal host), not only as a public address


class EgressGuard:
    URLS = 512  # parsed URLs kept (the oldest go first)

    def __init__(
        self,
        client: httpx.AsyncClient,
        allow: Allowlist,
        resolver: Resolver | None = None,
        per_tenant: int = 16,
        tracing: Tracing = OFF,
    ) -> None:
        self.client = client
        self.allow = allow
        self.tracing = tracing
        self.resolver: Resolver = resolver or CachedResolver()
        self._slots: dict[str, asyncio.Semaphore] = defaultdict(
            lambda: asyncio.Semaphore(per_tenant)
        )
        self._urls: dict[str, tuple[httpx.URL, str, int]] = {}
        self._addressed: dict[tuple[str, str], httpx.URL] = {}

    async def check(self, url: httpx.URL | str, extra: Allowlist | None = None) -> Target:
        """Refuse the URL unless every address its host resolves to may be reached."""
        url, host, port = self._parsed(url)
        lists = [self.allow] + ([extra] if extra else [])
        named = any(a.admits_host(host, port) for a in lists)
        try:
            literal: Address | None = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        try:
            addresses = [str(literal)] if literal is not None else await self.resolver(host, port)
        except OSError as exc:
            raise NameNotResolved(f"{host} does not resolve ({exc.__class__.__name__})") from None
        if not addresses:
            raise NameNotResolved(f"{host} does not resolve")
        every_admitted = True
        for text in addresses:
            address = ipaddress.ip_address(text.split("%")[0])
            admitted = named or any(a.admits_address(address, port) for a in lists)
            every_admitted = every_admitted and admitted
            if not admitted and not is_public(address):
                raise EgressDenied(f"{host} resolves to {address}, which is not a public address")
            if not admitted and port not in DEFAULT_PORTS:
                raise EgressDenied(f"port {port} is not allowed")
        chosen = addresses[0].split("%")[0]
        return Target(
            url=self._to_address(url, chosen),
            host=url.host,
            address=chosen,
            admitted=every_admitted,
        )

    def _parsed(self, raw: httpx.URL | str) -> tuple[httpx.URL, str, int]:
        """``parse_url``'s URL with its host and port, kept for the URLs asked again (a provider's
        endpoints, a webhook's: ~20 µs a parse on a slow machine, twice per request with the
        address's). Only what parses is kept; each request's verdict is still worked out."""
        key = raw if isinstance(raw, str) else None
        kept = self._urls.get(key) if key is not None else None
        if kept is not None:
            return kept
        url = parse_url(raw)
        parsed = (
            url,
            url.host.lower().rstrip("."),
            url.port or (443 if url.scheme == "https" else 80),
        )
        if key is not None:
            self._urls[key] = parsed
            if len(self._urls) > self.URLS:
                self._urls.pop(next(iter(self._urls)))
        return parsed

    def _to_address(self, url: httpx.URL, address: str) -> httpx.URL:
        key = (str(url), address)
        kept = self._addressed.get(key)
        if kept is None:
            kept = self._addressed[key] = url.copy_with(host=address)
            if len(self._addressed) > self.URLS:
                self._addressed.pop(next(iter(self._addressed)))
        return kept

    async def request(
        self,
        method: str,
        url: str,
        *,
        tenant: str = "",
        headers: dict[str, str] | None = None,
        params: Any = None,
        json: Any = None,
        content: bytes | str | None = None,
        timeout_s: float = 10.0,
        max_bytes: int = 1024 * 1024,
        extra: Allowlist | None = None,
        secret_headers: frozenset[str] = frozenset(),
        credentials: Sequence[Bound] = (),
    ) -> tuple[httpx.Response, bytes]:
        """Send a request through the guard; returns the final response and its body (capped).
        ``credentials`` go on every hop to their own origin, and on no other
        (``server/credentials.py``).

        Raises ``EgressDenied``, ``httpx.TimeoutException``, ``httpx.TransportError`` or
        ``ResponseTooLarge``.
        """
        async with self._slots[tenant], asyncio.timeout(timeout_s):
            current = parse_url(url)
            if params:
                current = current.copy_merge_params(params)
            headers = dict(headers or {})
            for _ in range(MAX_REDIRECTS + 1):
                target = await self.check(current, extra)
                send_headers = {**headers, "Host": _host_header(current)}
                send_url = target.url
                if credentials:
                    send_url, send_headers = _with_credentials(
                        current, target, send_url, send_headers, credentials
                    )
                request = self.client.build_request(
                    method,
                    send_url,
                    headers=send_headers,
                    json=json,
                    content=content,
                    extensions={
                        "sni_hostname": target.host,
                        "timeout": {
                            "connect": timeout_s,
                            "read": timeout_s,
                            "write": timeout_s,
                            "pool": timeout_s,
                        },
                    },
                )
                if self.tracing.on:
                    response = await self._traced(request, method, current)
                else:
                    response = await self.client.send(request, stream=True)
                if (
                    response.status_code in (301, 302, 303, 307, 308)
                    and "location" in response.headers
                ):
                    await response.aclose()
                    following = current.join(response.headers["location"])
                    if origin(following) != origin(current):  # secrets stay with their origin
                        headers = {
                            k: v for k, v in headers.items() if k.lower() not in secret_headers
                        }
                    if response.status_code in (301, 302, 303) and method != "HEAD":
                        method, json, content = "GET", None, None
                    current = following
                    continue
                try:
                    return response, await read_capped(response, max_bytes)
                finally:
                    await response.aclose()
            raise TooManyRedirects(f"more than {MAX_REDIRECTS} redirects")

    async def _traced(self, request: httpx.Request, method: str, url: httpx.URL) -> httpx.Response:
        """One hop, in a client span: where it went and what came back (never the path or
        query: credentials and personal data travel there)."""
        attributes: dict[str, str | int | float | bool] = {
            "http.request.method": method,
            "server.address": url.host,
            "server.port": url.port or (443 if url.scheme == "https" else 80),
            "url.scheme": url.scheme,
        }
        with self.tracing.span(method, CLIENT, attributes) as span:
            response = await self.client.send(request, stream=True)
            span.set_attribute("http.response.status_code", response.status_code)
            if response.status_code >= 500:
                failed(span, str(response.status_code))
            return response


Origin = tuple[str, str, int]


@dataclass(frozen=True)
class Credential:
    """A credential the guard adds to the requests for one origin (``metadata.credentials``,
    parsed by ``server/credentials.py``), without its value."""

    secret: str
    origin: Origin
    header: str | None = None
    format: str = "{secret}"
    query: str | None = None


@dataclass(frozen=True)
class Bound:
    """A credential with its value, for one call: what the guard adds."""

    credential: Credential
    value: str

    @property
    def text(self) -> str:
        """What goes on the wire: the header's value or the query parameter's."""
        return self.credential.format.replace("{secret}", self.value)


def _with_credentials(
    current: httpx.URL,
    target: Target,
    url: httpx.URL,
    headers: dict[str, str],
    credentials: Sequence[Bound],
) -> tuple[httpx.URL, dict[str, str]]:
    """The hop's URL and headers with the credentials bound to its origin (replacing what the
    tool set under the same name); over plain http only to a host an allowlist admits."""
    here = origin(current)
    for bound in credentials:
        credential = bound.credential
        if credential.origin != here:
            continue
        if current.scheme != "https" and not target.admitted:
            raise EgressDenied(
                f"the credential {credential.secret} travels over https only, or to a host "
                "an allowlist admits"
            )
        if credential.header is not None:
            name = credential.header.lower()
            headers = {k: v for k, v in headers.items() if k.lower() != name}
            headers[credential.header] = bound.text
        elif credential.query is not None:
            url = url.copy_set_param(credential.query, bound.text)
    return url, headers


class ResponseTooLarge(Exception):
    pass


class TooManyRedirects(Exception):
    pass


async def read_capped(response: httpx.Response, max_bytes: int) -> bytes:
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise ResponseTooLarge(f"the response is {declared} bytes, over the {max_bytes} byte cap")
    body = bytearray()
    async for chunk in response.aiter_bytes():
        body += chunk
        if len(body) > max_bytes:
            raise ResponseTooLarge(f"the response is over the {max_bytes} byte cap")
    return bytes(body)


def origin(url: httpx.URL | str) -> tuple[str, str, int]:
    """(scheme, host, port) — what a stored credential is bound to (RFC 6454's origin).
    Raises ``EgressDenied`` for a URL that cannot be parsed."""
    url = parse_url(url)
    return (
        url.scheme,
        url.host.lower().rstrip("."),
        url.port or (443 if url.scheme == "https" else 80),
    )


def _host_header(url: httpx.URL) -> str:
    default = 443 if url.scheme == "https" else 80
    host = f"[{url.host}]" if ":" in url.host else url.host
    return host if url.port in (None, default) else f"{host}:{url.port}"
