"""A tenant's guardrails through HTTP on SQLite and PostgreSQL, with real workers and a real
policy service on loopback: deny rules, personal data redacted both ways, size limits, and the
hook's allow / deny / modify / silence (fail open or closed), each decision counted."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from server.guardrails import luhn, redact_text
from tests.api.test_calls import call, python, session_for
from tests.conftest import Api, TenantKeys, api_for

ECHO = python("""
def execute(params, context):
    return {"success": True, "got": params, "contact": params.get("note", "")}


tool = {"name": "echo", "description": "Echoes", "execute": execute,
        "parameters": {"note": {"type": "string"}, "amount": {"type": "integer"}}}
""")
REFUND = python("""
def execute(params, context):
    context.update_context({"refunded": params["amount"]})
    return {"success": True, "refunded": params["amount"]}


tool = {"name": "refund_order", "description": "Refunds", "execute": execute,
        "parameters": {"amount": {"type": "integer", "required": True}}}
""")
CARD = "4111 1111 1111 1111"  # passes the Luhn check
NOT_A_CARD = "4111 1111 1111 1112"


class PolicyService(BaseHTTPRequestHandler):
    """A tenant's policy service: answers each phase as the test says; ``hang`` waits (bounded)
    until the test lets it go."""

    answers: dict[str, dict] = {}
    asked: list[dict] = []
    release = threading.Event()

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        PolicyService.asked.append(body)
        answer = PolicyService.answers.get(body["phase"], {"decision": "allow"})
        if answer.get("hang"):
            PolicyService.release.wait(10)
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def policy_service() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.2", 0), PolicyService)
    server.daemon_threads = True
    PolicyService.answers, PolicyService.asked = {}, []
    PolicyService.release.clear()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.2:{server.server_address[1]}/check"
    PolicyService.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
async def guarded(settings):
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.2"})) as api:
        yield api


async def tenant_with(api: Api, policy: dict) -> tuple[TenantKeys, str]:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [ECHO, REFUND])
    set_ = await api.admin.put(f"/v1/tenants/{acme.id}/guardrails", json=policy)
    assert set_.status_code == 200, set_.text
    return acme, sid


async def test_deny_rules_stop_the_call_before_it_runs(api: Api) -> None:
    policy = {"deny": [{"tool": "refund*", "arguments": '"amount":\\s*[0-9]{4,}'}, {"tool": "drop_*"}]}  # fmt: skip
    acme, sid = await tenant_with(api, policy)

    small = await call(acme, sid, "refund_order", {"amount": 20})
    large = await call(acme, sid, "refund_order", {"amount": 5000})
    variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]

    assert small["success"] is True
    assert large["success"] is False and large["error"]["code"] == "guardrail_denied"
    assert "refund*" in large["error"]["message"] and "policy" in large["modelMessage"]
    assert variables["refunded"] == 20  # the denied call never ran
    await api.runtime.call_log.flush()
    logged = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]
    codes = [(c["error"] or {}).get("code") for c in logged if c["tool"] == "refund_order"]
    assert sorted(codes, key=str) == [None, "guardrail_denied"]


async def test_personal_data_is_redacted_in_what_the_tool_gets_and_gives(api: Api) -> None:
    policy = {"redact": {"arguments": ["email"], "results": ["card", "phone"]}}
    acme, sid = await tenant_with(api, policy)
    note = f"mail ann@example.com, call +49 30 1234567, card {CARD}, not {NOT_A_CARD}, order 20240101"  # fmt: skip

    answered = await call(acme, sid, "echo", {"note": note})

    got = answered["result"]["got"]["note"]
    assert "ann@example.com" not in got and "[email]" in got  # the tool never saw it
    contact = answered["result"]["contact"]
    assert "[card]" in contact and CARD not in contact
    assert NOT_A_CARD in contact  # fails the Luhn check: not a card
    assert "[phone]" in contact and "order 20240101" in contact
    exposed = (await api.admin.get("/metrics")).text
    assert re.search(r'quiver_guardrail_decisions_total\{decision="redact",phase="before"\} [1-9]', exposed)  # fmt: skip
    assert re.search(r'quiver_guardrail_decisions_total\{decision="redact",phase="after"\} [1-9]', exposed)  # fmt: skip


async def test_size_limits_refuse_large_arguments_and_withhold_large_results(api: Api) -> None:
    acme, sid = await tenant_with(api, {"max_argument_bytes": 200, "max_result_bytes": 300})

    fits = await call(acme, sid, "echo", {"note": "x" * 50})
    too_big = await call(acme, sid, "echo", {"note": "x" * 500})
    acme2, sid2 = acme, sid
    await api.admin.put(f"/v1/tenants/{acme.id}/guardrails", json={"max_result_bytes": 120})
    withheld = await call(acme2, sid2, "echo", {"note": "y" * 100})

    assert fits["success"] is True
    assert too_big["error"]["code"] == "guardrail_denied" and "over 200 bytes" in too_big["error"]["message"]  # fmt: skip
    assert withheld["error"]["code"] == "guardrail_denied" and "over 120 bytes" in withheld["error"]["message"]  # fmt: skip
    assert "y" * 100 not in json.dumps(withheld)


async def test_the_policy_hook_allows_denies_and_modifies(
    guarded: Api, policy_service: str
) -> None:
    acme, sid = await tenant_with(guarded, {"hook": {"url": policy_service, "timeout_ms": 2000}})

    allowed = await call(acme, sid, "echo", {"note": "hello"})
    PolicyService.answers = {"before": {"decision": "deny", "reason": "no refunds on Sundays"}}
    denied = await call(acme, sid, "refund_order", {"amount": 5})
    PolicyService.answers = {"before": {"decision": "modify", "arguments": {"note": "rewritten"}}}
    modified = await call(acme, sid, "echo", {"note": "original"})
    PolicyService.answers = {"after": {"decision": "modify", "result": {"success": True, "masked": True}}}  # fmt: skip
    reshaped = await call(acme, sid, "echo", {"note": "z"})
    PolicyService.answers = {"before": {"decision": "modify", "arguments": {"amount": "lots"}}}
    unfit = await call(acme, sid, "refund_order", {"amount": 5})

    assert allowed["success"] is True
    assert denied["error"] == {"code": "guardrail_denied", "message": "no refunds on Sundays"}
    assert modified["result"]["got"] == {"note": "rewritten"}
    assert reshaped["result"] == {"success": True, "masked": True}
    assert unfit["error"]["code"] == "guardrail_denied" and "do not fit" in unfit["error"]["message"]  # fmt: skip
    first = PolicyService.asked[0]
    assert first["phase"] == "before" and first["tool"] == "echo" and first["session"] == sid
    assert first["arguments"] == {"note": "hello"} and first["tenant"] == acme.id
    assert any(a["phase"] == "after" and a["result"]["contact"] == "hello" for a in PolicyService.asked)  # fmt: skip


@pytest.mark.parametrize("fail_closed", [False, True])
async def test_a_silent_hook_fails_open_or_closed_as_the_policy_says(
    guarded: Api, policy_service: str, fail_closed: bool
) -> None:
    hook = {"url": policy_service, "timeout_ms": 100, "fail_closed": fail_closed, "phases": ["before"]}  # fmt: skip
    acme, sid = await tenant_with(guarded, {"hook": hook})
    PolicyService.answers = {"before": {"hang": True}}

    answered = await call(acme, sid, "echo", {"note": "hello"})

    if fail_closed:
        assert answered["error"] == {"code": "guardrail_denied", "message": "the policy service did not answer"}  # fmt: skip
    else:
        assert answered["success"] is True
    decision = "fail_closed" if fail_closed else "fail_open"
    exposed = (await guarded.admin.get("/metrics")).text
    assert re.search(rf'quiver_guardrail_decisions_total\{{decision="{decision}",phase="before"\}} [1-9]', exposed)  # fmt: skip


async def test_a_tool_test_run_meets_the_guardrails_too(api: Api) -> None:
    acme, _ = await tenant_with(api, {"deny": [{"tool": "echo"}]})

    tested = await acme.dev.post("/v1/tools/echo/test", json={"arguments": {"note": "x"}})

    assert tested.status_code == 200, tested.text
    assert tested.json()["error"]["code"] == "guardrail_denied"


@pytest.mark.parametrize(
    ("policy", "field"),
    [
        ({"deny": [{"tool": "x", "arguments": "("}]}, "deny[0].arguments"),
        ({"deny": [{"tool": ""}]}, "deny[0].tool"),
        ({"deny": "all"}, "deny"),
        ({"redact": {"arguments": ["ssn"]}}, "redact.arguments"),
        ({"max_result_bytes": 0}, "max_result_bytes"),
        ({"hook": {"url": "ftp://policy.example"}}, "hook.url"),
        ({"hook": {"url": "https://policy.example", "timeout_ms": 60000}}, "hook.timeout_ms"),
        ({"hook": {"url": "https://policy.example", "phases": ["during"]}}, "hook.phases"),
        ({"allow": []}, "allow"),
    ],
)
async def test_a_bad_policy_is_refused_naming_its_field(api: Api, policy: dict, field: str) -> None:
    acme = await api.tenant("acme")

    refused = await api.admin.put(f"/v1/tenants/{acme.id}/guardrails", json=policy)
    by_developer = await acme.dev.put(f"/v1/tenants/{acme.id}/guardrails", json={})

    assert refused.status_code == 422, refused.text
    assert [e["field"] for e in refused.json()["errors"]] == [field]
    assert by_developer.status_code == 403


def test_what_counts_as_personal_data() -> None:
    every = frozenset({"email", "phone", "card"})

    assert luhn("4111111111111111") and luhn("5500005555555559") and not luhn("4111111111111112")
    assert redact_text("write to a.b+c@mail.example.co.uk", every) == "write to [email]"
    assert redact_text("card 4111-1111-1111-1111 ok", every) == "card [card] ok"
    assert redact_text("call (030) 123 4567 or +1 415 555 0100", every) == "call [phone] or [phone]"
    for kept in ("order 123456789", "2024-05-06", "version 1.2.3", "4111 1111 1111 1112"):
        assert redact_text(kept, every) == kept


RATES = python("""
def execute(params, context):
    return {"success": True, "rate": 1.08, "desk": "fx-desk@example.com"}


