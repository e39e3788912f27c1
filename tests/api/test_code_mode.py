"""Code mode (``code_mode: "python" | "javascript"``) through HTTP, MCP and the agent loop, on
SQLite and PostgreSQL: a session is offered ``run_code`` alone, described with its tools as
functions; a program calls them through the session's gate — validated, logged with the
program's call id as their parent, once-per-session kept — and reaches nothing else: no tool
outside the gate, none that needs an approval, no network, no other module."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.api.test_agent_loop import KEY, tool_results
from tests.api.test_calls import call, python
from tests.conftest import Api, TenantKeys
from tests.fake_models import FakeModel

ORDERS = python("""
ETA = {"A1": 2, "B2": 9, "C3": 4}


def execute(params, context):
    return {"success": True, "order": params["order_id"], "days_late": ETA.get(params["order_id"], 0)}


tool = {"name": "check_order", "description": "Check an order's delivery",
        "parameters": {"order_id": {"type": "string", "required": True, "pattern": "^[A-Z][0-9]$"}},
        "execute": execute}
""")
REFUND = python("""
def execute(params, context):
    return {"success": True, "refunded": params["order_id"]}


tool = {"name": "refund", "description": "Refund an order",
        "parameters": {"order_id": {"type": "string", "required": True}}, "execute": execute,
        "metadata": {"once_per_session": True}}
""")
APPROVED = python("""
def execute(params, context):
    return {"success": True, "wired": True}


tool = {"name": "wire_money", "description": "Wire money", "execute": execute,
        "metadata": {"requires_approval": True}}
""")
HIDDEN = python("""
def execute(params, context):
    return {"success": True, "secret": True}


tool = {"name": "admin_reset", "description": "Reset everything", "execute": execute}
""")

PY_PROGRAM = """
late = []
for order in ["A1", "B2", "C3"]:
    checked = tools.check_order(order_id=order)
    late.append((checked["result"]["days_late"], order))
