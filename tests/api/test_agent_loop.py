"""The agent loop through HTTP on SQLite and PostgreSQL, against a real fake model server on
loopback speaking each provider's wire format (streaming included) through the official SDKs:
multi-round loops, parallel calls, the round limit, failures reaching the model, a breaker
opening mid-turn, provider errors and timeouts, token sums, and the API key never leaking."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from server import metrics
from server.agent.loop import AgentLoop
from server.errors import ConflictError
from server.settings import Settings
from tests.api.test_calls import python
from tests.conftest import Api, TenantKeys, api_for
from tests.fake_models import FakeModel

KEY = "sk-test-NEVER-SHOWN-4f1c"
KINDS = ["openai", "openai-responses", "anthropic", "gemini"]

ORDER = python("""
def execute(params, context):
    return {"success": True, "order": params["order_id"], "status": "shipped"}


tool = {"name": "check_order", "description": "Check an order",
        "parameters": {"order_id": {"type": "string", "required": True}}, "execute": execute}
""")
BROKEN = python("""
def execute(params, context):
    raise ValueError("the CRM is down")


def on_error(error, params, context):
    return {"message": "The CRM is down; apologise and offer a callback."}


tool = {"name": "crm", "description": "Ask the CRM", "execute": execute, "on_error": on_error}
""")


async def setup(api: Api, fake: FakeModel, kind: str = "openai", **bot: object) -> tuple[TenantKeys, str]:  # fmt: skip
    acme = await api.tenant("acme")
    allowed = await api.admin.put("/v1/tenants/acme/egress", json={"allow": [fake.host]})
    assert allowed.status_code == 200
    base = fake.base + ("/v1" if kind.startswith("openai") else "")
    provider = {"kind": kind, "base_url": base, "api_key": KEY, "models": ["big", "small"]}
    assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
    for tool in (ORDER, BROKEN):
        assert (await acme.dev.post("/v1/tools", json=tool)).status_code == 201
    body = {"name": "b", "tools": None, "model": "main/big", "system_prompt": "Be brief.", **bot}
    created = await acme.dev.post("/v1/bots", json=body)
    assert created.status_code == 201, created.text
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    return acme, sid


def tool_names(request: dict) -> set[str]:
    tools = request["body"].get("tools") or []
    declared = [d for t in tools for d in t.get("functionDeclarations", [])]  # Gemini
    return {t.get("name") or t.get("function", {}).get("name") for t in tools if "functionDeclarations" not in t} | {d["name"] for d in declared}  # fmt: skip


def tool_results(request: dict) -> list[str]:
    """The tool results a request carried, whatever the provider's shape."""
    body = request["body"]
    if "input" in body:  # Responses
        return [i["output"] for i in body["input"] if i.get("type") == "function_call_output"]
    if "contents" in body:  # Gemini: function responses are objects
        parts = [p for c in body["contents"] for p in c.get("parts", [])]
        responses = [p["functionResponse"]["response"] for p in parts if "functionResponse" in p]
        return [json.dumps(r) if "result" not in r and "error" not in r else r.get("result", r) for r in responses]  # fmt: skip
    out = []
    for m in body["messages"]:
        if m["role"] == "tool":
            out.append(m["content"])
        elif isinstance(m.get("content"), list):
            out += [b["content"] for b in m["content"] if b.get("type") == "tool_result"]
    return out


@pytest.mark.parametrize("kind", KINDS)
async def test_a_turn_runs_tools_in_parallel_and_answers(
    agents: Api, fake: FakeModel, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    acme, sid = await setup(agents, fake, kind)
    fake.reply(
        {"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}},
                        {"name": "check_order", "arguments": {"order_id": "CD5678"}}],
         "usage": {"input": 120, "output": 30, "cached": 20}},
        {"text": "Both orders have shipped.", "usage": {"input": 200, "output": 10, "cached": 100}},
    )  # fmt: skip

    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "Where are my orders?"})  # fmt: skip
    transcript = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]
    await agents.runtime.call_log.flush()
    calls = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]
    usage = (await acme.dev.get("/v1/usage")).json()["tokens"]
    of_session = (await acme.dev.get(f"/v1/usage?session={sid}")).json()["tokens"]
    of_other_bot = (await acme.dev.get("/v1/usage?bot=other")).json()["tokens"]
    provider = (await acme.dev.get("/v1/providers/main")).json()

    assert answered.status_code == 200, answered.text
    turn = answered.json()
    assert turn["message"]["content"] == "Both orders have shipped."
    assert [len(r["tool_calls"]) for r in turn["rounds"]] == [2, 0]
    assert all(c["envelope"]["success"] for c in turn["rounds"][0]["tool_calls"])
    assert turn["usage"] == {"input": 320, "output": 40, "cached": 120,
                             "tool_rounds": {"input": 120, "output": 30, "cached": 20}}  # fmt: skip
    first, second = fake.requests
    assert {"check_order", "crm"} <= tool_names(first)
    results = tool_results(second)
    assert len(results) == 2 and {json.loads(r)["order"] for r in results} == {"AB1234", "CD5678"}
    assert [m["role"] for m in transcript] == ["user", "assistant", "tool", "tool", "assistant"]
    asked = transcript[1]["id"]
    assert {c["message_id"] for c in calls} == {asked} and len(calls) == 2
    assert usage["input"] == 320 and usage["output"] == 40 and usage["cached"] == 120
    assert usage["tool_round_input"] == 120 and usage["model_calls"] == 2
    assert of_session["input"] == 320 and of_other_bot["input"] == 0
    headers = first["headers"]
    sent_key = "".join(headers.get(h, "") for h in ("authorization", "x-api-key", "x-goog-api-key"))
    assert KEY in sent_key  # the provider got the key …
    everything = [
        answered.text,
        json.dumps(transcript),
        json.dumps(calls),
        json.dumps(provider),
        caplog.text,
    ]
    assert all(KEY not in text for text in everything)  # … and nobody else did


