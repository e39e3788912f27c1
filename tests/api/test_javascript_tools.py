"""JavaScript tool files in LiteBot's shape, unchanged, through HTTP on SQLite and PostgreSQL:
QuickJS-NG under wasmtime in the WASM workers, with the Python tiers' contract."""

from __future__ import annotations

import pytest

from tests.api.test_calls import call
from tests.conftest import Api, api_for
from tests.loopback import LoopbackServer

# The lead-collection tool as a LiteBot tenant writes it (axios-like http, updateContext,
# testMode, logger), brought over unchanged.
COLLECT_LEAD = r"""
const PHONE = /^\+?[0-9][0-9 ()-]{6,18}$/;

module.exports = {
  name: 'collectLead',
  description: 'Collects the customer\'s name and phone number and sends them to the CRM',
  parameters: {
    name: { type: 'string', description: 'Customer name', required: true },
    phone: { type: 'string', description: 'Phone number', required: true },
    interest: { type: 'string', description: 'What they want' },
  },
  metadata: { category: 'sales', timeout: 5000 },

  execute: async (params, context) => {
    const { name, phone, interest } = params;
    if (!PHONE.test(phone)) {
      return { success: false, message: `"${phone}" is not a valid phone number` };
    }
    context.modules.logger.info('collecting lead', name);
    if (context.testMode) {
      return { success: true, testMode: true, message: 'Lead validated (test mode, not sent)' };
    }
    const response = await context.modules.http.post(`${context.variables.crmUrl}/leads`, {
      name, phone, interest: interest || null, session: context.sessionId,
    }, { headers: { 'X-Source': 'quiver' } });
    context.updateContext({ leadCollected: true, leadId: response.data.id });
    return { success: true, leadId: response.data.id, message: `Thanks ${name}, we will call you` };
  },

  onError: (error, params, context) => ({
    message: 'The CRM is unreachable right now; apologise and offer to try again later.',
  }),
};
"""


def js(source: str) -> dict:
    return {"kind": "javascript", "source": source}


@pytest.fixture
async def crm(settings, upstream_http: LoopbackServer):
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.2"})) as api:
        yield api


async def test_litebots_lead_tool_runs_unchanged(crm: Api, upstream_http: LoopbackServer) -> None:
    acme = await crm.tenant("acme")
    saved = await acme.dev.post("/v1/tools", json=js(COLLECT_LEAD))
    assert saved.status_code == 201, saved.text
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["collectLead"]})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    # the page stored where the CRM is as a session variable (as LiteBot's host pages do)
    setter = {"kind": "javascript", "source": "module.exports = {name: 'setCrm', description: 'd', parameters: {url: {type: 'string', required: true}}, execute: async (p, c) => { c.updateContext({crmUrl: p.url}); return {ok: true}; }};"}  # fmt: skip
    assert (await acme.dev.post("/v1/tools", json=setter)).status_code == 201
    await acme.dev.put("/v1/bots/b", json={"name": "b", "tools": ["collectLead", "setCrm"]})

    await call(acme, sid, "setCrm", {"url": upstream_http.base + "/crm"})
    bad_phone = await call(acme, sid, "collectLead", {"name": "Ann", "phone": "call me"})
    tested = (await acme.dev.post("/v1/tools/collectLead/test", json={"arguments": {"name": "Ann", "phone": "+49 30 123456"}})).json()  # fmt: skip
    collected = await call(acme, sid, "collectLead", {"name": "Ann", "phone": "+49 30 123456", "interest": "boots"})  # fmt: skip
    variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()
    listed = (await acme.dev.get("/v1/tools/collectLead")).json()

    assert listed["kind"] == "javascript" and listed["parameters"]["required"] == ["name", "phone"]
    assert listed["metadata"]["category"] == "sales" and "module.exports" in listed["source"]
    assert bad_phone["error"]["code"] == "tool_failed" and "not a valid phone" in bad_phone["error"]["message"]  # fmt: skip
    assert tested["success"] and tested["result"]["testMode"] is True
    assert collected["success"], collected
    sent = [s for s in upstream_http.seen if s["path"] == "/crm/leads"][-1]
    assert sent["body"] == {
        "name": "Ann",
        "phone": "+49 30 123456",
        "interest": "boots",
        "session": sid,
    }
    assert sent["headers"]["x-source"] == "quiver"
    assert variables["variables"]["leadCollected"] is True


def tool(body: str, name: str = "attack", metadata: str = "timeout: 1500") -> dict:
    return js(f"module.exports = {{ name: '{name}', description: 'an attempt', metadata: {{ {metadata} }},\n  execute: async (params, context) => {{\n{body}\n  }} }};")  # fmt: skip


