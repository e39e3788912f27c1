"""Federated MCP servers (docs/federation.md) against a real remote MCP server written with the
official SDK, in both protocol eras, on both databases: its tools become the tenant's, run
through the call pipeline on every door, follow the remote on refresh, and a remote that is not
admitted, hangs, floods or lies is contained."""

from __future__ import annotations

import asyncio

import pytest

from quiver.client import ApiError, AsyncQuiver, Quiver
from server.calls import federation
from server.calls.federation_watch import FederationWatch
from tests.api.test_calls import call, simple_tool
from tests.api.test_mcp import mcp_client
from tests.conftest import Api, TenantKeys, api_for
from tests.mcp_remote import TOKEN, Remote, remote_server
from tests.servers import served


@pytest.fixture
async def api(settings):  # the remote's 127.0.0.2 is admitted, as an operator would
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.2"})) as api:
        yield api


def declaration(remote: Remote, tools: list[str] | None = None, **extra) -> dict:
    return {"url": remote.url, "tools": tools or ["*"], "auth_header": TOKEN, **extra}


async def attached(t: TenantKeys) -> str:
    await t.dev.post("/v1/bots", json={"name": "b", "tools": None})
    response = await t.agent.post("/v1/sessions", json={"bot": "b"})
    assert response.status_code == 201, response.text
    return response.json()["id"]


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_a_remote_servers_tools_become_tools_of_the_tenant(api: Api, era: str) -> None:
    acme = await api.tenant("acme")
    async with remote_server(era) as remote:
        put = await acme.dev.put("/v1/mcp-servers/crm", json=declaration(remote))
        tools = {t["name"]: t for t in (await acme.dev.get("/v1/tools")).json()["tools"]}
        sid = await attached(acme)
        ok = await call(acme, sid, "crm__lookup", {"order_id": "A1"})
        failed = await call(acme, sid, "crm__fails", {"order_id": "A2"})
        invalid = await call(acme, sid, "crm__lookup", {})
        async with served(api.app) as base, mcp_client(base, acme.agent_key) as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            over_mcp = await client.call_tool("crm__lookup", {"order_id": "B2"})
        shown = (await acme.dev.get("/v1/mcp-servers/crm")).json()

    assert put.status_code == 201, put.text
    server = put.json()
    assert server["status"] == "ok" and server["made"] == [
        "crm__fails", "crm__huge", "crm__lookup", "crm__slow"
    ]  # fmt: skip
    assert server["protocol_version"] == ("2026-07-28" if era == "modern" else "2025-11-25")
    lookup = tools["crm__lookup"]
    assert lookup["kind"] == "mcp" and lookup["description"] == "Looks an order up"
    assert lookup["mcp_server"] == "crm" and lookup["remote_tool"] == "lookup"
    assert lookup["parameters"]["required"] == ["order_id"]
    assert ok["success"] is True, ok
    assert '"status": "shipped"' in ok["result"]["content"][0]["text"]
    assert failed["success"] is False and failed["error"]["code"] == "tool_failed"
    assert failed["error"]["message"].endswith("no order A2")  # the remote's own words
    assert invalid["success"] is False and invalid["error"]["code"] == "invalid_arguments"
    assert "crm__lookup" in listed and listed["crm__lookup"].annotations.open_world_hint is True
    assert over_mcp.is_error is False and "shipped" in over_mcp.content[0].text
    # the secret reached the remote, and is never shown
    assert set(remote.seen_auth) == {TOKEN}
    assert "s3cr3t" not in str(shown) and "s3cr3t" not in str(tools)