async def read_events(response) -> list[tuple[str, dict]]:
    events, kind = [], None
    async for line in response.aiter_lines():
        if line.startswith("event: "):
            kind = line[len("event: ") :]
        elif line.startswith("data: "):
            events.append((kind, json.loads(line[len("data: ") :])))
    return events


@pytest.mark.parametrize("kind", KINDS)
async def test_a_streamed_turn_sends_text_tool_events_usage_and_done(
    agents: Api, fake: FakeModel, kind: str
) -> None:
    acme, sid = await setup(agents, fake, kind)
    fake.reply(
        {"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]},
        {"text": "Your order AB1234 has shipped today."},
    )
    async with acme.agent.stream(
        "POST", f"/v1/sessions/{sid}/messages", json={"content": "Order AB1234?", "stream": True}
    ) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = await read_events(response)

    kinds = [k for k, _ in events]
    text = "".join(d["delta"] for k, d in events if k == "text")
    call = next(d for k, d in events if k == "tool_call")
    result = next(d for k, d in events if k == "tool_result")
    done = events[-1]
    assert text == "Your order AB1234 has shipped today."
    assert call["name"] == "check_order" and result["id"] == call["id"]
    assert result["envelope"]["success"] is True
    assert kinds.index("tool_call") < kinds.index("tool_result") < kinds.index("text")
    assert kinds.count("usage") == 2 and done[0] == "done"
    assert done[1]["message"]["content"] == text
    assert all(r["body"].get("stream") for r in fake.requests)


async def test_a_turn_answers_alike_through_both_doors(agents: Api, fake: FakeModel) -> None:
    """A turn asked by an agent's server (no Origin) takes the direct door past the middleware
    stack; one from a page (Origin) goes through it: the same answer (JSON or a stream), request
    id, rate-limit headers and refusals — and CORS headers for the page only."""
    acme, sid = await setup(agents, fake)
    limits = {"key_requests": "100/hour"}
    assert (await agents.admin.put("/v1/tenants/acme/limits", json=limits)).status_code == 200
    path = f"/v1/sessions/{sid}/messages"
    page = {"Origin": "https://shop.example"}

    for door in ({}, page):
        fake.reply({"text": "hello"}, {"text": "streamed"})
        ok = await acme.agent.post(path, json={"content": "hi"}, headers={**door, "X-Request-ID": "r-1"})  # fmt: skip
        assert ok.status_code == 200 and ok.json()["message"]["content"] == "hello", ok.text
        assert ok.headers["x-request-id"] == "r-1"
        assert ok.headers["ratelimit-limit"] == "100"
        assert int(ok.headers["ratelimit-remaining"]) < 100
        assert ("access-control-allow-origin" in ok.headers) == bool(door)
        async with acme.agent.stream("POST", path, json={"content": "hi", "stream": True}, headers=door) as streamed:  # fmt: skip
            assert streamed.headers["content-type"].startswith("text/event-stream")
            assert "x-request-id" in streamed.headers
            events = await read_events(streamed)
        assert events[-1][0] == "done" and events[-1][1]["message"]["content"] == "streamed"

        empty = await acme.agent.post(path, json={"content": ""}, headers=door)
        assert empty.status_code == 422 and empty.json()["errors"][0]["field"] == "content"
        extra = await acme.agent.post(path, json={"content": "hi", "model": "x"}, headers=door)
        assert extra.status_code == 422, extra.text
        unknown = await acme.agent.post("/v1/sessions/nope/messages", json={"content": "hi"}, headers=door)  # fmt: skip
        assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
        anonymous = await agents.client(None).post(path, json={"content": "hi"}, headers=door)
        assert anonymous.status_code == 401 and "x-request-id" in anonymous.headers
        big = b'{"content": "' + b"a" * (17 << 20) + b'"}'
        large = await acme.agent.post(path, content=big, headers={**door, "Content-Type": "application/json"})  # fmt: skip
        assert large.status_code == 413 and large.json()["code"] == "payload_too_large"
        broken = await acme.agent.post(path, content=b"{", headers={**door, "Content-Type": "application/json"})  # fmt: skip
        assert broken.status_code in (400, 422) and "x-request-id" in broken.headers
    transcript = (await acme.agent.get(path)).json()["messages"]
    assert [m["content"] for m in transcript] == ["hi", "hello", "hi", "streamed"] * 2


async def test_the_round_limit_asks_for_a_final_answer_without_tools(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake, max_rounds=2)
    again = {"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]}
    fake.reply(again, again, {"text": "I could not finish, sorry."})

    turn = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "loop"})).json()

    assert [bool(tool_names(r)) for r in fake.requests] == [True, True, False]
    assert turn["message"]["content"] == "I could not finish, sorry." and len(turn["rounds"]) == 3


async def test_a_failing_tool_reaches_the_model_as_its_message(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake, "anthropic")
    fake.reply({"tool_calls": [{"name": "crm", "arguments": {}}]}, {"text": "Sorry, the CRM is down."})  # fmt: skip

    turn = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "status?"})).json()  # fmt: skip

    assert turn["rounds"][0]["tool_calls"][0]["envelope"]["success"] is False
    assert tool_results(fake.requests[1]) == ["The CRM is down; apologise and offer a callback."]
    block = fake.requests[1]["body"]["messages"][-1]["content"][0]
    assert block["type"] == "tool_result"
    assert turn["message"]["content"] == "Sorry, the CRM is down."


