"""WASI-module tools through HTTP on SQLite and PostgreSQL: compiled at save in a hardened
worker, run in the WASM worker pool, failures as envelope codes, compile once."""

from __future__ import annotations

import base64

from sqlalchemy import text

from tests.api.test_calls import call
from tests.conftest import Api, TenantKeys, api_for


def module_tool(name: str, module: bytes, metadata: dict | None = None) -> dict:
    return {
        "kind": "wasm",
        "name": name,
        "description": f"{name} (C, WASI)",
        "parameters": {"text": {"type": "string"}, "mode": {"type": "string"}},
        "module": base64.b64encode(module).decode(),
        "metadata": metadata or {"timeout": 3000},
    }


async def session(t: TenantKeys, *bodies: dict) -> str:
    for body in bodies:
        response = await t.dev.post("/v1/tools", json=body)
        assert response.status_code == 201, response.text
    await t.dev.post("/v1/bots", json={"name": "b", "tools": None})
    return (await t.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]


async def test_a_c_word_count_tool_answers_through_http(api: Api, compiled) -> None:
    acme = await api.tenant("acme")
    sid = await session(acme, module_tool("word_count", compiled["word_count"]))
    compiled_at_save = api.runtime.engines.wasm.compilations

    first = await call(acme, sid, "word_count", {"text": "the quick brown fox"})
    second = await call(acme, sid, "word_count", {"text": "jumps"})

    assert first["success"] is True and first["result"] == {"words": 4}, first
    assert second["result"] == {"words": 1}
    assert (
        compiled_at_save == 1 and api.runtime.engines.wasm.compilations == 1
    )  # calls never compile


async def test_limits_and_failures_become_envelope_codes(api: Api, compiled) -> None:
    acme = await api.tenant("acme")
    sid = await session(
        acme,
        module_tool("misbehave", compiled["misbehave"], {"timeout": 2000, "fuel": 50_000_000}),
    )
    results = {}
    for mode in ("loop", "trap", "exit", "json", "flood"):  # a fresh session each: 3 failures
        fresh = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        results[mode] = await call(acme, fresh, "misbehave", {"mode": mode})
    after = await call(acme, sid, "misbehave", {"mode": "ok"})

    codes = {mode: r["error"]["code"] for mode, r in results.items()}
    assert codes == {
        "loop": "out_of_fuel", "trap": "trap", "exit": "exit_code",
        "json": "malformed_output", "flood": "result_too_large",
    }  # fmt: skip
    assert "unreachable" in results["trap"]["error"]["message"]
    assert "giving up" not in str(results["exit"])  # stderr is for developers, not the model
    assert after["success"] is True and after["result"] == {"ok": True}


async def test_a_flood_leaves_nothing_for_the_next_call_of_another_tenant(
    api: Api, compiled
) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    acme_sid = await session(acme, module_tool("misbehave", compiled["misbehave"]))
    globex_sid = await session(globex, module_tool("word_count", compiled["word_count"]))

    flooded = await call(acme, acme_sid, "misbehave", {"mode": "flood"})
    counted = await call(globex, globex_sid, "word_count", {"text": "one two"})

    assert flooded["error"]["code"] == "result_too_large"
    assert counted["success"] is True and counted["result"] == {"words": 2}, counted


async def test_a_developer_test_run_shows_the_stderr_tail(api: Api, compiled) -> None:
    acme = await api.tenant("acme")
    await session(acme, module_tool("misbehave", compiled["misbehave"]))

    tested = await acme.dev.post("/v1/tools/misbehave/test", json={"arguments": {"mode": "exit"}})

    assert tested.json()["error"]["code"] == "exit_code"
    assert "stderr: giving up" in tested.json()["logs"]


