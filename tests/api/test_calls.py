"""The call pipeline through HTTP, with real worker processes, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import func, select

from server.storage.tables import ToolCallRow, ToolRow, ToolVersionRow
from tests.conftest import Api, TenantKeys, api_for

ORDER_TOOL = """
def execute(params, context):
    return {"success": True, "message": "order " + params["order_id"], "qty": params.get("qty"), "rush": params.get("rush"), "seen": sorted(params)}


tool = {
    "name": "check_order",
    "description": "Check an order",
    "parameters": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{4}$"},
            "qty": {"type": "integer", "minimum": 1},
            "rush": {"type": "boolean"},
            "note": {"type": "string", "minLength": 3},
        },
        "required": ["order_id"],
    },
    "execute": execute,
    "metadata": {"timeout": 3000},
}
"""


def python(source: str, sandbox: str = "restricted") -> dict:
    return {"kind": "python", "sandbox": sandbox, "source": source}


def simple_tool(name: str, body: str, timeout: int = 1500, extra: str = "") -> dict:
    indented = "\n".join("    " + line for line in body.strip().splitlines())
    return python(f'''
def execute(params, context):
{indented}


tool = {{"name": "{name}", "description": "test tool", "execute": execute, "metadata": {{"timeout": {timeout}}}{extra}}}
''')


async def session_for(t: TenantKeys, tools: list[dict], bot: dict | None = None) -> str:
    for body in tools:
        response = await t.dev.post("/v1/tools", json=body)
        assert response.status_code == 201, response.text
    await t.dev.post("/v1/bots", json=bot or {"name": "b", "tools": None})
    attached = await t.agent.post("/v1/sessions", json={"bot": (bot or {"name": "b"})["name"]})
    assert attached.status_code == 201, attached.text
    return attached.json()["id"]


async def call(t: TenantKeys, sid: str, tool: str, arguments: dict | None = None) -> dict:
    response = await t.agent.post(
        f"/v1/sessions/{sid}/calls", json={"tool": tool, "arguments": arguments or {}}
    )
    assert response.status_code == 200, response.text
    return response.json()


async def test_attach_returns_the_session_snapshot(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=python(ORDER_TOOL))
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["check_order"]})

    attached = await acme.agent.post("/v1/sessions", json={"bot": "b"})
    snapshot = await acme.agent.get(
        f"/v1/sessions/{attached.json()['id']}/snapshot?format=anthropic"
    )

    assert attached.status_code == 201
    assert [t["name"] for t in attached.json()["snapshot"]["tools"]] == ["check_order"]
    assert snapshot.json()["tools"][0]["input_schema"]["required"] == ["order_id"]


async def test_call_succeeds_with_coerced_and_filtered_arguments(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(ORDER_TOOL)])

    result = await call(
        acme,
        sid,
        "check_order",
        {"order_id": "AB1234", "qty": "3", "rush": "true", "note": "", "evil": "x"},
    )

    assert result["success"] is True and result["toolName"] == "check_order"
    assert result["result"]["qty"] == 3 and result["result"]["rush"] is True
    assert result["result"]["seen"] == ["note", "order_id", "qty", "rush"]
    logged = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]
    assert logged[0]["latency_ms"] == result["executionTime"]  # one figure, envelope and log
    # the log keeps what the tool received: coerced, and without the undeclared argument
    assert logged[0]["arguments"] == {"order_id": "AB1234", "qty": 3, "rush": True, "note": ""}


NESTED_TOOL = """
def execute(params, context):
    return {"success": True, "seen": params}

tool = {"name": "order_lines", "description": "d", "execute": execute, "parameters": {
    "type": "object", "properties": {
        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
        "flags": {"type": "array", "items": {"type": "boolean"}},
        "lines": {"type": "array", "items": {"type": "object", "properties": {
            "sku": {"type": "string"}, "qty": {"type": "integer"}, "price": {"type": "number"}}}},
    }}}
"""


CHOICE_TOOL = """
def execute(params, context):
    return {"success": True, "seen": params}

tool = {"name": "ship", "description": "d", "execute": execute, "parameters": {
    "type": "object", "properties": {
        "speed": {"type": "string", "enum": ["standard", "express"]},
        "gift": {"type": "string", "enum": ["", "wrapped"]},
        "note": {"type": "string"}},
    "required": []}}