async def test_a_breaker_that_opens_mid_turn_removes_the_tool_for_the_next_round(
    agents: Api, fake: FakeModel
) -> None:
    acme, sid = await setup(agents, fake)
    three = {"tool_calls": [{"name": "crm", "arguments": {}}] * 3}
    fake.reply(three, {"text": "done"})

    await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "try the CRM"})

    assert "crm" in tool_names(fake.requests[0])
    assert "crm" not in tool_names(fake.requests[1]) and "check_order" in tool_names(
        fake.requests[1]
    )


async def test_the_tool_round_model_dispatches_and_the_main_model_answers(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake, tool_round_model="main/small")
    fake.reply(
        {
            "tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}],
            "usage": {"input": 50, "output": 5},
        },  # fmt: skip
        {"text": "(the cheap model would answer here)", "usage": {"input": 60, "output": 5}},
        {"text": "Shipped.", "usage": {"input": 300, "output": 8}},
    )

    turn = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "AB1234?"})).json()  # fmt: skip

    assert [r["body"]["model"] for r in fake.requests] == ["small", "small", "big"]
    assert not tool_names(fake.requests[2])
    assert turn["message"]["content"] == "Shipped."
    assert turn["usage"]["tool_rounds"] == {"input": 110, "output": 10, "cached": 0}


@pytest.mark.parametrize(
    ("step", "status", "code"),
    [({"status": 500}, 502, "provider_error"), ({"status": 401}, 502, "provider_auth"),
     ({"hang": True}, 504, "provider_timeout")],
    ids=["5xx", "bad key", "timeout"],
)  # fmt: skip
async def test_provider_failures_are_problems_with_stable_codes(
    settings: Settings, fake: FakeModel, step: dict, status: int, code: str
) -> None:
    impatient = {"provider_retries": 0, "provider_timeout_s": 1.0}
    async with api_for(settings.model_copy(update=impatient)) as agents:
        acme, sid = await setup(agents, fake)
        fake.reply(step)
        answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"})
        stored = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]

    assert answered.status_code == status, answered.text
    assert answered.headers["content-type"] == "application/problem+json"
    assert answered.json()["code"] == code and KEY not in answered.text
    assert [(m["role"], m["content"]) for m in stored] == [("user", "hi")]  # the message stays


async def test_a_failed_turn_whose_message_cannot_be_stored_either_says_the_turns_failure(agents: Api, fake: FakeModel, monkeypatch) -> None:  # fmt: skip
    """The provider fails, and storing the user's message then fails too (the database went
    away): the caller hears the provider's failure; the lost write is counted and logged."""
    acme, sid = await setup(agents, fake)
    fake.reply({"status": 500})

    async def database_away(*args: object, **kwargs: object) -> None:
        raise OperationalError("INSERT INTO messages", {}, ConnectionError("gone"))

    monkeypatch.setattr(agents.runtime.agent.messages, "append", database_away)
    before = metrics.REGISTRY.get_sample_value("quiver_unstored_user_messages_total", {"code": "unavailable"}) or 0  # fmt: skip
    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"})
    after = metrics.REGISTRY.get_sample_value("quiver_unstored_user_messages_total", {"code": "unavailable"})  # fmt: skip

    assert answered.status_code == 502 and answered.json()["code"] == "provider_error"
    assert after == before + 1


async def test_a_provider_outside_the_egress_policy_is_never_reached(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake)
    await agents.admin.put("/v1/tenants/acme/egress", json={"allow": []})  # the admin takes it back

    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"})

    assert answered.status_code == 502 and answered.json()["code"] == "provider_error"
    assert fake.requests == []


async def test_providers_and_model_settings_are_checked(agents: Api, fake: FakeModel) -> None:
    acme = await agents.tenant("acme")
    no_key = await acme.dev.put("/v1/providers/p", json={"kind": "openai"})
    bad_kind = await acme.dev.put("/v1/providers/p", json={"kind": "cohere", "api_key": "x"})
    bad_url = await acme.dev.put("/v1/providers/p", json={"kind": "openai", "api_key": "x", "base_url": "file:///etc/passwd"})  # fmt: skip
    by_agent = await acme.agent.put("/v1/providers/p", json={"kind": "openai", "api_key": "x"})
    unknown_model = await acme.dev.post("/v1/bots", json={"name": "b", "tools": None, "model": "nope/x"})  # fmt: skip
    await acme.dev.post("/v1/bots", json={"name": "plain", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "plain"})).json()["id"]
    no_model = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"})
    empty = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": ""})

    assert no_key.status_code == 422 and no_key.json()["errors"][0]["field"] == "api_key"
    assert bad_kind.status_code == 422 and bad_url.status_code == 422
    assert by_agent.status_code == 403
    assert (
        unknown_model.status_code == 422 and unknown_model.json()["errors"][0]["field"] == "model"
    )
    assert no_model.status_code == 422 and no_model.json()["errors"][0]["field"] == "model"
    assert empty.status_code == 422


REFUND = python("""
def execute(params, context):
    return {"success": True, "refunded": params["order_id"]}


tool = {"name": "refund", "description": "Refund an order", "execute": execute,
        "parameters": {"order_id": {"type": "string", "required": True}},
        "metadata": {"requires_approval": True}}
""")