async def test_modules_that_cannot_run_are_refused_at_save_and_validate(api: Api) -> None:
    acme = await api.tenant("acme")
    # a valid module that is not a WASI command: no _start
    reactor = (
        b"\x00asm\x01\x00\x00\x00\x01\x04\x01`\x00\x00\x03\x02\x01\x00\x05\x03\x01\x00\x01"
        b"\x07\x10\x02\x06memory\x02\x00\x03run\x00\x00\n\x04\x01\x02\x00\x0b"
    )
    truncated = b"\x00asm\x01\x00\x00\x00\x01\x0c\x02`"

    saved = await acme.dev.post("/v1/tools", json=module_tool("reactor", reactor))
    validated = await acme.dev.post("/v1/tools/validate", json=module_tool("broken", truncated))

    assert saved.status_code == 422 and saved.json()["errors"][0]["field"] == "module"
    assert "_start" in saved.json()["errors"][0]["message"]
    assert validated.json()["valid"] is False
    assert "not a valid WebAssembly module" in validated.json()["errors"][0]["message"]
    assert (await acme.dev.get("/v1/tools/reactor")).status_code == 404


async def test_metadata_limits_are_checked(api: Api, compiled) -> None:
    acme = await api.tenant("acme")

    refused = await acme.dev.post(
        "/v1/tools",
        json=module_tool("word_count", compiled["word_count"], {"fuel": 10**15, "memory_mb": 0}),
    )

    fields = {e["field"] for e in refused.json()["errors"]}
    assert refused.status_code == 422 and fields == {"metadata.fuel", "metadata.memory_mb"}


async def test_host_calls_from_c_http_logger_and_context(settings, compiled, upstream_http) -> None:
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.2"})) as api:
        acme = await api.tenant("acme")
        tool = module_tool("order_status", compiled["order_status"])
        tool["parameters"] = {"url": {"type": "string"}}
        sid = await session(acme, tool)
        allowed = await call(acme, sid, "order_status", {"url": upstream_http.base + "/orders/7"})
        denied = await call(acme, sid, "order_status", {"url": "http://127.0.0.1:9/x"})
        tested = await acme.dev.post(
            "/v1/tools/order_status/test", json={"arguments": {"url": upstream_http.base + "/a"}}
        )
        variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]

    assert allowed["success"] is True and allowed["result"] == {"success": True, "status": 200}
    assert denied["success"] is False and "egress denied" in denied["error"]["message"]
    assert variables == {"order_checked": True}
    assert f"info: looking up {upstream_http.base}/a" in tested.json()["logs"]
    assert any(s["path"] == "/orders/7" for s in upstream_http.seen)


async def test_artefacts_are_stored_with_the_version_so_no_node_compiles_at_call_time(
    settings, compiled
) -> None:
    """Nodes sharing one database: the save compiles once; a node that did not see it (or a
    restarted one) deserialises the stored artefact; a rollback carries it along; a tampered
    artefact is refused (its MAC fails), compiled again once, and stored anew."""
    word_count = module_tool("word_count", compiled["word_count"])

    async def agent_call(node: Api, agent_key: str, sid: str) -> dict:
        response = await node.client(agent_key).post(
            f"/v1/sessions/{sid}/calls", json={"tool": "word_count", "arguments": {"text": "a b"}}
        )
        return response.json()

    async with api_for(settings) as saving:
        acme = await saving.tenant("acme")
        sid = await session(acme, word_count)
        other = module_tool("word_count", compiled["misbehave"])
        assert (await acme.dev.put("/v1/tools/word_count", json=other)).status_code == 200
        rolled = await acme.dev.post("/v1/tools/word_count/rollback", json={"version": 1})
        assert rolled.json()["version"] == 3
        saved_compilations = saving.runtime.engines.wasm.compilations

    async with api_for(settings) as fresh_node:
        result = await agent_call(fresh_node, acme.agent_key, sid)
        assert result["success"] is True and result["result"] == {"words": 2}, result
        assert fresh_node.runtime.engines.wasm.compilations == 0
        async with fresh_node.runtime.sessions() as db, db.begin():
            await db.execute(
                text("UPDATE wasm_artefacts SET artefact = :junk"), {"junk": b"\0asm-not-ours"}
            )

    async with api_for(settings) as after_tampering:
        result = await agent_call(after_tampering, acme.agent_key, sid)
        assert result["success"] is True, result
        assert after_tampering.runtime.engines.wasm.compilations == 1  # refused, compiled, stored

    async with api_for(settings) as healed:
        assert (await agent_call(healed, acme.agent_key, sid))["success"] is True
        assert healed.runtime.engines.wasm.compilations == 0
    assert saved_compilations == 2  # version 1 and version 2; the rollback compiled nothing
