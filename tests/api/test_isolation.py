"""Tenant isolation: every endpoint × every tenant role × another tenant's resource.

A caller of tenant ``acme`` never reads, changes or learns about ``globex``'s tools, bots, keys
or settings: the answer is 403 or 404 and the body holds none of globex's data.
"""

from __future__ import annotations

import pytest

from tests.conftest import Api
from tests.factories import python_tool, webhook_tool

MARKER = "GLOBEX_PRIVATE_MARKER"

# (method, path, body); {key} is one of globex's key ids
ENDPOINTS: list[tuple[str, str, dict | None]] = [
    ("GET", "/v1/tenants", None),
    ("GET", "/v1/tenants/globex", None),
    ("POST", "/v1/tenants", {"id": "evil"}),
    ("PUT", "/v1/tenants/globex/shared-tools", {"tools": ["*"]}),
    ("POST", "/v1/tenants/globex/keys", {"role": "developer"}),
    ("GET", "/v1/tenants/globex/keys", None),
    ("DELETE", "/v1/keys/{key}", None),
    ("GET", "/v1/tools?tenant=globex", None),
    ("GET", "/v1/tools/globex_tool", None),
    ("GET", "/v1/tools/globex_tool?tenant=globex", None),
    ("PATCH", "/v1/tools/globex_tool", {"enabled": False}),
    ("DELETE", "/v1/tools/globex_tool", None),
    ("GET", "/v1/tools/globex_tool/versions", None),
    ("POST", "/v1/tools/globex_tool/rollback", {"version": 1}),
    ("POST", "/v1/tools?tenant=globex", python_tool("planted")),
    ("GET", "/v1/tools/globex_hook", None),
    ("GET", "/v1/bots/globex_bot", None),
    ("DELETE", "/v1/bots/globex_bot", None),
    ("GET", "/v1/bots?tenant=globex", None),
    ("GET", "/v1/bots/globex_bot/snapshot", None),
    ("GET", "/v1/bots/globex_bot/snapshot?tenant=globex", None),
    ("GET", "/v1/disk-tools", None),
    ("PUT", "/v1/tenants/globex/modules", {"modules": ["textwrap"]}),
    ("POST", "/v1/tools/globex_tool/test", {"arguments": {}}),
    ("POST", "/v1/tools/globex_tool/test?tenant=globex", {"arguments": {}}),
    ("POST", "/v1/sessions?tenant=globex", {"bot": "globex_bot"}),
    ("POST", "/v1/sessions", {"bot": "globex_bot"}),
]


@pytest.fixture
async def two_tenants(api: Api):
    acme = await api.tenant("acme")
    globex = await api.tenant("globex")
    source = python_tool("globex_tool", description=MARKER)
    assert (await globex.dev.post("/v1/tools", json=source)).status_code == 201
    assert (
        await globex.dev.post(
            "/v1/tools", json=webhook_tool("globex_hook", auth_header=f"Bearer {MARKER}")
        )
    ).status_code == 201
    assert (
        await globex.dev.post("/v1/bots", json={"name": "globex_bot", "tools": None})
    ).status_code == 201
    return acme, globex


async def test_put_creates_a_bot_in_the_callers_own_tenant_and_then_replaces_it(
    api: Api, two_tenants
) -> None:
    """``PUT /v1/bots/{name}`` creates as ``PUT /v1/tools/{name}`` does: a name another tenant
    uses is only a name; theirs is untouched."""
    acme, globex = two_tenants
    body = {"name": "globex_bot", "tools": []}

    created = await acme.dev.put("/v1/bots/globex_bot", json=body)
    replaced = await acme.dev.put("/v1/bots/globex_bot", json={**body, "tools": ["escalate_to_human"]})  # fmt: skip
    by_agent = await acme.agent.put("/v1/bots/other", json={"name": "other", "tools": []})
    theirs = (await globex.dev.get("/v1/bots/globex_bot")).json()

    assert created.status_code == 201 and created.json()["tools"] == []
    assert replaced.status_code == 200 and replaced.json()["tools"] == ["escalate_to_human"]
    assert by_agent.status_code == 403
    assert theirs["tools"] is None