async def with_cart(acme: TenantKeys, sid: str) -> None:
    actions = {"actions": [{"name": "open_cart", "description": "Show the cart", "parameters": {}}]}
    assert (await acme.agent.put(f"/v1/sessions/{sid}/actions", json=actions)).status_code == 200


async def test_a_browser_action_pauses_the_turn_until_the_page_answers(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake, "anthropic")
    await with_cart(acme, sid)
    fake.reply(
        {
            "tool_calls": [
                {"name": "open_cart", "arguments": {}},
                {"name": "check_order", "arguments": {"order_id": "AB1234"}},
            ]
        },  # fmt: skip
        {"text": "I opened your cart; AB1234 has shipped."},
    )

    paused = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "cart and order?"})).json()  # fmt: skip
    mid = paused["message"]["id"]
    action = paused["actions"][0]
    asked_while_paused = len(fake.requests)
    wrong = await acme.agent.post(f"/v1/sessions/{sid}/messages/{mid}/results", json=[{"call_id": "nope", "success": True}])  # fmt: skip
    unknown = await acme.agent.post(f"/v1/sessions/{sid}/messages/not-a-message/results", json=[{"call_id": action["call_id"], "success": True}])  # fmt: skip
    resumed = await acme.agent.post(
        f"/v1/sessions/{sid}/messages/{mid}/results",
        json=[{"call_id": action["call_id"], "success": True, "result": {"opened": True}}],
    )
    again = await acme.agent.post(f"/v1/sessions/{sid}/messages/{mid}/results", json=[{"call_id": action["call_id"], "success": True}])  # fmt: skip

    assert paused["status"] == "requires_action" and asked_while_paused == 1
    assert action["name"] == "open_cart" and action["kind"] == "browser_action"
    assert paused["rounds"][0]["tool_calls"][0]["name"] == "check_order"  # the server tool ran
    assert "open_cart" in tool_names(fake.requests[0])
    assert wrong.status_code == 422 and wrong.json()["errors"][0]["field"] == "[0].call_id"
    assert unknown.status_code == 404
    assert resumed.status_code == 200 and resumed.json()["status"] == "completed"
    assert resumed.json()["message"]["content"] == "I opened your cart; AB1234 has shipped."
    results = tool_results(fake.requests[1])
    assert '{"opened":true}' in results and any("shipped" in r for r in results)
    assert again.status_code == 422  # answered already


async def test_the_pages_outcomes_answered_to_a_turn_are_logged_and_open_the_breaker(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    """As outcomes reported to ``POST …/calls/{call_id}/result`` are: one use case for both."""
    acme, sid = await setup(agents, fake)
    await with_cart(acme, sid)
    failure = {"code": "dom_missing", "message": "no cart button"}
    answered = []
    for _ in range(3):
        fake.reply({"tool_calls": [{"name": "open_cart", "arguments": {"tab": "saved"}}]}, {"text": "It failed."})  # fmt: skip
        paused = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "cart"})).json()  # fmt: skip
        call_id = paused["actions"][0]["call_id"]
        answer = [{"call_id": call_id, "success": False, "error": failure}]
        resumed = await acme.agent.post(f"/v1/sessions/{sid}/messages/{paused['message']['id']}/results", json=answer)  # fmt: skip
        assert resumed.status_code == 200 and resumed.json()["status"] == "completed"
        answered.append(call_id)
    calls = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]
    snapshot = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()
    reported_again = await acme.agent.post(f"/v1/sessions/{sid}/calls/{answered[0]}/result", json={"tool": "open_cart", "success": True})  # fmt: skip

    browser = [c for c in calls if c["kind"] == "browser"]
    assert [c["call_id"] for c in browser] == answered
    assert all(c["error"] == {"code": "dom_missing", "message": "no cart button"} for c in browser)
    assert all(c["arguments"] == {"tab": "saved"} for c in browser)  # what the model asked
    assert "open_cart" not in {t["name"] for t in snapshot["tools"]}  # the session breaker
    assert reported_again.status_code == 409


async def test_unanswered_actions_time_out_to_the_model(agents: Api, fake: FakeModel) -> None:
    acme, sid = await setup(agents, fake, action_timeout_s=1)
    await with_cart(acme, sid)
    fake.reply({"tool_calls": [{"name": "open_cart", "arguments": {}}]}, {"text": "The page did not answer."})  # fmt: skip

    paused = (
        await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "cart"})
    ).json()
    async with asyncio.timeout(15):
        await agents.runtime.agent.expired(sid, paused["message"]["id"])
    transcript = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]

    assert paused["status"] == "requires_action"
    assert any("timed out" in r for r in tool_results(fake.requests[1]))
    assert (
        transcript[-1]["role"] == "assistant"
        and transcript[-1]["content"] == "The page did not answer."
    )


