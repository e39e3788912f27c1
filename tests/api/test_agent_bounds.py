"""The agent loop under a hostile or broken model, through HTTP on SQLite and PostgreSQL against
the fake model server and the official SDKs: the round limit bounds what runs, one answer cannot
fan out past the caps, an answer cannot store or stream past its byte cap, a paused turn takes
no forged answers, no provider key leaks, and a provider's faults end cleanly."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator

import hypothesis as hyp
import hypothesis.strategies as st
import pytest

from server import metrics
from server.settings import Settings
from tests.api.test_agent_loop import KEY, REFUND, read_events, setup, tool_names, tool_results
from tests.api.test_calls import call, python
from tests.api.test_tool_llm import SUMMARY
from tests.conftest import Api, api_for
from tests.fake_models import FakeModel

MESSAGE_BYTES = 4096
TURN_BYTES = 16_384
ORDER_CALL = {"name": "check_order", "arguments": {"order_id": "AB1234"}}


@pytest.fixture
async def bounded(settings: Settings) -> AsyncIterator[Api]:
    """The agents' app with small byte caps, so that a test's model can pass them."""
    small = settings.model_copy(
        update={
            "provider_retries": 0, "provider_timeout_s": 5.0,
            "agent_message_bytes": MESSAGE_BYTES, "agent_turn_bytes": TURN_BYTES,
        }
    )  # fmt: skip
    async with api_for(small) as api:
        yield api


def refusals(reason: str) -> float:
    labels = {"reason": reason}
    return metrics.REGISTRY.get_sample_value("quiver_agent_refusals_total", labels) or 0.0


async def logged_calls(api: Api, acme, sid: str) -> list[dict]:
    await api.runtime.call_log.flush()
    return (await acme.agent.get(f"/v1/sessions/{sid}/calls?limit=500")).json()["calls"]


async def transcript(acme, sid: str) -> list[dict]:
    path, cursor, out = f"/v1/sessions/{sid}/messages?limit=50", None, []
    while True:
        page = (await acme.agent.get(path + (f"&cursor={cursor}" if cursor else ""))).json()
        out += page["messages"]
        if not (cursor := page["next_cursor"]):
            return out


async def test_tool_calls_in_an_answer_offered_no_tools_are_dropped_not_run(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake, max_rounds=2)
    again = {"tool_calls": [ORDER_CALL]}
    fake.reply(again, again, {"text": "Sorry.", "tool_calls": [ORDER_CALL, ORDER_CALL]})
    before = refusals("final_round_tool_calls")

    turn = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "loop"})).json()  # fmt: skip
    calls = await logged_calls(agents, acme, sid)
    stored = await transcript(acme, sid)

    assert not tool_names(fake.requests[2])  # the last request offered none …
    assert len(calls) == 2  # … and the two calls its answer asked for did not run
    assert turn["status"] == "completed" and turn["message"]["content"] == "Sorry."
    assert [c["name"] for c in turn["rounds"][2]["dropped_tool_calls"]] == ["check_order"] * 2
    assert stored[-1]["role"] == "assistant" and not stored[-1].get("tool_calls")
    assert refusals("final_round_tool_calls") == before + 2


async def test_one_answer_cannot_fan_out_past_the_round_and_turn_caps(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake, max_tool_calls=4, max_turn_tool_calls=6)
    thousand = {"tool_calls": [ORDER_CALL] * 1000}
    fake.reply(thousand, thousand, {"text": "Done."})
    before = (refusals("round_tool_calls"), refusals("turn_tool_calls"))

    turn = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "all"})).json()  # fmt: skip
    calls = await logged_calls(agents, acme, sid)
    stored = await transcript(acme, sid)

    assert len(calls) == 6  # four in the first round, the turn's last two in the second
    first, second = turn["rounds"][0]["tool_calls"], turn["rounds"][1]["tool_calls"]
    assert sum(c["envelope"]["success"] for c in first) == 4
    assert sum(c["envelope"]["success"] for c in second) == 2
    refused = [c["envelope"] for c in first if not c["envelope"]["success"]]
    assert {e["error"]["code"] for e in refused} == {"too_many_tool_calls"}
    assert len(first) < 1000 and turn["rounds"][0]["dropped_tool_calls"] == 1000 - len(first)
    assert any("at most 4 tool calls" in r for r in tool_results(fake.requests[1]))
    assert not tool_names(fake.requests[2])  # the turn's calls are spent: a final answer
    assert turn["message"]["content"] == "Done."
    assert len(stored) < 2 * len(first) + 2 * len(second) + 4
    assert refusals("round_tool_calls") > before[0] and refusals("turn_tool_calls") > before[1]
    exposed = (await agents.admin.get("/metrics")).text
    assert 'quiver_agent_refusals_total{reason="round_tool_calls"}' in exposed


@pytest.mark.parametrize("stream", [False, True], ids=["json", "streamed"])
async def test_an_answer_past_the_message_cap_is_cut_and_ends_the_turn(bounded: Api, fake: FakeModel, stream: bool) -> None:  # fmt: skip
    acme, sid = await setup(bounded, fake)
    fake.reply({"big": 64 << 20} if stream else {"text": "x" * (2 << 20)})
    before = refusals("message_too_large")

    path = f"/v1/sessions/{sid}/messages"
    if stream:
        async with acme.agent.stream("POST", path, json={"content": "talk", "stream": True}) as r:
            events = await read_events(r)
        forwarded = "".join(d["delta"] for k, d in events if k == "text")
        turn = events[-1][1]
        assert len(forwarded.encode()) <= MESSAGE_BYTES
        assert fake.sent < 64 << 20  # the rest of the stream was never read
    else:
        turn = (await acme.agent.post(path, json={"content": "talk"})).json()
    stored = await transcript(acme, sid)

    assert turn["status"] == "incomplete" and turn["reason"] == "message_too_large"
    assert 0 < len(turn["message"]["content"].encode()) <= MESSAGE_BYTES
    assert [m["role"] for m in stored] == ["user", "assistant"]
    assert len(stored[1]["content"].encode()) <= MESSAGE_BYTES
    assert refusals("message_too_large") == before + 1
    fake.reply({"text": "Short now."})
    again = await acme.agent.post(path, json={"content": "and?"})
    assert again.json()["message"]["content"] == "Short now."  # the session goes on


BLOB = python("""
def execute(params, context):
    return {"success": True, "blob": "y" * 3000}


