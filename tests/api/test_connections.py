"""Per-user connections (docs/connections.md) against a real OAuth 2.1 server on loopback, on both
databases: a tool that acts as its end user asks them to connect, the authorization code flow
with PKCE runs through Quiver, the token reaches the provider's API at egress (never the tool),
is refreshed when it runs out, and a link or code that is not genuine connects no one."""

from __future__ import annotations

import asyncio
import urllib.parse

import httpx
import pytest

from quiver.client import ApiError, AsyncQuiver, Quiver
from tests.api.test_agent_loop import KEY
from tests.api.test_calls import call, python
from tests.api.test_mcp import mcp_client
from tests.conftest import Api, TenantKeys, api_for
from tests.oauth_server import CLIENT_ID, CLIENT_SECRET, OAuthServer, oauth_server
from tests.servers import served

PUBLIC = "http://quiver.test"


@pytest.fixture
async def api(settings):  # the provider is on 127.0.0.2; Quiver's public address is the tests'
    changed = {"egress_allow": "127.0.0.2", "public_url": PUBLIC}
    async with api_for(settings.model_copy(update=changed)) as api:
        yield api


def provider_body(oauth: OAuthServer, **extra) -> dict:
    return {
        "authorize_url": f"{oauth.base}/authorize",
        "token_url": f"{oauth.base}/token",
        "client_id": CLIENT_ID,
        "client_secret": CLIENT_SECRET,
        "scopes": ["openid"],
        "api": [oauth.base],
        **extra,
    }


def me_tool(oauth: OAuthServer) -> dict:
    return {
        "kind": "webhook", "name": "whoami", "description": "Who the user is at Acme ID",
        "webhook_url": f"{oauth.base}/api/me", "method": "GET",
        "parameters": {"type": "object", "properties": {}},
        "metadata": {"auth": {"provider": "acme-id", "scopes": ["profile"]}},
    }  # fmt: skip


CODE_TOOL = python("""
def execute(params, context):
    seen = context.modules.http.get(params["url"])
    return {"success": True, "status": seen["status"], "json": seen["json"],
            "holds": sorted(context.secrets)}


tool = {"name": "whoami_code", "description": "Who the user is, from code", "execute": execute,
        "parameters": {"url": {"type": "string", "required": True}},
        "metadata": {"auth": {"provider": "acme-id"}}}
""")