@pytest.mark.parametrize("role", ["dev", "agent"])
@pytest.mark.parametrize(
    ("method", "path", "body"), ENDPOINTS, ids=[f"{m} {p}" for m, p, _ in ENDPOINTS]
)
async def test_other_tenants_resources_are_out_of_reach(
    api: Api, two_tenants, role: str, method: str, path: str, body: dict | None
) -> None:
    acme, globex = two_tenants
    caller = getattr(acme, role)
    path = path.replace("{key}", globex.dev_key.split("_")[1])

    response = await caller.request(method, path, json=body)

    assert response.status_code in (403, 404), (response.status_code, response.text)
    assert response.headers["content-type"] == "application/problem+json"
    assert MARKER not in response.text and "def execute" not in response.text
    # and nothing of globex changed
    tool = await globex.dev.get("/v1/tools/globex_tool")
    assert (
        tool.status_code == 200 and tool.json()["enabled"] is True and tool.json()["version"] == 1
    )
    assert (await globex.dev.get("/v1/bots/globex_bot")).json()["tools"] is None
    assert (await globex.dev.get("/v1/tools")).status_code == 200  # globex's keys still work
    assert (await api.admin.get("/v1/tenants/globex")).json()["shared_tools"] == []


async def test_put_of_a_name_another_tenant_uses_creates_the_callers_own_tool(
    api: Api, two_tenants
) -> None:
    acme, globex = two_tenants

    response = await acme.dev.put(
        "/v1/tools/globex_tool", json=python_tool("globex_tool", description="acme's")
    )

    assert response.status_code == 201 and response.json()["version"] == 1
    assert (await globex.dev.get("/v1/tools/globex_tool")).json()["description"] == MARKER


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/v1/tools", None),
        ("GET", "/v1/tools/check_order", None),
        ("GET", "/v1/tools/check_order/versions", None),
        ("POST", "/v1/tools", python_tool("x")),
        ("POST", "/v1/tools/validate", python_tool("x")),
        ("PUT", "/v1/tools/check_order", python_tool("check_order")),
        ("PATCH", "/v1/tools/check_order", {"enabled": False}),
        ("DELETE", "/v1/tools/check_order", None),
        ("POST", "/v1/bots", {"name": "b2", "tools": None}),
        ("GET", "/v1/bots/b", None),
    ],
)
async def test_agent_keys_cannot_manage_or_read_tool_source(
    api: Api, method: str, path: str, body: dict | None
) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python_tool("check_order"))
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})

    response = await acme.agent.request(method, path, json=body)

    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert "def execute" not in response.text


async def test_agent_snapshot_holds_no_source_or_config(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python_tool("check_order"))
    await acme.dev.post("/v1/tools", json=webhook_tool("hook"))
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})

    for fmt in ("native", "openai", "anthropic", "gemini"):
        text = (await acme.agent.get(f"/v1/bots/b/snapshot?format={fmt}")).text
        assert "def execute" not in text and "api.example.com" not in text and "SECRET" not in text


async def test_developer_cannot_touch_global_tools(api: Api) -> None:
    acme = await api.tenant("acme", shared=["*"])
    await api.admin.post("/v1/tools?tenant=*", json=python_tool("shared_lookup"))

    for method, path, body in [
        ("GET", "/v1/tools/shared_lookup?tenant=*", None),
        ("DELETE", "/v1/tools/shared_lookup?tenant=*", None),
        ("PUT", "/v1/tools/shared_lookup?tenant=*", python_tool("shared_lookup")),
    ]:
        response = await acme.dev.request(method, path, json=body)
        assert response.status_code == 403, (method, path)
    assert (await acme.dev.get("/v1/tools/shared_lookup")).status_code == 404
    assert (await api.admin.get("/v1/tools/shared_lookup?tenant=*")).json()["version"] == 1