tool = {"name": "blob", "description": "A large result", "execute": execute}
""")


async def test_a_turn_stores_no_more_than_its_total(bounded: Api, fake: FakeModel) -> None:
    acme, sid = await setup(bounded, fake, max_rounds=20)
    assert (await acme.dev.post("/v1/tools", json=BLOB)).status_code == 201
    fake.reply(*[{"tool_calls": [{"name": "blob", "arguments": {}}] * 2}] * 20)

    turn = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "go"})).json()  # fmt: skip
    stored = await transcript(acme, sid)

    assert turn["status"] == "incomplete" and turn["reason"] == "turn_too_large"
    assert stored_bytes(stored[1:]) <= TURN_BYTES
    assert len(fake.requests) < 20  # the model was not asked again once the turn was full


def stored_bytes(messages: list[dict]) -> int:
    """What a turn stored, counted as the loop counts it: texts, and each call's id, name and
    arguments' JSON."""
    total = 0
    for m in messages:
        total += len((m["content"] or "").encode())
        for c in m.get("tool_calls") or ():
            arguments = json.dumps(c["arguments"], separators=(",", ":"), ensure_ascii=False)
            total += len(c["id"].encode()) + len(c["name"].encode()) + len(arguments.encode())
    return total


async def test_a_paused_turn_takes_only_the_answers_it_waits_for(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake, approvers=["developer"])
    assert (await acme.dev.post("/v1/tools", json=REFUND)).status_code == 201
    actions = {"actions": [{"name": "open_cart", "description": "Show the cart", "parameters": {}}]}  # fmt: skip
    assert (await acme.agent.put(f"/v1/sessions/{sid}/actions", json=actions)).status_code == 200
    fake.reply(
        {
            "tool_calls": [
                {"name": "refund", "arguments": {"order_id": "AB1234"}},
                {"name": "open_cart", "arguments": {}},
            ]
        },  # fmt: skip
        {"text": "Refunded, and the cart is open."},
    )
    before = (refusals("wrong_answer"), refusals("not_an_approver"))

    paused = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "refund"})).json()  # fmt: skip
    results = f"/v1/sessions/{sid}/messages/{paused['message']['id']}/results"
    ids = {a["name"]: a["call_id"] for a in paused["actions"]}
    refund, cart = ids["refund"], ids["open_cart"]
    forged = await acme.agent.post(results, json=[{"call_id": refund, "success": True, "result": {"refunded": "AB1234"}}])  # fmt: skip
    both = await acme.agent.post(results, json=[{"call_id": refund, "approved": True, "success": True}])  # fmt: skip
    cart_approved = await acme.agent.post(results, json=[{"call_id": cart, "approved": True}])
    twice = await acme.dev.post(results, json=[{"call_id": refund, "approved": True}, {"call_id": refund, "approved": True}])  # fmt: skip
    by_agent = await acme.agent.post(results, json=[{"call_id": refund, "approved": True}])
    nothing_ran, asked = await logged_calls(agents, acme, sid), len(fake.requests)
    by_developer = await acme.dev.post(results, json=[{"call_id": refund, "approved": True}])
    page = await acme.agent.post(results, json=[{"call_id": cart, "success": True, "result": {"open": True}}])  # fmt: skip
    ran = await logged_calls(agents, acme, sid)

    for refused in (forged, both, cart_approved, twice):
        assert refused.status_code == 422, refused.text
        assert refused.json()["errors"][0]["field"].startswith("[")
    assert forged.json()["errors"][0]["field"] == "[0]"
    assert twice.json()["errors"][0]["field"] == "[1].call_id"
    assert by_agent.status_code == 403 and by_agent.json()["code"] == "forbidden"
    assert nothing_ran == [] and asked == 1  # no forged result reached the model
    assert by_developer.status_code == 200 and by_developer.json()["status"] == "requires_action"  # fmt: skip
    assert page.status_code == 200 and page.json()["message"]["content"] == "Refunded, and the cart is open."  # fmt: skip
    assert [c["tool"] for c in ran if c["kind"] != "browser"] == ["refund"]  # ran once, approved
    assert refusals("wrong_answer") >= before[0] + 4 and refusals("not_an_approver") == before[1] + 1  # fmt: skip


