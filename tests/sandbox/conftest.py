"""Sandbox fixtures: one real worker pool per test module, and canaries an escape would touch."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from sandbox.engine import Limits, Run, RunResult, ToolSource
from sandbox.pool import PoolConfig
from sandbox.restricted.engine import RestrictedEngine

CANARY_SECRET = "CANARY-7f3c1d-DO-NOT-LEAK"


class CanaryServer:
    """A loopback TCP port that counts every connection made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.hits += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="session")
def canary_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("canary") / "secret.txt"
    path.write_text(CANARY_SECRET)
    path.chmod(0o600)
    return path


@pytest.fixture(scope="session")
def canary_server():
    server = CanaryServer()
    yield server
    server.close()


@pytest.fixture(scope="session", autouse=True)
def canary_env():
    os.environ["QUIVER_CANARY"] = CANARY_SECRET
    yield
    os.environ.pop("QUIVER_CANARY", None)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine() -> AsyncIterator[RestrictedEngine]:
    engine = RestrictedEngine(PoolConfig(size=2), load_timeout_ms=1000)
    await engine.start()
    yield engine
    await engine.close()


def tool_file(body: str, name: str = "t", header: str = "") -> str:
    """A tool whose execute runs ``body`` (indented) and returns its locals' ``out``."""
    indented = "\n".join("    " + line for line in body.strip().splitlines())
    return f'''{header}
def execute(params, context):
    out = None
{indented}
    return {{"success": True, "message": str(out)}}


tool = {{"name": "{name}", "description": "attack", "execute": execute}}
'''


async def run(
    engine: RestrictedEngine,
    source: str,
    tenant: str = "attacker",
    timeout_ms: int = 3000,
    tool: str = "t",
    params: dict | None = None,
    host=None,
) -> RunResult:
    return await engine.run(
        ToolSource("python", "restricted", source),
        Run(tenant, tool, params or {}, {"tenant_id": tenant}, Limits(timeout_ms=timeout_ms), host),
    )
