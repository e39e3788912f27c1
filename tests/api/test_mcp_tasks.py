"""MCP tasks (protocol 2025-11-25) over jobs (``server.api.mcp_tasks``): a job tool says it may
run as a task; ``tools/call`` with ``task`` answers the job as a task at once; ``tasks/get``,
``tasks/result``, ``tasks/list`` and ``tasks/cancel`` follow it within the caller's session. The
official SDK's client speaks no tasks, so these are its wire messages, over a real uvicorn, on
both databases."""

from __future__ import annotations

import httpx

from tests.api.test_calls import python
from tests.api.test_jobs import QUICK_JOB
from tests.api.test_mcp_direct import ACCEPT, answer_of, handshake
from tests.conftest import Api
from tests.servers import served

VERSION = "2025-11-25"
PLAIN = python("""
def execute(params, context):
    return {"success": True}


tool = {"name": "plain", "description": "Answers at once", "execute": execute}
""")


async def rpc(http: httpx.AsyncClient, session: str, method: str, params: dict, rid: int = 9) -> dict:  # fmt: skip
    headers = {"Accept": ACCEPT, "Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION}
    body = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
    answered = await http.post("/mcp?bot=b", json=body, headers=headers)
    assert answered.status_code == 200, answered.text
    return answer_of(answered)


async def test_a_job_tool_runs_as_a_task_for_a_2025_11_25_client(api: Api) -> None:
    acme = await api.tenant("acme")
    for tool in (python(QUICK_JOB), PLAIN):
        assert (await acme.dev.post("/v1/tools", json=tool)).status_code == 201
    assert (await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201
    async with served(api.app) as base:
        headers = {"Authorization": f"Bearer {acme.agent_key}"}
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as http:
            hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
            opened = answer_of(await http.post("/mcp?bot=b", json=hello, headers={"Accept": ACCEPT}))  # fmt: skip
            session = await handshake(http, VERSION)
            listed = await rpc(http, session, "tools/list", {})
            created = await rpc(http, session, "tools/call", {"name": "quick_job", "arguments": {"n": 4}, "task": {"ttl": 60000}})  # fmt: skip
            task_id = created["result"]["task"]["taskId"]
            result = await rpc(http, session, "tasks/result", {"taskId": task_id})
            got = await rpc(http, session, "tasks/get", {"taskId": task_id})
            tasks = await rpc(http, session, "tasks/list", {})
            ended = await rpc(http, session, "tasks/cancel", {"taskId": task_id})
            unknown = await rpc(http, session, "tasks/get", {"taskId": "0" * 32})
            not_a_task = await rpc(http, session, "tools/call", {"name": "plain", "arguments": {}, "task": {}})  # fmt: skip
            other_session = await handshake(http, VERSION)
            elsewhere = await rpc(http, other_session, "tasks/get", {"taskId": task_id})

    assert "tasks" in opened["result"]["capabilities"]
    execution = {t["name"]: t.get("execution") for t in listed["result"]["tools"]}
    assert execution["quick_job"] == {"taskSupport": "optional"} and execution["plain"] is None
    assert created["result"]["task"]["status"] == "working"
    assert result["result"]["structuredContent"]["n"] == 4 and result["result"]["isError"] is False
    assert result["result"]["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": task_id}
    assert got["result"]["status"] == "completed" and got["result"]["taskId"] == task_id
    assert [t["taskId"] for t in tasks["result"]["tasks"]] == [task_id]
    assert ended["error"]["code"] == -32602  # it has ended: nothing to cancel
    assert unknown["error"]["code"] == -32602
    assert not_a_task["error"]["code"] == -32601  # its taskSupport does not allow one
    assert elsewhere["error"]["code"] == -32602  # another session's task is not this one's
