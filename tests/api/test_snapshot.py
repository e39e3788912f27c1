"""Bot snapshots over HTTP: formats, ETag/304 and a version that moves on every change."""

from __future__ import annotations

from tests.conftest import Api, TenantKeys
from tests.factories import python_tool, webhook_tool


async def _acme_with_tools(api: Api) -> TenantKeys:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python_tool("check_order"))
    await acme.dev.post("/v1/tools", json=webhook_tool("get_weather"))
    return acme


async def test_bot_with_null_tools_offers_every_visible_tool(api: Api) -> None:
    acme = await _acme_with_tools(api)
    await acme.dev.post("/v1/bots", json={"name": "all", "tools": None})

    snapshot = await acme.agent.get("/v1/bots/all/snapshot")

    assert snapshot.status_code == 200
    assert [t["name"] for t in snapshot.json()["tools"]] == ["check_order", "get_weather"]


async def test_bot_with_empty_tools_offers_none(api: Api) -> None:
    acme = await _acme_with_tools(api)
    await acme.dev.post("/v1/bots", json={"name": "none", "tools": []})

    snapshot = await acme.agent.get("/v1/bots/none/snapshot")

    assert snapshot.json()["tools"] == []


async def test_bot_tools_field_is_required_to_be_explicit(api: Api) -> None:
    acme = await api.tenant("acme")

    response = await acme.dev.post("/v1/bots", json={"name": "vague"})

    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "tools"


async def test_explicit_bot_list_keeps_its_order_and_skips_unknown_names(api: Api) -> None:
    acme = await _acme_with_tools(api)
    await acme.dev.post(
        "/v1/bots", json={"name": "b", "tools": ["get_weather", "nope", "check_order"]}
    )

    snapshot = await acme.agent.get("/v1/bots/b/snapshot")

    assert [t["name"] for t in snapshot.json()["tools"]] == ["get_weather", "check_order"]


async def test_native_entries_carry_executor_kind_origin_version_and_no_source(api: Api) -> None:
    acme = await _acme_with_tools(api)
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["check_order"]})

    entry = (await acme.agent.get("/v1/bots/b/snapshot")).json()["tools"][0]

    assert entry == {
        "name": "check_order",
        "description": "Check an order",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
        "executor": "server",
        "kind": "python",
        "origin": "tenant",
        "version": 1,
    }


async def test_provider_formats_have_their_shapes(api: Api) -> None:
    acme = await _acme_with_tools(api)
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["get_weather"]})

    openai = (await acme.agent.get("/v1/bots/b/snapshot?format=openai")).json()["tools"][0]
    strict = (await acme.agent.get("/v1/bots/b/snapshot?format=openai&strict=true")).json()[
        "tools"
    ][0]
    anthropic = (await acme.agent.get("/v1/bots/b/snapshot?format=anthropic")).json()["tools"][0]
    gemini = (await acme.agent.get("/v1/bots/b/snapshot?format=gemini")).json()["tools"][0]
    bad = await acme.agent.get("/v1/bots/b/snapshot?format=cohere")

    assert openai["type"] == "function" and set(openai["function"]) == {
        "name",
        "description",
        "parameters",
    }
    assert strict["function"]["strict"] is True
    assert strict["function"]["parameters"]["additionalProperties"] is False
    assert strict["function"]["parameters"]["required"] == ["city", "units"]
    assert strict["function"]["parameters"]["properties"]["units"] == {
        "type": ["string", "null"],
        "enum": ["c", "f", None],
    }
    assert set(anthropic) == {"name", "description", "input_schema"}
    assert anthropic["input_schema"]["required"] == ["city"]
    assert set(gemini) == {"name", "description", "parameters"}
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "format"


async def test_etag_answers_304_until_something_changes(api: Api) -> None:
    acme = await _acme_with_tools(api)
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    first = await acme.agent.get("/v1/bots/b/snapshot")
    etag = first.headers["etag"]

    unchanged = await acme.agent.get("/v1/bots/b/snapshot", headers={"If-None-Match": etag})
    other_format = await acme.agent.get(
        "/v1/bots/b/snapshot?format=openai", headers={"If-None-Match": etag}
    )
    await acme.dev.patch("/v1/tools/get_weather", json={"enabled": False})
    changed = await acme.agent.get("/v1/bots/b/snapshot", headers={"If-None-Match": etag})

    assert (
        unchanged.status_code == 304
        and unchanged.content == b""
        and unchanged.headers["etag"] == etag
    )
    assert other_format.status_code == 200
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    assert [t["name"] for t in changed.json()["tools"]] == ["check_order"]


async def test_version_increments_on_every_change(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})

    async def version() -> int:
        return (await acme.agent.get("/v1/bots/b/snapshot")).json()["version"]

    changes = [
        lambda: acme.dev.post("/v1/tools", json=python_tool("check_order")),
        lambda: acme.dev.put(
            "/v1/tools/check_order", json=python_tool("check_order", description="v2")
        ),
        lambda: acme.dev.post("/v1/tools/check_order/rollback", json={"version": 1}),
        lambda: acme.dev.patch("/v1/tools/check_order", json={"enabled": False}),
        lambda: acme.dev.patch("/v1/tools/check_order", json={"enabled": True}),
        lambda: acme.dev.delete("/v1/tools/check_order"),
        lambda: api.admin.put("/v1/tenants/acme/shared-tools", json={"tools": ["*"]}),
        lambda: api.admin.post("/v1/tools?tenant=*", json=python_tool("global_one")),
        lambda: acme.dev.put("/v1/bots/b", json={"name": "b", "tools": ["global_one"]}),
    ]
    seen = [await version()]
    for change in changes:
        response = await change()
        assert response.is_success, response.text
        seen.append(await version())

    assert all(b > a for a, b in zip(seen, seen[1:], strict=False)), seen


async def test_unknown_bot_is_not_found(api: Api) -> None:
    acme = await api.tenant("acme")

    response = await acme.agent.get("/v1/bots/ghost/snapshot")

    assert response.status_code == 404 and response.json()["code"] == "not_found"


async def test_bot_crud(api: Api) -> None:
    acme = await api.tenant("acme")

    created = await acme.dev.post(
        "/v1/bots", json={"name": "b", "tools": ["x"], "intents": {"orders": ["x"], "*": ["y"]}}
    )
    duplicate = await acme.dev.post("/v1/bots", json={"name": "b", "tools": []})
    replaced = await acme.dev.put("/v1/bots/b", json={"name": "b", "tools": None})
    listed = await acme.dev.get("/v1/bots")
    bad_intent = await acme.dev.put(
        "/v1/bots/b", json={"name": "b", "tools": [], "intents": {"bad intent!": []}}
    )
    deleted = await acme.dev.delete("/v1/bots/b")

    assert created.status_code == 201 and created.json()["intents"] == {"orders": ["x"], "*": ["y"]}
    assert duplicate.status_code == 409
    assert replaced.json()["tools"] is None and replaced.json()["intents"] is None
    assert [b["name"] for b in listed.json()["bots"]] == ["b"]
    assert bad_intent.status_code == 422
    assert deleted.status_code == 204 and (await acme.dev.get("/v1/bots/b")).status_code == 404
