"""SSRF: every trick below must be refused while the allowlist is off, and the canary server on
127.0.0.1 must never see a connection. The allowed server listens on 127.0.0.2."""

from __future__ import annotations

import ipaddress

import httpx
import pydantic
import pytest

from server.egress import (
    Allowlist,
    CachedResolver,
    EgressDenied,
    EgressGuard,
    NameNotResolved,
    TooManyRedirects,
    allow_entry,
    is_public,
)
from server.settings import Settings
from tests.calls.fakes import Clock
from tests.loopback import LoopbackServer


def guard(allow: str | None = None, resolver=None) -> EgressGuard:
    client = httpx.AsyncClient(trust_env=False, follow_redirects=False)
    kwargs = {"resolver": resolver} if resolver else {}
    return EgressGuard(client, Allowlist.parse(allow), **kwargs)


SSRF_URLS = [
    "http://127.0.0.1:{port}/",
    "http://localhost:{port}/",
    "http://localhost.:{port}/",
    "http://LOCALHOST:{port}/",
    "http://127.1:{port}/",
    "http://127.0.1:{port}/",
    "http://0x7f000001:{port}/",
    "http://0x7f.1:{port}/",
    "http://2130706433:{port}/",
    "http://0177.0.0.1:{port}/",
    "http://017700000001:{port}/",
    "http://[::1]:{port}/",
    "http://[::ffff:127.0.0.1]:{port}/",
    "http://[::ffff:7f00:1]:{port}/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]:{port}/",
    "http://[64:ff9b::7f00:1]:{port}/",
    "http://[2002:7f00:1::]:{port}/",
    # IPv4 embedded in IPv6 by every form RFC 4291, 6052, 6145, 3056 and 5214 define
    "http://[::7f00:1]:{port}/",
    "http://[::127.0.0.1]:{port}/",
    "http://[0:0:0:0:0:0:127.0.0.1]:{port}/",
    "http://[::ffff:0:7f00:1]:{port}/",
    "http://[::ffff:0:127.0.0.1]:{port}/",
    "http://[64:ff9b::127.0.0.1]:{port}/",
    "http://[64:ff9b:1::7f00:1]:{port}/",
    "http://[2002:7f00:0001:0000:0000:0000:0000:0001]:{port}/",
    "http://[fe80::5efe:7f00:1]:{port}/",
    "http://[2001:db8:1::5efe:127.0.0.1]:{port}/",
    "http://[2607:f8b0::200:5efe:7f00:1]:{port}/",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:{port}/",
    "http://0.0.0.0:{port}/",
    "http://0:{port}/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://100.64.0.1/",
    "http://198.18.0.1/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://224.0.0.1/",
    "http://good@127.0.0.1:{port}/",
    "http://good:pw@127.0.0.1:{port}/",
    "http://127.0.0.1:{port}#@good.example/",
    "file:///etc/passwd",
    "gopher://127.0.0.1:{port}/_GET",
    "ftp://127.0.0.1:{port}/",
    "dict://127.0.0.1:{port}/",
]


@pytest.mark.parametrize("template", SSRF_URLS)
async def test_ssrf_form_is_refused_and_the_canary_untouched(
    canary_http: LoopbackServer, template: str
) -> None:
    before = len(canary_http.seen)

    with pytest.raises((EgressDenied, httpx.InvalidURL, httpx.UnsupportedProtocol)):
        await guard().request("GET", template.format(port=canary_http.port), timeout_s=2)

    assert len(canary_http.seen) == before


async def test_redirect_from_an_allowed_server_to_the_canary_is_refused(
    canary_http, upstream_http
) -> None:
    before = len(canary_http.seen)

    with pytest.raises(EgressDenied):
        await guard("127.0.0.2").request(
            "GET", f"{upstream_http.base}/to/127.0.0.1:{canary_http.port}/", timeout_s=2
        )

    assert len(canary_http.seen) == before