"""


async def test_an_empty_string_for_an_optional_choice_is_absent_never_outside_the_enum(
    api: Api,
) -> None:
    """The console's Test form sent "" for an untouched optional enum: the tool never sees a
    value outside the choices."""
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(CHOICE_TOOL)])

    untouched = await call(acme, sid, "ship", {"speed": "", "gift": "", "note": ""})
    chosen = await call(acme, sid, "ship", {"speed": "express"})
    wrong = await call(acme, sid, "ship", {"speed": "teleport"})

    assert untouched["result"]["seen"] == {"gift": "", "note": ""}  # "" is one of gift's choices
    assert chosen["result"]["seen"] == {"speed": "express"}
    assert wrong["success"] is False and wrong["error"]["code"] == "invalid_arguments"


async def test_strings_are_coerced_inside_maps_and_arrays_as_at_the_top_level(api: Api) -> None:
    """Dict[str, int], List[bool] and lists of objects, as models send them: numbers as strings."""
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(NESTED_TOOL)])
    given = {"counts": {"x": "3", "y": 4}, "flags": ["true", "off", True],
             "lines": [{"sku": "007", "qty": "2", "price": "9.50"}]}  # fmt: skip

    result = await call(acme, sid, "order_lines", given)
    wrong = await call(acme, sid, "order_lines", {"counts": {"x": "three"}})

    assert result["success"] is True, result
    assert result["result"]["seen"] == {"counts": {"x": 3, "y": 4}, "flags": [True, False, True],
                                        "lines": [{"sku": "007", "qty": 2, "price": 9.5}]}  # fmt: skip
    assert wrong["success"] is False and wrong["error"]["code"] == "invalid_arguments"
    assert "counts.x" in wrong["error"]["message"]
    body = '{"tool": "order_lines", "arguments": {"lines": [{"sku": "1"}, {"sku": "a\\ud800b"}]}}'
    broken = await acme.agent.post(f"/v1/sessions/{sid}/calls", content=body, headers={"Content-Type": "application/json"})  # fmt: skip
    assert "lines[1].sku" in broken.text  # list positions in brackets, as everywhere


async def test_the_log_keeps_what_the_tool_received_capped_and_paged(api: Api) -> None:
    """Attack: megabytes of undeclared arguments (and a huge declared one) must not be stored
    whole, and a session's calls come back a page at a time."""
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(ORDER_TOOL)])
    flood = {f"junk{i}": "x" * 1000 for i in range(3000)}  # ~3 MB nobody declared

    flooded = await call(acme, sid, "check_order", {"order_id": "AB1234", **flood})
    invalid = await call(acme, sid, "check_order", {"order_id": "no", **flood})
    long_note = await call(acme, sid, "check_order", {"order_id": "AB1234", "note": "n" * 500_000})
    for _ in range(4):
        await call(acme, sid, "check_order", {"order_id": "AB1234"})
    pages, cursor = [], None
    while True:
        page = await acme.agent.get(
            f"/v1/sessions/{sid}/calls",
            params={"limit": 3, **({"cursor": cursor} if cursor else {})},
        )
        pages.append(page.json()["calls"])
        cursor = page.json()["next_cursor"]
        if cursor is None:
            break
    bad_cursor = await acme.agent.get(f"/v1/sessions/{sid}/calls", params={"cursor": "nonsense"})
    too_many = await acme.agent.get(f"/v1/sessions/{sid}/calls", params={"limit": 100_000})

    assert flooded["success"] is True and invalid["error"]["code"] == "invalid_arguments"
    assert long_note["success"] is True
    assert [len(p) for p in pages] == [3, 3, 1]
    rows = [row for page in pages for row in page]
    assert rows[0]["arguments"] == {"order_id": "AB1234"}
    assert rows[1]["arguments"] == {"order_id": "no"}  # the declared part of a refused call
    assert len(rows[2]["arguments"]["note"]) < 2000  # long values are cut with a marker
    assert rows[2]["arguments"]["note"].endswith("…")
    assert all(len(str(row["arguments"])) < 10_000 for row in rows)
    assert bad_cursor.status_code == 422 and bad_cursor.json()["errors"][0]["field"] == "cursor"
    assert too_many.status_code == 422


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"order_id": "nope"}, "order_id"),
        ({}, "order_id"),
        ({"order_id": "AB1234", "qty": "many"}, "qty"),
        ({"order_id": "AB1234", "qty": 0}, "qty"),
    ],
)
async def test_invalid_arguments_tell_the_model_which_and_how(
    api: Api, arguments: dict, argument: str
) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(ORDER_TOOL)])

    result = await call(acme, sid, "check_order", arguments)

    assert result["success"] is False
    assert result["error"]["code"] == "invalid_arguments"
    assert result["argument"] == argument
    assert argument in result["modelMessage"] and "check_order" in result["modelMessage"]


