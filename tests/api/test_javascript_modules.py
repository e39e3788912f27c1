"""LiteBot tool files that ``require`` Node's modules and npm's joi, uuid and crypto-js, saved and
called through HTTP as a tenant porting a bot would, in the real WASM workers, on SQLite and
PostgreSQL; their requests go out through the egress guard to a real loopback server."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re

import pytest

from tests.api.test_calls import call
from tests.api.test_javascript_tools import js
from tests.conftest import Api, api_for
from tests.loopback import LoopbackServer

# A ticket tool: joi checks the input, uuid names the ticket, the CRM call is signed with an
# HMAC of its body (crypto) and sent with https's shape over http (the loopback CRM has no TLS).
CREATE_TICKET = r"""
const Joi = require('joi');
const { v4: uuidv4 } = require('uuid');
const crypto = require('crypto');
const http = require('http');
const { URL } = require('url');

const schema = Joi.object({
  email: Joi.string().email().required(),
  subject: Joi.string().min(3).max(80).required(),
  priority: Joi.string().valid('low', 'normal', 'high').default('normal'),
});

function post(target, body, secret) {
  const url = new URL(target);
  const payload = JSON.stringify(body);
  const signature = crypto.createHmac('sha256', secret).update(payload).digest('hex');
  return new Promise((resolve, reject) => {
    const req = http.request({
      hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Signature': signature },
    }, (res) => {
      let data = '';
      res.on('data', (chunk) => { data += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(data) }));
    });
    req.on('error', reject);
    req.write(payload);
    req.end();
  });
}

module.exports = {
  name: 'createTicket',
  description: 'Opens a support ticket in the CRM',
  parameters: {
    email: { type: 'string', required: true },
    subject: { type: 'string', required: true },
    priority: { type: 'string' },
  },
  metadata: { secrets: ['CRM_SIGNING_KEY'] },
  execute: async (params, context) => {
    const { error, value } = schema.validate(params);
    if (error) return { success: false, message: error.details[0].message };
    const ticket = { id: uuidv4(), ...value };
    const answer = await post(`${context.variables.crmUrl}/tickets`, ticket, context.secrets.CRM_SIGNING_KEY);
    return { success: answer.status === 200, ticketId: ticket.id, priority: ticket.priority };
  },
};
"""

# A note sealed with crypto-js's AES and handed back as base64 through Buffer.
SEAL_NOTE = r"""
const CryptoJS = require('crypto-js');

module.exports = {
  name: 'sealNote',
  description: 'Encrypts a note for the agent to keep',
  parameters: { note: { type: 'string', required: true } },
  metadata: { secrets: ['NOTE_KEY'] },
  execute: async ({ note }, context) => {
    const sealed = CryptoJS.AES.encrypt(note, context.secrets.NOTE_KEY).toString();
    const opened = CryptoJS.AES.decrypt(sealed, context.secrets.NOTE_KEY).toString(CryptoJS.enc.Utf8);
    return { sealed, roundTrip: opened === note, wrapped: Buffer.from(sealed).toString('base64') };
  },
};
"""


@pytest.fixture
async def crm(settings, upstream_http: LoopbackServer):
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.2"})) as api:
        yield api


async def test_a_ticket_tool_with_joi_uuid_crypto_and_http_runs_unchanged(
    crm: Api, upstream_http: LoopbackServer
) -> None:
    acme = await crm.tenant("acme")
    await acme.dev.put("/v1/secrets/CRM_SIGNING_KEY", json={"value": "sign-me"})
    saved = await acme.dev.post("/v1/tools", json=js(CREATE_TICKET))
    assert saved.status_code == 201, saved.text
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["createTicket"]})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    patched = await acme.agent.patch(
        f"/v1/sessions/{sid}/variables", json={"variables": {"crmUrl": upstream_http.base}}
    )
    assert patched.status_code == 200, patched.text

    opened = await call(acme, sid, "createTicket", {"email": "ann@example.com", "subject": "Refund"})  # fmt: skip
    refused = await call(acme, sid, "createTicket", {"email": "ann@example", "subject": "Refund"})  # fmt: skip

    assert opened["success"], opened
    result = opened["result"]
    assert result["success"] and result["priority"] == "normal"
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", result["ticketId"])  # fmt: skip
    sent = [s for s in upstream_http.seen if s["path"] == "/tickets"][-1]
    assert sent["method"] == "POST"
    ticket = {"id": result["ticketId"], "email": "ann@example.com", "subject": "Refund", "priority": "normal"}  # fmt: skip
    payload = json.dumps(ticket, separators=(",", ":"))  # JSON.stringify's bytes
    assert sent["body"] == ticket
    assert sent["headers"]["x-signature"] == hmac.new(b"sign-me", payload.encode(), hashlib.sha256).hexdigest()  # fmt: skip
    assert refused["result"] == {"success": False, "message": '"email" must be a valid email'}


async def test_a_crypto_js_tool_runs_unchanged(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.put("/v1/secrets/NOTE_KEY", json={"value": "passphrase"})
    assert (await acme.dev.post("/v1/tools", json=js(SEAL_NOTE))).status_code == 201
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["sealNote"]})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    first = (await call(acme, sid, "sealNote", {"note": "héllo"}))["result"]
    second = (await call(acme, sid, "sealNote", {"note": "héllo"}))["result"]

    assert first["roundTrip"] and second["roundTrip"]
    assert first["sealed"] != second["sealed"]  # a fresh random salt each time
    assert base64.b64decode(first["wrapped"]).decode() == first["sealed"]
    assert base64.b64decode(first["sealed"]).startswith(b"Salted__")


async def test_nodes_http_is_held_by_the_egress_guard(
    crm: Api, canary_http: LoopbackServer
) -> None:
    acme = await crm.tenant("acme")
    source = (
        "const http = require('http');"
        "module.exports = {name: 'peek', description: 'd', execute: async (p) => new Promise((resolve) => {"
        " const req = http.get(p.url, (res) => resolve({status: res.statusCode}));"
        " req.on('error', (e) => resolve({error: e.message})); })};"
    )  # fmt: skip
    await acme.dev.post("/v1/tools", json=js(source))
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["peek"]})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    before = len(canary_http.seen)

    answers = [
        (await call(acme, sid, "peek", {"url": url}))["result"]
        for url in (
            f"{canary_http.base}/secret",
            "http://169.254.169.254/latest/meta-data/",
            f"http://[::ffff:127.0.0.1]:{canary_http.port}/",
            f"http://0x7f000001:{canary_http.port}/",
        )
    ]

    assert all("egress denied" in a.get("error", "") for a in answers), answers
    assert len(canary_http.seen) == before
