"""The ``quiver`` command: a real server process started the way the README says."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from server.storage import migrate

QUIVER = [sys.executable, "-m", "server.cli"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
    env["QUIVER_DATA_DIR"] = str(data_dir)
    return env


def _wait_for_line(proc: subprocess.Popen, needle: str, timeout: float = 30) -> list[str]:
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        lines.append(line)
        if needle in line:
            return lines
    raise AssertionError(f"{needle!r} never printed; got {''.join(lines)}")


@contextlib.contextmanager
def demo_server(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """``quiver serve --demo`` as a real process: its base URL and the lines it printed."""
    port = _free_port()
    proc = subprocess.Popen(
        [*QUIVER, "serve", "--demo", "--port", str(port)],
        env=_env(tmp_path / "data"),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    try:
        lines = _wait_for_line(proc, "agent key")
        base = f"http://127.0.0.1:{port}"
        _wait_for_ready(base)
        yield base, lines
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _key(lines: list[str], role: str) -> str:
    return next(line for line in lines if f"{role} key" in line).split()[-1]


def test_serve_demo_prints_url_and_keys_and_serves_the_demo(tmp_path: Path) -> None:
    with demo_server(tmp_path) as (base, lines):
        snapshot = httpx.get(
            f"{base}/v1/bots/support/snapshot?format=openai",
            headers={"Authorization": f"Bearer {_key(lines, 'agent')}"},
        )
        order = httpx.get(f"{base}/demo/orders/AB1234")
        docs = httpx.get(f"{base}/openapi.json")

    text = "".join(lines)
    assert "admin key" in text and base in text and "developer key" in text
    assert snapshot.status_code == 200
    assert {t["function"]["name"] for t in snapshot.json()["tools"]} == {
        "check_order",
        "order_status",
        "escalate_to_human",
    }
    assert order.json()["order_id"] == "AB1234"
    assert "/v1/tools/validate" in docs.json()["paths"]


def _wait_for_ready(base: str) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/readyz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError("server never became ready")


def test_db_upgrade_tenants_and_keys_commands(tmp_path: Path) -> None:
    env = _env(tmp_path / "data")

    def run(*args: str) -> str:
        return subprocess.run(
            [*QUIVER, *args], env=env, capture_output=True, text=True, check=True, cwd=tmp_path
        ).stdout

    upgraded = run("db", "upgrade")
    created = run("tenants", "create", "acme", "--name", "Acme")
    key = run("keys", "create", "--role", "developer", "--tenant", "acme")
    listed = run("tenants", "list")

    assert f"schema at {migrate.head_revision()}" in upgraded
    assert '"id": "acme"' in created and '"acme"' in listed
    assert '"key": "qk_' in key


def test_tools_commands_talk_to_a_running_server(tmp_path: Path) -> None:
    tool = tmp_path / "greet.py"
    tool.write_text(
        'def execute(params, context):\n    return {"success": True, "message": "hello " + params["name"]}\n\n\ntool = {"name": "greet", "description": "Greets", "parameters": {"name": {"type": "string", "required": True}}, "execute": execute}\n'
    )
    broken = tmp_path / "broken.py"
    broken.write_text(
        'def execute(p, c):\n    return {}\n\ntool = {"name": "broken", "description": "d", "execute": execute, "extra": 1}\n'
    )
    with demo_server(tmp_path) as (base, lines):
        env = {
            **_env(tmp_path / "data"),
            "QUIVER_URL": base,
            "QUIVER_KEY": _key(lines, "developer"),
        }

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [*QUIVER, "tools", *args], env=env, capture_output=True, text=True, cwd=tmp_path
            )

        validated = run("validate", str(tool))
        refused = run("push", str(broken))
        pushed = run("push", str(tool))
        listed = run("list")
        tested = run("test", "greet", "--arguments", '{"name": "Ada"}')

    assert validated.returncode == 0 and '"valid": true' in validated.stdout
    assert refused.returncode == 1 and "tool.extra" in refused.stdout
    assert pushed.returncode == 0 and '"version": 1' in pushed.stdout
    assert '"greet"' in listed.stdout
    assert tested.returncode == 0 and "hello Ada" in tested.stdout


def test_restarting_the_demo_keeps_its_keys(tmp_path: Path) -> None:
    """MCP client configs and scripts hold the demo keys: a restart must not revoke them."""
    with demo_server(tmp_path) as (_, first):
        pass
    with demo_server(tmp_path) as (base, second):
        agent = _key(second, "agent")
        snapshot = httpx.get(
            f"{base}/v1/bots/support/snapshot", headers={"Authorization": f"Bearer {agent}"}
        )

    assert _key(first, "agent") == agent and _key(first, "developer") == _key(second, "developer")
    assert snapshot.status_code == 200
    assert oct((tmp_path / "data" / "demo-keys.json").stat().st_mode & 0o777) == "0o600"
