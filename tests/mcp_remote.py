"""A real remote MCP server for federation tests, written with the official SDK's ``MCPServer``
and served by uvicorn on 127.0.0.2 (which the tests' allowlists admit): its tools can be added,
changed and removed while it runs, it checks the bearer token it was given, and it can be made to
speak only the handshake era (a server from before 2026-07-28: ``server/discover`` is a 400)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.subscriptions import InMemorySubscriptionBus, ToolsListChanged
from mcp.server.transport_security import TransportSecuritySettings

from tests.servers import served

TOKEN = "Bearer remote-s3cr3t"


def lookup(order_id: str) -> dict:
    """Looks an order up"""
    return {"order": order_id, "status": "shipped"}


def fails(order_id: str) -> str:
    """Always fails"""
    raise ToolError(f"no order {order_id}")  # an error result the SDK passes on as it is


async def slow(seconds: float) -> str:
    """Takes its time"""
    await asyncio.sleep(seconds)
    return "done"


def huge(size: int) -> str:
    """Answers with a lot"""
    return "x" * size


class _Bus(InMemorySubscriptionBus):
    """The SDK's bus, saying when a ``subscriptions/listen`` stream subscribes."""

    def __init__(self, listening: asyncio.Event) -> None:
        super().__init__()
        self.listening = listening

    def subscribe(self, listener: Any) -> Any:
        unsubscribe = super().subscribe(listener)
        self.listening.set()
        return unsubscribe


@dataclass
class Remote:
    base: str
    server: MCPServer
    seen_auth: list[str | None] = field(default_factory=list)
    bus: InMemorySubscriptionBus = field(default_factory=InMemorySubscriptionBus)
    sessions: list[Any] = field(default_factory=list)  # handshake-era clients, as they began
    # set when a client can hear list_changed: a subscriptions/listen stream subscribed (the
    # 2026-07-28 era) or a standing GET stream answered (the handshake era)
    listening: asyncio.Event = field(default_factory=asyncio.Event)

    async def announce(self) -> None:
        """``list_changed`` to every client: on ``subscriptions/listen`` streams (2026-07-28) and
        to every handshake-era session (its standing GET stream)."""
        await self.bus.publish(ToolsListChanged())
        for session in self.sessions:
            with contextlib.suppress(Exception):  # a client that has gone
                await session.send_tool_list_changed()

    @property
    def url(self) -> str:
        return f"{self.base}/mcp"

    def add(self, fn: Callable[..., Any], name: str | None = None) -> None:
        self.server.add_tool(fn, name=name)

    def remove(self, name: str) -> None:
        self.server.remove_tool(name)


def _legacy_only(app: Any) -> Any:
    """A handshake-era server: it knows no ``server/discover``."""

    async def wrapped(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        with contextlib.suppress(ValueError):
            if json.loads(body).get("method") == "server/discover":
                error = {"jsonrpc": "2.0", "id": json.loads(body).get("id"),
                         "error": {"code": -32000, "message": "Bad Request: Missing session ID"}}  # fmt: skip
                payload = json.dumps(error).encode()
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"application/json")]})  # fmt: skip
                await send({"type": "http.response.body", "body": payload})
                return None
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await app(scope, replay, send)

    return wrapped


@contextlib.asynccontextmanager
async def remote_server(
    era: str = "modern", token: str | None = TOKEN, port: int | None = None
) -> AsyncIterator[Remote]:
    listening = asyncio.Event()
    bus = _Bus(listening)
    sessions: list[Any] = []

    async def remember(ctx: Any, call_next: Any) -> Any:
        if ctx.method == "notifications/initialized":
            sessions.append(ctx.session)
        return await call_next(ctx)

    server = MCPServer("remote", subscriptions=bus, middleware=[remember])
    for tool in (lookup, fails, slow, huge):
        server.add_tool(tool)
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    inner = server.streamable_http_app(transport_security=security)
    seen: list[str | None] = []

    async def app(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            auth = dict(scope["headers"]).get(b"authorization")
            seen.append(auth.decode() if auth else None)
            if token is not None and (auth or b"").decode() != token:
                await send({"type": "http.response.start", "status": 401, "headers": []})
                await send({"type": "http.response.body", "body": b""})
                return
            if scope["method"] == "GET":  # a standing stream: open once its answer starts
                answer = send

                async def send(message: dict) -> None:
                    await answer(message)
                    if message["type"] == "http.response.start" and message["status"] == 200:
                        listening.set()

        await (_legacy_only(inner) if era == "legacy" else inner)(scope, receive, send)

    async with (
        inner.router.lifespan_context(inner),
        served(app, host="127.0.0.2", port=port) as base,
    ):
        yield Remote(base, server, seen, bus, sessions, listening)
