"""Credentials added at egress (``metadata.credentials``), through HTTP on SQLite and PostgreSQL
with real workers and real loopback servers: the guard puts the secret on the requests to the
declared origin only, the tool never holds it, and an upstream that echoes it leaks nothing."""

from __future__ import annotations

import pytest

from tests.api.test_calls import call, python, session_for
from tests.api.test_javascript_tools import js
from tests.conftest import Api, api_for
from tests.loopback import LoopbackServer

TOKEN = "crm-91b2-never-in-the-sandbox"
MAPS = "maps-key-5521-also-not"

PROBE = """
def execute(params, context):
    seen = context.modules.http.get(params["url"], headers={"Authorization": "mine"})
    return {"status": seen["status"], "echo": seen["json"], "secrets": sorted(context.secrets),
            "raw": seen["text"]}


tool = {"name": "probe", "description": "calls a URL", "execute": execute,
        "parameters": {"url": {"type": "string", "required": True}},
        "metadata": {"timeout": 3000, "credentials": CREDENTIALS}}
"""


@pytest.fixture
def other_origin():
    """A second loopback server on the upstream's address: another origin (another port)."""
    server = LoopbackServer("127.0.0.2")
    yield server
    server.close()


@pytest.fixture
async def crm(settings, upstream_http: LoopbackServer):
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.2"})) as api:
        yield api


def probe(upstream: LoopbackServer, sandbox: str = "restricted") -> dict:
    declared = [
        {
            "secret": "CRM_TOKEN",
            "url": upstream.base,
            "header": "Authorization",
            "format": "Bearer {secret}",
        },  # fmt: skip
        {"secret": "MAPS_KEY", "url": upstream.base, "query": "key"},
    ]
    return python(PROBE.replace("CREDENTIALS", repr(declared)), sandbox)


async def secrets(api: Api):
    acme = await api.tenant("acme")
    assert (await acme.dev.put("/v1/secrets/CRM_TOKEN", json={"value": TOKEN})).status_code < 300
    assert (await acme.dev.put("/v1/secrets/MAPS_KEY", json={"value": MAPS})).status_code < 300
    return acme


async def test_the_guard_adds_the_credential_and_the_tool_never_holds_it(
    crm: Api, upstream_http: LoopbackServer
) -> None:
    acme = await secrets(crm)
    sid = await session_for(acme, [probe(upstream_http)])

    answered = await call(acme, sid, "probe", {"url": f"{upstream_http.base}/echo?q=1"})

    assert answered["success"], answered
    sent = [s for s in upstream_http.seen if s["path"] == "/echo"][-1]
    assert sent["headers"]["authorization"] == f"Bearer {TOKEN}"  # the tool's own was replaced
    assert sent["query"] == {"q": "1", "key": MAPS}
    result = answered["result"]
    assert result["secrets"] == []  # not in context.secrets
    # the upstream echoed both back: the tool read them masked
    assert TOKEN not in str(result) and MAPS not in str(result)
    assert result["echo"]["seen"]["headers"]["authorization"] == "Bearer [secret CRM_TOKEN]"
    assert result["echo"]["seen"]["query"]["key"] == "[secret MAPS_KEY]"
    log = (await acme.dev.get("/v1/calls?tool=probe")).text
    assert TOKEN not in log and MAPS not in log


async def test_another_origin_never_gets_it_nor_does_a_redirect_there(
    crm: Api, upstream_http: LoopbackServer, other_origin: LoopbackServer
) -> None:
    acme = await secrets(crm)
    sid = await session_for(acme, [probe(upstream_http)])
    away = f"127.0.0.2:{other_origin.port}/echo/away"

    direct = await call(acme, sid, "probe", {"url": f"{other_origin.base}/echo/direct"})
    redirected = await call(acme, sid, "probe", {"url": f"{upstream_http.base}/to/{away}"})

    assert direct["success"] and redirected["success"], (direct, redirected)
    hops = {s["path"]: s for s in other_origin.seen}
    assert hops["/echo/direct"]["headers"]["authorization"] == "mine"
    assert hops["/echo/away"]["headers"]["authorization"] == "mine"
    assert "key" not in hops["/echo/direct"]["query"] and "key" not in hops["/echo/away"]["query"]
    first_hop = [s for s in upstream_http.seen if s["path"].startswith("/to/")][-1]
    assert first_hop["headers"]["authorization"] == f"Bearer {TOKEN}"