# (what the tool does, the code the call must fail with — or None: it succeeds, and the result
# must not hold the canary)
ATTACKS: list[tuple[str, str, str | None]] = [
    ("require fs", "return {x: require('fs').readFileSync('/etc/passwd', 'utf8')}", "tool_error"),
    (
        "require child_process",
        "return {x: require('child_process').execSync('id').toString()}",
        "tool_error",
    ),
    ("require a path", "return {x: require('../../../etc/passwd')}", "tool_error"),
    (
        "dynamic import",
        "const m = await import('qjs:std'); return {x: m.loadFile('/etc/passwd')}",
        "tool_error",
    ),
    (
        "dynamic import os",
        "const m = await import('qjs:os'); return {x: String(m.exec(['id']))}",
        "tool_error",
    ),
    ("std global", "return {x: std.loadFile('/etc/passwd')}", "tool_error"),
    ("os global", "return {x: os.exec(['sh', '-c', 'id'])}", "tool_error"),
    ("process.env", "return {x: process.env.CANARY}", "tool_error"),
    (
        "Function constructor to the global",
        "const g = new Function('return this')(); return {x: Object.keys(g).filter(k => /std|os|process|require|print|scriptArgs/.test(k))}",
        None,
    ),
    (
        "eval to std",
        "return {x: eval('typeof std + typeof os + typeof scriptArgs + typeof print')}",
        None,
    ),
    ("fetch", "return {x: await fetch('http://127.0.0.1/')}", "tool_error"),
    ("XMLHttpRequest", "const r = new XMLHttpRequest(); return {x: r}", "tool_error"),
    ("WebAssembly", "return {x: WebAssembly.compile(new Uint8Array(8))}", "tool_error"),
    (
        "http to the canary port",
        "const r = await context.modules.http.get(CANARY_URL); return {x: r.data}",
        "tool_error",
    ),
    (
        "http to the metadata service",
        "const r = await context.modules.http.get('http://169.254.169.254/latest/meta-data/'); return {x: r.data}",
        "tool_error",
    ),
    (
        "http to a file url",
        "const r = await context.modules.http.get('file:///etc/passwd'); return {x: r.data}",
        "tool_error",
    ),
    (
        "http to localhost by name",
        "const r = await context.modules.http.get(CANARY_URL.replace('127.0.0.1', 'localhost')); return {x: r.data}",
        "tool_error",
    ),
    (
        "too many host calls",
        "for (let i = 0; i < 50; i++) { try { await context.modules.http.get('http://169.254.169.254/') } catch (e) { if (/too many/.test(e.message)) throw e } } return {x: 1}",
        "tool_error",
    ),
    ("infinite loop", "while (true) {}", "out_of_fuel"),
    ("infinite loop with fuel to spare", "while (true) {}", "timeout"),  # FUEL
    (
        "infinite promise chain",
        "const spin = () => Promise.resolve().then(spin); spin(); return await new Promise(() => {})",
        "out_of_fuel",
    ),
    ("a promise that never settles", "return await new Promise(() => {})", "tool_error"),
    ("string memory bomb", "let s = 'x'; while (true) s += s; return {x: s.length}", "tool_error"),
    (
        "array memory bomb",
        "const a = []; while (true) a.push(new Array(100000).fill(1)); return {x: 1}",
        "tool_error",
    ),
    ("deep recursion", "const f = (n) => f(n + 1) + 1; return {x: f(0)}", "trap"),
    ("ReDoS", "return {x: /^(a+)+$/.test('a'.repeat(40) + '!')}", "out_of_fuel"),
    ("a huge result", "return {x: 'y'.repeat(2 * 1024 * 1024)}", "result_too_large"),
    (
        "a thrown object whose printing loops",
        "throw { toJSON() { while (true) {} } }",
        "out_of_fuel",
    ),
    ("a result whose toJSON loops", "return { toJSON() { while (true) {} } }", "out_of_fuel"),
    (
        "a proxy result that throws",
        "return new Proxy({}, { ownKeys() { throw new Error('no') } })",
        "malformed_output",
    ),
    (
        "replace the runtime's JSON",
        "JSON.stringify = () => 'not json'; return {x: 1}",
        "malformed_output",
    ),
    (
        "poison Object.prototype.toJSON",
        "Object.prototype.toJSON = function () { return 'owned' }; return {x: 1}",
        "tool_error",
    ),
    (
        "overwrite the protocol",
        "try { __quiver.poll = () => '{}' } catch (e) {} globalThis.__quiver = null; return {x: typeof __quiver.poll}",
        None,
    ),
    ("a non-object result", "return 42", "tool_error"),
    (
        "Atomics.wait",
        "return {x: Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10000)}",
        "tool_error",
    ),
    (
        "log flood",
        "for (let i = 0; i < 3000; i++) context.modules.logger.info('x'.repeat(5000)); return {x: 1}",
        None,
    ),
    (
        "updateContext with a cycle",
        "const a = {}; a.self = a; context.updateContext({a}); return {x: 1}",
        "tool_error",
    ),
]