tool = {"name": "rates", "description": "Today's rate", "execute": execute,
        "parameters": {"currency": {"type": "string", "required": True}},
        "metadata": {"cacheable": True, "cache_ttl": 600}}
""")


async def test_a_cached_result_and_a_denied_calls_log_meet_the_policy_too(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [RATES, ECHO])
    before = await call(acme, sid, "rates", {"currency": "USD"})  # cached without a policy
    policy = {"redact": {"arguments": ["email"], "results": ["email"]}, "deny": [{"tool": "echo"}]}  # fmt: skip
    assert (await api.admin.put(f"/v1/tenants/{acme.id}/guardrails", json=policy)).status_code == 200  # fmt: skip

    cached = await call(acme, sid, "rates", {"currency": "USD"})
    denied = await call(acme, sid, "echo", {"note": "from bob@example.com"})
    await api.runtime.call_log.flush()
    logged = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]

    assert before["result"]["desk"] == "fx-desk@example.com"
    assert cached["cached"] is True and cached["result"]["desk"] == "[email]"
    assert denied["error"]["code"] == "guardrail_denied"
    echo = [c for c in logged if c["tool"] == "echo"]
    assert echo and "bob@example.com" not in str(echo) and "[email]" in str(echo)


def test_a_pattern_that_backtracks_past_its_time_denies_instead_of_hanging() -> None:
    from server.guardrails import parse

    policy, problems = parse({"deny": [{"tool": "*", "arguments": "(a|aa)+$"}]})
    evil = '{"note":"' + "a" * 40 + 'b"}'

    assert problems == []
    assert policy.denied_by("echo", evil) is not None  # timed out: counted as a match
    assert policy.denied_by("echo", '{"note":"b"}') is None
