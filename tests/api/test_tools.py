"""Developers: tool definitions of every kind, versions, rollback, enable/disable, delete."""

from __future__ import annotations

import base64
import hashlib

import pytest

from tests.conftest import Api
from tests.factories import WASM_MODULE, python_source, python_tool, wasm_tool, webhook_tool


async def test_python_tool_is_saved_with_definition_read_from_the_file(api: Api) -> None:
    acme = await api.tenant("acme")

    created = await acme.dev.post("/v1/tools", json=python_tool())
    fetched = await acme.dev.get("/v1/tools/check_order")

    assert created.status_code == 201
    body = fetched.json()
    assert (
        body["name"] == "check_order"
        and body["kind"] == "python"
        and body["sandbox"] == "restricted"
    )
    assert body["parameters"] == {
        "type": "object",
        "properties": {"order_id": {"type": "string"}},
        "required": ["order_id"],
    }
    assert body["metadata"] == {"timeout": 2000}
    assert body["source"] == python_source() and body["version"] == 1


async def test_wasm_module_is_stored_with_its_sha256(api: Api) -> None:
    acme = await api.tenant("acme")

    created = await acme.dev.post("/v1/tools", json=wasm_tool())

    assert created.status_code == 201
    assert created.json()["module_sha256"] == hashlib.sha256(WASM_MODULE).hexdigest()
    assert created.json()["module_size"] == len(WASM_MODULE)


@pytest.mark.parametrize(
    ("module", "message"),
    [("not base64!!", "base64"), (base64.b64encode(b"ELF\x00junk").decode(), "WebAssembly")],
)
async def test_invalid_wasm_module_is_refused(api: Api, module: str, message: str) -> None:
    acme = await api.tenant("acme")

    response = await acme.dev.post("/v1/tools", json={**wasm_tool(), "module": module})

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "module"
    assert message in response.json()["errors"][0]["message"]


async def test_webhook_tool_round_trips_with_secret_masked(api: Api) -> None:
    acme = await api.tenant("acme")

    created = await acme.dev.post("/v1/tools", json=webhook_tool())

    body = created.json()
    assert created.status_code == 201
    assert body["webhook_url"] == "https://api.example.com/weather/{city}"
    assert body["method"] == "GET" and body["timeout_ms"] == 5000
    assert body["auth_header"] == "********"


async def test_every_save_is_a_version_and_rollback_restores(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python_tool(description="first"))
    await acme.dev.put("/v1/tools/check_order", json=python_tool(description="second"))

    rolled = await acme.dev.post("/v1/tools/check_order/rollback", json={"version": 1})
    versions = await acme.dev.get("/v1/tools/check_order/versions")

    assert rolled.status_code == 200
    assert rolled.json()["version"] == 3 and rolled.json()["description"] == "first"
    assert [v["version"] for v in versions.json()["versions"]] == [3, 2, 1]
    assert [v["description"] for v in versions.json()["versions"]] == ["first", "second", "first"]


async def test_rollback_to_a_missing_version_is_not_found(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python_tool())

    response = await acme.dev.post("/v1/tools/check_order/rollback", json={"version": 9})

    assert response.status_code == 404 and response.json()["code"] == "not_found"


async def test_create_twice_conflicts_and_put_creates_or_versions(api: Api) -> None:
    acme = await api.tenant("acme")

    first = await acme.dev.put("/v1/tools/check_order", json=python_tool())
    duplicate = await acme.dev.post("/v1/tools", json=python_tool())
    second = await acme.dev.put("/v1/tools/check_order", json=python_tool(description="v2"))

    assert first.status_code == 201 and first.json()["version"] == 1
    assert duplicate.status_code == 409
    assert second.status_code == 200 and second.json()["version"] == 2


async def test_put_with_a_different_name_is_refused(api: Api) -> None:
    acme = await api.tenant("acme")

    response = await acme.dev.put("/v1/tools/other_name", json=python_tool())

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "name"


async def test_disable_enable_and_delete(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python_tool())

    disabled = await acme.dev.patch("/v1/tools/check_order", json={"enabled": False})
    enabled = await acme.dev.patch("/v1/tools/check_order", json={"enabled": True})
    deleted = await acme.dev.delete("/v1/tools/check_order")
    gone = await acme.dev.get("/v1/tools/check_order")

    assert disabled.json()["enabled"] is False and enabled.json()["enabled"] is True
    assert deleted.status_code == 204
    assert gone.status_code == 404
    assert (await acme.dev.get("/v1/tools")).json()["tools"] == []


async def test_admin_saves_global_tools_with_tenant_star(api: Api) -> None:
    acme = await api.tenant("acme")

    created = await api.admin.post("/v1/tools?tenant=*", json=python_tool("shared_lookup"))
    as_developer = await acme.dev.post("/v1/tools?tenant=*", json=python_tool("sneaky"))
    without_scope = await api.admin.post("/v1/tools", json=python_tool("x"))

    assert created.status_code == 201 and created.json()["origin"] == "global"
    assert as_developer.status_code == 403
    assert (
        without_scope.status_code == 422 and without_scope.json()["errors"][0]["field"] == "tenant"
    )
    assert [t["name"] for t in (await api.admin.get("/v1/tools?tenant=*")).json()["tools"]] == [
        "shared_lookup"
    ]
    assert (await acme.dev.get("/v1/tools")).json()["tools"] == []


async def test_admin_acts_for_a_tenant(api: Api) -> None:
    await api.tenant("acme")

    created = await api.admin.post("/v1/tools?tenant=acme", json=python_tool())
    missing_tenant = await api.admin.post("/v1/tools?tenant=nobody", json=python_tool())

    assert created.status_code == 201 and created.json()["origin"] == "tenant"
    assert missing_tenant.status_code == 404
