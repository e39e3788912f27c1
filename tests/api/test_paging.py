"""Cursor pagination on every list (`limit`, `cursor`, `next_cursor`): pages in a stable order,
nothing repeated or skipped while rows are added, a cursor from elsewhere refused (422)."""

from __future__ import annotations

from tests.api.test_calls import python
from tests.conftest import Api
from tests.factories import python_source


async def all_pages(client, path: str, field: str, limit: int = 2) -> tuple[list, int]:
    items, cursor, pages = [], None, 0
    while True:
        params = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        body = (await client.get(path, params=params)).json()
        items += body[field]
        pages += 1
        cursor = body["next_cursor"]
        if cursor is None:
            return items, pages


async def test_every_list_pages_with_a_cursor(api: Api) -> None:
    acme = await api.tenant("acme")
    for name in ("delta", "alpha", "charlie", "bravo", "echo"):
        assert (
            await acme.dev.post("/v1/tools", json=python(python_source(name)))
        ).status_code == 201
        await acme.dev.post("/v1/bots", json={"name": f"bot_{name}", "tools": None})
    for i in range(2, 5):
        body = python(python_source("alpha", description=f"Check an order, take {i}"))
        assert (await acme.dev.put("/v1/tools/alpha", json=body)).status_code == 200
    for name in ("globex", "initech"):
        await api.tenant(name)

    tools, pages = await all_pages(acme.dev, "/v1/tools", "tools")
    versions, _ = await all_pages(acme.dev, "/v1/tools/alpha/versions", "versions")
    bots, _ = await all_pages(acme.dev, "/v1/bots", "bots")
    tenants, _ = await all_pages(api.admin, "/v1/tenants", "tenants")
    keys, _ = await all_pages(api.admin, "/v1/tenants/acme/keys", "keys", limit=1)

    assert [t["name"] for t in tools] == ["alpha", "bravo", "charlie", "delta", "echo"]
    assert pages == 3
    assert [v["version"] for v in versions] == [4, 3, 2, 1]
    assert [b["name"] for b in bots] == [
        f"bot_{n}" for n in ("alpha", "bravo", "charlie", "delta", "echo")
    ]
    assert [t["id"] for t in tenants] == ["acme", "globex", "initech"]
    assert len(keys) == 2 and len({k["id"] for k in keys}) == 2


async def test_a_row_added_between_pages_neither_repeats_nor_shifts_others(api: Api) -> None:
    acme = await api.tenant("acme")
    for name in ("b", "d", "f"):
        await acme.dev.post("/v1/tools", json=python(python_source(name)))

    first = (await acme.dev.get("/v1/tools", params={"limit": 2})).json()
    await acme.dev.post("/v1/tools", json=python(python_source("a")))  # sorts before the cursor
    await acme.dev.post("/v1/tools", json=python(python_source("e")))  # sorts after it
    rest = (await acme.dev.get("/v1/tools", params={"cursor": first["next_cursor"]})).json()

    assert [t["name"] for t in first["tools"]] == ["b", "d"]
    assert [t["name"] for t in rest["tools"]] == ["e", "f"] and rest["next_cursor"] is None


async def test_malformed_cursors_and_limits_are_422_naming_the_field(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python(python_source("a")))
    version_cursor = (await acme.dev.get("/v1/tools/a/versions", params={"limit": 1})).json()[
        "next_cursor"
    ]

    garbage = await acme.dev.get("/v1/tools", params={"cursor": "%%%"})
    foreign = await acme.dev.get("/v1/tools", params={"cursor": "WzEsMl0"})  # [1, 2]
    too_big = await acme.dev.get("/v1/tools", params={"limit": 5000})

    assert version_cursor is None  # one version: one page
    assert garbage.status_code == 422 and garbage.json()["errors"][0]["field"] == "cursor"
    assert foreign.status_code == 422 and foreign.json()["errors"][0]["field"] == "cursor"
    assert too_big.status_code == 422
