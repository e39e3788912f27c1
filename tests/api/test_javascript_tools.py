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
    assert sent["body"] == {"name": "Ann", "phone": "+49 30 123456", "interest": "boots", "session": sid}
    assert sent["headers"]["x-source"] == "quiver"
    assert variables["variables"]["leadCollected"] is True
