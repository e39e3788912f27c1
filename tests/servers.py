"""Real servers for tests that need real HTTP: an app served by uvicorn in the test's own event
loop, a second node as its own ``quiver serve`` process, and an SSE reader."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvicorn

from server.api.http_protocol import OneWriteHttpTools
from server.settings import Settings


def bearer_client(base: str, key: str) -> httpx.AsyncClient:
    """An HTTP client for a real server, authenticated with ``key``."""
    return httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server(uvicorn.Server):
    """uvicorn's server, saying when it listens."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.listening = asyncio.Event()

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets)
        self.listening.set()


@contextlib.asynccontextmanager
async def served(
    app: Any, host: str = "127.0.0.1", port: int | None = None, http: type = OneWriteHttpTools
) -> AsyncIterator[str]:
    """Serve an app (already started: its lifespan is the caller's) on a free loopback port,
    with the server's HTTP protocol (``http``: a test's variant of it)."""
    port = port or free_port()
    config = uvicorn.Config(
        app, host=host, port=port, lifespan="off", log_level="warning", http=http
    )
    server = _Server(config)
    task = asyncio.create_task(server.serve())
    listening = asyncio.create_task(server.listening.wait())
    await asyncio.wait({task, listening}, timeout=15, return_when=asyncio.FIRST_COMPLETED)
    if not listening.done():
        listening.cancel()
        if task.done():
            task.result()  # it could not start: say why
        raise AssertionError(f"the server on {host}:{port} did not start")
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        runtime = getattr(getattr(app, "state", None), "runtime", None)
        if runtime is not None:
            runtime.events.close()  # end open event streams, as a real shutdown does
        server.force_exit = runtime is None  # other apps (fakes) may hold requests open
        await asyncio.wait_for(task, 10)


def node_env(settings: Settings, **extra: str) -> dict[str, str]:
    """The environment of a second node sharing ``settings``' database (and Redis)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
    env.update(
        QUIVER_DATABASE_URL=settings.effective_database_url,
        QUIVER_ADMIN_KEY=settings.admin_key.get_secret_value(),
        QUIVER_SECRET_KEY=settings.secret_key.get_secret_value(),
        QUIVER_DATA_DIR=str(settings.data_dir) + "-node2",
        QUIVER_WORKERS="1",
        QUIVER_LOG_LEVEL="warning",
        # a real node checks its sandbox layers at start; off root they cannot all be active
        QUIVER_REQUIRE_ISOLATION="true" if os.geteuid() == 0 else "false",
    )
    if settings.redis_url:
        env["QUIVER_REDIS_URL"] = settings.redis_url
    env.update(extra)
    return env


@dataclass
class Node:
    base: str
    pid: int


@contextlib.contextmanager
def node_process(settings: Settings, **extra: str) -> Iterator[Node]:
    """``quiver serve`` in its own process on the same database."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        env=node_env(settings, **extra),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parent.parent,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"node 2 exited: {proc.stderr.read().decode()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise AssertionError("node 2 never became ready")
            time.sleep(0.1)
        yield Node(base, proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class EventReader:
    """Reads one SSE stream in the background and queues its parsed events."""

    def __init__(self, client: httpx.AsyncClient, url: str, headers: dict[str, str] | None = None):
        self.client, self.url, self.headers = client, url, headers or {}
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> EventReader:
        self._task = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await self._task

    async def _read(self) -> None:
        async with self.client.stream("GET", self.url, headers=self.headers, timeout=None) as r:
            assert r.status_code == 200, await r.aread()
            event: dict[str, Any] = {}
            async for line in r.aiter_lines():
                if not line:
                    if "event" in event:
                        await self.events.put(event)
                    event = {}
                elif line.startswith("id: "):
                    event["id"] = line[4:]
                elif line.startswith("event: "):
                    event["event"] = line[7:]
                elif line.startswith("data: "):
                    event["data"] = orjson.loads(line[6:])

    async def next(self, within: float = 5.0) -> dict[str, Any]:
        return await asyncio.wait_for(self.events.get(), within)

    async def until(self, predicate, within: float = 5.0) -> dict[str, Any]:
        """The first event (skipping others) for which ``predicate(data)`` holds."""
        deadline = asyncio.get_running_loop().time() + within
        while True:
            remaining = deadline - asyncio.get_running_loop().time()
            event = await asyncio.wait_for(self.events.get(), max(0.01, remaining))
            if event.get("event") == "snapshot" and predicate(event["data"]):
                return event
