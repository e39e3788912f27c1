"""A plain MCP ``tools/call`` is answered without the SDK's per-request machinery
(``server.api.mcp_direct``): its answer must be the SDK's, word for word, in every era and
outcome; whatever it does not take must reach the SDK unchanged. Real uvicorn, both databases."""

from __future__ import annotations

import math

import anyio
import httpx
import orjson
import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from server.api import mcp as mcp_module
from server.api.mcp_direct import InFlight
from tests.api.test_mcp import ready
from tests.conftest import Api, TenantKeys
from tests.servers import served

MODERN, LEGACY = "2026-07-28", "2025-11-25"
ACCEPT = "application/json, text/event-stream"
CASES = {  # outcome -> the call's params
    "answered": {"name": "check_order", "arguments": {"order_id": "AB1234"}},
    "invalid arguments": {"name": "check_order", "arguments": {"order_id": "nope"}},
    "tool failed": {"name": "flaky", "arguments": {"fail": True}},
    "no arguments": {"name": "steady"},
    "unknown tool": {"name": "no_such_tool", "arguments": {}},
}


def meta() -> dict:
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    }


def answer_of(response: httpx.Response) -> dict:
    """The JSON-RPC answer in a JSON body or in the SSE body the SDK sends in a session."""
    if response.headers["content-type"].startswith("application/json"):
        return response.json()
    data = [line[5:] for line in response.text.splitlines() if line.startswith("data:")]
    return orjson.loads(next(d for d in data if d.strip()))


async def handshake(http: httpx.AsyncClient, version: str, initialized: bool = True) -> str:
    hello = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    opened = await http.post("/mcp?bot=b", json=hello, headers={"Accept": ACCEPT})
    assert opened.status_code == 200, opened.text
    session = opened.headers["mcp-session-id"]
    if initialized:
        done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        headers = {"Accept": ACCEPT, "Mcp-Session-Id": session, "MCP-Protocol-Version": version}
        assert (await http.post("/mcp?bot=b", json=done, headers=headers)).status_code == 202
    return session


async def call(
    http: httpx.AsyncClient, version: str, session: str, params: dict, request_id: int = 7
) -> httpx.Response:
    headers = {"Accept": ACCEPT, "MCP-Protocol-Version": version}
    if version == MODERN:
        params = {**params, "_meta": meta()}
        headers.update({"Mcp-Method": "tools/call", "Mcp-Name": params["name"]})
    else:
        headers["Mcp-Session-Id"] = session
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    return await http.post("/mcp?bot=b", json=body, headers=headers)


def spy(monkeypatch) -> list[int]:
    """Counts the answers written the direct way."""
    answered: list[int] = []
    original = mcp_module.answer

    async def counted(*args, **kwargs):
        answered.append(1)
        await original(*args, **kwargs)

    monkeypatch.setattr(mcp_module, "answer", counted)
    return answered


def door(api: Api):
    return api.app.door.mcp


async def tenant(api: Api) -> TenantKeys:
    acme = await api.tenant("acme")
    await ready(acme)
    return acme


@pytest.mark.parametrize("version", [MODERN, *HANDSHAKE_PROTOCOL_VERSIONS])
async def test_the_direct_answer_is_the_sdks_in_every_outcome(
    api: Api, monkeypatch, version: str
) -> None:
    acme = await tenant(api)
    direct = spy(monkeypatch)
    async with served(api.app) as base:
        http = httpx.AsyncClient(
            base_url=base, headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=60
        )
        session = "" if version == MODERN else await handshake(http, version)
        answers = {}
        for way in ("sdk", "direct"):
            door(api).direct = way == "direct"
            for outcome, params in CASES.items():
                response = await call(http, version, session, params)
                answers[way, outcome] = (response.status_code, answer_of(response))
        await http.aclose()

    assert len(direct) == len(CASES)  # each direct request was answered the direct way
    for outcome in CASES:
        assert answers["direct", outcome] == answers["sdk", outcome], outcome
    assert answers["direct", "answered"][1]["result"]["structuredContent"]["status"] == "shipped"
    assert answers["direct", "tool failed"][1]["result"]["isError"] is True
    status, unknown = answers["direct", "unknown tool"]
    assert "no_such_tool" in unknown["error"]["message"]
    assert status == (400 if version == MODERN else 200)