async def test_dns_rebinding_cannot_switch_the_address_after_the_check(
    canary_http, upstream_http
) -> None:
    answers = iter([["127.0.0.2"], ["127.0.0.1"]])
    calls = []

    async def rebinding(host: str, port: int) -> list[str]:
        calls.append(host)
        return next(answers)

    response, body = await guard("127.0.0.2/32", rebinding).request(
        "GET", f"http://rebind.test:{upstream_http.port}/echo", timeout_s=2
    )

    assert response.status_code == 200
    assert upstream_http.seen[-1]["headers"]["host"] == f"rebind.test:{upstream_http.port}"
    assert calls == ["rebind.test"]  # resolved once; the connection went to the checked address
    assert all(
        s["headers"].get("host", "").split(":")[0] != "rebind.test" for s in canary_http.seen
    )


async def test_a_name_resolving_to_any_private_address_is_refused(canary_http) -> None:
    async def mixed(host: str, port: int) -> list[str]:
        return ["8.8.8.8", "127.0.0.1"]

    with pytest.raises(EgressDenied, match="127.0.0.1"):
        await guard(resolver=mixed).check("http://mixed.test/")


async def test_allowlisted_hosts_and_cidrs_are_admitted(upstream_http) -> None:
    response, _ = await guard("127.0.0.2").request("GET", f"{upstream_http.base}/echo", timeout_s=2)

    assert response.status_code == 200


async def test_an_entry_with_a_port_admits_that_port_only(upstream_http) -> None:
    port = int(upstream_http.base.rsplit(":", 1)[1])
    admitted = guard(f"127.0.0.2:{port}")
    response, _ = await admitted.request("GET", f"{upstream_http.base}/echo", timeout_s=2)

    assert response.status_code == 200
    for other in (f"http://127.0.0.2:{port + 1}/", "http://127.0.0.2/", "http://127.0.0.3:{port}/"):
        with pytest.raises(EgressDenied):
            await admitted.check(other.format(port=port))
    named = guard("internal.test:8443", resolver=_loopback)
    assert (await named.check("http://internal.test:8443/")).address == "127.0.0.1"
    with pytest.raises(EgressDenied):
        await named.check("http://internal.test:8080/")
    assert (await guard("[::1]:9000").check("http://[::1]:9000/")).address == "::1"


async def _loopback(host: str, port: int) -> list[str]:
    return ["127.0.0.1"]


@pytest.mark.parametrize("entry", ["x y", "a:0", "a:99999", "*.example", "http://a", "a@b", ""])
def test_an_entry_that_is_no_host_address_or_cidr_is_refused_where_it_is_set(entry: str) -> None:
    assert allow_entry(entry) is None
    with pytest.raises(pydantic.ValidationError, match="QUIVER|egress_allow"):
        Settings(egress_allow=f"10.0.0.0/8,{entry}" if entry else "10.0.0.0/8,  ,x:0")


async def test_redirects_are_followed_by_hand_at_most_three(upstream_http) -> None:
    response, _ = await guard("127.0.0.2").request(
        "GET", f"{upstream_http.base}/redirect/3", timeout_s=2
    )

    assert response.status_code == 200
    with pytest.raises(TooManyRedirects):
        await guard("127.0.0.2").request("GET", f"{upstream_http.base}/redirect/4", timeout_s=2)
    with pytest.raises(TooManyRedirects):
        await guard("127.0.0.2").request("GET", f"{upstream_http.base}/loop", timeout_s=2)


async def test_ports_outside_the_usual_set_need_the_allowlist() -> None:
    async def public(host: str, port: int) -> list[str]:
        return ["8.8.8.8"]

    with pytest.raises(EgressDenied, match="port"):
        await guard(resolver=public).check("http://example.test:6379/")


@pytest.mark.parametrize(
    ("address", "public"),
    [("8.8.8.8", True), ("2001:4860:4860::8888", True), ("::ffff:127.0.0.1", False), ("::ffff:8.8.8.8", True),
     ("64:ff9b::a00:1", False), ("2002:a00:1::", False), ("fd00:ec2::254", False), ("100.64.1.1", False),
     ("198.19.255.255", False), ("0.1.2.3", False), ("255.255.255.255", False), ("ff02::1", False)],
)  # fmt: skip
def test_address_classification(address: str, public: bool) -> None:
    import ipaddress

    assert is_public(ipaddress.ip_address(address)) is public


