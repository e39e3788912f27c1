"""MCP tasks (protocol 2025-11-25) over Quiver's long-running jobs (docs/jobs.md).

The SDK leaves tasks out of every protocol version it serves, so a handshake-era session of
2025-11-25 has them answered here, before the SDK sees the request: ``tools/call`` with a
``task`` (a job tool only: its ``execution.taskSupport`` says ``optional``) answers the job as a
task at once; ``tasks/get``, ``tasks/result`` (once it has ended: the tool's result),
``tasks/cancel`` and ``tasks/list`` read the jobs of the caller's Quiver session. The job is the
task: its id is the task's, its status maps onto the task's, and it survives the node that
started it. Any other request, or one of another version or a session this node does not hold,
goes to the SDK as before (which refuses ``tasks/*`` as unknown)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from mcp import types
from starlette.types import Scope

from server.calls import jobs
from server.records import StoredJob

TASKS_VERSION = "2025-11-25"
METHODS = ("tasks/get", "tasks/result", "tasks/cancel", "tasks/list")
RELATED_TASK = "io.modelcontextprotocol/related-task"
POLL_INTERVAL_MS = 1000
STATUS = {
    "queued": "working",
    "running": "working",
    "succeeded": "completed",
    "failed": "failed",
    "cancelled": "cancelled",
}
CAPABILITY = types.ServerTasksCapability(
    list=types.TasksListCapability(),
    cancel=types.TasksCancelCapability(),
    requests=types.ServerTasksRequestsCapability(
        tools=types.TasksToolsCapability(call=types.TasksCallCapability())
    ),
)


@dataclass(frozen=True)
class TaskRequest:
    """A request this module answers: its id, method and params, and the caller's session."""

    id: int | str
    method: str
    params: dict[str, Any]
    version: str
    mcp_session: str
    modern: bool = False  # the answer's shape (``mcp_direct.answer``): tasks are handshake-era


def task_request(scope: Scope, body: bytes) -> TaskRequest | None:
    """The request as one of tasks', or None (the SDK takes it)."""
    headers = {n.decode("latin-1"): v.decode("latin-1") for n, v in scope["headers"]}
    mcp_session = headers.get("mcp-session-id", "")
    if headers.get("mcp-protocol-version") != TASKS_VERSION or not mcp_session:
        return None
    try:
        message = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    method, request_id = message.get("method"), message.get("id")
    params = message.get("params") or {}
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    if not isinstance(params, dict):
        return None
    asks_a_task = method == "tools/call" and isinstance(params.get("task"), dict)
    if method not in METHODS and not asks_a_task:
        return None
    return TaskRequest(request_id, str(method), params, TASKS_VERSION, mcp_session)


def task(row: StoredJob) -> dict[str, Any]:
    """A job as an MCP task (kept as long as the job: no ``ttl``)."""
    updated = row.finished_at or row.started_at or row.created_at
    out: dict[str, Any] = {
        "taskId": row.id,
        "status": STATUS[row.status],
        "createdAt": row.created_at.isoformat(),
        "lastUpdatedAt": updated.isoformat(),
        "ttl": None,
        "pollInterval": POLL_INTERVAL_MS,
    }
    if row.message:
        out["statusMessage"] = row.message
    return out


def related(result: dict[str, Any], job: str) -> dict[str, Any]:
    """A task's result, saying which task it is the result of."""
    return {**result, "_meta": {**(result.get("_meta") or {}), RELATED_TASK: {"taskId": job}}}


def finished(row: StoredJob) -> bool:
    return row.status in jobs.FINISHED