worst = max(late)[1]
refunded = tools.refund({"order_id": worst})
return {"late": worst, "refunded": refunded["success"]}
"""
JS_PROGRAM = """
const late = [];
for (const order of ["A1", "B2", "C3"]) {
  const checked = await tools.check_order({order_id: order});
  late.push([checked.result.days_late, order]);
}
late.sort((a, b) => b[0] - a[0]);
const refunded = await tools.refund({order_id: late[0][1]});
return {late: late[0][1], refunded: refunded.success};
"""
PROGRAMS = {"python": PY_PROGRAM, "javascript": JS_PROGRAM}


async def code_bot(t: TenantKeys, language: str, **more: object) -> str:
    for tool in (ORDERS, REFUND, APPROVED, HIDDEN):
        assert (await t.dev.post("/v1/tools", json=tool)).status_code == 201
    bot = {"name": "b", "tools": ["check_order", "refund", "wire_money"], "code_mode": language, **more}  # fmt: skip
    created = await t.dev.post("/v1/bots", json=bot)
    assert created.status_code == 201, created.text
    return (await t.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]


# a program waits in one sandbox worker while the tool it called runs in another
TWO_WORKERS = pytest.mark.workers(2)


@TWO_WORKERS
@pytest.mark.parametrize("language", ["python", "javascript"])
async def test_a_program_calls_the_sessions_tools_through_its_gate(api: Api, language: str) -> None:
    acme = await api.tenant("acme")
    sid = await code_bot(acme, language)

    snapshot = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()["tools"]
    ran = await call(acme, sid, "run_code", {"code": PROGRAMS[language]})
    again = await call(acme, sid, "run_code", {"code": PROGRAMS[language]})
    direct = await call(acme, sid, "check_order", {"order_id": "A1"})
    await api.runtime.call_log.flush()
    logged = (await acme.agent.get(f"/v1/sessions/{sid}/calls?limit=100")).json()["calls"]

    assert [t["name"] for t in snapshot] == ["run_code"]
    described = snapshot[0]["description"]
    shown = {"python": "tools.check_order(order_id: string)", "javascript": "await tools.check_order({order_id: string})"}  # fmt: skip
    assert shown[language] in described and "admin_reset" not in described
    assert ran["success"] is True, ran
    assert ran["result"] == {"late": "B2", "refunded": True}
    assert again["success"] is False  # refund ran once per session: no longer a function
    assert direct["error"]["code"] == "tool_not_available"  # offered only to programs
    programs = [c for c in logged if c["tool"] == "run_code"]
    first = next(p for p in programs if p["success"])
    inner = [c for c in logged if c["parent_call_id"] == first["call_id"]]
    assert len(programs) == 2 and all(p["call_id"] for p in programs)
    assert sorted(c["tool"] for c in inner) == ["check_order"] * 3 + ["refund"]


@TWO_WORKERS
@pytest.mark.parametrize("language", ["python", "javascript"])
async def test_a_program_reaches_nothing_else(api: Api, language: str, upstream_http) -> None:
    acme = await api.tenant("acme")
    assert (await api.admin.put("/v1/tenants/acme/egress", json={"allow": [upstream_http.host]})).status_code == 200  # fmt: skip
    sid = await code_bot(acme, language)
    path = f"/echo/{uuid.uuid4().hex}"  # the upstream serves every test of the run
    url = upstream_http.base + path
    attempts = {
        "python": {
            "hidden": "return tools.admin_reset()",
            "approval": "return tools.wire_money()",
            "bad_args": 'return tools.check_order(order_id="nope")',
            "network": f'return context.modules.http.get("{url}")',
            "import": "import os\nreturn os.listdir('/')",
        },
        "javascript": {
            "hidden": "return await tools.admin_reset();",
            "approval": "return await tools.wire_money();",
            "bad_args": 'return await tools.check_order({order_id: "nope"});',
            "network": f'return await context.modules.http.get("{url}");',
            "import": "return require('fs').readdirSync('/');",
        },
    }[language]

    answers = {k: await call(acme, sid, "run_code", {"code": v}) for k, v in attempts.items()}

    assert answers["hidden"]["success"] is False  # not in the session: no such function
    assert answers["approval"]["result"]["error"]["code"] == "not_approved"
    assert answers["bad_args"]["result"]["error"]["code"] == "invalid_arguments"
    assert answers["network"]["success"] is False
    assert answers["import"]["success"] is False
    assert [s for s in upstream_http.seen if s["path"] == path] == []  # nothing left the sandbox


async def test_settings_are_checked(api: Api) -> None:
    acme = await api.tenant("acme")
    bad = await acme.dev.post("/v1/bots", json={"name": "b", "tools": None, "code_mode": "ruby"})
    both = await acme.dev.post("/v1/bots", json={"name": "c", "tools": None, "code_mode": "python", "tool_loading": "search"})  # fmt: skip

    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "code_mode"
    assert both.status_code == 422 and both.json()["errors"][0]["field"] == "code_mode"


@TWO_WORKERS
async def test_the_agent_loop_runs_a_program_in_one_round(agents: Api, fake: FakeModel) -> None:
    acme = await agents.tenant("acme")
    assert (await agents.admin.put("/v1/tenants/acme/egress", json={"allow": [fake.host]})).status_code == 200  # fmt: skip
    provider = {"kind": "openai", "base_url": fake.base + "/v1", "api_key": KEY, "models": ["big"]}
    assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
    sid = await code_bot(acme, "python", model="main/big")
    fake.reply(
        {"tool_calls": [{"name": "run_code", "arguments": {"code": PY_PROGRAM}}]},
        {"text": "B2 was the latest; I refunded it."},
    )

    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "Refund the late one of A1, B2, C3"})  # fmt: skip

    assert answered.status_code == 200, answered.text
    first, second = fake.requests
    offered = [t["function"]["name"] for t in first["body"]["tools"]]
    assert offered == ["run_code"]
    assert "tools.refund(order_id: string)" in first["body"]["tools"][0]["function"]["description"]
    assert json.loads(tool_results(second)[0]) == {"late": "B2", "refunded": True}


async def test_with_one_worker_a_programs_call_is_busy_at_once(api: Api) -> None:
    """One sandbox worker: the program holds it, so the Python tool it calls cannot run. The
    call answers busy at once instead of queueing behind the program that waits for it."""
    acme = await api.tenant("acme")
    sid = await code_bot(acme, "python")

    program = 'return {"asked": tools.check_order(order_id="A1")}'
    ran = await call(acme, sid, "run_code", {"code": program})

    assert ran["success"] is True, ran
    assert ran["result"]["asked"]["error"]["code"] == "busy"
    # the answer of a call that did not queue (the queue's would say "every … is busy")
    assert "QUIVER_WORKERS" in ran["result"]["asked"]["error"]["message"]


@TWO_WORKERS
async def test_a_program_runs_under_an_idempotency_key(api: Api) -> None:
    """Its calls are made in run_code's unit of work, which on SQLite holds the key's claim."""
    acme = await api.tenant("acme")
    sid = await code_bot(acme, "javascript")
    body = {"tool": "run_code", "arguments": {"code": JS_PROGRAM}}

    ran = await acme.agent.post(f"/v1/sessions/{sid}/calls", json=body, headers={"Idempotency-Key": "p-1"})  # fmt: skip
    again = await acme.agent.post(f"/v1/sessions/{sid}/calls", json=body, headers={"Idempotency-Key": "p-1"})  # fmt: skip

    assert ran.status_code == 200 and ran.json()["result"] == {"late": "B2", "refunded": True}
    assert again.json() == ran.json() and again.headers["Idempotent-Replayed"] == "true"