async def test_each_tenant_has_its_own_cap_on_concurrent_outbound_calls() -> None:
    """With one outbound call per tenant at a time, a tenant's second call waits for its first
    while another tenant's goes ahead — seen by an upstream that holds each request until told."""
    import asyncio

    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from tests.servers import free_port, served

    arrived: list[str] = []
    two_arrived, release = asyncio.Event(), asyncio.Event()

    async def hold(request) -> JSONResponse:
        arrived.append(request.query_params["who"])
        if len(arrived) == 2:
            two_arrived.set()
        await release.wait()
        return JSONResponse({"ok": True})

    app = Starlette(routes=[Route("/hold", hold)])
    port = free_port()
    capped = EgressGuard(httpx.AsyncClient(trust_env=False), Allowlist.parse("127.0.0.2"), per_tenant=1)  # fmt: skip
    async with served(app, "127.0.0.2", port):
        url = f"http://127.0.0.2:{port}/hold"
        calls = [
            asyncio.create_task(capped.request("GET", f"{url}?who={who}", tenant=tenant))
            for who, tenant in (("a1", "a"), ("a2", "a"), ("b1", "b"))
        ]
        await asyncio.wait_for(two_arrived.wait(), 5)
        held = sorted(arrived)
        release.set()
        await asyncio.wait_for(asyncio.gather(*calls), 5)

    assert held in (["a1", "b1"], ["a2", "b1"])  # one of a's, and b's beside it
    assert sorted(arrived) == ["a1", "a2", "b1"]  # a's second went once its first was done


EMBEDDED_PRIVATE = [
    "::7f00:1", "::127.0.0.1", "::a00:1", "::ffff:0:7f00:1", "::ffff:0:10.0.0.1",
    "::ffff:0:169.254.169.254", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::a00:1",
    "2002:a9fe:a9fe::1", "2002:c0a8:101::1", "2607:f8b0::5efe:c0a8:101",
    "2607:f8b0::200:5efe:a00:1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
]  # fmt: skip


@pytest.mark.parametrize("address", EMBEDDED_PRIVATE)
async def test_a_name_resolving_to_an_embedded_private_address_is_refused(
    canary_http: LoopbackServer, address: str
) -> None:
    async def resolver(host: str, port: int) -> list[str]:
        return [address]

    before = len(canary_http.seen)

    with pytest.raises(EgressDenied):
        await guard(resolver=resolver).request("GET", "http://innocent.example/", timeout_s=2)

    assert len(canary_http.seen) == before
    assert is_public(ipaddress.ip_address(address)) is False


async def test_a_name_that_does_not_resolve_is_its_own_failure_not_a_refusal() -> None:
    import socket

    from sandbox.engine import Limits, Run
    from server.calls.webhook import WebhookEngine, WebhookSource
    from server.egress import NameNotResolved

    async def nowhere(host: str, port: int) -> list[str]:
        raise socket.gaierror(-2, "Name or service not known")

    webhook = WebhookEngine(guard(resolver=nowhere))
    with pytest.raises(NameNotResolved):
        await guard(resolver=nowhere).check("https://typo.example/x")

    outcome = await webhook.run(
        WebhookSource({"url": "https://typo.example/orders/{id}", "method": "GET"}),
        Run("t", "lookup", {"id": "1"}, {}, Limits(timeout_ms=1000)),
    )

    assert outcome.ok is False and outcome.code == "dns_error"
    assert "typo.example does not resolve" in (outcome.message or "")


# a name's addresses are kept for a while; its verdict never is --------------------------------


def counted(*answers: list[str] | OSError):
    """A resolver giving ``answers`` in turn (an OSError is raised), counting its asks."""
    asks: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        answer = answers[min(len(asks), len(answers) - 1)]
        asks.append(host)
        if isinstance(answer, OSError):
            raise answer
        return answer

    return resolve, asks


