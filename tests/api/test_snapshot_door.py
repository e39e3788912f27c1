"""A plain snapshot request takes the direct door (``server.api.direct_door``) past FastAPI's
routing: its answers must be the route's, for every outcome; anything not plain is the
route's."""

from __future__ import annotations

import pytest

from server.api.direct_door import DirectDoor
from tests.conftest import Api
from tests.factories import python_tool, webhook_tool


@pytest.fixture
def direct(monkeypatch) -> list[str]:
    """The snapshot requests the direct door answered."""
    taken: list[str] = []
    original = DirectDoor._snapshot

    async def counted(self, request, kind, name):
        taken.append(f"{kind}/{name}")
        return await original(self, request, kind, name)

    monkeypatch.setattr(DirectDoor, "_snapshot", counted)
    return taken


def same(direct, routed) -> bool:
    keep = ("content-type", "etag", "cache-control", "ratelimit-limit")
    return (
        direct.status_code == routed.status_code
        and direct.content == routed.content
        and all(direct.headers.get(h) == routed.headers.get(h) for h in keep)
    )


async def test_the_direct_snapshot_is_the_routes_in_every_outcome(api: Api, direct) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    await acme.dev.post("/v1/tools", json=python_tool("check_order"))
    await acme.dev.post("/v1/tools", json=webhook_tool("get_weather"))
    await acme.dev.post("/v1/bots", json={"name": "all", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "all"})).json()["id"]
    no_key = api.client(None)
    etag = (await acme.agent.get("/v1/bots/all/snapshot")).headers["etag"]
    session_etag = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).headers["etag"]
    cases = [
        (acme.agent, "/v1/bots/all/snapshot", {}),
        (acme.dev, "/v1/bots/all/snapshot?format=anthropic", {}),
        (acme.agent, "/v1/bots/all/snapshot", {"If-None-Match": etag}),
        (acme.agent, "/v1/bots/nope/snapshot", {}),
        (globex.agent, "/v1/bots/all/snapshot", {}),
        (no_key, "/v1/bots/all/snapshot", {}),
        (api.admin, "/v1/bots/all/snapshot", {}),  # an admin must name the tenant
        (acme.agent, f"/v1/sessions/{sid}/snapshot?format=openai", {}),
        (acme.agent, f"/v1/sessions/{sid}/snapshot", {"If-None-Match": session_etag}),
        (globex.agent, f"/v1/sessions/{sid}/snapshot", {}),
        (acme.agent, "/v1/sessions/missing/snapshot", {}),
    ]
    taken_before = len(direct)
    for client, path, headers in cases:
        plain = await client.get(path, headers=headers)
        # `strict=false` changes nothing in the answer, but it is not plain: the route answers
        joiner = "&" if "?" in path else "?"
        routed = await client.get(f"{path}{joiner}strict=false", headers=headers)
        assert same(plain, routed), (path, plain.status_code, plain.text, routed.text)

    assert len(direct) - taken_before == len(cases)
    statuses = [(await c.get(p, headers=h)).status_code for c, p, h in cases]
    assert statuses == [200, 200, 304, 404, 404, 401, 422, 200, 304, 404, 404]


async def test_what_is_not_plain_is_the_routes(api: Api, direct) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/bots", json={"name": "all", "tools": None})

    unknown = await acme.agent.get("/v1/bots/all/snapshot?format=nope")
    strict = await acme.agent.get("/v1/bots/all/snapshot?format=openai&strict=true")
    for_tenant = await api.admin.get("/v1/bots/all/snapshot?tenant=acme")

    assert direct == []
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "format"
    assert strict.status_code == 200
    assert for_tenant.status_code == 200
