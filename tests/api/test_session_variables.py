"""Slot filling: the host page (an agent key) or a flow sets session variables that the
session's tools read in ``context.variables``; names are checked, values bounded, a bad entry
writes nothing, an ended session refuses, and each change is audited by name — on SQLite and
PostgreSQL through HTTP."""

from __future__ import annotations

from tests.api.test_calls import call, session_for, simple_tool
from tests.conftest import Api

ECHO = simple_tool("echo", 'return {"success": True, "seen": context.variables}')


async def test_the_page_fills_slots_that_the_tools_then_read(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [ECHO])

    first = await acme.agent.patch(f"/v1/sessions/{sid}/variables", json={"variables": {"order_id": "AB1234", "size": 42}})  # fmt: skip
    second = await acme.agent.patch(f"/v1/sessions/{sid}/variables", json={"variables": {"size": None, "tags": ["gift"]}})  # fmt: skip
    seen = await call(acme, sid, "echo")
    audit = (await acme.dev.get("/v1/audit")).json()

    assert first.status_code == 200 and first.json()["variables"] == {
        "order_id": "AB1234",
        "size": 42,
    }
    assert second.json()["variables"] == {"order_id": "AB1234", "size": None, "tags": ["gift"]}
    assert seen["result"]["seen"] == {"order_id": "AB1234", "size": None, "tags": ["gift"]}
    changes = [e for e in audit["entries"] if e["action"] == "session.variables"]
    assert [e["detail"] for e in changes] == [
        {"set": ["size", "tags"]},
        {"set": ["order_id", "size"]},
    ]
    assert all("AB1234" not in str(e) for e in changes)  # names, never the customer's values


async def test_bad_names_and_values_are_refused_naming_each_and_nothing_is_written(
    api: Api,
) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [ECHO])
    path = f"/v1/sessions/{sid}/variables"

    bad = await acme.agent.patch(path, json={"variables": {
        "ok": 1, "has-dash": 1, "echo_done": True, "big": "x" * 17_000, "nul": "a\x00b",
    }})  # fmt: skip
    empty = await acme.agent.patch(path, json={"variables": {}})
    too_many = await acme.agent.patch(path, json={"variables": {f"v{i}": i for i in range(65)}})
    not_a_map = await acme.agent.patch(path, json={"variables": ["a"]})
    after = (await acme.agent.get(path)).json()["variables"]

    assert bad.status_code == 422
    fields = {e["field"] for e in bad.json()["errors"]}
    assert fields == {"variables.has-dash", "variables.echo_done", "variables.big", "variables.nul"}
    assert empty.status_code == 422 and too_many.status_code == 422
    assert not_a_map.status_code == 422
    assert after == {}  # "ok" was good, but nothing is written unless all are


async def test_an_ended_session_and_another_tenant_cannot_set_variables(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    sid = await session_for(acme, [ECHO])

    theirs = await globex.agent.patch(f"/v1/sessions/{sid}/variables", json={"variables": {"x": 1}})  # fmt: skip
    await acme.agent.post(f"/v1/sessions/{sid}/end", json={"reason": "done"})
    ended = await acme.agent.patch(f"/v1/sessions/{sid}/variables", json={"variables": {"x": 1}})

    assert theirs.status_code == 404
    assert ended.status_code == 409 and ended.json()["code"] == "session_ended"