async def ready(api: Api, oauth: OAuthServer) -> TenantKeys:
    acme = await api.tenant("acme")
    put = await acme.dev.put("/v1/oauth-providers/acme-id", json=provider_body(oauth))
    assert put.status_code == 201, put.text
    assert (await acme.dev.post("/v1/tools", json=me_tool(oauth))).status_code == 201
    assert (await acme.dev.post("/v1/tools", json=CODE_TOOL)).status_code == 201
    assert (await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201
    return acme


async def session_of(t: TenantKeys, customer: str) -> str:
    response = await t.agent.post("/v1/sessions", json={"bot": "b", "customer": customer})
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def browse(api: Api, connect_url: str) -> httpx.Response:
    """What the end user's browser does: open the link, sign in at the provider, come back."""
    async with httpx.AsyncClient() as browser:
        signed_in = await browser.get(connect_url)
    assert signed_in.status_code == 302, signed_in.text
    back = signed_in.headers["location"]
    assert back.startswith(f"{PUBLIC}/v1/oauth/callback?")
    return await api.client(None).get(back.removeprefix(PUBLIC))


async def test_a_tool_acts_as_its_user_once_they_have_connected(api: Api) -> None:
    async with oauth_server() as oauth:
        acme = await ready(api, oauth)
        sid = await session_of(acme, "alice")
        first = await call(acme, sid, "whoami")
        link = first["error"]["connect_url"]
        page = await browse(api, link)
        answered = await call(acme, sid, "whoami")
        from_code = await call(acme, sid, "whoami_code", {"url": f"{oauth.base}/api/me"})
        listed = await acme.dev.get("/v1/connections")
        bob = await call(acme, await session_of(acme, "bob"), "whoami")

    assert first["success"] is False and first["error"]["code"] == "requires_connection"
    assert first["error"]["provider"] == "acme-id" and link in first["modelMessage"]
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
    assert query["code_challenge_method"] == ["S256"] and query["client_id"] == [CLIENT_ID]
    assert query["scope"] == ["openid profile"]
    assert query["redirect_uri"] == [f"{PUBLIC}/v1/oauth/callback"]
    assert "code_verifier" not in link and len(query["code_challenge"][0]) == 43
    assert page.status_code == 200 and "Connected" in page.text
    assert answered["success"] is True, answered
    assert answered["result"] == {"user": "alice", "scope": "openid profile"}
    assert from_code["result"]["json"]["user"] == "alice" and from_code["result"]["holds"] == []
    # the token went to the API at egress; the tool, the log and the listing never show it
    token = next(t for t in oauth.access)
    assert oauth.api_auth[-2:] == [f"Bearer {token}"] * 2
    assert token not in str(from_code) and token not in listed.text
    assert [c["customer"] for c in listed.json()["connections"]] == ["alice"]
    # connections are per end user
    assert bob["error"]["code"] == "requires_connection"


async def test_a_token_that_runs_out_is_refreshed_and_a_refused_refresh_asks_again(
    api: Api,
) -> None:
    async with oauth_server() as oauth:
        oauth.expires_in = 60
        acme = await ready(api, oauth)
        sid = await session_of(acme, "alice")
        await browse(api, (await call(acme, sid, "whoami"))["error"]["connect_url"])
        first_token = next(iter(oauth.access))
        api.clock.advance(45)  # within 30 s of its end: refreshed before the call
        refreshed = await call(acme, sid, "whoami")
        second_token = next(iter(oauth.access))
        api.clock.advance(3600)
        oauth.revoke_all()  # the provider forgets the user's grant
        refused = await call(acme, sid, "whoami")

    assert oauth.grants == ["authorization_code", "refresh_token", "refresh_token"]
    assert refreshed["success"] is True and second_token != first_token
    assert oauth.api_auth[-1] == f"Bearer {second_token}"
    assert refused["error"]["code"] == "requires_connection"
    assert "renewed" in refused["error"]["message"] and refused["error"]["connect_url"]


async def test_a_link_or_code_that_is_not_genuine_connects_no_one(api: Api) -> None:
    async with oauth_server() as oauth:
        acme = await ready(api, oauth)
        sid = await session_of(acme, "alice")
        link = (await call(acme, sid, "whoami"))["error"]["connect_url"]
        state = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["state"][0]
        anonymous = api.client(None)
        forged = await anonymous.get(
            "/v1/oauth/callback", params={"code": "c-x", "state": "qs1.x.y"}
        )
        altered = await anonymous.get(
            "/v1/oauth/callback", params={"code": "c-x", "state": state[:-4] + "AAAA"}
        )
        denied = await anonymous.get("/v1/oauth/callback", params={"error": "access_denied"})
        async with httpx.AsyncClient() as browser:
            back = (await browser.get(link)).headers["location"]
        stolen_code = urllib.parse.parse_qs(urllib.parse.urlsplit(back).query)["code"][0]
        # a code with another link's state: its verifier does not match the code's challenge
        other = (await call(acme, await session_of(acme, "mallory"), "whoami"))["error"]
        other_state = urllib.parse.parse_qs(urllib.parse.urlsplit(other["connect_url"]).query)
        swapped = await anonymous.get(
            "/v1/oauth/callback", params={"code": stolen_code, "state": other_state["state"][0]}
        )
        api.clock.advance(601)  # the genuine link has run out
        late = await anonymous.get(back.removeprefix(PUBLIC))
        still = await call(acme, sid, "whoami")
        connections = (await acme.dev.get("/v1/connections")).json()["connections"]

    for page in (forged, altered, denied, swapped, late):
        assert page.status_code == 400, page.text
        assert "Not connected" in page.text and "<script" not in page.text
    assert "not one Quiver made" in forged.text and "not one Quiver made" in altered.text
    assert "run out" in late.text
    assert still["error"]["code"] == "requires_connection" and connections == []


async def test_bad_providers_and_auth_declarations_name_their_field(api: Api) -> None:
    acme = await api.tenant("acme")
    bad = await acme.dev.put(
        "/v1/oauth-providers/acme-id",
        json={"authorize_url": "ftp://x", "token_url": "https://x.example/t", "client_id": "",
              "scopes": ["has space"], "api": []},
    )  # fmt: skip
    tool = await acme.dev.post(
        "/v1/tools",
        json={"kind": "webhook", "name": "t", "description": "d",
              "webhook_url": "https://api.example.com/me", "method": "GET",
              "metadata": {"auth": {"provider": "Bad Name", "scopes": "profile"}}},
    )  # fmt: skip
    agent = await acme.agent.get("/v1/oauth-providers")

    fields = {e["field"] for e in bad.json()["errors"]}
    assert bad.status_code == 422 and {"authorize_url", "client_id", "scopes[0]", "api"} <= fields
    tool_fields = {e["field"] for e in tool.json()["errors"]}
    assert tool.status_code == 422
    assert {"metadata.auth.provider", "metadata.auth.scopes"} <= tool_fields
    assert agent.status_code == 403


async def test_a_tool_of_a_provider_not_set_or_a_session_without_customer_says_so(
    api: Api,
) -> None:
    async with oauth_server() as oauth:
        acme = await ready(api, oauth)
        anonymous = await acme.agent.post("/v1/sessions", json={"bot": "b"})
        no_customer = await call(acme, anonymous.json()["id"], "whoami")
        assert (await acme.dev.delete("/v1/oauth-providers/acme-id")).status_code == 204
        unset = await call(acme, await session_of(acme, "alice"), "whoami")

    assert no_customer["error"]["code"] == "not_configured"
    assert "customer" in no_customer["error"]["message"]
    assert unset["error"]["code"] == "not_configured"
    assert "PUT /v1/oauth-providers/acme-id" in unset["error"]["message"]


async def test_a_page_asks_for_the_connect_link_before_any_tool_does(api: Api) -> None:
    async with oauth_server() as oauth:
        acme = await ready(api, oauth)
        sid = await session_of(acme, "alice")
        before = await acme.agent.post(f"/v1/sessions/{sid}/connections/acme-id")
        await browse(api, before.json()["url"])
        after = await acme.agent.post(f"/v1/sessions/{sid}/connections/acme-id")
        removed = await acme.dev.delete("/v1/connections/acme-id/alice")
        again = await acme.agent.post(f"/v1/sessions/{sid}/connections/acme-id")

    assert before.json()["connected"] is False and before.json()["url"].startswith(oauth.base)
    assert after.json() == {"provider": "acme-id", "connected": True}
    assert removed.status_code == 204 and again.json()["connected"] is False


async def test_both_clients_manage_providers_and_connections(api: Api) -> None:
    async with oauth_server() as oauth:
        acme = await ready(api, oauth)
        sid = await session_of(acme, "alice")
        async with served(api.app) as base:
            async with AsyncQuiver(base, acme.agent_key) as agent:
                link = await agent.connect_link(sid, "acme-id")
            await browse(api, link["url"])
            async with AsyncQuiver(base, acme.dev_key) as dev:
                provider = await dev.put_oauth_provider("acme-id", **provider_body(oauth))
                providers = await dev.list_oauth_providers()

                def sync_side() -> tuple[dict, list]:
                    with Quiver(base, acme.dev_key) as sync:
                        return sync.get_oauth_provider("acme-id"), sync.list_connections("alice")

                shown, connections = await asyncio.to_thread(sync_side)
                await dev.delete_connection("acme-id", "alice")
                after = await dev.list_connections()
                await dev.delete_oauth_provider("acme-id")
                with pytest.raises(ApiError) as gone:
                    await dev.get_oauth_provider("acme-id")

    assert link["connected"] is False
    assert provider["client_secret"] == "********" and CLIENT_SECRET not in str(providers)
    assert shown["api"] == [f"http://127.0.0.2:{oauth.base.rsplit(':', 1)[1]}"]
    assert [c["customer"] for c in connections] == ["alice"] and after == []
    assert gone.value.status == 404


async def test_the_agent_loop_pauses_until_the_user_connects(settings, fake) -> None:
    changed = {"egress_allow": "127.0.0.2", "public_url": PUBLIC, "provider_retries": 0,
               "provider_timeout_s": 60.0}  # fmt: skip
    async with api_for(settings.model_copy(update=changed)) as api, oauth_server() as oauth:
        acme = await ready(api, oauth)
        allow = {"allow": [fake.host, "127.0.0.2"]}
        assert (await api.admin.put("/v1/tenants/acme/egress", json=allow)).status_code == 200
        provider = {"kind": "openai", "base_url": fake.base + "/v1", "api_key": KEY, "models": ["big"]}  # fmt: skip
        assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
        bot = {"name": "b", "tools": None, "model": "main/big"}
        assert (await acme.dev.put("/v1/bots/b", json=bot)).status_code == 200
        sid = await session_of(acme, "alice")
        fake.script[:] = [
            {"tool_calls": [{"name": "whoami", "arguments": {}}]},
            {"text": "You are alice."},
        ]
        paused = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "who?"})
        turn = paused.json()
        action = turn["actions"][0]
        results = f"/v1/sessions/{sid}/messages/{turn['message']['id']}/results"
        wrong = await acme.agent.post(results, json=[{"call_id": action["call_id"], "success": True}])  # fmt: skip
        await browse(api, action["url"])
        resumed = await acme.agent.post(results, json=[{"call_id": action["call_id"], "connected": True}])  # fmt: skip
        await api.runtime.call_log.flush()
        logged = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]

    assert paused.status_code == 200 and turn["status"] == "requires_connection", turn
    assert action["kind"] == "connection" and action["provider"] == "acme-id"
    assert action["name"] == "whoami" and action["url"].startswith(f"{oauth.base}/authorize?")
    assert wrong.status_code == 422 and "connected" in wrong.text
    assert resumed.status_code == 200 and resumed.json()["status"] == "completed", resumed.text
    assert resumed.json()["message"]["content"] == "You are alice."
    assert [(c["tool"], c["success"]) for c in logged] == [("whoami", True)]
    told = [m for m in fake.requests[-1]["body"]["messages"] if m["role"] == "tool"]
    assert len(told) == 1 and '"user":"alice"' in told[0]["content"], told  # the tool's answer