async def test_only_allowed_tools_are_taken_and_what_cannot_be_one_is_reported(
    api: Api,
) -> None:
    acme = await api.tenant("acme")
    # a tool of the tenant's own keeps its name: the remote's is not taken over it
    own = simple_tool("crm__slow", "return {'success': True}")
    assert (await acme.dev.post("/v1/tools", json=own)).status_code == 201
    async with remote_server() as remote:
        remote.add(lambda: "x", name="bad.name")
        put = await acme.dev.put(
            "/v1/mcp-servers/crm",
            json=declaration(remote, ["lookup", "slow", "bad.*", "gone"], prefix="shop"),
        )
        renamed = await acme.dev.put(
            "/v1/mcp-servers/crm", json=declaration(remote, ["lookup", "slow"])
        )

    assert put.status_code == 201, put.text
    server = put.json()
    assert server["made"] == ["shop__lookup", "shop__slow"]
    assert server["missing"] == ["gone"]
    assert [s["tool"] for s in server["skipped"]] == ["bad.name"]
    # with its own prefix the server's slow would be the tenant's crm__slow: skipped, kept
    again = renamed.json()
    assert renamed.status_code == 200 and again["made"] == ["crm__lookup"]
    assert [s["tool"] for s in again["skipped"]] == ["slow"]
    names = [t["name"] for t in (await acme.dev.get("/v1/tools")).json()["tools"]]
    assert names == ["crm__lookup", "crm__slow"]  # shop__* went with the new prefix
    kept = (await acme.dev.get("/v1/tools/crm__slow")).json()
    assert kept["kind"] == "python"


async def test_bad_declarations_name_their_field_and_store_nothing(api: Api) -> None:
    acme = await api.tenant("acme")
    bad = {
        "url": await acme.dev.put("/v1/mcp-servers/crm", json={"url": "ftp://x", "tools": ["*"]}),
        "tools": await acme.dev.put("/v1/mcp-servers/crm", json={"url": "https://x.example/mcp"}),
        "timeout_ms": await acme.dev.put(
            "/v1/mcp-servers/crm",
            json={"url": "https://x.example/mcp", "tools": ["*"], "timeout_ms": 10**9},
        ),
        "extra": await acme.dev.put(
            "/v1/mcp-servers/crm", json={"url": "https://x.example/mcp", "tools": ["*"], "extra": 1}
        ),
        "name": await acme.dev.put(
            "/v1/mcp-servers/Bad!", json={"url": "https://x.example/mcp", "tools": ["*"]}
        ),
    }
    by_hand = await acme.dev.post("/v1/tools", json={"kind": "mcp", "name": "crm__x"})
    listed = await acme.dev.get("/v1/mcp-servers")
    agent = await acme.agent.put("/v1/mcp-servers/crm", json={"url": "https://x.example/mcp"})

    for field, response in bad.items():
        assert response.status_code == 422, (field, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert field in {e["field"] for e in response.json()["errors"]}, response.json()
    assert listed.json() == {"servers": []}
    assert agent.status_code == 403
    assert by_hand.status_code == 422 and "/v1/mcp-servers" in by_hand.text


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}/mcp",  # loopback, not admitted
        "http://169.254.169.254/mcp",  # the cloud's metadata service
        "http://[::ffff:127.0.0.1]:{port}/mcp",  # loopback inside IPv6
        "http://2130706433:{port}/mcp",  # 127.0.0.1 spelled as a number
        "http://localhost:{port}/mcp",
    ],
)
async def test_the_egress_guard_refuses_a_remote_it_does_not_admit(
    api: Api, canary_http, url: str
) -> None:
    acme = await api.tenant("acme")
    target = url.format(port=canary_http.port)
    reached = len(canary_http.seen)
    response = await acme.dev.put("/v1/mcp-servers/crm", json={"url": target, "tools": ["*"]})

    assert response.status_code == 422, response.text
    error = response.json()["errors"][0]
    assert error["field"] == "url" and "egress_denied" in error["message"]
    assert len(canary_http.seen) == reached
    assert (await acme.dev.get("/v1/mcp-servers")).json() == {"servers": []}


async def test_a_remote_that_hangs_or_floods_is_contained(api: Api) -> None:
    acme = await api.tenant("acme")
    async with remote_server() as remote:
        body = declaration(remote, timeout_ms=500)
        assert (await acme.dev.put("/v1/mcp-servers/crm", json=body)).status_code == 201
        sid = await attached(acme)
        hung = await call(acme, sid, "crm__slow", {"seconds": 30})
        flooded = await call(acme, sid, "crm__huge", {"size": 3 * 1024 * 1024})
        after = await call(acme, sid, "crm__lookup", {"order_id": "A1"})

    assert hung["success"] is False and hung["error"]["code"] == "timeout"
    assert flooded["success"] is False and flooded["error"]["code"] == "too_large"
    assert after["success"] is True  # the node and the remote's other tools go on