async def test_a_name_is_asked_once_within_its_ttl_and_again_after() -> None:
    resolve, asks = counted(["93.184.216.34"], ["93.184.216.35"])
    clock = Clock()
    checked = guard(resolver=CachedResolver(resolve, ttl_s=10, clock=clock))

    first = await checked.check("http://example.test/a")
    again = await checked.check("https://example.test/b")
    clock.now += 10.5
    later = await checked.check("http://example.test/c")

    assert (first.address, again.address, later.address) == ("93.184.216.34", "93.184.216.34", "93.184.216.35")  # fmt: skip
    assert asks == ["example.test", "example.test"]


async def test_a_failed_resolution_is_not_kept() -> None:
    resolve, asks = counted(OSError("no answer"), [], ["93.184.216.34"])
    checked = guard(resolver=CachedResolver(resolve, clock=Clock()))

    for _ in range(2):  # an error, then an empty answer
        with pytest.raises(NameNotResolved):
            await checked.check("http://flaky.test/")
    target = await checked.check("http://flaky.test/")

    assert target.address == "93.184.216.34" and len(asks) == 3


async def test_kept_addresses_are_judged_again_by_each_requests_lists() -> None:
    """The cache keeps what a name resolves to, not whether it may be reached: the same kept
    private address is admitted for a tenant whose list admits it and refused for another."""
    resolve, asks = counted(["127.0.0.2"])
    checked = guard(resolver=CachedResolver(resolve, clock=Clock()))

    admitted = await checked.check("http://internal.test/", Allowlist.parse("127.0.0.2"))
    with pytest.raises(EgressDenied):
        await checked.check("http://internal.test/")  # another tenant, no list of its own

    assert admitted.address == "127.0.0.2" and len(asks) == 1


async def test_a_url_asked_again_is_resolved_and_judged_again() -> None:
    """The guard keeps a URL's parse, never its verdict or its address."""
    resolve, asks = counted(["93.184.216.34"], ["93.184.216.35"], ["127.0.0.1"])
    checked = guard(resolver=resolve)

    first = await checked.check("http://moving.test/v1/chat")
    second = await checked.check("http://moving.test/v1/chat")
    with pytest.raises(EgressDenied, match="127.0.0.1"):
        await checked.check("http://moving.test/v1/chat")

    assert (first.address, second.address) == ("93.184.216.34", "93.184.216.35")
    assert str(second.url) == "http://93.184.216.35/v1/chat" and len(asks) == 3


async def test_the_urls_kept_parsed_are_bounded() -> None:
    resolve, _ = counted(*[["93.184.216.34"]] * (EgressGuard.URLS + 10))
    checked = guard(resolver=resolve)
    for i in range(EgressGuard.URLS + 10):
        await checked.check(f"http://example.test/{i}")

    assert len(checked._urls) <= EgressGuard.URLS and len(checked._addressed) <= EgressGuard.URLS


async def test_the_names_kept_are_bounded() -> None:
    resolve, asks = counted(["93.184.216.34"])
    cached = CachedResolver(resolve, max_names=2, clock=Clock())
    for name in ("a.test", "b.test", "c.test", "a.test", "c.test"):
        await cached(name, 80)

    # a.test was pushed out by c.test and asked again; c.test, kept, was not
    assert asks == ["a.test", "b.test", "c.test", "a.test"]


async def test_a_credential_goes_over_plain_http_only_to_an_admitted_host(upstream_http) -> None:
    """To a public address it would travel in the clear: refused before anything is sent. To a
    host an allowlist admits (an internal one) it goes."""
    from server.egress import Bound, Credential

    async def public(host: str, port: int) -> list[str]:
        return ["93.184.216.34"]

    def bound(url: str) -> Bound:
        parsed = httpx.URL(url)
        return Bound(Credential("KEY", ("http", parsed.host, parsed.port or 80), header="X-Key"), "v")  # fmt: skip

    with pytest.raises(EgressDenied, match="credential KEY travels over https only"):
        await guard(resolver=public).request("GET", "http://api.example/x", credentials=[bound("http://api.example")], timeout_s=2)  # fmt: skip
    response, _ = await guard("127.0.0.2").request(
        "GET", f"{upstream_http.base}/echo/plain", credentials=[bound(upstream_http.base)], timeout_s=5
    )  # fmt: skip

    assert response.status_code == 200
    assert upstream_http.seen[-1]["headers"]["x-key"] == "v"