async def test_a_tool_outside_the_snapshot_is_not_run(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=simple_tool("hidden", 'return {"success": True}'))
    sid = await session_for(
        acme, [python(ORDER_TOOL)], bot={"name": "narrow", "tools": ["check_order"]}
    )

    result = await call(acme, sid, "hidden")

    assert result["success"] is False and result["error"]["code"] == "tool_not_available"


async def test_tool_reported_failure_and_on_error(api: Api) -> None:
    acme = await api.tenant("acme")
    failing = python("""
def execute(params, context):
    raise ValueError("database is down")


def on_error(error, params, context):
    return {"message": "Sorry, orders are unavailable (" + error["code"] + ")."}


tool = {"name": "flaky", "description": "fails", "execute": execute, "on_error": on_error}
""")
    reported = simple_tool("reports", 'return {"success": False, "message": "no such customer"}')
    sid = await session_for(acme, [failing, reported])

    shaped = await call(acme, sid, "flaky")
    told = await call(acme, sid, "reports")
    async with api.runtime.sessions() as session:  # what the saves learnt, kept with the versions
        facts = dict(
            (
                await session.execute(
                    select(ToolRow.name, ToolVersionRow.on_error).join(
                        ToolVersionRow, ToolVersionRow.tool_id == ToolRow.id
                    )
                )
            ).all()
        )

    assert facts == {"flaky": True, "reports": False}
    assert (
        shaped["error"]["code"] == "tool_error" and "database is down" in shaped["error"]["message"]
    )
    assert shaped["modelMessage"] == "Sorry, orders are unavailable (tool_error)."
    assert told["success"] is False and told["error"]["code"] == "tool_failed"
    assert "no such customer" in told["modelMessage"]


async def test_update_context_writes_durable_session_variables(api: Api) -> None:
    acme = await api.tenant("acme")
    tool = simple_tool(
        "remember",
        'context.update_context({"name": params.get("name"), "count": len(context.variables) + 1})\nreturn {"success": True, "message": "saved"}',
        extra=', "parameters": {"name": {"type": "string"}}',
    )
    sid = await session_for(acme, [tool])

    await call(acme, sid, "remember", {"name": "Ada"})
    second = await call(acme, sid, "remember", {"name": "Grace"})
    variables = await acme.agent.get(f"/v1/sessions/{sid}/variables")

    assert second["success"]
    assert variables.json()["variables"] == {"name": "Grace", "count": 3}


async def test_sessions_of_another_tenant_are_out_of_reach(api: Api) -> None:
    acme = await api.tenant("acme")
    globex = await api.tenant("globex")
    sid = await session_for(acme, [python(ORDER_TOOL)])

    for method, path, body in [
        ("GET", f"/v1/sessions/{sid}/snapshot", None),
        ("GET", f"/v1/sessions/{sid}/variables", None),
        (
            "POST",
            f"/v1/sessions/{sid}/calls",
            {"tool": "check_order", "arguments": {"order_id": "AB1234"}},
        ),
        ("PUT", f"/v1/sessions/{sid}/intent", {"intent": None}),
    ]:
        response = await globex.agent.request(method, path, json=body)
        assert response.status_code == 404, (method, path)


