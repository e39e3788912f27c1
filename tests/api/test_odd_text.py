"""Odd text on every write path, the same on SQLite and PostgreSQL: a NUL character, a lone
UTF-16 surrogate half, an integer past 64 bits, NaN and deep nesting. What arrives in a request
is refused at the edge, naming the field, before anything runs; what a tool or a model produced
after it ran is stored losslessly (NUL) or refused with its code, and never answers 500.

(PostgreSQL refuses NUL in ``text`` and ``jsonb``: a session variable holding one was a 500
after the tool had run, while SQLite stored it.)"""

from __future__ import annotations

import json

import pytest

from server.storage import text_codec
from tests.api.test_agent_loop import setup
from tests.api.test_calls import call, python, session_for, simple_tool
from tests.api.test_skills import skilled
from tests.conftest import Api
from tests.fake_models import FakeModel

ODD = "a\x00b\ue000c\ue0000é"  # NUL, the codec's own mark, and the mark before a digit

TOOLS = [
    simple_tool(
        "keep_odd",
        "context.update_context({params['key']: params['value']})\n"
        "return {'success': True, 'echo': params['value']}",
        extra=', "parameters": {"key": {"type": "string"}, "value": {"type": "string"}}',
    ),
    simple_tool("surrogate", "return {'success': True, 'v': chr(0xD800)}"),
    simple_tool("big", "return {'success': True, 'n': 2 ** 70}"),
    simple_tool("nan", "return {'success': True, 'v': float('nan')}"),
    simple_tool("deep", "v = []\nfor _ in range(300):\n    v = [v]\nreturn {'success': True, 'v': v}"),
    simple_tool("deep_state", "v = []\nfor _ in range(100):\n    v = [v]\ncontext.update_context({'v': v})\nreturn {'success': True}"),
]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["plain", "", "a\x00b", "\ue000", "\ue0000", "\ue000s0041", "x\ud800y\udfff", "é\x00\ue000"],
)
def test_the_codec_gives_back_what_it_was_given_and_stores_only_what_databases_hold(
    text: str,
) -> None:
    stored = text_codec.to_stored(text)

    assert text_codec.from_stored(stored) == text
    assert "\x00" not in stored
    stored.encode("utf-8")  # no lone surrogate left: any UTF-8 database takes it
    assert text_codec.json_loads(text_codec.json_dumps({text: [text, 2**70]})) == {
        text: [text, 2**70]
    }


async def test_what_a_tool_keeps_and_answers_is_stored_as_it_was(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, TOOLS)

    kept = await call(acme, sid, "keep_odd", {"key": "k\x00" + ODD, "value": ODD})
    variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]
    await api.runtime.call_log.flush()
    logged = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]

    assert kept["success"] and kept["result"]["echo"] == ODD
    assert variables == {"k\x00" + ODD: ODD}
    assert logged[0]["result"] == {"success": True, "echo": ODD}
    assert logged[0]["arguments"] == {"key": "k\x00" + ODD, "value": ODD}


@pytest.mark.parametrize(
    ("tool", "code"),
    [
        ("surrogate", "malformed_output"),
        ("big", "malformed_output"),
        ("nan", "malformed_output"),
        ("deep", "nesting_too_deep"),
        ("deep_state", "nesting_too_deep"),
    ],
)
async def test_what_json_cannot_carry_fails_the_call_with_its_code(
    api: Api, tool: str, code: str
) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, TOOLS)

    answer = await call(acme, sid, tool)
    after = await call(acme, sid, "keep_odd", {"key": "k", "value": "v"})
    variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]

    assert answer["success"] is False and answer["error"]["code"] == code, answer
    assert after["success"] is True  # the worker that refused goes on serving
    assert variables == {"k": "v"}  # nothing of the refused call was kept


async def test_a_models_odd_words_are_kept_in_the_transcript(agents: Api, fake: FakeModel) -> None:
    """A person's message is input: NUL is refused, naming the field. The model's answer is
    kept with its NUL; a lone surrogate, which no client could read back, becomes U+FFFD."""
    acme, sid = await setup(agents, fake)
    raw = {
        "id": "x", "object": "chat.completion", "created": 1, "model": "big",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {
            "role": "assistant", "content": "a\x00b \ud800 \ue000 c",
        }}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }  # fmt: skip

    refused = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi\x00?"})
    fake.reply({"raw": json.dumps(raw)})
    turn = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"})
    listed = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]

    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "content"
    assert turn.status_code == 200, turn.text
    assert turn.json()["message"]["content"] == "a\x00b \ufffd \ue000 c"
    assert [(m["role"], m["content"]) for m in listed] == [
        ("user", "hi"),
        ("assistant", "a\x00b \ufffd \ue000 c"),
    ]


async def test_a_skill_keeps_a_lead_whose_name_holds_nul(api: Api) -> None:
    t, sid = await skilled(api, skills={"leads": {}}, customer="bob")

    collected = await call(
        t, sid, "collect_lead",
        {"name": "Bob\x00" + ODD, "email": "bob@example.com", "interest": "tents\x00"},
    )  # fmt: skip
    leads = (await t.dev.get("/v1/leads")).json()["leads"]

    assert collected["success"], collected
    assert (leads[0]["name"], leads[0]["interest"]) == ("Bob\x00" + ODD, "tents\x00")


def python_in(sandbox: str, body: str) -> dict:
    indented = "\n".join("    " + line for line in body.splitlines())
    source = f"def execute(params, context):\n{indented}\n\n\ntool = {{'name': 'deep', 'description': 'deep', 'execute': execute}}\n"
    return python(source, sandbox)


DEEP_BY_TIER = {
    "python-wasm": python_in(
        "wasm", "v = []\nfor _ in range(300):\n    v = [v]\nreturn {'success': True, 'v': v}"
    ),
    "javascript": {
        "kind": "javascript",
        "source": "module.exports = { name: 'deep', description: 'deep', execute: async () => {\n"
        "  let v = []; for (let i = 0; i < 300; i++) v = [v];\n"
        "  return {success: true, v};\n} };",
    },
}


@pytest.mark.parametrize("tier", sorted(DEEP_BY_TIER))
async def test_a_result_nested_too_deep_fails_with_its_code_in_every_tier(
    api: Api, tier: str
) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [DEEP_BY_TIER[tier]])

    answer = await call(acme, sid, "deep")

    assert answer["success"] is False and answer["error"]["code"] == "nesting_too_deep", answer