async def test_a_call_that_needs_approval_runs_only_when_approved(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake)
    assert (await acme.dev.post("/v1/tools", json=REFUND)).status_code == 201
    refund = {"tool_calls": [{"name": "refund", "arguments": {"order_id": "AB1234"}}]}
    fake.reply(refund, {"text": "I may not refund that."}, refund, {"text": "Refunded."})

    first = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "refund AB1234"})).json()  # fmt: skip
    denied = await acme.agent.post(
        f"/v1/sessions/{sid}/messages/{first['message']['id']}/results",
        json=[
            {
                "call_id": first["actions"][0]["call_id"],
                "approved": False,
                "reason": "over the limit",
            }
        ],  # fmt: skip
    )
    second = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "please"})).json()  # fmt: skip
    approved = await acme.agent.post(
        f"/v1/sessions/{sid}/messages/{second['message']['id']}/results",
        json=[{"call_id": second["actions"][0]["call_id"], "approved": True}],
    )
    await agents.runtime.call_log.flush()
    calls = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]

    assert first["status"] == "requires_approval" and first["actions"][0]["arguments"] == {"order_id": "AB1234"}  # fmt: skip
    assert denied.json()["message"]["content"] == "I may not refund that."
    assert any("did not approve" in r and "over the limit" in r for r in tool_results(fake.requests[1]))  # fmt: skip
    assert approved.json()["message"]["content"] == "Refunded."
    assert [c["tool"] for c in calls if c["success"]] == ["refund"]  # ran once: when approved


async def test_a_streamed_turn_ends_at_requires_action_and_resumes_streaming(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake)
    await with_cart(acme, sid)
    fake.reply({"tool_calls": [{"name": "open_cart", "arguments": {}}]}, {"text": "Cart is open."})
    async with acme.agent.stream("POST", f"/v1/sessions/{sid}/messages", json={"content": "cart", "stream": True}) as r:  # fmt: skip
        first = await read_events(r)
    kind, paused = first[-1]
    call_id = paused["actions"][0]["call_id"]
    async with acme.agent.stream(
        "POST", f"/v1/sessions/{sid}/messages/{paused['message_id']}/results?stream=true",
        json=[{"call_id": call_id, "success": True, "result": "ok"}],
    ) as r:  # fmt: skip
        rest = await read_events(r)

    assert kind == "requires_action"
    assert "".join(d["delta"] for k, d in rest if k == "text") == "Cart is open."
    assert rest[-1][0] == "done"


async def test_analytics_count_tools_offered_and_ignored(agents: Api, fake: FakeModel) -> None:
    acme, sid = await setup(agents, fake)
    fake.reply({"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]}, {"text": "done"})  # fmt: skip
    await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "AB1234?"})

    analytics = (await acme.dev.get("/v1/analytics/tools")).json()
    offered = {e["tool"]: e for e in analytics["offered"]}
    figures = {e["tool"]: e for e in analytics["tools"]}

    assert offered["check_order"] == {"tool": "check_order", "offered": 2, "called": 1, "ignored_rate": 0.5}  # fmt: skip
    assert offered["crm"]["offered"] == 2 and offered["crm"]["ignored_rate"] == 1.0
    assert analytics["offered"][0]["ignored_rate"] == 1.0  # the most ignored first
    assert figures["check_order"]["called"] == 1 and figures["check_order"]["offered"] == 2


INTENTS = {"orders": ["check_order"], "support": ["crm"]}
RULES = {"mode": "rules", "rules": {"orders": ["order", r"\bAB\d{4}\b"], "support": ["complain", "réclamation"]}}  # fmt: skip


async def test_rules_detect_each_messages_intent_and_gate_the_tools(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake, intents=INTENTS, intent_detection=RULES)
    fake.reply({"text": "It has shipped."})
    async with acme.agent.stream("POST", f"/v1/sessions/{sid}/messages", json={"content": "Where is order AB1234?", "stream": True}) as r:  # fmt: skip
        events = await read_events(r)
    session = (await acme.agent.get(f"/v1/sessions/{sid}")).json()
    detected = (await acme.agent.post(f"/v1/sessions/{sid}/intent/detect", json={"text": "Je veux faire une réclamation"})).json()  # fmt: skip
    unchanged = (await acme.agent.post(f"/v1/sessions/{sid}/intent/detect", json={"text": "hello"})).json()  # fmt: skip

    assert ("intent", {"intent": "orders", "mode": "rules"}) in events
    assert tool_names(fake.requests[0]) == {"check_order"}  # the gate follows the intent
    assert session["intent"] == "orders"
    assert detected == {
        "intent": "support",
        "detected": "support",
        "changed": True,
        "mode": "rules",
    }
    assert unchanged["intent"] == "support" and unchanged["changed"] is False


async def test_the_model_detects_the_intent_in_one_short_call(agents: Api, fake: FakeModel) -> None:
    acme, sid = await setup(agents, fake, intents=INTENTS, intent_detection={"mode": "model"}, tool_round_model="main/small")  # fmt: skip
    fake.reply(
        {"text": "support"}, {"text": "(nothing to dispatch)"}, {"text": "Sorry to hear that."}
    )

    turn = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "My parcel broke"})).json()  # fmt: skip

    asked = fake.requests[0]["body"]
    assert asked["model"] == "small" and "tools" not in asked
    assert "support" in json.dumps(asked["messages"][0]) and "orders" in json.dumps(
        asked["messages"][0]
    )
    assert tool_names(fake.requests[1]) == {"crm"}
    assert turn["message"]["content"] == "Sorry to hear that."


async def test_detection_settings_are_checked(agents: Api, fake: FakeModel) -> None:
    acme = await agents.tenant("acme")
    bad_regex = await acme.dev.post("/v1/bots", json={"name": "b", "tools": None, "intents": INTENTS, "intent_detection": {"mode": "rules", "rules": {"orders": ["(unclosed"]}}})  # fmt: skip
    unknown = await acme.dev.post("/v1/bots", json={"name": "b", "tools": None, "intents": INTENTS, "intent_detection": {"mode": "rules", "rules": {"billing": ["bill"]}}})  # fmt: skip
    no_intents = await acme.dev.post("/v1/bots", json={"name": "b", "tools": None, "intent_detection": {"mode": "model"}})  # fmt: skip

    assert bad_regex.status_code == 422 and bad_regex.json()["errors"][0]["field"] == "intent_detection.rules.orders[0]"  # fmt: skip
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "intent_detection.rules.billing"  # fmt: skip
    assert no_intents.status_code == 422