async def test_an_ended_session_refuses_the_direct_way_as_the_sdks(api: Api, monkeypatch) -> None:
    acme = await tenant(api)
    direct = spy(monkeypatch)
    async with served(api.app) as base:
        http = httpx.AsyncClient(
            base_url=base, headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=60
        )
        session = await handshake(http, LEGACY)
        assert (await call(http, LEGACY, session, CASES["answered"])).status_code == 200
        sid = (await acme.dev.get("/v1/sessions")).json()["sessions"][0]["id"]
        assert (await acme.agent.post(f"/v1/sessions/{sid}/end")).status_code == 200
        answers = []
        for way in (False, True):
            door(api).direct = way
            answers.append(answer_of(await call(http, LEGACY, session, CASES["answered"])))
        await http.aclose()

    assert answers[0] == answers[1]
    assert answers[1]["error"]["data"]["code"] == "session_ended"
    assert len(direct) == 2


async def test_what_the_direct_way_does_not_take_reaches_the_sdk(api: Api, monkeypatch) -> None:
    """A session before its handshake ends, another key's session, a version other than the
    session's, a batch, another method: each answered by the SDK, as before."""
    acme = await tenant(api)
    other_key = await api.key("acme", "agent")
    direct = spy(monkeypatch)
    async with served(api.app) as base:
        auth = {"Authorization": f"Bearer {acme.agent_key}"}
        http = httpx.AsyncClient(base_url=base, headers=auth, timeout=60)
        other = httpx.AsyncClient(
            base_url=base, headers={"Authorization": f"Bearer {other_key}"}, timeout=60
        )
        early = await handshake(http, LEGACY, initialized=False)
        before_ready = await call(http, LEGACY, early, CASES["answered"])
        session = await handshake(http, LEGACY)
        stolen = await call(other, LEGACY, session, CASES["answered"])
        switched = await call(http, "2025-06-18", session, CASES["answered"])
        headers = {"Accept": ACCEPT, "MCP-Protocol-Version": LEGACY, "Mcp-Session-Id": session}
        batch = await http.post(
            "/mcp?bot=b",
            json=[{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": CASES["answered"]}],
            headers=headers,
        )
        listed = await http.post(
            "/mcp?bot=b", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=headers
        )
        await http.aclose()
        await other.aclose()

    assert direct == []
    assert before_ready.status_code == 200
    assert before_ready.headers["content-type"].startswith("text/event-stream")  # the SDK's
    assert answer_of(before_ready)["result"]["isError"] is False
    assert stolen.status_code == 404  # as if it did not exist
    assert switched.headers["content-type"].startswith("text/event-stream")
    assert batch.status_code == 400
    assert [t["name"] for t in answer_of(listed)["result"]["tools"]] == [
        "check_order",
        "flaky",
        "steady",
    ]


async def test_the_direct_door_keeps_the_stacks_work(api: Api) -> None:
    """Past the middleware stack, an MCP request still gets its request id, its body cap and
    its refusals."""
    acme = await tenant(api)
    cap = api.app.door.max_body_bytes
    async with served(api.app) as base:
        http = httpx.AsyncClient(
            base_url=base, headers={"Authorization": f"Bearer {acme.agent_key}"}, timeout=60
        )
        answered = await call(http, MODERN, "", CASES["answered"])
        huge = await http.post(
            "/mcp?bot=b",
            content=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "'
            + b"x" * cap
            + b'"}}',
            headers={"Accept": ACCEPT, "Content-Type": "application/json"},
        )
        anonymous = await httpx.AsyncClient(base_url=base).post(
            "/mcp?bot=b", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        )
        await http.aclose()

    assert answered.status_code == 200 and answered.headers["x-request-id"]
    assert huge.status_code == 413 and huge.headers["x-request-id"]
    assert anonymous.status_code == 401 and anonymous.headers["x-request-id"]


class Transport:
    def __init__(self) -> None:
        self.idle_scope = anyio.CancelScope()
        self._idle_timeout = 30.0
        self._requests_in_flight = 0


async def test_a_direct_call_holds_its_session_as_the_sdks_requests_do() -> None:
    """The idle countdown stops while a call is in flight and restarts when the last ends."""
    transport = Transport()
    with InFlight(transport):
        with InFlight(transport):
            assert transport.idle_scope.deadline == math.inf
        assert transport.idle_scope.deadline == math.inf  # one still in flight
    assert transport._requests_in_flight == 0
    assert anyio.current_time() < transport.idle_scope.deadline <= anyio.current_time() + 30