async def test_calls_that_find_the_token_run_out_together_refresh_it_once(api: Api) -> None:
    async with oauth_server() as oauth:
        oauth.expires_in = 60
        acme = await ready(api, oauth)
        sid = await session_of(acme, "alice")
        await browse(api, (await call(acme, sid, "whoami"))["error"]["connect_url"])
        api.clock.advance(45)
        together = await asyncio.gather(*(call(acme, sid, "whoami") for _ in range(4)))

    # the provider rotates refresh tokens: a second refresh with the old one would be refused
    assert oauth.grants == ["authorization_code", "refresh_token"]
    assert all(c["success"] for c in together), together


async def test_an_mcp_client_names_the_customer_it_acts_for(api: Api) -> None:
    async with oauth_server() as oauth:
        acme = await ready(api, oauth)
        sid = await session_of(acme, "alice")
        await browse(api, (await call(acme, sid, "whoami"))["error"]["connect_url"])
        async with served(api.app) as base:
            async with mcp_client(base, acme.agent_key, customer="alice") as alice:
                as_alice = await alice.call_tool("whoami", {})
            async with mcp_client(base, acme.agent_key, customer="bob") as bob:
                as_bob = await bob.call_tool("whoami", {})
            async with httpx.AsyncClient(base_url=base) as http:
                too_long = await http.post(
                    f"/mcp?bot=b&customer={'x' * 129}",
                    json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                    headers={"Authorization": f"Bearer {acme.agent_key}"},
                )

    assert as_alice.is_error is False and as_alice.structured_content["user"] == "alice"
    assert as_bob.is_error is True and "requires_connection" in str(as_bob.structured_content)
    assert too_long.status_code == 422 and "customer" in too_long.text