async def test_developer_tests_own_tools_with_test_mode_and_logs(api: Api) -> None:
    acme = await api.tenant("acme")
    globex = await api.tenant("globex")
    await acme.dev.post(
        "/v1/tools",
        json=simple_tool(
            "probe",
            'context.modules.logger.info("checking", params)\ncontext.update_context({"x": 1})\nreturn {"success": True, "message": "test" if context.test_mode else "live"}',
        ),
    )

    tested = await acme.dev.post("/v1/tools/probe/test", json={"arguments": {}})
    foreign = await globex.dev.post("/v1/tools/probe/test", json={"arguments": {}})
    as_agent = await acme.agent.post("/v1/tools/probe/test", json={"arguments": {}})

    assert tested.json()["result"]["message"] == "test"
    assert tested.json()["logs"] == ["info: checking {}"]
    assert tested.json()["variables"] == {"x": 1}
    assert foreign.status_code == 404 and as_agent.status_code == 403


async def test_global_tools_are_tested_by_admins_only(api: Api) -> None:
    acme = await api.tenant("acme", shared=["*"])
    await api.admin.post(
        "/v1/tools?tenant=*",
        json=simple_tool("shared_probe", 'return {"success": True, "message": "ok"}'),
    )

    by_admin = await api.admin.post("/v1/tools/shared_probe/test?tenant=*", json={})
    by_developer = await acme.dev.post("/v1/tools/shared_probe/test?tenant=*", json={})
    builtin = await api.admin.post(
        "/v1/tools/escalate_to_human/test?tenant=*", json={"arguments": {"reason": "angry"}}
    )

    assert by_admin.json()["success"] is True
    assert by_developer.status_code == 403
    assert (
        builtin.json()["result"]["handoff"] is True
        and builtin.json()["variables"]["escalated"] is True
    )


async def test_every_call_is_logged_with_secrets_redacted(api: Api) -> None:
    acme = await api.tenant("acme")
    tool = simple_tool(
        "login",
        'return {"success": True, "message": "ok"}',
        extra=', "parameters": {"user": {"type": "string"}, "password": {"type": "string"}}',
    )
    sid = await session_for(acme, [tool])

    await call(acme, sid, "login", {"user": "ada", "password": "hunter2"})
    await api.runtime.call_log.flush()

    async with api.runtime.sessions() as session:
        row = await session.scalar(select(ToolCallRow).where(ToolCallRow.tool == "login"))
    assert row.session_id == sid and row.success is True and row.version == 1
    assert row.arguments == {"user": "ada", "password": "[redacted]"}
    assert "hunter2" not in json.dumps(row.arguments)


async def test_a_graceful_stop_loses_no_logged_call(settings) -> None:
    from server.api.app import create_app

    app = create_app(settings.model_copy(update={"call_log_flush_ms": 60_000}))
    async with app.router.lifespan_context(app):
        api = Api(app, None)  # type: ignore[arg-type]
        from tests.conftest import ADMIN_KEY

        api.admin = api.client(ADMIN_KEY)
        acme = await api.tenant("acme")
        sid = await session_for(acme, [simple_tool("noop", 'return {"success": True}')])
        for _ in range(25):
            await call(acme, sid, "noop")
        sessions = app.state.runtime.sessions
        await api.close()
        async with sessions() as session:
            assert (
                await session.scalar(select(func.count()).select_from(ToolCallRow)) == 0
            )  # still queued
    app2 = create_app(settings.model_copy(update={"auto_migrate": False}))
    async with app2.router.lifespan_context(app2), app2.state.runtime.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(ToolCallRow)) == 25


# case: (tool body, expected code, the tool's timeout in ms). Filling 512 MiB takes 0.3-1 s of
# page faults on this machine, so the memory bomb gets a timeout it cannot hit first.
LIMITS = {
    "infinite loop": ("while True:\n    pass", "timeout", 1000),
    "sleep past the timeout": ("import time\ntime.sleep(30)", "timeout", 1000),
    "memory bomb": ("x = []\nwhile True:\n    x.append(' ' * 10**8)", "memory_limit", 4000),
    "one huge allocation": ("return {'x': ' ' * 10**10}", "memory_limit", 1000),
    "huge power": ("return {'x': 10**10**8}", "timeout", 1000),
    "deep recursion": ("def f(n):\n    return f(n + 1)\nreturn f(0)", "tool_error", 1000),
    "regex backtracking": (
        "import re\nreturn {'m': bool(re.match('(a+)+$', 'a' * 40 + 'b'))}",
        "timeout",
        1000,
    ),
    "100 MB result": ("return {'x': 'y' * (100 * 1024 * 1024)}", "result_too_large", 1000),
    "threads": ("import threading\nthreading.Thread(target=print).start()", "tool_error", 1000),
}