async def test_a_remote_that_does_not_answer_its_listing_is_refused_in_time(
    api: Api, monkeypatch
) -> None:
    monkeypatch.setattr(federation, "LIST_TIMEOUT_S", 0.5)
    acme = await api.tenant("acme")
    never = asyncio.Event()

    async def silent(scope, receive, send) -> None:  # accepts, then never answers
        await never.wait()

    async with served(silent, host="127.0.0.2") as base:
        response = await asyncio.wait_for(
            acme.dev.put("/v1/mcp-servers/crm", json={"url": f"{base}/mcp", "tools": ["*"]}),
            timeout=30,
        )

    assert response.status_code == 422
    assert "timeout" in response.json()["errors"][0]["message"]


async def test_a_refresh_follows_the_remote_and_a_remote_gone_keeps_the_tools(api: Api) -> None:
    acme = await api.tenant("acme")
    async with remote_server() as remote:
        put = await acme.dev.put("/v1/mcp-servers/crm", json=declaration(remote))
        assert put.status_code == 201, put.text
        before = {t["name"]: t for t in (await acme.dev.get("/v1/tools")).json()["tools"]}

        def lookup(order_id: str, verbose: bool = False) -> dict:
            """Looks an order up, in detail"""
            return {"order": order_id}

        def track(parcel: str) -> str:
            """Tracks a parcel"""
            return parcel

        remote.remove("lookup")
        remote.add(lookup)  # its schema and description changed
        remote.add(track)
        remote.remove("huge")
        refreshed = await acme.dev.post("/v1/mcp-servers/crm/refresh")
        after = {t["name"]: t for t in (await acme.dev.get("/v1/tools")).json()["tools"]}
    gone = await acme.dev.post("/v1/mcp-servers/crm/refresh")
    kept = {t["name"] for t in (await acme.dev.get("/v1/tools")).json()["tools"]}
    deleted = await acme.dev.delete("/v1/mcp-servers/crm")
    left = (await acme.dev.get("/v1/tools")).json()["tools"]

    assert refreshed.status_code == 200, refreshed.text
    assert refreshed.json()["made"] == ["crm__fails", "crm__lookup", "crm__slow", "crm__track"]
    assert "crm__huge" not in after and "crm__track" in after
    assert after["crm__lookup"]["version"] == before["crm__lookup"]["version"] + 1
    assert "verbose" in after["crm__lookup"]["parameters"]["properties"]
    assert after["crm__slow"]["version"] == before["crm__slow"]["version"]  # unchanged: kept
    failing = gone.json()
    assert failing["status"] == "failing" and failing["error"]["code"] == "connect_error"
    assert kept == set(after)
    assert deleted.status_code == 204 and left == []
    assert (await acme.dev.get("/v1/mcp-servers/crm")).status_code == 404


async def test_a_wrong_secret_is_refused_by_the_remote_and_named(api: Api) -> None:
    acme = await api.tenant("acme")
    async with remote_server() as remote:
        wrong = await acme.dev.put(
            "/v1/mcp-servers/crm", json={**declaration(remote), "auth_header": "Bearer nope"}
        )

    assert wrong.status_code == 422
    message = wrong.json()["errors"][0]["message"]
    assert "upstream_4xx" in message and "401" in message and "auth_header" in message


async def tools_of(t: TenantKeys) -> set[str]:
    return {tool["name"] for tool in (await t.dev.get("/v1/tools")).json()["tools"]}


async def within(waited, what: str, seconds: float = 10.0) -> None:
    """Wait for ``waited`` (a condition the code signals), at most ``seconds``."""
    try:
        await asyncio.wait_for(waited, seconds)
    except TimeoutError:
        raise AssertionError(f"{what} did not happen within {seconds:g} s") from None


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_the_remotes_list_changed_refreshes_its_tools(api: Api, era: str) -> None:
    await api.runtime.federation.stop()  # a watcher of the test's own, its rounds the test's
    acme = await api.tenant("acme")
    watch = FederationWatch(api.runtime.services, clock=api.clock.time, node="n")
    async with remote_server(era) as remote:
        assert (await acme.dev.put("/v1/mcp-servers/crm", json=declaration(remote))).is_success
        remote.listening.clear()  # the listing's own client is gone: only the watcher's counts
        await watch.round()
        await within(remote.listening.wait(), "the node listening to the server")

        def track(parcel: str) -> str:
            """Tracks a parcel"""
            return parcel

        remote.add(track)
        done = watch.refreshes
        await remote.announce()
        await within(watch.refreshed(done), "the announced listing")
        audit = (await acme.dev.get("/v1/audit")).json()
        await watch.stop()

    assert "crm__track" in await tools_of(acme)
    assert any(e["target"] == "crm__track" for e in audit["entries"]), audit


