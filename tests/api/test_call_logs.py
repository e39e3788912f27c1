"""Call logs as data: the tools' own log lines stored with their calls, the filtered and paged
call browser (`GET /v1/calls`), its live tail (`GET /v1/calls/stream`), the audit log
(`GET /v1/audit`) and a save that another writer overtook (`If-Match`)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import httpx

from tests.api.test_calls import session_for, simple_tool
from tests.conftest import Api
from tests.servers import served

NOISY = simple_tool(
    "noisy",
    'context.modules.logger.info("looking up " + params.get("q", ""))\n'
    'context.modules.logger.warning("api_key=sk-live-123456 token: abcdef123456")\n'
    "if params.get('fail'):\n    raise ValueError('broken on purpose')\n"
    "for i in range(params.get('lines', 0)):\n    context.modules.logger.info('x' * 900)\n"
    'return {"success": True, "message": "ok"}',
    extra=', "parameters": {"q": {"type": "string"}, "fail": {"type": "boolean"}, "lines": {"type": "integer"}}',
)
QUIET = simple_tool("quiet", 'return {"success": True, "message": "shh"}')


async def _call(agent: httpx.AsyncClient, sid: str, tool: str, **arguments: object) -> dict:
    response = await agent.post(
        f"/v1/sessions/{sid}/calls", json={"tool": tool, "arguments": arguments}
    )
    assert response.status_code == 200, response.text
    return response.json()


async def test_a_calls_log_lines_are_stored_bounded_and_masked_not_sent_to_the_agent(
    api: Api,
) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [NOISY, QUIET])
    answered = await _call(acme.agent, sid, "noisy", q="shoes")
    assert answered["success"] and "logs" not in answered  # the agent never sees them
    await _call(acme.agent, sid, "noisy", lines=40)  # 40 × 900 characters: more than is kept
    await _call(acme.agent, sid, "quiet")
    await _call(acme.agent, sid, "noisy", fail=True)

    page = (await acme.dev.get("/v1/calls", params={"tool": "noisy"})).json()["calls"]
    assert [c["success"] for c in page] == [False, True, True]  # newest first
    failed, long, first = page
    assert first["logs"][0] == "info: looking up shoes"
    masked = first["logs"][1]
    assert "sk-live-123456" not in masked and "abcdef123456" not in masked
    assert "[redacted]" in masked and masked.startswith("warning: api_key=")
    assert long["logs"][0].endswith("earlier lines not kept]")  # what was dropped is said
    assert 1 < len(long["logs"]) <= 101 and sum(map(len, long["logs"][1:])) <= 16_384
    assert failed["error"]["code"] == "tool_error" and failed["logs"][0] == "info: looking up "
    assert first["session_id"] == sid and first["arguments"] == {"q": "shoes"}


async def test_the_call_browser_filters_and_pages_and_names_bad_filters(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    sid = await session_for(acme, [NOISY, QUIET])
    other = await session_for(globex, [QUIET])
    for _ in range(3):
        await _call(acme.agent, sid, "quiet")
    await _call(acme.agent, sid, "noisy", fail=True)
    await _call(globex.agent, other, "quiet")

    def names(body: dict) -> list[str]:
        return [c["tool"] for c in body["calls"]]

    everything = (await acme.dev.get("/v1/calls")).json()
    assert names(everything) == ["noisy", "quiet", "quiet", "quiet"]  # not globex's
    failures = (await acme.dev.get("/v1/calls", params={"outcome": "failure"})).json()
    by_code = (await acme.dev.get("/v1/calls", params={"outcome": "tool_error"})).json()
    assert names(failures) == names(by_code) == ["noisy"]
    assert names((await acme.dev.get("/v1/calls", params={"outcome": "success"})).json()) == ["quiet"] * 3  # fmt: skip
    assert (await acme.dev.get("/v1/calls", params={"session": other})).json()["calls"] == []

    seen, cursor = [], None
    while True:
        body = (await acme.dev.get("/v1/calls", params={"limit": 3, **({"cursor": cursor} if cursor else {})})).json()  # fmt: skip
        seen += [c["id"] for c in body["calls"]]
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert seen == [c["id"] for c in everything["calls"]]  # every row once, in order

    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert (await acme.dev.get("/v1/calls", params={"since": future})).json()["calls"] == []
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    assert len((await acme.dev.get("/v1/calls", params={"since": past, "until": future})).json()["calls"]) == 4  # fmt: skip

    for params, field in (
        ({"since": "2026-01-01T00:00:00"}, "since"),  # no zone
        ({"since": future, "until": past}, "until"),
        ({"cursor": "bm90LWEtY3Vyc29y"}, "cursor"),
        ({"outcome": "DROP TABLE"}, "outcome"),
        ({"limit": 0}, "limit"),
    ):
        refused = await acme.dev.get("/v1/calls", params=params)
        assert refused.status_code == 422, (params, refused.text)
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert field in {e.get("field", "").split(".")[-1] for e in refused.json()["errors"]}, refused.text  # fmt: skip
    assert (await acme.agent.get("/v1/calls")).status_code == 403  # an agent key reads no logs
    assert (await acme.dev.get("/v1/calls", params={"tenant": "globex"})).status_code == 403
    assert names((await api.admin.get("/v1/calls", params={"tenant": "globex"})).json()) == ["quiet"]  # fmt: skip


async def test_the_live_tail_streams_new_calls_with_their_logs(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [NOISY, QUIET])
    await _call(acme.agent, sid, "quiet")  # before the tail starts: not sent
    async with (
        served(api.app) as base,
        httpx.AsyncClient(base_url=base, headers=acme.dev.headers) as dev,
        httpx.AsyncClient(base_url=base, headers=acme.agent.headers) as agent,
        dev.stream("GET", "/v1/calls/stream", params={"tool": "noisy"}, timeout=10) as stream,
    ):
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.aiter_lines()
        assert await anext(lines) == "retry: 1000"
        await _call(agent, sid, "quiet")  # another tool: filtered out
        await _call(agent, sid, "noisy", q="live")

        async def next_call() -> dict:
            event = None
            async for line in lines:
                if line.startswith("event:"):
                    event = line.split(":", 1)[1].strip()
                elif line.startswith("data:") and event == "call":
                    return json.loads(line[5:])
            raise AssertionError("the stream ended")

        call = await asyncio.wait_for(next_call(), 10)
        assert call["tool"] == "noisy" and call["logs"][0] == "info: looking up live"
        assert call["session_id"] == sid
    refused = await acme.agent.get("/v1/calls/stream")
    assert refused.status_code == 403
    missing = await api.admin.get("/v1/calls/stream", params={"tenant": "nobody"})
    assert missing.status_code == 404


async def test_a_live_tail_resumes_after_the_last_event_it_received(api: Api) -> None:
    """A dropped tail (the network, a node restarting) comes back with Last-Event-ID and gets
    the calls logged while it was away, once each."""
    acme = await api.tenant("acme")
    sid = await session_for(acme, [NOISY])
    await _call(acme.agent, sid, "noisy", q="first")
    await api.runtime.call_log.flush()
    first = (await acme.dev.get("/v1/calls")).json()["calls"][0]["id"]
    await _call(acme.agent, sid, "noisy", q="while away 1")  # logged while no tail was open
    await _call(acme.agent, sid, "noisy", q="while away 2")
    async with (
        served(api.app) as base,
        httpx.AsyncClient(base_url=base, headers=acme.dev.headers) as dev,
        dev.stream(
            "GET", "/v1/calls/stream", headers={"Last-Event-ID": str(first)}, timeout=10
        ) as stream,  # fmt: skip
    ):
        lines = stream.aiter_lines()

        async def calls(n: int) -> list[tuple[int, str]]:
            got, event, id_ = [], None, None
            async for line in lines:
                if line.startswith("event:"):
                    event = line.split(":", 1)[1].strip()
                elif line.startswith("id:"):
                    id_ = int(line[3:])
                elif line.startswith("data:") and event == "call":
                    got.append((id_, json.loads(line[5:])["logs"][0]))
                    if len(got) == n:
                        return got
            raise AssertionError("the stream ended")

        resumed = await asyncio.wait_for(calls(2), 10)

    assert [log for _, log in resumed] == ["info: looking up while away 1", "info: looking up while away 2"]  # fmt: skip
    assert all(i > first for i, _ in resumed)


async def test_the_audit_log_says_who_changed_what_with_before_and_after(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    await api.admin.put("/v1/tenants/acme/egress", json={"allow": ["intranet.example"]})
    await api.admin.put("/v1/tenants/acme/egress", json={"allow": ["10.0.0.0/8"]})
    assert (await acme.dev.post("/v1/tools", json=QUIET)).status_code == 201
    await globex.dev.post("/v1/tools", json=QUIET)

    own = (await acme.dev.get("/v1/audit")).json()["entries"]
    assert {e["tenant"] for e in own} == {"acme"}
    egress = [e for e in own if e["action"] == "tenant.egress_allow"]
    assert egress[0]["detail"] == {"before": ["intranet.example"], "after": ["10.0.0.0/8"]}
    assert egress[1]["detail"] == {"before": [], "after": ["intranet.example"]}
    created = next(e for e in own if e["action"] == "tool.create")
    assert created["target"] == "quiet" and created["actor"] and created["at"]

    everyone = (await api.admin.get("/v1/audit", params={"limit": 1000})).json()["entries"]
    assert {"acme", "globex"} <= {e["tenant"] for e in everyone}
    only = (await api.admin.get("/v1/audit", params={"tenant": "globex"})).json()["entries"]
    assert {e["tenant"] for e in only} == {"globex"}
    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert (await acme.dev.get("/v1/audit", params={"since": future})).json()["entries"] == []
    assert (await acme.dev.get("/v1/audit", params={"tenant": "globex"})).status_code == 403
    assert (await acme.agent.get("/v1/audit")).status_code == 403
    paged = (await api.admin.get("/v1/audit", params={"limit": 2})).json()
    second = (await api.admin.get("/v1/audit", params={"limit": 2, "cursor": paged["next_cursor"]})).json()  # fmt: skip
    assert paged["entries"][-1]["id"] > second["entries"][0]["id"]


async def test_a_save_over_another_writers_version_is_refused_with_the_newest(api: Api) -> None:
    acme = await api.tenant("acme")
    assert (await acme.dev.post("/v1/tools", json=QUIET)).status_code == 201
    read = await acme.dev.get("/v1/tools/quiet")
    etag = read.headers["etag"]
    assert etag == '"1"'
    theirs = simple_tool("quiet", 'return {"success": True, "message": "theirs"}')
    mine = simple_tool("quiet", 'return {"success": True, "message": "mine"}')
    assert (await acme.dev.put("/v1/tools/quiet", json=theirs, headers={"If-Match": etag})).status_code == 200  # fmt: skip
    refused = await acme.dev.put("/v1/tools/quiet", json=mine, headers={"If-Match": etag})
    assert refused.status_code == 412, refused.text
    problem = refused.json()
    assert problem["code"] == "version_conflict" and problem["current"]["version"] == 2
    assert '"theirs"' in problem["current"]["source"]
    now = (await acme.dev.get("/v1/tools/quiet")).json()
    assert now["version"] == 2 and '"theirs"' in now["source"]  # nothing overwritten
    fresh = await acme.dev.put("/v1/tools/quiet", json=mine, headers={"If-Match": '"2"'})
    assert fresh.status_code == 200 and fresh.json()["version"] == 3
    missing = await acme.dev.put("/v1/tools/other", json=simple_tool("other", "return {}"), headers={"If-Match": '"1"'})  # fmt: skip
    assert missing.status_code == 412 and missing.json()["current"] is None


def test_the_tail_sends_a_row_committed_late_below_the_newest_once() -> None:
    """On PostgreSQL ids are given out before commit: another node's row can appear below the
    newest id already sent. The tail looks back and sends it — once; never a row from before
    it started."""
    from types import SimpleNamespace

    from server.api.routes.calls import LOOKBACK_IDS, Tail

    def rows(*ids: int) -> list[SimpleNamespace]:
        return [SimpleNamespace(id=i) for i in ids]

    tail = Tail(start=100)
    assert tail.floor == 100  # nothing from before the tail started
    assert [r.id for r in tail.unsent(rows(101, 103))] == [101, 103]
    assert [r.id for r in tail.unsent(rows(101, 102, 103, 104))] == [102, 104]  # 102 came late
    assert tail.unsent(rows(101, 102, 103, 104)) == []
    tail.unsent(rows(100 + LOOKBACK_IDS + 50))
    assert tail.floor == 150 and min(tail.sent) > 150  # what it remembers stays bounded


async def test_the_catalog_lists_every_tool_the_tenants_agents_can_be_given(api: Api) -> None:
    acme = await api.tenant("acme", shared=["shared_quiet"])
    shared = simple_tool("shared_quiet", 'return {"success": True, "message": "global"}')
    assert (await api.admin.post("/v1/tools", params={"tenant": "*"}, json=shared)).status_code == 201  # fmt: skip
    hidden = simple_tool("not_shared", 'return {"success": True, "message": "global"}')
    assert (await api.admin.post("/v1/tools", params={"tenant": "*"}, json=hidden)).status_code == 201  # fmt: skip
    sid = await session_for(acme, [NOISY, QUIET])
    await acme.dev.patch("/v1/tools/quiet", json={"enabled": False})
    await _call(acme.agent, sid, "noisy", q="x")
    await _call(acme.agent, sid, "noisy", fail=True)

    tools = {t["name"]: t for t in (await acme.dev.get("/v1/catalog")).json()["tools"]}
    assert "not_shared" not in tools
    assert {n: (t["origin"], t["enabled"]) for n, t in tools.items() if n in ("noisy", "quiet", "shared_quiet")} == {  # fmt: skip
        "noisy": ("tenant", True), "quiet": ("tenant", False), "shared_quiet": ("global", True),
    }  # fmt: skip
    assert (tools["noisy"]["calls_last_day"], tools["noisy"]["success_rate_last_day"]) == (2, 0.5)
    assert tools["quiet"]["calls_last_day"] == 0 and tools["noisy"]["breaker"] == "closed"
    assert (await acme.agent.get("/v1/catalog")).status_code == 403