@pytest.mark.workers(2)
@pytest.mark.parametrize("case", list(LIMITS), ids=list(LIMITS))
async def test_limits_fail_with_their_code_and_the_service_stays_up(api: Api, case: str) -> None:
    body, code, timeout_ms = LIMITS[case]
    acme = await api.tenant("acme")
    other = await api.tenant("other")
    sid = await session_for(acme, [simple_tool("bad", body, timeout=timeout_ms)])
    other_sid = await session_for(
        other, [simple_tool("fine", 'return {"success": True, "message": "ok"}')]
    )
    health = api.client(None)

    # a bound on the wait against a hang, not a timing: the code says which limit stopped the call
    # (a timeout comes only from the pool's deadline); the first call also starts the pool's
    # workers, which on a loaded machine took seconds
    result, healthy, other_result = await asyncio.wait_for(
        asyncio.gather(
            call(acme, sid, "bad"), health.get("/healthz"), call(other, other_sid, "fine")
        ),
        timeout_ms / 1000 + 30,
    )

    assert result["success"] is False and result["error"]["code"] == code, result
    assert healthy.status_code == 200
    assert other_result["success"] is True
    assert (await call(other, other_sid, "fine"))["success"] is True  # the pool still works


async def test_module_level_infinite_loop_fails_the_save_with_load_timeout(api: Api) -> None:
    acme = await api.tenant("acme")
    source = 'while True:\n    pass\n\ndef execute(p, c):\n    return {}\n\ntool = {"name": "slow", "description": "d", "execute": execute}\n'

    # bounded against a hang; the code says the load-time limit stopped it
    saved = await asyncio.wait_for(acme.dev.post("/v1/tools", json=python(source)), 30)
    validated = await asyncio.wait_for(acme.dev.post("/v1/tools/validate", json=python(source)), 30)

    assert saved.status_code == 422 and saved.json()["code"] == "load_timeout"
    assert validated.json()["valid"] is False and validated.json()["code"] == "load_timeout"
    assert (await acme.dev.get("/v1/tools")).json()["tools"] == []


async def test_values_computed_at_load_are_what_is_saved(api: Api) -> None:
    acme = await api.tenant("acme")
    source = 'FIELDS = ["a", "b"]\n\ndef schema():\n    return {f: {"type": "string"} for f in FIELDS}\n\ndef execute(p, c):\n    return {"success": True}\n\ntool = {"name": "dyn", "description": "built " + str(len(FIELDS)), "parameters": schema(), "execute": execute}\n'

    saved = await acme.dev.post("/v1/tools", json=python(source))

    assert saved.status_code == 201, saved.text
    assert saved.json()["description"] == "built 2"
    assert saved.json()["parameters"]["properties"] == {
        "a": {"type": "string"},
        "b": {"type": "string"},
    }


class LeadApi(BaseHTTPRequestHandler):
    received: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        LeadApi.received.append(body)
        payload = json.dumps({"lead_id": "L-42"}).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:
        pass


LEAD_TOOL = """
import re

PHONE = re.compile(r"^\\+?[0-9 ()-]{7,20}$")
CRM = "CRM_URL"


def execute(params, context):
    phone = params["phone"].strip()
    if not PHONE.match(phone):
        return {"success": False, "message": "That phone number does not look right; ask the customer again."}
    if context.test_mode:
        return {"success": True, "message": "test mode: lead not sent", "phone": phone}
    response = context.modules.http.post(CRM + "/leads", json={"name": params["name"], "phone": phone})
    if response["status"] != 201:
        return {"success": False, "message": "the CRM refused the lead"}
    context.update_context({"lead_id": response["json"]["lead_id"], "lead_phone": phone})
    return {"success": True, "message": "Thanks " + params["name"] + ", we will call you back.", "lead_id": response["json"]["lead_id"]}


tool = {
    "name": "collect_lead",
    "description": "Record a callback request with the customer's name and phone number",
    "parameters": {"name": {"type": "string", "required": True}, "phone": {"type": "string", "required": True}},
    "execute": execute,
    "metadata": {"timeout": 3000, "once_per_session": True},
}
"""


