"""Secrets for code tools through HTTP on SQLite and PostgreSQL: set by name, never readable
back, given to the tools that declare them as ``context.secrets`` in every sandbox, and redacted
from everything a call returns, logs, raises or stores — also when the tool tries to leak them."""

from __future__ import annotations

import logging

import pytest

from tests.api.test_calls import call, python, session_for
from tests.conftest import Api

TOKEN = "crm-7f3a9c2e-token-value"

LEAKY = """
def execute(params, context):
    token = context.secrets["CRM_TOKEN"]
    same = context["secrets"]["CRM_TOKEN"] == context.secrets.CRM_TOKEN
    context.modules.logger.info("using", token)
    context.modules.logger.info("token=" + token)
    context.update_context({"last_token": token})
    if params.get("raise"):
        raise ValueError("bad token " + token)
    return {"success": True, "token": token, "length": len(token), "same": same,
            "nested": [{"again": "Bearer " + token}]}


def on_error(error, params, context):
    return {"message": "failed with " + context.secrets["CRM_TOKEN"]}


tool = {"name": "crm", "description": "Talks to the CRM", "execute": execute, "on_error": on_error,
        "parameters": {"raise": {"type": "boolean"}},
        "metadata": {"secrets": ["CRM_TOKEN"]}}
"""


def leaky(sandbox: str = "restricted") -> dict:
    return python(LEAKY, sandbox)


async def test_secrets_are_written_listed_and_deleted_but_never_read_back(api: Api) -> None:
    acme = await api.tenant("acme")
    created = await acme.dev.put("/v1/secrets/CRM_TOKEN", json={"value": TOKEN})
    replaced = await acme.dev.put("/v1/secrets/CRM_TOKEN", json={"value": TOKEN + "-2"})
    listed = await acme.dev.get("/v1/secrets")
    by_agent = await acme.agent.put("/v1/secrets/X_KEY", json={"value": "abcdef"})
    bad_name = await acme.dev.put("/v1/secrets/no-dashes", json={"value": "abcdef"})
    too_short = await acme.dev.put("/v1/secrets/SHORT", json={"value": "abc"})
    too_big = await acme.dev.put("/v1/secrets/BIG", json={"value": "x" * 9000})
    global_by_dev = await acme.dev.put("/v1/secrets/G_KEY?tenant=*", json={"value": "abcdef"})
    global_by_admin = await api.admin.put("/v1/secrets/G_KEY?tenant=*", json={"value": "abcdef"})
    deleted = await acme.dev.delete("/v1/secrets/CRM_TOKEN")
    deleted_again = await acme.dev.delete("/v1/secrets/CRM_TOKEN")
    audit_and_all = [created.text, replaced.text, listed.text]

    assert created.status_code == 201 and replaced.status_code == 200
    assert [s["name"] for s in listed.json()["secrets"]] == ["CRM_TOKEN"]
    assert all(TOKEN not in text for text in audit_and_all)
    assert by_agent.status_code == 403
    assert bad_name.status_code == 422
    assert too_short.status_code == 422 and too_short.json()["errors"][0]["field"] == "value"
    assert too_big.status_code == 422 and too_big.json()["errors"][0]["field"] == "value"
    assert global_by_dev.status_code == 403 and global_by_admin.status_code == 201
    assert deleted.status_code == 204 and deleted_again.status_code == 404


async def test_a_restricted_python_tool_gets_its_secret_and_cannot_leak_it(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    await secret_cannot_leak(api, "restricted", caplog)


@pytest.mark.usefixtures("python_runner")  # built before the app looks for it
async def test_a_python_in_wasm_tool_gets_its_secret_and_cannot_leak_it(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    await secret_cannot_leak(api, "wasm", caplog)


async def secret_cannot_leak(api: Api, sandbox: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    acme = await api.tenant("acme")
    assert (await acme.dev.put("/v1/secrets/CRM_TOKEN", json={"value": TOKEN})).status_code == 201
    sid = await session_for(acme, [leaky(sandbox)])

    ok = await call(acme, sid, "crm")
    raised = await call(acme, sid, "crm", {"raise": True})
    tested = (await acme.dev.post("/v1/tools/crm/test", json={"arguments": {}})).json()
    variables = (await acme.agent.get(f"/v1/sessions/{sid}/variables")).json()
    await api.runtime.call_log.flush()
    logged = (await acme.dev.get(f"/v1/sessions/{sid}/calls")).text
    call_log = (await acme.dev.get("/v1/calls", params={"tool": "crm"})).text  # with log lines
    tool_text = (await acme.dev.get("/v1/tools/crm")).text

    assert ok["success"] is True and ok["result"]["length"] == len(TOKEN)
    assert ok["result"]["same"] is True
    assert ok["result"]["token"] == "[secret CRM_TOKEN]"
    assert ok["result"]["nested"] == [{"again": "Bearer [secret CRM_TOKEN]"}]
    assert raised["success"] is False and "[secret CRM_TOKEN]" in raised["error"]["message"]
    assert raised["modelMessage"] == "failed with [secret CRM_TOKEN]"
    assert tested["logs"] == ["info: using [secret CRM_TOKEN]", "info: token=[secret CRM_TOKEN]"]
    assert "token=[secret CRM_TOKEN]" in call_log and "[redacted] CRM_TOKEN" not in call_log
    assert variables["variables"]["last_token"] == "[secret CRM_TOKEN]"
    everything = [
        str(ok),
        str(raised),
        str(tested),
        str(variables),
        logged,
        call_log,
        tool_text,
        caplog.text,
    ]
    assert all(TOKEN not in text for text in everything)


async def test_a_secret_belongs_to_its_tenant(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    assert (await acme.dev.put("/v1/secrets/CRM_TOKEN", json={"value": TOKEN})).status_code == 201
    sid = await session_for(globex, [leaky()])

    result = await call(globex, sid, "crm")

    assert result["success"] is False and result["error"]["code"] == "missing_secret"
    assert TOKEN not in str(result) and "CRM_TOKEN" in result["error"]["message"]


async def test_undeclared_secrets_are_not_given(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.put("/v1/secrets/CRM_TOKEN", json={"value": TOKEN})
    undeclared = LEAKY.replace('"metadata": {"secrets": ["CRM_TOKEN"]}', '"metadata": {}')
    assert undeclared != LEAKY
    sid = await session_for(acme, [python(undeclared)])

    result = await call(acme, sid, "crm")

    assert result["success"] is False and "CRM_TOKEN" in result["error"]["message"]
    assert TOKEN not in str(result)


async def test_declared_secrets_must_be_names(api: Api) -> None:
    acme = await api.tenant("acme")
    for declared in ('"CRM_TOKEN"', '["no-dashes"]', "[1]"):
        body = python(LEAKY.replace('{"secrets": ["CRM_TOKEN"]}', '{"secrets": ' + declared + "}"))
        response = await acme.dev.post("/v1/tools", json=body)
        assert response.status_code == 422, response.text
        fields = [e.get("field") for e in response.json()["errors"]]
        assert "tool.metadata.secrets" in fields, response.text