async def test_a_turn_uses_the_providers_and_bots_settings_as_changed_a_moment_ago(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    """The loop keeps a provider's and a bot's settings per node between turns: a change made
    through the API is used by the very next turn (other nodes hear of it as of a tool's)."""
    acme, sid = await setup(agents, fake)
    fake.default = {"text": "ok"}
    first = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "one"})
    new_key = "sk-test-ROTATED-9d2e"
    assert (await acme.dev.put("/v1/providers/main", json={"kind": "openai", "base_url": fake.base + "/v1", "api_key": new_key})).status_code == 200  # fmt: skip
    second = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "two"})
    changed = await acme.dev.put("/v1/bots/b", json={"name": "b", "tools": None, "model": "main/small", "system_prompt": "Be kind."})  # fmt: skip
    assert changed.status_code == 200, changed.text
    third = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "three"})

    assert first.status_code == second.status_code == third.status_code == 200, third.text
    one, two, three = fake.requests[-3:]
    assert one["headers"]["authorization"] == f"Bearer {KEY}"
    assert two["headers"]["authorization"] == f"Bearer {new_key}"  # the provider's change
    assert (two["body"]["model"], three["body"]["model"]) == ("big", "small")  # the bot's
    assert three["body"]["messages"][0] == {"role": "system", "content": "Be kind."}
    assert [m["content"] for m in three["body"]["messages"] if m["role"] == "user"] == ["one", "two", "three"]  # fmt: skip
    audit = (await acme.dev.get("/v1/audit")).json()["entries"]
    assert [e["action"] for e in audit if e["action"].startswith("provider.")] == ["provider.put", "provider.put"]  # fmt: skip


async def test_on_sqlite_a_turns_writes_wait_on_the_event_loop_for_the_one_writer(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    """SQLite has one writer: a turn whose writes find another's under way waits on the event
    loop holding no pooled connection — not asleep in SQLite's busy handler with one, which ran
    the pool dry at 1,000 concurrent turns. PostgreSQL takes them side by side."""
    acme, sid = await setup(agents, fake)
    runtime = agents.runtime
    if runtime.engine.dialect.name == "postgresql":
        assert not isinstance(runtime.agent.messages.writes, asyncio.Lock)
        return
    fake.reply({"text": "hello"})
    runtime.agent.messages.writes = gate = SeenLock()
    async with gate:  # another turn's writes under way
        turn = asyncio.create_task(acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"}))  # fmt: skip
        await asyncio.wait_for(gate.asked.wait(), 10)  # the turn is queued for the writer
        assert runtime.engine.pool.checkedout() == 0  # it waits holding no connection
        transcript = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]
        assert transcript == []
    answered = await asyncio.wait_for(turn, 10)
    assert answered.status_code == 200, answered.text
    assert answered.json()["message"]["content"] == "hello"


async def test_a_rounds_tool_results_are_stored_while_the_model_reads_them_and_before_the_answer(agents: Api, fake: FakeModel, monkeypatch) -> None:  # fmt: skip
    """A round's tool results are written while the model is asked again, not before: the
    model reads them at once, the answer waits for them, and every message is stored in
    order."""
    acme, sid = await setup(agents, fake)
    fake.reply({"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]}, {"text": "Shipped."})  # fmt: skip
    log = agents.runtime.agent.messages
    written, release, steps = log.append, asyncio.Event(), []

    async def held(session_id, tenant_id, bot, messages, seq=None):  # the results wait to go in
        role = messages[0]["role"]
        steps.append(("start", role))
        if role == "tool":
            await release.wait()
        stored = await written(session_id, tenant_id, bot, messages, seq)
        steps.append(("stored", role))
        return stored

    asked, asked_again = fake._next, asyncio.Event()

    async def seen(request):  # the fake model tells the test when it is asked again
        answer = await asked(request)
        if len(fake.requests) == 2:
            asked_again.set()
        return answer

    monkeypatch.setattr(log, "append", held)
    monkeypatch.setattr(fake, "_next", seen)
    turn = asyncio.create_task(acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "Where is it?"}))  # fmt: skip
    await asyncio.wait_for(asked_again.wait(), 10)  # asked again, the results not stored yet
    unstored = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]
    release.set()
    answered = await asyncio.wait_for(turn, 10)
    transcript = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]

    assert [m["role"] for m in unstored] == ["user", "assistant"]
    assert [json.loads(r)["order"] for r in tool_results(fake.requests[1])] == ["AB1234"]
    assert answered.status_code == 200, answered.text
    assert answered.json()["message"]["content"] == "Shipped."
    assert steps == [("start", "user"), ("stored", "user"), ("start", "tool"), ("stored", "tool"),
                     ("start", "assistant"), ("stored", "assistant")]  # fmt: skip
    assert [m["role"] for m in transcript] == ["user", "assistant", "tool", "assistant"]
    assert [m["content"] for m in transcript][3] == "Shipped."