@pytest.fixture
def crm():
    server = ThreadingHTTPServer(("127.0.0.1", 0), LeadApi)
    LeadApi.received = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.parametrize("sandbox", ["restricted", "wasm"])
async def test_litebot_style_lead_tool_end_to_end(
    settings, crm: str, sandbox: str, request: pytest.FixtureRequest
) -> None:
    if sandbox == "wasm":
        request.getfixturevalue("python_runner")  # built before the app looks for it
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.1"})) as api:
        acme = await api.tenant("acme")
        sid = await session_for(acme, [python(LEAD_TOOL.replace("CRM_URL", crm), sandbox)])

        bad_phone = await call(acme, sid, "collect_lead", {"name": "Ada", "phone": "call me"})
        tested = await acme.dev.post(
            "/v1/tools/collect_lead/test",
            json={"arguments": {"name": "Ada", "phone": "+44 20 7946 0958"}},
        )
        assert LeadApi.received == []  # test mode sent nothing
        done = await call(acme, sid, "collect_lead", {"name": "Ada", "phone": "+44 20 7946 0958"})
        variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()["variables"]
        snapshot = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()
        again = await call(acme, sid, "collect_lead", {"name": "Ada", "phone": "+44 20 7946 0958"})

    assert bad_phone["success"] is False and "phone" in bad_phone["modelMessage"]
    assert tested.json()["result"]["message"] == "test mode: lead not sent"
    assert done["success"] is True and done["result"]["lead_id"] == "L-42"
    assert LeadApi.received == [{"name": "Ada", "phone": "+44 20 7946 0958"}]
    assert variables == {
        "lead_id": "L-42",
        "lead_phone": "+44 20 7946 0958",
        "collect_lead_done": True,
    }
    assert snapshot["tools"] == []  # once per session: gone after success
    assert again["error"]["code"] == "tool_not_available"


async def test_http_to_a_host_outside_the_allowlist_is_refused(api: Api, crm: str) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(LEAD_TOOL.replace("CRM_URL", crm))])

    result = await call(acme, sid, "collect_lead", {"name": "Ada", "phone": "+44 20 7946 0958"})

    assert result["success"] is False and "egress denied: 127.0.0.1" in result["error"]["message"]
    assert LeadApi.received == []


async def test_admin_grants_reviewed_modules_per_tenant(api: Api) -> None:
    acme = await api.tenant("acme")
    globex = await api.tenant("globex")
    wrap = simple_tool(
        "wrap",
        'import textwrap\nreturn {"success": True, "message": textwrap.shorten("a b c d e f", 5)}',
    )
    sid = await session_for(acme, [wrap])
    other_sid = await session_for(globex, [wrap])

    refused = await call(acme, sid, "wrap")
    granted = await api.admin.put("/v1/tenants/acme/modules", json={"modules": ["textwrap"]})
    not_reviewed = await api.admin.put("/v1/tenants/acme/modules", json={"modules": ["os"]})
    allowed = await call(acme, sid, "wrap")
    other = await call(globex, other_sid, "wrap")

    assert refused["success"] is False and "textwrap" in refused["error"]["message"]
    assert granted.json()["sandbox_modules"] == ["textwrap"]
    assert (
        not_reviewed.status_code == 422 and not_reviewed.json()["errors"][0]["field"] == "modules"
    )
    assert allowed["success"] is True and allowed["result"]["message"] == "[...]"
    assert other["success"] is False


async def test_tool_log_lines_reach_the_server_log_with_tenant_tool_and_session(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(
        acme,
        [
            simple_tool(
                "chatty", 'context.modules.logger.warning("low stock", 3)\nreturn {"success": True}'
            )
        ],
    )

    with caplog.at_level("INFO", logger="quiver.tool"):
        await call(acme, sid, "chatty")

    record = next(r for r in caplog.records if r.name == "quiver.tool")
    assert record.getMessage() == "warning: low stock 3"
    assert (record.tenant, record.tool, record.session) == ("acme", "chatty", sid)
