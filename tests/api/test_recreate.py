"""Attack: delete a tool and create another under the same name. Nothing of the deleted one —
its URL, its credential, its loaded module and module state, its compiled WASM, its argument
validator, its cached results — may serve a call of the new one. Every kind, on both databases.

Caches are keyed by the tool's identity (content hash + stored version row), which a delete
and re-create changes even when the content is the same.
"""

from __future__ import annotations

import pytest

from tests.api.test_calls import call, python
from tests.api.test_wasm_tools import module_tool
from tests.api.test_webhooks import hook, hooks  # noqa: F401 - the fixture
from tests.conftest import Api, TenantKeys
from tests.loopback import LoopbackServer

COUNTER = """
COUNT = []


def execute(params, context):
    COUNT.append(1)
    return {"success": True, "calls": len(COUNT), "code": params.get("code")}


tool = {"name": "counter", "description": "Counts its own calls", "execute": execute,
        "parameters": {"code": {"type": "string", "pattern": "PATTERN"}}}
"""


async def fresh(t: TenantKeys, body: dict) -> str:
    """Save ``body`` as a new tool and attach a new session to a bot offering everything."""
    saved = await t.dev.post("/v1/tools", json=body)
    assert saved.status_code == 201, saved.text
    await t.dev.put("/v1/bots/b", json={"name": "b", "tools": None})
    attached = await t.agent.post("/v1/sessions", json={"bot": "b"})
    assert attached.status_code == 201, attached.text
    return attached.json()["id"]


async def recreate(t: TenantKeys, name: str, body: dict) -> str:
    assert (await t.dev.delete(f"/v1/tools/{name}")).status_code == 204
    return await fresh(t, body)


async def bot(t: TenantKeys) -> None:
    assert (await t.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201


async def test_a_recreated_webhook_never_reaches_the_deleted_url_or_credential(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    acme = await hooks.tenant("acme")
    await bot(acme)
    cacheable = {"metadata": {"cacheable": True, "cache_scope": "tenant"}}
    sid = await fresh(acme, hook("h", upstream_http.base + "/old/{id}", **cacheable))
    old = await call(acme, sid, "h", {"id": "1"})

    sid = await recreate(
        acme,
        "h",
        hook("h", upstream_http.base + "/new/{id}", auth_header="Bearer NEW", **cacheable),
    )
    new = await call(acme, sid, "h", {"id": "1"})
    # the same content as before, only the secret differs: no cached result, the new secret
    sid = await recreate(
        acme,
        "h",
        hook("h", upstream_http.base + "/new/{id}", auth_header="Bearer THIRD", **cacheable),
    )
    third = await call(acme, sid, "h", {"id": "1"})

    assert old["result"]["seen"]["path"] == "/old/1"
    assert new.get("cached") is not True and new["result"]["seen"]["path"] == "/new/1"
    assert new["result"]["seen"]["headers"]["authorization"] == "Bearer NEW"
    assert third.get("cached") is not True
    assert third["result"]["seen"]["headers"]["authorization"] == "Bearer THIRD"


@pytest.mark.parametrize("sandbox", ["restricted", "wasm"])
async def test_a_recreated_python_tool_starts_with_fresh_module_state_and_validator(
    api: Api, sandbox: str, request: pytest.FixtureRequest
) -> None:
    if sandbox == "wasm":
        request.getfixturevalue("python_runner")
    acme = await api.tenant("acme")
    await bot(acme)
    lenient = python(COUNTER.replace("PATTERN", "^.*$"), sandbox)
    strict = python(COUNTER.replace("PATTERN", "^[0-9]+$"), sandbox)
    sid = await fresh(acme, lenient)
    before = [
        (await call(acme, sid, "counter", {"code": "x"}))["result"]["calls"] for _ in range(2)
    ]

    sid = await recreate(acme, "counter", lenient)  # the very same file
    same_file = (await call(acme, sid, "counter", {"code": "x"}))["result"]["calls"]
    sid = await recreate(acme, "counter", strict)
    refused = await call(acme, sid, "counter", {"code": "x"})

    assert before == [1, 2]
    assert same_file == 1  # not the deleted tool's module state
    assert refused["error"]["code"] == "invalid_arguments"  # not the deleted tool's validator


async def test_a_recreated_wasm_tool_runs_its_own_module(api: Api, compiled) -> None:
    acme = await api.tenant("acme")
    await bot(acme)
    sid = await fresh(acme, module_tool("t", compiled["word_count"]))
    counted = await call(acme, sid, "t", {"text": "one two"})

    sid = await recreate(acme, "t", module_tool("t", compiled["order_status"]))
    other = await call(acme, sid, "t", {"text": "one two"})
    sid = await recreate(acme, "t", module_tool("t", compiled["word_count"]))
    again = await call(acme, sid, "t", {"text": "one two three"})

    assert counted["result"] == {"words": 2}
    assert other.get("result") != {"words": 2}
    assert again["success"] is True and again["result"] == {"words": 3}