async def test_a_turn_whose_tool_results_cannot_be_stored_fails_and_stores_no_answer(agents: Api, fake: FakeModel, monkeypatch, caplog) -> None:  # fmt: skip
    """The results' write fails (the database went away) while the model reads them: the turn
    answers 503 and stores nothing after them, and the lost write is logged."""
    acme, sid = await setup(agents, fake)
    fake.reply({"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]}, {"text": "Shipped."})  # fmt: skip
    log = agents.runtime.agent.messages
    written = log.append

    async def results_lost(session_id, tenant_id, bot, messages, seq=None):
        if messages[0]["role"] == "tool":
            raise OperationalError("INSERT INTO messages", {}, ConnectionError("gone"))
        return await written(session_id, tenant_id, bot, messages, seq)

    monkeypatch.setattr(log, "append", results_lost)
    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "Where is it?"})  # fmt: skip
    transcript = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]

    assert answered.status_code == 503 and answered.json()["code"] == "unavailable"
    assert [m["role"] for m in transcript] == ["user", "assistant"]
    assert "a turn's tool results were not stored" in caplog.text


class SeenLock(asyncio.Lock):
    """The node's writer gate, telling the test when someone asks for it."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = asyncio.Event()

    async def acquire(self) -> bool:
        if self.locked():
            self.asked.set()
        return await super().acquire()


async def test_the_next_turn_on_the_node_that_answered_the_last_reads_no_history_back(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    """The node keeps the conversation it answered last: the session's next turn sends the model
    the whole conversation without reading it from the database again. A session attached
    through this node has a known, empty history: its first turn reads nothing either."""
    acme, sid = await setup(agents, fake)
    attached_here = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    agents.runtime.agent.histories.take(sid)  # as if attached through another node
    fake.default = {"text": "ok"}
    reads = HistoryReads(agents.runtime.engine.sync_engine)
    counts = []
    for session, text in ((sid, "one"), (sid, "two"), (attached_here, "hello")):
        with reads:
            answered = await acme.agent.post(f"/v1/sessions/{session}/messages", json={"content": text})  # fmt: skip
        assert answered.status_code == 200, answered.text
        counts.append(reads.count)
        reads.count = 0

    assert counts == [1, 0, 0]  # the first turn read it; the second did not; nor did the new one
    second, new = fake.requests[-2:]
    assert [(m["role"], m["content"]) for m in second["body"]["messages"]] == [("system", "Be brief."), ("user", "one"), ("assistant", "ok"), ("user", "two")]  # fmt: skip
    assert [m["content"] for m in new["body"]["messages"]] == ["Be brief.", "hello"]


async def test_a_turn_answered_by_another_node_meanwhile_is_read_again(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    """Another node's turn makes this node's copy of the history stale: the next turn here finds
    its message number taken, reads the history, and answers — nothing lost or out of order."""
    acme, sid = await setup(agents, fake)
    fake.default = {"text": "ok"}
    other_node = AgentLoop(agents.runtime.services)  # its own caches over the same database
    try:
        first = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "one"})
        await other_node.turn("acme", sid, "two")
        third = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "three"})
    finally:
        await other_node.close()

    assert first.status_code == third.status_code == 200, third.text
    sent = [m["content"] for m in fake.requests[-1]["body"]["messages"] if m["role"] == "user"]
    assert sent == ["one", "two", "three"]
    stored = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]
    assert [(m["role"], m["content"]) for m in stored] == [("user", "one"), ("assistant", "ok"), ("user", "two"), ("assistant", "ok"), ("user", "three"), ("assistant", "ok")]  # fmt: skip


async def test_messages_written_together_keep_each_ones_columns(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    """A turn's user message is written with the model's first answer in one insert: each row
    keeps its own columns (tool calls, tokens, the tool's name), and a taken number writes
    nothing."""
    acme, sid = await setup(agents, fake)
    log = agents.runtime.agent.messages
    call = {"id": "c1", "name": "check_order", "arguments": {"order_id": "AB1234"}}
    written = await log.append(sid, "acme", "b", [
        {"role": "user", "content": "Order AB1234?"},
        {"role": "assistant", "tool_calls": [call], "model": "big", "input_tokens": 7, "output_tokens": 3, "tool_round": True},
        {"role": "tool", "tool_call_id": "c1", "name": "check_order", "content": "{}"},
    ], seq=1)  # fmt: skip
    with pytest.raises(ConflictError):
        await log.append(sid, "acme", "b", [{"role": "user", "content": "lost?"}, {"role": "assistant", "content": "no"}], seq=3)  # fmt: skip

    stored = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]
    assert [m["id"] for m in stored] == [m.id for m in written]
    user, assistant, tool = stored
    assert (user["role"], user["content"], user["seq"]) == ("user", "Order AB1234?", 1)
    assert assistant["tool_calls"] == [call] and assistant["content"] is None
    assert (assistant["model"], assistant["tool_round"], assistant["usage"]) == ("big", True, {"input": 7, "output": 3, "cached": 0})  # fmt: skip
    assert (tool["tool_call_id"], tool["name"], tool["content"], tool["seq"]) == ("c1", "check_order", "{}", 3)  # fmt: skip


async def test_a_streamed_answer_to_a_session_answered_elsewhere_meanwhile_ends_in_a_conflict(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    """The node finds its copy of the history stale only as it writes the user's message with
    the model's answer; that answer was already streaming, so the stream ends with `conflict`,
    nothing of it is stored, and the message sent again is answered with the whole history."""
    acme, sid = await setup(agents, fake)
    fake.default = {"text": "ok"}
    path = f"/v1/sessions/{sid}/messages"
    other_node = AgentLoop(agents.runtime.services)  # its own caches over the same database
    try:
        assert (await acme.agent.post(path, json={"content": "one"})).status_code == 200
        await other_node.turn("acme", sid, "two")
        async with acme.agent.stream("POST", path, json={"content": "three", "stream": True}) as streamed:  # fmt: skip
            events = await read_events(streamed)
        again = await acme.agent.post(path, json={"content": "three"})
    finally:
        await other_node.close()

    assert [k for k, _ in events] == ["text", "error"] and events[-1][1]["code"] == "conflict"
    assert again.status_code == 200, again.text
    sent = [m["content"] for m in fake.requests[-1]["body"]["messages"] if m["role"] == "user"]
    assert sent == ["one", "two", "three"]
    stored = (await acme.agent.get(path)).json()["messages"]
    assert [(m["role"], m["content"]) for m in stored] == [("user", "one"), ("assistant", "ok"), ("user", "two"), ("assistant", "ok"), ("user", "three"), ("assistant", "ok")]  # fmt: skip


async def test_a_turn_stopped_while_the_model_thinks_keeps_the_users_message(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    """The user's message is written with the model's first answer; a turn stopped before
    that (the client left a stream) still leaves it in the history, and the session answers
    the next message."""
    acme, sid = await setup(agents, fake)
    fake.reply({"hang": True}, {"text": "back"})
    turn = asyncio.create_task(agents.runtime.agent.turn("acme", sid, "are you there?"))
    await asyncio.wait_for(fake.hanging.wait(), 10)
    turn.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(turn, 10)
    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hello?"})

    assert answered.status_code == 200, answered.text
    stored = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).json()["messages"]
    assert [(m["role"], m["content"]) for m in stored] == [("user", "are you there?"), ("user", "hello?"), ("assistant", "back")]  # fmt: skip


class HistoryReads:
    """Counts the statements that read a session's history, while entered."""

    def __init__(self, engine: object) -> None:
        self.engine = engine
        self.count = 0

    def seen(self, conn: object, cursor: object, statement: str, *args: object) -> None:
        if "FROM messages" in statement and "ORDER BY messages.seq" in statement:
            self.count += 1

    def __enter__(self) -> HistoryReads:
        event.listen(self.engine, "before_cursor_execute", self.seen)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self.seen)