async def test_one_node_listens_to_a_server_and_another_takes_it_when_its_lease_runs_out(
    api: Api,
) -> None:
    await api.runtime.federation.stop()  # two nodes of this test's own instead
    services, clock = api.runtime.services, api.clock
    acme = await api.tenant("acme")
    async with remote_server() as remote:
        assert (await acme.dev.put("/v1/mcp-servers/crm", json=declaration(remote))).is_success
        a = FederationWatch(services, lease_s=60, clock=clock.time, node="node-a")
        b = FederationWatch(services, lease_s=60, clock=clock.time, node="node-b")
        await a.round()
        await b.round()
        first = (set(a.watching), set(b.watching))
        clock.advance(61)  # node a has died: its lease runs out
        await b.round()
        await a.round()  # a comes back: b holds the server now
        second = (set(a.watching), set(b.watching))
        await b.stop()  # b stops: the server is free at once
        await a.round()
        third = (set(a.watching), set(b.watching))
        await a.stop()

    crm = {("acme", "crm")}
    assert first == (crm, set())
    assert second == (set(), crm)
    assert third == (crm, set())


async def test_a_server_is_listed_again_every_refresh_s_without_an_announcement(
    api: Api,
) -> None:
    await api.runtime.federation.stop()
    services, clock = api.runtime.services, api.clock
    acme = await api.tenant("acme")
    watch = FederationWatch(services, lease_s=60, refresh_s=300, clock=clock.time, node="n")
    async with remote_server() as remote:
        assert (await acme.dev.put("/v1/mcp-servers/crm", json=declaration(remote))).is_success

        def track(parcel: str) -> str:
            """Tracks a parcel"""
            return parcel

        remote.add(track)  # and says nothing
        await watch.round()
        fresh = dict(watch._refreshing)  # listed by the PUT just now: not again
        clock.advance(301)
        await watch.round()
        await within(watch.refreshed(0), "the periodic listing")
        listed = await tools_of(acme)
        await watch.stop()

    assert fresh == {}
    assert "crm__track" in listed


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_calls_share_one_open_client_which_is_opened_again_when_the_remote_restarts(
    api: Api, era: str
) -> None:
    await api.runtime.federation.stop()  # its listener would open a session of its own
    acme = await api.tenant("acme")
    engine = api.runtime.engines.mcp
    async with remote_server(era) as remote:
        assert (await acme.dev.put("/v1/mcp-servers/crm", json=declaration(remote))).is_success
        sid = await attached(acme)
        handshakes = len(remote.sessions)  # the listing's own
        calls = [await call(acme, sid, "crm__lookup", {"order_id": f"A{i}"}) for i in range(5)]
        opened = len(remote.sessions) - handshakes
        port = int(remote.base.rsplit(":", 1)[1])
    async with remote_server(era, port=port):  # the same server, restarted: it knows no session
        again = await call(acme, sid, "crm__lookup", {"order_id": "B1"})

    assert all(c["success"] for c in calls), calls
    assert opened == (1 if era == "legacy" else 0)  # one handshake for five calls
    assert len(engine.clients) >= 1
    assert again["success"] is True, again


async def test_a_federated_tool_is_logged_broken_and_cached_like_any_other(api: Api) -> None:
    await api.runtime.federation.stop()  # only the calls reach the remote here
    acme = await api.tenant("acme")
    async with remote_server() as remote:
        body = declaration(remote, ["lookup", "fails"], cacheable=["look*"], cache_ttl=60)
        put = await acme.dev.put("/v1/mcp-servers/crm", json=body)
        sid = await attached(acme)
        first = await call(acme, sid, "crm__lookup", {"order_id": "A1"})
        cached = await call(acme, sid, "crm__lookup", {"order_id": "A1"})
        failures = [await call(acme, sid, "crm__fails", {"order_id": "A2"}) for _ in range(3)]
        switched_off = await call(acme, sid, "crm__fails", {"order_id": "A2"})
        logged = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]
        calls_seen = len(remote.seen_auth)
        again = await call(acme, sid, "crm__lookup", {"order_id": "A1"})

    assert put.json()["cacheable"] == ["look*"] and put.json()["cache_ttl"] == 60
    assert first["success"] and cached.get("cached") is True and cached["result"] == first["result"]
    assert [f["error"]["code"] for f in failures] == ["tool_failed"] * 3
    assert switched_off["error"]["code"] == "circuit_open"
    assert [c["tool"] for c in logged].count("crm__lookup") == 2
    assert [c["tool"] for c in logged].count("crm__fails") == 4
    assert again.get("cached") is True and len(remote.seen_auth) == calls_seen  # not asked