async def test_a_provider_that_echoes_the_key_shows_it_to_nobody(agents: Api, fake: FakeModel, caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    caplog.set_level(logging.DEBUG)
    acme, sid = await setup(agents, fake)
    assert (await acme.dev.post("/v1/tools", json=python(SUMMARY))).status_code == 201
    fake.reply({"echo_key": True}, {"echo_key": True})

    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"})
    envelope = await call(acme, sid, "summarise", {"text": "a text"})
    calls = await logged_calls(agents, acme, sid)
    metrics_text = (await agents.admin.get("/metrics")).text

    assert answered.status_code == 502 and answered.json()["code"] == "provider_error"
    assert "[redacted]" in answered.json()["detail"]  # the provider did echo it
    assert "refused" in envelope["result"]["answers"][0]
    seen = [answered.text, json.dumps(envelope), json.dumps(calls), caplog.text, metrics_text]
    for form in (KEY, KEY.replace("-", "%2D"), "Bearer " + KEY[:12]):
        assert all(form not in text for text in seen), form


@pytest.mark.parametrize(
    "step",
    [
        {"raw": '{"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "mess'},
        {"raw": "<html>502 Bad Gateway</html>", "content_type": "text/html"},
        {"text": "x" * (20 << 20)},  # more than any answer is read
    ],
    ids=["truncated JSON", "HTML", "over 16 MiB"],
)  # fmt: skip
async def test_an_answer_that_cannot_be_read_is_a_provider_error(agents: Api, fake: FakeModel, step: dict) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake)
    fake.reply(step)

    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"})

    assert answered.status_code == 502, answered.text
    assert answered.json()["code"] == "provider_error"


@pytest.mark.parametrize(
    "step",
    [
        {"text": "Your order has", "cut": True},
        {"text": "Your order has", "garbage": True},
        {"raw": '{"id": "chatcmpl-1", "choices": []}', "content_type": "application/json"},
    ],
    ids=["cut mid-chunk", "garbage events", "not SSE"],
)
async def test_a_broken_stream_ends_the_turn_with_a_provider_error(agents: Api, fake: FakeModel, step: dict) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake)
    fake.reply({"tool_calls": [ORDER_CALL], "usage": {"input": 100, "output": 20}}, step)
    path = f"/v1/sessions/{sid}/messages"

    async with acme.agent.stream("POST", path, json={"content": "order?", "stream": True}) as r:
        events = await read_events(r)
    stored = await transcript(acme, sid)
    usage = (await acme.dev.get(f"/v1/usage?session={sid}")).json()["tokens"]

    assert events[-1] == ("error", {"code": "provider_error", "message": events[-1][1]["message"]})
    assert "done" not in [k for k, _ in events]
    assert [m["role"] for m in stored] == ["user", "assistant", "tool"]  # no partial answer
    assert usage["model_calls"] == 1 and usage["input"] == 100  # the first round, once
    fake.reply({"text": "It has shipped."})
    again = await acme.agent.post(path, json={"content": "and?"})
    assert again.json()["message"]["content"] == "It has shipped."


async def test_a_trickling_model_ends_at_the_turns_deadline(agents: Api, fake: FakeModel) -> None:
    acme, sid = await setup(agents, fake, turn_timeout_s=1)
    words = " ".join(["word"] * 60)
    fake.reply({"text": words, "trickle_s": 0.25})  # 15 s in all; each word well inside 2 s
    before = refusals("turn_deadline")
    path = f"/v1/sessions/{sid}/messages"

    async with acme.agent.stream("POST", path, json={"content": "hi", "stream": True}) as r:
        events = await read_events(r)

    assert events[-1][0] == "error" and events[-1][1]["code"] == "provider_timeout"
    assert fake.sent < len(words)  # the model was still talking
    assert refusals("turn_deadline") == before + 1
    fake.reply({"text": "Hello."})
    again = await acme.agent.post(path, json={"content": "hi again"})
    assert again.status_code == 200 and again.json()["message"]["content"] == "Hello."