async def test_javascript_and_python_in_wasm_tools_get_the_same(
    crm: Api, upstream_http: LoopbackServer, python_runner
) -> None:
    acme = await secrets(crm)
    declared = [{"secret": "CRM_TOKEN", "url": upstream_http.base, "header": "X-Api-Key"}]
    source = (
        "module.exports = {name: 'jsprobe', description: 'd', parameters: {url: {type: 'string', required: true}}, metadata: {credentials: "
        + repr(declared).replace("'", '"')
        + "}, execute: async (p, c) => { const r = await c.modules.http.get(p.url);"
        " return {key: r.data.seen.headers['x-api-key'], secrets: Object.keys(c.secrets)}; }};"
    )
    sid = await session_for(acme, [js(source), probe(upstream_http, "wasm")])

    from_js = await call(acme, sid, "jsprobe", {"url": f"{upstream_http.base}/echo/js"})
    from_wasm = await call(acme, sid, "probe", {"url": f"{upstream_http.base}/echo/wasm"})

    assert from_js["result"] == {"key": "[secret CRM_TOKEN]", "secrets": []}
    assert from_wasm["result"]["echo"]["seen"]["headers"]["authorization"] == "Bearer [secret CRM_TOKEN]"  # fmt: skip
    sent = {s["path"]: s["headers"] for s in upstream_http.seen}
    assert sent["/echo/js"]["x-api-key"] == TOKEN
    assert sent["/echo/wasm"]["authorization"] == f"Bearer {TOKEN}"


async def test_a_webhook_tool_gets_it_too(crm: Api, upstream_http: LoopbackServer) -> None:
    acme = await secrets(crm)
    webhook = {
        "kind": "webhook", "name": "hook", "description": "d", "method": "GET",
        "webhook_url": f"{upstream_http.base}/echo/hook",
        "metadata": {"credentials": [{"secret": "MAPS_KEY", "url": upstream_http.base, "query": "key"}]},
    }  # fmt: skip
    sid = await session_for(acme, [webhook])

    answered = await call(acme, sid, "hook", {})

    assert answered["success"], answered
    assert [s for s in upstream_http.seen if s["path"] == "/echo/hook"][-1]["query"]["key"] == MAPS
    assert MAPS not in str(answered)


async def test_a_missing_secret_fails_the_call_before_anything_is_sent(
    crm: Api, upstream_http: LoopbackServer
) -> None:
    acme = await crm.tenant("acme")
    sid = await session_for(acme, [probe(upstream_http)])
    before = len(upstream_http.seen)

    answered = await call(acme, sid, "probe", {"url": f"{upstream_http.base}/echo"})

    assert answered["error"]["code"] == "missing_secret"
    assert len(upstream_http.seen) == before


@pytest.mark.parametrize(
    ("credential", "field", "says"),
    [
        (
            {"secret": "X", "url": "https://a.example", "header": "Authorization", "query": "k"},
            "metadata.credentials[0]",
            "one of them",
        ),  # fmt: skip
        ({"secret": "X", "url": "https://a.example"}, "metadata.credentials[0]", "one of them"),
        (
            {"secret": "X", "url": "https://a.example/path", "header": "X-Key"},
            "metadata.credentials[0].url",
            "origin only",
        ),  # fmt: skip
        (
            {"secret": "X", "url": "ftp://a.example", "header": "X-Key"},
            "metadata.credentials[0].url",
            "scheme",
        ),  # fmt: skip
        (
            {"secret": "X", "url": "https://user:pw@a.example", "header": "X-Key"},
            "metadata.credentials[0].url",
            "credentials in URLs",
        ),  # fmt: skip
        (
            {"secret": "X", "url": "https://a.example", "header": "Host"},
            "metadata.credentials[0].header",
            "may set",
        ),  # fmt: skip
        (
            {"secret": "X", "url": "https://a.example", "header": "X Key"},
            "metadata.credentials[0].header",
            "may set",
        ),  # fmt: skip
        (
            {"secret": "X", "url": "https://a.example", "header": "X-Key", "format": "Bearer"},
            "metadata.credentials[0].format",
            "{secret}",
        ),  # fmt: skip
        (
            {
                "secret": "X",
                "url": "https://a.example",
                "header": "X-Key",
                "format": "a\r\nb {secret}",
            },
            "metadata.credentials[0].format",
            "{secret}",
        ),  # fmt: skip
        (
            {"secret": "no-dash", "url": "https://a.example", "header": "X-Key"},
            "metadata.credentials[0].secret",
            "secret's name",
        ),  # fmt: skip
        (
            {"secret": "X", "url": "https://a.example", "query": "a&b"},
            "metadata.credentials[0].query",
            "parameter name",
        ),  # fmt: skip
        (
            {"secret": "X", "url": "https://a.example", "header": "X-Key", "to": "x"},
            "metadata.credentials[0].to",
            "unknown key",
        ),  # fmt: skip
    ],
)
async def test_a_bad_declaration_is_refused_at_save_naming_its_field(
    api: Api, credential: dict, field: str, says: str
) -> None:
    acme = await api.tenant("acme")
    source = PROBE.replace("CREDENTIALS", repr([credential]))

    saved = await acme.dev.post("/v1/tools", json=python(source))

    assert saved.status_code == 422, saved.text
    problems = saved.json()["errors"]
    assert any(p["field"] == f"tool.{field}" and says in p["message"] for p in problems), problems