@pytest.mark.parametrize("stream", [False, True])
async def test_handoff_in_the_models_answer_hands_the_session_to_a_person(agents: Api, fake: FakeModel, stream: bool) -> None:  # fmt: skip
    """The seed bots' persona trigger: ``[[HANDOFF]]`` anywhere in the answer hands the session
    off as escalate_to_human does (status, variables, announcement) and never reaches the user."""
    acme, sid = await setup(agents, fake)
    fake.reply({"text": "I will get a colleague for you. [[HANDOFF]]"})
    if stream:
        async with acme.agent.stream("POST", f"/v1/sessions/{sid}/messages", json={"content": "A person please", "stream": True}) as response:  # fmt: skip
            events = await read_events(response)
        shown = "".join(d["delta"] for k, d in events if k == "text")
        content = events[-1][1]["message"]["content"]
    else:
        answer = (await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "A person please"})).json()  # fmt: skip
        shown = content = answer["message"]["content"]
    session = (await acme.agent.get(f"/v1/sessions/{sid}")).json()
    variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]
    transcript = (await acme.agent.get(f"/v1/sessions/{sid}/messages")).text
    after = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "hello?"})

    assert content == "I will get a colleague for you." and "HANDOFF" not in shown
    assert session["status"] == "handed_off"
    assert variables["escalated"] is True and variables["escalation_reason"]
    assert "[[HANDOFF]]" not in transcript
    assert after.status_code == 409 and after.json()["code"] == "handed_off"


@pytest.mark.parametrize(
    "pieces",
    [["Wait. [[HANDOFF]]"], ["Wait. [[HAND", "OFF]]"], ["Wait. [", "[", "HANDOFF", "]", "]"],
     ["Wait. [[HANDOVER]] no"], ["a [[", "b"]],
)  # fmt: skip
async def test_the_marker_never_streams_even_split_across_pieces(pieces: list[str]) -> None:
    from server.agent.handoff_marker import WithoutMarker

    sent: list[str] = []
    ended = []

    async def send(text: str) -> None:
        sent.append(text)

    async def end() -> None:
        ended.append(True)

    stream = WithoutMarker(send, end)
    for piece in pieces:
        await stream(piece)
    await stream.end()

    assert "".join(sent) == "".join(pieces).replace("[[HANDOFF]]", "") and ended == [True]


async def test_usage_per_day_counts_calls_and_tokens_for_a_chart(agents: Api, fake: FakeModel) -> None:  # fmt: skip
    acme, sid = await setup(agents, fake)
    fake.reply({"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]}, {"text": "Shipped."})  # fmt: skip
    await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "Where is AB1234?"})
    await acme.dev.post("/v1/tools/check_order/test", json={"arguments": {"order_id": "AB1234"}})  # a test run: not counted  # fmt: skip

    week = (await acme.dev.get("/v1/usage/daily", params={"days": 7})).json()["days"]
    bad = await acme.dev.get("/v1/usage/daily", params={"days": 0})
    by_agent = await acme.agent.get("/v1/usage/daily")

    assert len(week) == 7 and week[-1]["day"] == datetime.now(UTC).date().isoformat()
    assert [d["day"] for d in week] == sorted(d["day"] for d in week)
    today = week[-1]
    assert today["calls"] == 1 and today["successes"] == 1
    assert today["input_tokens"] > 0 and today["output_tokens"] > 0
    assert all(d["calls"] == 0 and d["input_tokens"] == 0 for d in week[:-1])
    assert bad.status_code == 422 and by_agent.status_code == 403
