"""Structured logs carry the request id, tenant, session and tool; CORS admits agent pages."""

from __future__ import annotations

import json
import logging

from server.logs import JsonFormatter
from tests.api.test_calls import call, simple_tool
from tests.conftest import Api


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


async def test_a_tool_log_line_names_request_tenant_session_and_tool(api: Api) -> None:
    acme = await api.tenant("acme")
    body = simple_tool(
        "chatty", 'context.modules.logger.info("hello from the tool")\nreturn {"success": True}'
    )
    assert (await acme.dev.post("/v1/tools", json=body)).status_code == 201
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    handler = Lines()
    logger = logging.getLogger("quiver.tool")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        response = await acme.agent.post(
            f"/v1/sessions/{sid}/calls",
            json={"tool": "chatty", "arguments": {}},
            headers={"X-Request-ID": "req-42"},
        )
        generated = await acme.agent.post(
            f"/v1/sessions/{sid}/calls", json={"tool": "chatty", "arguments": {}}
        )
    finally:
        logger.removeHandler(handler)

    assert response.headers["x-request-id"] == "req-42"
    assert len(generated.headers["x-request-id"]) == 32
    line = next(x for x in handler.lines if "hello from the tool" in x["message"])
    assert line["request_id"] == "req-42"
    assert (line["tenant"], line["session"], line["tool"]) == ("acme", sid, "chatty")


async def test_an_unsafe_request_id_is_replaced(api: Api) -> None:
    response = await api.admin.get("/healthz", headers={"X-Request-ID": "bad id\r\nX-Evil: 1"})

    assert response.headers["x-request-id"] != "bad id\r\nX-Evil: 1"
    assert "x-evil" not in response.headers


async def test_cors_preflight_admits_agent_headers_without_credentials(api: Api) -> None:
    response = await api.client(None).options(
        "/v1/sessions",
        headers={
            "Origin": "https://shop.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )

    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"
    assert "authorization" in response.headers["access-control-allow-headers"].lower()
    assert "access-control-allow-credentials" not in response.headers


async def test_once_a_tool_call_ends_its_log_context_does_not_leak(api: Api) -> None:
    acme = await api.tenant("acme")
    sid_tool = simple_tool("quiet", 'return {"success": True}')
    await acme.dev.post("/v1/tools", json=sid_tool)
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    await call(acme, sid, "quiet")
    handler = Lines()
    logger = logging.getLogger("quiver.test")
    logger.addHandler(handler)
    try:
        logger.warning("outside any request")
    finally:
        logger.removeHandler(handler)

    assert "tool" not in handler.lines[0] and "request_id" not in handler.lines[0]


async def test_a_call_answers_alike_through_both_doors(api: Api) -> None:
    """A call from an agent's server (no Origin) takes the direct door past the middleware
    stack; one from a page (Origin) goes through it: the same answer, request id, rate-limit
    headers and refusals — and CORS headers for the page only."""
    acme = await api.tenant("acme")
    limits = {"key_requests": "100/hour"}
    assert (await api.admin.put("/v1/tenants/acme/limits", json=limits)).status_code == 200
    await acme.dev.post("/v1/tools", json=simple_tool("echo", 'return {"success": True}'))
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    path = f"/v1/sessions/{sid}/calls"
    page = {"Origin": "https://shop.example"}

    for door in ({}, page):
        ok = await acme.agent.post(
            path, json={"tool": "echo", "arguments": {}}, headers={**door, "X-Request-ID": "r-1"}
        )
        assert ok.status_code == 200 and ok.json()["success"] is True, ok.text
        assert ok.headers["x-request-id"] == "r-1"
        assert ok.headers["ratelimit-limit"] == "100"
        assert int(ok.headers["ratelimit-remaining"]) < 100
        assert ("access-control-allow-origin" in ok.headers) == bool(door)

        nul = await acme.agent.post(path + "?format=%00", json={"tool": "echo"}, headers=door)
        assert nul.status_code == 422 and nul.json()["errors"][0]["field"] == "format", nul.text
        deep = b'{"tool": "echo", "arguments": ' + b'{"a": ' * 200 + b"1" + b"}" * 201
        nested = await acme.agent.post(
            path, content=deep, headers={**door, "Content-Type": "application/json"}
        )
        assert nested.status_code == 422 and nested.json()["code"] == "validation_error"
        big = b'{"tool": "echo", "arguments": {"x": "' + b"a" * (17 << 20) + b'"}}'
        large = await acme.agent.post(
            path, content=big, headers={**door, "Content-Type": "application/json"}
        )
        assert large.status_code == 413 and large.json()["code"] == "payload_too_large"
        assert "x-request-id" in large.headers
        broken = await acme.agent.post(
            path, content=b"{", headers={**door, "Content-Type": "application/json"}
        )
        assert broken.status_code in (400, 422) and "x-request-id" in broken.headers
