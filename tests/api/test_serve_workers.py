"""Several serving processes on one host (``quiver serve --workers N``, PostgreSQL): a client's
consecutive calls land in any of them, and each sees at once what the one before changed —
variables, once-per-session, the session breaker, the intent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from server.calls.session_marks import SharedMarks
from server.settings import Settings
from tests.api.test_calls import python, session_for, simple_tool
from tests.api.test_session_state import COUNTER, ECHO
from tests.conftest import Api
from tests.servers import bearer_client, free_port, node_env, node_process

on_postgresql = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
POLL_S = 0.1  # how often a bounded wait looks at another process's state

BOOK = python("""
def execute(params, context):
    return {"success": True, "message": "booked"}


tool = {"name": "book", "description": "Book once", "execute": execute,
        "metadata": {"once_per_session": True}}
""")
FLAKY = simple_tool("flaky", 'raise ValueError("upstream said no")')
BOT = {
    "name": "b",
    "tools": None,
    "intents": {"orders": ["count", "book", "flaky", "echo"], "chat": ["echo"]},
}
# announcements neither sent nor looked for in the test's time: what one process changes
# reaches the other through the marks alone
DEAF = {"QUIVER_NOTIFY": "false", "QUIVER_POLL_MS": "600000"}


async def alternate(api: Api, settings: Settings, marks: Path | None) -> dict:
    """One session called through two processes in turn; what each call saw."""
    acme = await api.tenant("acme")
    sid = await session_for(acme, [COUNTER, ECHO, BOOK, FLAKY], BOT)
    assert (
        await acme.agent.put(f"/v1/sessions/{sid}/intent", json={"intent": "orders"})
    ).is_success
    shared = {"QUIVER_SESSION_MARKS": str(marks)} if marks else {}
    seen: dict = {"counts": [], "book": [], "flaky": []}
    with node_process(settings, **DEAF, **shared) as one, node_process(settings, **DEAF, **shared) as two:  # fmt: skip
        clients = [bearer_client(one.base, acme.agent_key), bearer_client(two.base, acme.agent_key)]

        async def call(turn: int, tool: str) -> dict:
            path = f"/v1/sessions/{sid}/calls"
            answer = await clients[turn % 2].post(path, json={"tool": tool}, timeout=10)
            assert answer.status_code == 200, answer.text
            return answer.json()

        async def change(turn: int, tool: str) -> dict:
            """``tool`` in process ``turn % 2`` after both read (and cached) the session."""
            for other in (turn + 1, turn):
                assert (await call(other, "echo"))["success"] is True
            return await call(turn, tool)

        for turn in range(6):
            seen["counts"].append((await change(turn, "count"))["result"]["n"])
        for turn in range(2):
            seen["book"].append(await change(turn, "book"))
        for turn in range(4):  # the third failure opens the session's breaker
            seen["flaky"].append((await change(turn, "flaky"))["error"]["code"])
        await call(1, "echo")  # cached in the process asked next
        intent = await clients[0].put(f"/v1/sessions/{sid}/intent", json={"intent": "chat"})
        assert intent.is_success
        snapshot = await clients[1].get(f"/v1/sessions/{sid}/snapshot")
        seen["tools"] = [t["name"] for t in snapshot.json()["tools"]]
        for client in clients:
            await client.aclose()
    return seen


@on_postgresql
async def test_two_processes_taking_turns_see_every_change_of_the_session_at_once(
    api: Api, settings: Settings, tmp_path: Path
) -> None:
    seen = await alternate(api, settings, SharedMarks.create(tmp_path))

    assert seen["counts"] == [1, 2, 3, 4, 5, 6]
    booked, again = seen["book"]
    assert booked["success"] is True
    assert again["success"] is False and again["error"]["code"] == "tool_not_available"
    assert seen["flaky"] == ["tool_error", "tool_error", "tool_error", "circuit_open"]
    assert seen["tools"] == ["echo"]


@on_postgresql
async def test_without_the_marks_a_process_serves_what_it_cached(
    api: Api, settings: Settings
) -> None:
    """The control: the same turns without shared marks (two nodes that hear nothing of each
    other) read stale state — which is what the marks are for."""
    seen = await alternate(api, settings, None)

    assert seen["counts"] != [1, 2, 3, 4, 5, 6]


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.add(int(entry.name))
    return found


def serve_with_workers(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--workers", "2", "--no-python-runner"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )


def gone(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists()


def ready(base: str) -> bool:
    try:
        return httpx.get(f"{base}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def until(check, within: float = 60.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(POLL_S)
    raise AssertionError("not within the bound")


@on_postgresql
async def test_serve_with_workers_runs_each_process_behind_one_port(
    api: Api, settings: Settings
) -> None:
    """Two processes behind one port, a process that dies is started again, SIGTERM stops
    them all; calls on new connections (any process) count one session exactly."""
    acme = await api.tenant("acme")
    sid = await session_for(acme, [COUNTER])
    port = free_port()
    env = node_env(settings, QUIVER_PORT=str(port))
    supervisor = serve_with_workers(env)
    base = f"http://127.0.0.1:{port}"
    try:
        first = until(lambda: len(children(supervisor.pid)) == 2 and children(supervisor.pid))

        until(lambda: ready(base))
        counts = []
        for _ in range(12):  # a new connection each: the kernel picks the process
            async with bearer_client(base, acme.agent_key) as client:
                answer = await client.post(f"/v1/sessions/{sid}/calls", json={"tool": "count"})
                counts.append(answer.json()["result"]["n"])
        os.kill(min(first), signal.SIGKILL)
        replaced = until(lambda: (c := children(supervisor.pid)) != first and len(c) == 2 and c)
        supervisor.send_signal(signal.SIGTERM)
        code = supervisor.wait(timeout=60)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait()
    stderr = supervisor.stderr.read().decode()

    assert counts == list(range(1, 13))
    assert min(first) not in replaced and "starting it again" in stderr
    assert code == 0
    assert all(gone(pid) for pid in replaced)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_sqlite_is_served_by_one_process_and_says_so(settings: Settings) -> None:
    port = free_port()
    env = node_env(settings, QUIVER_PORT=str(port), QUIVER_DATA_DIR=str(settings.data_dir))
    env.pop("QUIVER_DATABASE_URL")
    server = serve_with_workers(env)
    try:
        until(lambda: ready(f"http://127.0.0.1:{port}"))
        alone = children(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    stderr = server.stderr.read().decode()

    assert "SQLite is served by one process" in stderr
    assert all("server.cli" not in Path(f"/proc/{p}/cmdline").read_text() for p in alone if Path(f"/proc/{p}").exists())  # fmt: skip