async def test_the_bounds_are_bot_settings_within_hard_maxima(agents: Api, fake: FakeModel) -> None:
    acme, _ = await setup(agents, fake)
    base = {"name": "c", "tools": None, "model": "main/big"}

    ok = await acme.dev.post("/v1/bots", json={**base, "max_tool_calls": 64, "turn_timeout_s": 900, "approvers": ["agent"]})  # fmt: skip
    shown = (await acme.dev.get("/v1/bots/c")).json()
    too_many = await acme.dev.put("/v1/bots/c", json={**base, "max_tool_calls": 65})
    too_long = await acme.dev.put("/v1/bots/c", json={**base, "turn_timeout_s": 901})
    nobody = await acme.dev.put("/v1/bots/c", json={**base, "approvers": ["admin"]})

    assert ok.status_code == 201, ok.text
    assert shown["max_tool_calls"] == 64 and shown["approvers"] == ["agent"]
    for refused, name in ((too_many, "max_tool_calls"), (too_long, "turn_timeout_s"), (nobody, "approvers")):  # fmt: skip
        assert refused.status_code == 422 and refused.json()["errors"][0]["field"].startswith(name)


STEPS = st.one_of(
    st.builds(
        lambda n, text: {"tool_calls": [ORDER_CALL] * n, "text": text},
        st.integers(0, 150),
        st.sampled_from(["", "Fine.", f"my key is {KEY}!", "z" * 6000]),
    ),
    st.sampled_from(
        [
            {"status": 500},
            {"echo_key": True},
            {"text": "half an answer", "cut": True},
            {"text": "nonsense", "garbage": True},
            {"raw": '{"id": "chatcmpl-1", "cho'},
            {"big": 1 << 20},
            {"text": f"streamed {KEY} and more"},
        ]
    ),  # fmt: skip
)
EXAMPLES = int(os.environ.get("QUIVER_FUZZ_EXAMPLES", "10"))  # a soak run sets more


@hyp.settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True,
    suppress_health_check=[hyp.HealthCheck.function_scoped_fixture, hyp.HealthCheck.too_slow],
)  # fmt: skip
@hyp.given(
    script=st.lists(STEPS, min_size=1, max_size=6),
    max_rounds=st.integers(1, 4),
    round_calls=st.integers(1, 8),
    turn_calls=st.integers(1, 12),
    stream=st.booleans(),
)
async def test_no_model_script_passes_the_bounds_or_shows_the_key(
    bounded: Api, fake: FakeModel, caplog: pytest.LogCaptureFixture,
    script: list[dict], max_rounds: int, round_calls: int, turn_calls: int, stream: bool,
) -> None:  # fmt: skip
    """Whatever the model says — many calls, huge texts, the key itself, faults — the calls run
    stay within the rounds and the caps, what is stored within the byte caps, and the provider's
    key appears in no answer, stored row or log line."""
    caplog.set_level(logging.INFO)
    if not hasattr(bounded, "acme"):
        bounded.acme, _ = await setup(bounded, fake)  # type: ignore[attr-defined]
    acme = bounded.acme  # type: ignore[attr-defined]
    bot = {"name": "b", "tools": None, "model": "main/big", "max_rounds": max_rounds,
           "max_tool_calls": round_calls, "max_turn_tool_calls": turn_calls}  # fmt: skip
    assert (await acme.dev.put("/v1/bots/b", json=bot)).status_code == 200
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    fake.script[:] = [dict(step) for step in script]
    path = f"/v1/sessions/{sid}/messages"

    if stream:
        async with acme.agent.stream("POST", path, json={"content": "go", "stream": True}) as r:
            answer = "".join([line async for line in r.aiter_lines()])
            status = r.status_code
    else:
        response = await acme.agent.post(path, json={"content": "go"})
        answer, status = response.text, response.status_code
    calls = await logged_calls(bounded, acme, sid)
    stored = await transcript(acme, sid)

    assert status in (200, 502, 504), answer
    assert len(calls) <= min(max_rounds * round_calls, turn_calls)
    assert all(len((m["content"] or "").encode()) <= MESSAGE_BYTES for m in stored)
    assert stored_bytes(stored[1:]) <= TURN_BYTES
    for text in (answer, json.dumps(stored), json.dumps(calls), caplog.text):
        assert KEY not in text
