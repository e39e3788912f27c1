"""Python tool files with ``"sandbox": "wasm"`` through HTTP on SQLite and PostgreSQL: loaded at
save in the runner, called through the pipeline, host calls, failures as envelope codes.
(Escapes and limits in depth: tests/sandbox/test_python_wasm.py.)"""

from __future__ import annotations

import pytest

from tests.api.test_calls import call, python, session_for
from tests.conftest import Api, api_for

pytestmark = pytest.mark.usefixtures("python_runner")  # built before the app looks for it

WORD_COUNT = """
import re

SEEN = []


def execute(params, context):
    words = re.findall(r"[\\w']+", params["text"])
    SEEN.append(len(words))
    context.modules.logger.info("counted", len(words))
    return {"words": len(words), "longest": max(words, key=len) if words else None}


def on_error(error, params, context):
    return {"message": "Counting failed (" + error["code"] + "); answer without the count."}


tool = {
    "name": "word_count",
    "description": "Count the words of a text",
    "parameters": {"text": {"type": "string", "required": True}},
    "execute": execute,
    "on_error": on_error,
    "metadata": {"timeout": 2000, "memory_mb": 48},
}
"""


async def test_a_python_tool_runs_in_wasm_through_http(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(WORD_COUNT, "wasm")])

    first = await call(acme, sid, "word_count", {"text": "the quick brown fox"})
    second = await call(acme, sid, "word_count", {"text": "jumps over it"})
    listed = (await acme.dev.get("/v1/tools/word_count")).json()
    tested = await acme.dev.post("/v1/tools/word_count/test", json={"arguments": {"text": "a b"}})

    assert first["success"] is True and first["result"] == {"words": 4, "longest": "quick"}
    assert second["result"] == {"words": 3, "longest": "jumps"}
    assert listed["sandbox"] == "wasm" and listed["kind"] == "python"
    assert "info: counted 2" in tested.json()["logs"]


async def test_failures_become_codes_and_on_error_shapes_the_message(api: Api) -> None:
    acme = await api.tenant("acme")
    spin = WORD_COUNT.replace(
        "words = re.findall",
        'while params["text"] == "spin":\n        pass\n    words = re.findall',
    )
    sid = await session_for(
        acme, [python(spin.replace('"timeout": 2000', '"timeout": 1000'), "wasm")]
    )

    spun = await call(acme, sid, "word_count", {"text": "spin"})
    after = await call(acme, sid, "word_count", {"text": "still fine"})

    assert spun["success"] is False and spun["error"]["code"] in ("out_of_fuel", "timeout")
    assert spun["modelMessage"].startswith("Counting failed")
    assert after["success"] is True and after["result"]["words"] == 2


async def test_load_problems_are_refused_at_save_and_validate(api: Api) -> None:
    acme = await api.tenant("acme")
    imports = WORD_COUNT.replace("import re\n", "import re\nimport socket\n")
    slow = "while True:\n    pass\n" + WORD_COUNT

    refused = await acme.dev.post("/v1/tools", json=python(imports, "wasm"))
    validated = await acme.dev.post("/v1/tools/validate", json=python("def f(:\n", "wasm"))
    too_slow = await acme.dev.post("/v1/tools", json=python(slow, "wasm"))

    assert refused.status_code == 422
    error = refused.json()["errors"][0]
    assert error["field"] == "source" and error["line"] == 3 and "socket" in error["message"]
    assert validated.json()["valid"] is False
    assert too_slow.status_code == 422 and too_slow.json()["code"] == "load_timeout"
    assert (await acme.dev.get("/v1/tools")).json()["tools"] == []


async def test_host_calls_http_and_context_from_python_in_wasm(settings, upstream_http) -> None:
    source = """
def execute(params, context):
    reply = context.modules.http.get(params["url"])
    context.update_context({"last_status": reply["status"]})
    return {"status": reply["status"]}


tool = {"name": "fetch", "description": "Fetch a URL", "execute": execute,
        "parameters": {"url": {"type": "string", "required": True}}}
"""
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.2"})) as api:
        acme = await api.tenant("acme")
        sid = await session_for(acme, [python(source, "wasm")])
        allowed = await call(acme, sid, "fetch", {"url": upstream_http.base + "/orders/9"})
        denied = await call(acme, sid, "fetch", {"url": "http://127.0.0.1:9/x"})
        variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]

    assert allowed["success"] is True and allowed["result"] == {"status": 200}
    assert denied["success"] is False and "egress denied" in denied["error"]["message"]
    assert variables == {"last_status": 200}
    assert any(s["path"] == "/orders/9" for s in upstream_http.seen)


async def test_tenants_never_share_module_state(api: Api) -> None:
    counter = WORD_COUNT.replace(
        'return {"words": len(words), "longest": max(words, key=len) if words else None}',
        'return {"calls": len(SEEN)}',
    )
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    acme_sid = await session_for(acme, [python(counter, "wasm")])
    globex_sid = await session_for(globex, [python(counter, "wasm")])

    acme_calls = [
        (await call(acme, acme_sid, "word_count", {"text": "x"}))["result"]["calls"]
        for _ in range(3)
    ]
    globex_first = (await call(globex, globex_sid, "word_count", {"text": "x"}))["result"]["calls"]

    assert acme_calls == [1, 2, 3]  # one worker in tests: this tool's instance is reused
    assert globex_first == 1  # the same file of another tenant starts from nothing


async def test_load_time_bombs_from_one_tenant_never_block_another_tenants_tools(settings) -> None:
    """Attack: validate and save, over and over, files whose top level never ends (nothing is
    stored); every other tenant's new WASM tool must still load and run."""
    async with api_for(settings.model_copy(update={"load_timeout_ms": 200})) as api:
        evil, victim = await api.tenant("evil"), await api.tenant("victim")
        answers = []
        for i in range(12):
            bomb = python(f"n = {i}\nwhile True:\n    pass\n" + WORD_COUNT, "wasm")
            path = "/v1/tools/validate" if i % 2 else "/v1/tools"
            answers.append(await evil.dev.post(path, json=bomb))
        sid = await session_for(victim, [python(WORD_COUNT, "wasm")])
        counted = await call(victim, sid, "word_count", {"text": "still works"})

    assert {a.status_code for a in answers} == {200, 422}
    assert all(
        (a.json().get("code") == "load_timeout") or a.json()["valid"] is False for a in answers
    )
    assert counted["success"] is True and counted["result"]["words"] == 2
