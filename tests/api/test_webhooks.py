"""Webhook tools through HTTP, against real loopback servers, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys

import pytest
from pydantic import SecretStr
from sqlalchemy import select

from server.api.app import create_app
from server.secretbox import generate_key
from server.storage.tables import ToolCallRow, ToolVersionRow
from tests.conftest import ADMIN_KEY, Api, TenantKeys
from tests.loopback import LoopbackServer

SECRET = "Bearer whk-SECRET-9f8e7d"


@pytest.fixture
async def hooks(settings, upstream_http):
    app = create_app(
        settings.model_copy(update={"egress_allow": "127.0.0.2", "result_cap_bytes": 4096})
    )
    async with app.router.lifespan_context(app):
        api = Api(app, None)  # type: ignore[arg-type]
        api.admin = api.client(ADMIN_KEY)
        yield api
        await api.close()


def hook(name: str, url: str, method: str = "GET", **extra) -> dict:
    """A webhook tool. Its deadline is generous — on a loaded machine a loopback answer may take
    longer than a second — except where a test gives a short one to see it time out."""
    body = {
        "kind": "webhook", "name": name, "description": "a webhook", "webhook_url": url, "method": method,
        "parameters": {"type": "object", "properties": {"id": {"type": "string"}, "q": {"type": "string"}, "n": {"type": "integer"}}},
        "headers": {"X-Static": "yes"}, "auth_header": SECRET, "timeout_ms": 20_000,
    }  # fmt: skip
    body.update(extra)
    return body


async def setup(api: Api, *tools: dict) -> tuple[TenantKeys, str]:
    acme = await api.tenant("acme")
    for tool in tools:
        response = await acme.dev.post("/v1/tools", json=tool)
        assert response.status_code == 201, response.text
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    return acme, sid


async def call(t: TenantKeys, sid: str, tool: str, arguments: dict | None = None) -> dict:
    response = await t.agent.post(
        f"/v1/sessions/{sid}/calls", json={"tool": tool, "arguments": arguments or {}}
    )
    assert response.status_code == 200
    return response.json()


async def test_get_fills_placeholders_and_sends_the_rest_as_query(
    hooks: Api, upstream_http: LoopbackServer
) -> None:
    acme, sid = await setup(hooks, hook("lookup", upstream_http.base + "/orders/{id}"))

    result = await call(acme, sid, "lookup", {"id": "AB 12/3", "q": "shoes", "n": "2"})

    seen = result["result"]["seen"]
    assert result["success"] is True
    assert seen["raw_path"].startswith("/orders/AB%2012%2F3?")
    assert seen["query"] == {"q": "shoes", "n": "2"}
    assert seen["headers"]["authorization"] == SECRET and seen["headers"]["x-static"] == "yes"


async def test_post_sends_the_remaining_arguments_as_json(
    hooks: Api, upstream_http: LoopbackServer
) -> None:
    acme, sid = await setup(
        hooks, hook("create", upstream_http.base + "/items/{id}", method="POST")
    )

    result = await call(acme, sid, "create", {"id": "7", "q": "blue", "n": 3})

    assert result["result"]["seen"]["method"] == "POST"
    assert result["result"]["seen"]["body"] == {"q": "blue", "n": 3}


@pytest.mark.parametrize(
    ("path", "code"),
    [("/slow", "timeout"), ("/status/404", "upstream_4xx"), ("/status/500", "upstream_5xx"), ("/badjson", "malformed_response"),
     ("/big", "too_large"), ("/loop", "connect_error")],
)  # fmt: skip
async def test_failures_have_codes_and_model_messages(
    hooks: Api, upstream_http: LoopbackServer, path: str, code: str, caplog
) -> None:
    caplog.set_level(logging.DEBUG)
    short = {"timeout_ms": 1000} if code == "timeout" else {}  # /slow answers after 3 s
    acme, sid = await setup(hooks, hook("failing", upstream_http.base + path, **short))

    result = await call(acme, sid, "failing")

    assert result["success"] is False and result["error"]["code"] == code
    assert "failing" in result["modelMessage"]
    assert "whk-SECRET" not in str(result) and "whk-SECRET" not in caplog.text


async def test_status_is_in_the_upstream_error(hooks: Api, upstream_http: LoopbackServer) -> None:
    acme, sid = await setup(hooks, hook("missing", upstream_http.base + "/status/404"))

    result = await call(acme, sid, "missing")

    assert "404" in result["error"]["message"]


async def test_connection_refused_is_connect_error(hooks: Api) -> None:
    acme, sid = await setup(hooks, hook("nobody", "http://127.0.0.2:1/x"))

    result = await call(acme, sid, "nobody")

    assert result["error"]["code"] == "connect_error"


async def test_a_redirect_chain_is_followed(hooks: Api, upstream_http: LoopbackServer) -> None:
    acme, sid = await setup(hooks, hook("chain", upstream_http.base + "/redirect/3"))

    result = await call(acme, sid, "chain")

    assert result["success"] is True and result["result"]["seen"]["path"] == "/echo/done"


async def test_large_results_are_truncated_with_a_marker(
    hooks: Api, upstream_http: LoopbackServer
) -> None:
    acme, sid = await setup(hooks, hook("verbose", upstream_http.base + "/echo/{id}"))

    result = await call(acme, sid, "verbose", {"id": "x" * 6000})

    assert result["success"] is True and result["result"]["truncated"] is True
    assert len(result["result"]["content"]) <= 4096


@pytest.mark.parametrize(
    "value",
    [
        "../../admin",
        "%2e%2e",
        "@127.0.0.1",
        "http://127.0.0.1",
        "a/../../b",
        "?x=1#y",
        "\r\nHost: evil",
    ],
)
async def test_parameter_values_stay_one_path_segment(
    hooks: Api, upstream_http: LoopbackServer, canary_http: LoopbackServer, value: str
) -> None:
    acme, sid = await setup(hooks, hook("seg", upstream_http.base + "/api/{id}/details"))
    before = len(canary_http.seen)

    result = await call(acme, sid, "seg", {"id": value})

    seen = result["result"]["seen"]
    assert seen["path"].startswith("/api/") and seen["path"].endswith("/details")
    assert seen["path"].count("/") == 3
    assert len(canary_http.seen) == before


async def test_ssrf_targets_are_denied_and_the_canary_untouched(
    hooks: Api, upstream_http: LoopbackServer, canary_http: LoopbackServer
) -> None:
    urls = [
        f"http://127.0.0.1:{canary_http.port}/",
        f"http://localhost:{canary_http.port}/",
        f"http://[::ffff:127.0.0.1]:{canary_http.port}/",
        f"http://2130706433:{canary_http.port}/",
        "http://169.254.169.254/latest/",
    ]
    acme, sid = await setup(
        hooks,
        *(hook(f"ssrf{i}", url) for i, url in enumerate(urls)),
        hook("bounce", f"{upstream_http.base}/to/127.0.0.1:{canary_http.port}/"),
    )
    before = len(canary_http.seen)

    results = [await call(acme, sid, f"ssrf{i}") for i in range(len(urls))] + [
        await call(acme, sid, "bounce")
    ]

    assert [r["error"]["code"] for r in results] == ["egress_denied"] * (len(urls) + 1)
    assert len(canary_http.seen) == before


async def test_tenant_allowlist_admits_only_that_tenants_tools(
    settings, canary_http: LoopbackServer
) -> None:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        api = Api(app, None)  # type: ignore[arg-type]
        api.admin = api.client(ADMIN_KEY)
        acme, sid = await setup(api, hook("internal", f"http://127.0.0.1:{canary_http.port}/crm"))
        denied = await call(acme, sid, "internal")
        granted = await api.admin.put("/v1/tenants/acme/egress", json={"allow": ["127.0.0.1/32"]})
        allowed = await call(acme, sid, "internal")
        await api.close()

    assert denied["error"]["code"] == "egress_denied"
    assert granted.json()["egress_allow"] == ["127.0.0.1/32"]
    assert allowed["success"] is True


async def test_the_auth_header_never_reaches_logs_rows_or_responses(
    hooks: Api, upstream_http: LoopbackServer, caplog
) -> None:
    caplog.set_level(logging.DEBUG)
    acme, sid = await setup(
        hooks,
        hook("ok", upstream_http.base + "/echo"),
        hook("bad", upstream_http.base + "/status/500"),
    )

    responses = [
        await call(acme, sid, "bad"),
        (await acme.dev.get("/v1/tools/ok")).json(),
        (await acme.dev.post("/v1/tools/bad/test", json={})).json(),
    ]
    await hooks.runtime.call_log.flush()
    async with hooks.runtime.sessions() as session:
        rows = [
            (r.arguments, r.result, r.error_message)
            for r in await session.scalars(select(ToolCallRow))
        ]

    assert rows
    assert "whk-SECRET" not in str(responses) + str(rows) + caplog.text


async def test_rotation_keeps_webhooks_working_and_changes_the_ciphertext(
    settings, upstream_http: LoopbackServer
) -> None:
    app = create_app(settings.model_copy(update={"egress_allow": "127.0.0.2"}))
    async with app.router.lifespan_context(app):
        api = Api(app, None)  # type: ignore[arg-type]
        api.admin = api.client(ADMIN_KEY)
        await setup(api, hook("rot", upstream_http.base + "/echo"))
        await api.close()
        async with app.state.runtime.sessions() as session:
            before = (await session.scalar(select(ToolVersionRow))).auth_header_ct
    new_key = generate_key()
    rotated_keys = f"{new_key},{settings.secret_key.get_secret_value()}"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")},
        "QUIVER_DATABASE_URL": settings.effective_database_url,
        "QUIVER_SECRET_KEY": rotated_keys,
        "QUIVER_ADMIN_KEY": ADMIN_KEY,
        "QUIVER_DATA_DIR": str(settings.data_dir),
    }

    rotate = [sys.executable, "-m", "server.cli", "secrets", "rotate"]
    done = await asyncio.to_thread(
        subprocess.run, rotate, env=env, capture_output=True, text=True, check=True
    )
    out = done.stdout

    app2 = create_app(
        settings.model_copy(update={"egress_allow": "127.0.0.2", "secret_key": SecretStr(new_key)})
    )
    async with app2.router.lifespan_context(app2):
        api = Api(app2, None)  # type: ignore[arg-type]
        api.admin = api.client(ADMIN_KEY)
        agent = api.client(await api.key("acme", "agent"))
        sid = (await agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        result = (
            await agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "rot", "arguments": {}})
        ).json()
        async with app2.state.runtime.sessions() as session:
            after = (await session.scalar(select(ToolVersionRow))).auth_header_ct
        await api.close()

    assert "re-encrypted 1 secrets" in out
    assert after != before
    assert (
        result["success"] is True and result["result"]["seen"]["headers"]["authorization"] == SECRET
    )


ODD_URLS = [
    "http://host:99999/x", "http://host:abc/x", "https://host:0/x", "http://[::1/x",
    "http://[::1]x/", "http://[v1.x]/", "http://xn--/x", "http://a..b/x", "http://%ff.com/",
    "http://\u2603.com/x", "http://a\u200b.com/", "http://256.256.256.256/", "http://host%00/",
    "http://[fe80::1%25eth0]/", "http://" + "a" * 64 + ".com/", "http://:80/", "http:///x",
    "http://-a.com/x", "http://host:/x", "http://h_o.test/x", "http://127.0.0.2.:1/x",
    "http://[::1]:80/x", "http://[::ffff:0:7f00:1]:80/", "http://0/x",
]  # fmt: skip


@pytest.mark.parametrize("url", ODD_URLS)
async def test_a_webhook_url_is_refused_at_save_or_callable_without_a_500(
    hooks: Api, url: str
) -> None:
    acme = await hooks.tenant("acme")
    saved = await acme.dev.post("/v1/tools", json=hook("odd", url))
    if saved.status_code == 422:
        assert [e["field"] for e in saved.json()["errors"]] == ["webhook_url"]
        return
    assert saved.status_code == 201, saved.text
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    result = await call(acme, sid, "odd", {"id": "1"})  # asserts 200

    assert result["success"] is False
    assert result["error"]["code"] in ("egress_denied", "dns_error", "connect_error", "timeout")


@pytest.fixture
def elsewhere():
    """A second server on the allowed host, on another port: another origin."""
    server = LoopbackServer("127.0.0.2")
    yield server
    server.close()


async def test_a_stored_secret_never_follows_a_changed_origin(
    hooks: Api, upstream_http: LoopbackServer, elsewhere: LoopbackServer
) -> None:
    acme, sid = await setup(hooks, hook("lookup", upstream_http.base + "/orders/{id}"))
    body = hook("lookup", elsewhere.base + "/orders/{id}")
    del body["auth_header"]  # a PUT without it keeps the stored secret …

    moved = await acme.dev.put("/v1/tools/lookup", json=body)
    same_origin = await acme.dev.put(
        "/v1/tools/lookup", json={**body, "webhook_url": upstream_http.base + "/v2/{id}"}
    )
    kept = await call(acme, sid, "lookup", {"id": "1"})
    re_entered = await acme.dev.put("/v1/tools/lookup", json={**body, "auth_header": "Bearer new"})
    sent = await call(acme, sid, "lookup", {"id": "2"})
    dropped = await acme.dev.put(
        "/v1/tools/lookup",
        json={**body, "webhook_url": upstream_http.base + "/v3/{id}", "auth_header": None},
    )
    bare = await call(acme, sid, "lookup", {"id": "3"})

    assert moved.status_code == 422  # … but only for the origin it was entered for
    assert [e["field"] for e in moved.json()["errors"]] == ["auth_header"]
    assert same_origin.status_code == 200
    assert kept["result"]["seen"]["headers"]["authorization"] == SECRET
    assert re_entered.status_code == 200
    assert sent["result"]["seen"]["headers"]["authorization"] == "Bearer new"
    assert dropped.status_code == 200
    assert "authorization" not in bare["result"]["seen"]["headers"]
    assert all(s["headers"].get("authorization") != SECRET for s in elsewhere.seen)


async def test_a_redirect_to_another_port_of_the_same_host_drops_the_secret(
    hooks: Api, upstream_http: LoopbackServer, elsewhere: LoopbackServer
) -> None:
    target = f"127.0.0.2:{elsewhere.port}/landed"
    acme, sid = await setup(hooks, hook("bounce", upstream_http.base + "/to/" + target))

    result = await call(acme, sid, "bounce")

    landed = result["result"]["seen"]
    assert result["success"] is True and landed["path"] == "/landed"
    assert "authorization" not in landed["headers"]
    assert landed["headers"]["x-static"] == "yes"  # only secrets stay behind


async def test_a_webhooks_own_timeout_ms_is_honoured_past_the_default(
    hooks: Api, upstream_http: LoopbackServer
) -> None:
    """timeout_ms 7000 with no metadata.timeout: an upstream taking 5.5 s (past the 5 s default)
    still answers; the same hook with timeout_ms 1000 times out."""
    acme, sid = await setup(
        hooks,
        hook("patient", upstream_http.base + "/sleep/5500", timeout_ms=7000),
        hook("hasty", upstream_http.base + "/sleep/5500", timeout_ms=1000),
    )

    patient, hasty = await asyncio.gather(call(acme, sid, "patient"), call(acme, sid, "hasty"))

    assert patient["success"] is True, patient
    assert hasty["error"]["code"] == "timeout"
