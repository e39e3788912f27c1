"""The ``quiver`` command: a real server process started the way the README says."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
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


def test_serve_demo_prints_url_and_keys_and_serves_the_demo(tmp_path: Path) -> None:
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
        text = "".join(lines)
        agent = lines[-1].split()[-1]
        base = f"http://127.0.0.1:{port}"
        _wait_for_ready(base)

        snapshot = httpx.get(
            f"{base}/v1/bots/support/snapshot?format=openai",
            headers={"Authorization": f"Bearer {agent}"},
        )
        order = httpx.get(f"{base}/demo/orders/AB1234")
        docs = httpx.get(f"{base}/openapi.json")

        assert "admin key" in text and base in text and "developer key" in text
        assert snapshot.status_code == 200
        assert {t["function"]["name"] for t in snapshot.json()["tools"]} == {
            "check_order",
            "order_status",
            "escalate_to_human",
        }
        assert order.json()["order_id"] == "AB1234"
        assert "/v1/tools/validate" in docs.json()["paths"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


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