async def test_a_remote_that_changes_a_schema_without_saying_fails_that_call_only(
    api: Api,
) -> None:
    acme = await api.tenant("acme")
    async with remote_server() as remote:
        assert (await acme.dev.put("/v1/mcp-servers/crm", json=declaration(remote))).is_success
        sid = await attached(acme)

        def lookup(order: int) -> dict:
            """Looks an order up by number"""
            return {"order": order}

        remote.remove("lookup")
        remote.add(lookup)  # and says nothing
        stale = await call(acme, sid, "crm__lookup", {"order_id": "A1"})
        other = await call(acme, sid, "crm__slow", {"seconds": 0})
        await acme.dev.post("/v1/mcp-servers/crm/refresh")
        fresh = await call(acme, sid, "crm__lookup", {"order": 7})

    # the remote refuses the arguments with an error result: its own words reach the model
    assert stale["success"] is False and stale["error"]["code"] == "tool_failed", stale
    assert other["success"] is True
    assert fresh["success"] is True, fresh


async def test_a_url_that_is_no_mcp_server_is_refused_by_name(api: Api, upstream_http) -> None:
    acme = await api.tenant("acme")
    url = f"{upstream_http.base}/echo/not-mcp"  # answers JSON, but not JSON-RPC
    response = await acme.dev.put("/v1/mcp-servers/crm", json={"url": url, "tools": ["*"]})

    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "url"
    assert (await acme.dev.get("/v1/mcp-servers")).json() == {"servers": []}


async def test_both_clients_manage_a_federated_server(api: Api) -> None:
    acme = await api.tenant("acme")
    async with (
        remote_server() as remote,
        served(api.app) as base,
        AsyncQuiver(base, acme.dev_key) as client,
    ):
        made = await client.put_mcp_server(
            "crm", remote.url, ["lookup"], auth_header=TOKEN, cacheable=["lookup"]
        )
        listed = await client.list_mcp_servers()
        refreshed = await client.refresh_mcp_server("crm")

        def sync_side() -> dict:
            with Quiver(base, acme.dev_key) as sync:
                shown = sync.get_mcp_server("crm")
                sync.delete_mcp_server("crm")
                return shown

        shown = await asyncio.to_thread(sync_side)
        with pytest.raises(ApiError) as gone:
            await client.get_mcp_server("crm")

    assert made["made"] == ["crm__lookup"] and made["cacheable"] == ["lookup"]
    assert [s["name"] for s in listed] == ["crm"] and refreshed["status"] == "ok"
    assert shown["made"] == ["crm__lookup"] and "s3cr3t" not in str(shown)
    assert gone.value.status == 404


async def test_a_node_listens_to_at_most_its_share_and_leaves_the_rest_to_others(
    api: Api,
) -> None:
    await api.runtime.federation.stop()
    services, clock = api.runtime.services, api.clock
    acme = await api.tenant("acme")
    async with remote_server() as remote:
        for name in ("crm", "desk", "shop"):
            body = declaration(remote, ["lookup"], prefix=name)
            assert (await acme.dev.put(f"/v1/mcp-servers/{name}", json=body)).is_success
        a = FederationWatch(services, clock=clock.time, node="node-a", most=2)
        b = FederationWatch(services, clock=clock.time, node="node-b", most=2)
        await a.round()
        await b.round()
        await a.round()  # renews its two; takes no more
        shares = (set(a.watching), set(b.watching))
        await a.stop()
        await b.stop()

    assert shares == ({("acme", "crm"), ("acme", "desk")}, {("acme", "shop")})
