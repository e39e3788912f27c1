"""``quiver.client`` against a real server (uvicorn) on SQLite and PostgreSQL: the sync and the
async client, typed answers, refusals as ``ApiError`` with the problem's fields."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from quiver.client import ApiError, AsyncQuiver, Envelope, Quiver, Tool, Unreachable
from tests.api.test_calls import simple_tool
from tests.conftest import ADMIN_KEY, Api
from tests.servers import free_port, served

HELLO = simple_tool(
    "hello",
    'return {"success": True, "message": "hi " + params.get("who", "")}',
    extra=', "parameters": {"who": {"type": "string"}}',
)


async def test_the_async_client_covers_a_developers_day(api: Api) -> None:
    acme = await api.tenant("acme")
    async with served(api.app) as base, AsyncQuiver(base, acme.dev_key) as client:
        first = await client.push_tool("hello", HELLO)
        same = await client.push_tool("hello", HELLO)
        second = await client.push_tool("hello", {**HELLO, "source": HELLO["source"] + "\n"})
        tools = await client.list_tools()
        versions = await client.versions("hello")
        old = await client.get_version("hello", 1)
        tested = await client.test_tool("hello", {"who": "Ada"})
        rolled = await client.rollback("hello", 1)
        usage = await client.usage()
        document = (Path(__file__).parent / "data" / "openapi" / "mlserver-1.7.1-model_repository.json").read_text()  # fmt: skip
        imported = await client.import_openapi(document, server="https://ml.example", dry_run=True)
        with pytest.raises(ApiError) as invalid:
            await client.push_tool("hello", {"kind": "python", "source": "tool = 1"})
        with pytest.raises(ApiError) as missing:
            await client.get_tool("nope")

    assert isinstance(first, Tool) and first.version == 1 and not first.unchanged
    assert same.version == 1 and same.unchanged
    assert second.version == 2 and [t.name for t in tools] == ["hello"]
    assert [v.version for v in versions] == [2, 1] and old.source == HELLO["source"]
    assert isinstance(tested, Envelope) and tested.success and tested.result["message"] == "hi Ada"
    assert rolled.version == 3
    assert usage.tenant == "acme" and usage.today["calls"] == 1
    assert len(imported["tools"]) == 3 and imported["skipped"] == [] and imported["dry_run"]
    assert invalid.value.status == 422 and invalid.value.code == "validation_error"
    assert invalid.value.errors and invalid.value.errors[0].message
    assert missing.value.status == 404 and missing.value.code == "not_found"


async def test_the_sync_client_does_admin_work_and_agent_calls(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=HELLO)
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})

    def admin_and_agent(base: str) -> tuple:
        with Quiver(base, ADMIN_KEY) as admin, Quiver(base, acme.agent_key) as agent:
            tenant = admin.create_tenant("globex", "Globex")
            key = admin.create_key("globex", "developer", "ci")
            shared = admin.set_shared_tools("globex", ["escalate_to_human"])
            limited = admin.set_limits("globex", {"calls_per_day": 10})
            tenants = admin.list_tenants()
            session = agent.attach("b")
            called = agent.call(session["id"], "hello", {"who": "Bo"})
            try:
                agent.list_tools()
            except ApiError as exc:
                refused = exc
            return tenant, key, shared, limited, tenants, called, refused

    async with served(api.app) as base:
        tenant, key, shared, limited, tenants, called, refused = await asyncio.to_thread(
            admin_and_agent, base
        )

    assert tenant.id == "globex" and key.key and key.key.startswith("qk_")
    assert shared.shared_tools == ["escalate_to_human"] and limited.limits == {"calls_per_day": 10}
    assert {t.id for t in tenants} == {"acme", "globex"}
    assert called.success and called.result["message"] == "hi Bo"
    assert refused.status == 403 and refused.code == "forbidden"


def test_no_server_is_unreachable_not_a_transport_traceback() -> None:
    client = Quiver(f"http://127.0.0.1:{free_port()}", "qk_x_y", timeout=2)
    with client, pytest.raises(Unreachable):
        client.list_tools()