# two workers, as on any real node: a tenant may hold all but one of them, so the attacker's calls
# never queue behind the bystander's (with one worker shared back to back, a slow minute of the
# machine could leave an attack waiting past the queue's 2 s: "busy", not the attack's own code)
@pytest.mark.workers(2)
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_escape_attempts_fail_with_their_code_while_others_calls_go_on(api: Api, canary_http: LoopbackServer) -> None:  # fmt: skip
    import asyncio

    attacker = await api.tenant("attacker")
    bystander = await api.tenant("bystander")
    # its calls below run back to back as a load, not at an agent's pace: the per-key rate limit
    # (1000/s) is not what this test is about
    lifted = await api.admin.put("/v1/tenants/bystander/limits", json={"requests": None, "key_requests": None})  # fmt: skip
    assert lifted.status_code == 200, lifted.text
    echo = "module.exports = {name: 'echo', description: 'd', parameters: {x: {type: 'string'}}, execute: async (p) => ({echo: p.x || ''})};"  # fmt: skip
    assert (await bystander.dev.post("/v1/tools", json=js(echo))).status_code == 201
    await bystander.dev.post("/v1/bots", json={"name": "b", "tools": ["echo"]})
    calm = (await bystander.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    names = []
    for i, (what, body, expected) in enumerate(ATTACKS):
        name = f"attack{i}"
        metadata = "timeout: 1500"
        if "fuel to spare" in what:
            metadata += ", fuel: 50000000000"
        elif expected == "out_of_fuel":  # a budget any machine spends well within the deadline
            metadata += ", fuel: 200000000"
        source = tool(
            body.replace("CANARY_URL", repr(canary_http.base + "/canary")), name, metadata
        )
        saved = await attacker.dev.post("/v1/tools", json=source)
        assert saved.status_code == 201, (what, saved.text)
        names.append(name)
    await attacker.dev.post("/v1/bots", json={"name": "b", "tools": names})
    sid = (await attacker.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    bystander_calls: list[dict] = []
    stop = asyncio.Event()

    async def others_go_on() -> None:
        while not stop.is_set():
            bystander_calls.append(await call(bystander, calm, "echo", {"x": "hi"}))

    background = asyncio.create_task(others_go_on())
    outcomes = {}
    try:
        for name, (what, _, _) in zip(names, ATTACKS, strict=True):
            # each ends within its timeout (1.5 s), a wait for the attacker's worker-restart budget
            # or a free worker (QUIVER_QUEUE_WAIT_MS, 2 s) and its unit of work's commit: a bound on
            # the wait against a hang, not a timing (on a loaded 2-core CI machine one commit on
            # SQLite, beside the bystander's load and the call log's writes, took over 1 s)
            outcomes[what] = await asyncio.wait_for(call(attacker, sid, name), 1.5 + 2.0 + 6.0)
    finally:
        stop.set()
        await background
    canary_hits = [s for s in canary_http.seen if s["path"] == "/canary"]

    wrong = {
        what: "{} ({})".format(
            outcomes[what]["error"].get("code"), outcomes[what]["error"].get("message")
        )
        if not outcomes[what]["success"]
        else "success"
        for what, _, expected in ATTACKS
        if (expected is None) != outcomes[what]["success"]
        or (expected and outcomes[what]["error"]["code"] != expected)
    }
    assert not wrong, "; ".join(f"{k}: {v}" for k, v in sorted(wrong.items()))
    leaked = [
        what
        for what, _, _ in ATTACKS
        if "root:" in str(outcomes[what]) or "uid=" in str(outcomes[what])
    ]
    assert not leaked
    assert outcomes["Function constructor to the global"]["result"]["x"] == []
    assert outcomes["eval to std"]["result"]["x"] == "undefinedundefinedundefinedundefined"
    assert len(outcomes["log flood"]["result"]) == 1
    assert canary_hits == []
    assert bystander_calls and all(c["success"] for c in bystander_calls)


async def test_module_state_is_never_shared_across_tenants(api: Api) -> None:
    same = "module.exports = {name: 'state', description: 'd', execute: async () => { const seen = globalThis.mark; globalThis.mark = 'set by ' + TENANT; Object.prototype.polluted = TENANT; return {seen: seen || null, polluted: ({}).polluted}; }};"  # fmt: skip
    results = {}
    for tenant in ("one", "two"):
        t = await api.tenant(tenant)
        # the same text for both tenants but the tenant's name: one worker, one content otherwise
        assert (await t.dev.post("/v1/tools", json=js(same.replace("TENANT", repr(tenant))))).status_code == 201  # fmt: skip
        await t.dev.post("/v1/bots", json={"name": "b", "tools": ["state"]})
        sid = (await t.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        results[tenant] = [await call(t, sid, "state") for _ in range(2)]

    assert results["one"][0]["result"] == {"seen": None, "polluted": "one"}
    assert results["one"][1]["result"] == {
        "seen": "set by one",
        "polluted": "one",
    }  # its own instance, reused
    assert results["two"][0]["result"] == {"seen": None, "polluted": "two"}  # never one's


BOOK = "module.exports = {name: 'bookAppointment', description: 'Books a visit', parameters: {day: {type: 'string', required: true}}, execute: async (p, c) => ({success: true, booked: p.day, copy: COPY})};"  # fmt: skip


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_tools_folder_loads_javascript_files_and_backups_never_shadow_the_real_tool(settings, tmp_path) -> None:  # fmt: skip
    from tests.factories import python_source

    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "check_order.py").write_text(python_source("check_order"))
    (folder / "check_order-old.py").write_text(python_source("check_order").replace("test tool", "the old one"))  # fmt: skip
    (folder / "bookAppointment.js").write_text(BOOK.replace("COPY", "'real'"))
    (folder / "bookAppointment-old.js").write_text(BOOK.replace("COPY", "'old'"))
    (folder / "misnamed.js").write_text(BOOK.replace("COPY", "'x'"))
    (folder / "broken.js").write_text("module.exports = {name: 'broken', execute: ")
    # LiteBot's folders: a file of several tools; an index, templates and dot files not loaded
    group = "module.exports = {tools: [{name: 'crmLookup', description: 'Finds a contact', execute: async () => ({success: true, which: 'lookup'})}, {name: 'crmNote', description: 'Adds a note', execute: async () => ({success: true, which: 'note'})}]};"  # fmt: skip
    (folder / "crm.js").write_text(group)
    for skipped in (
        "index.js",
        "template.js",
        "_template-tool.js",
        ".draft.js",
        "Template_Lead.js",
    ):
        (folder / skipped).write_text("module.exports = require('./crm');")
    async with api_for(settings.model_copy(update={"tools_dir": folder})) as api:
        report = (await api.admin.get("/v1/disk-tools")).json()
        acme = await api.tenant("acme", shared=["bookAppointment", "check_order"])
        await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["bookAppointment", "check_order"]})  # fmt: skip
        sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        booked = await call(acme, sid, "bookAppointment", {"day": "Friday"})
        (folder / "bookAppointment.js").write_text(BOOK.replace("COPY", "'edited'"))
        reloaded = (await api.admin.post("/v1/disk-tools/reload")).json()
        sid2 = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        edited = await call(acme, sid2, "bookAppointment", {"day": "Monday"})
        crm = await api.tenant("crm", shared=["crmLookup", "crmNote"])
        await crm.dev.post("/v1/bots", json={"name": "b", "tools": ["crmLookup", "crmNote"]})
        crm_sid = (await crm.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        looked, noted = await call(crm, crm_sid, "crmLookup"), await call(crm, crm_sid, "crmNote")

    files = {t["name"]: t["file"] for t in report["tools"] if t["origin"] == "global"}
    assert files == {"check_order": "check_order.py", "bookAppointment": "bookAppointment.js",
                     "crmLookup": "crm.js", "crmNote": "crm.js"}  # fmt: skip
    assert not {"index.js", "template.js", "_template-tool.js", ".draft.js", "Template_Lead.js"} & set(report["errors"])  # fmt: skip
    assert looked["result"]["which"] == "lookup" and noted["result"]["which"] == "note"
    assert "skipped" in report["errors"]["check_order-old.py"][0]["message"]
    assert "bookAppointment-old.js declares 'bookAppointment'" in report["errors"]["bookAppointment-old.js"][0]["message"]  # fmt: skip
    assert "misnamed.js" in report["errors"] and "broken.js" in report["errors"]
    assert booked["result"] == {"success": True, "booked": "Friday", "copy": "real"}
    assert {t["name"] for t in reloaded["tools"]} >= {"bookAppointment", "check_order"}
    assert edited["result"]["copy"] == "edited"
