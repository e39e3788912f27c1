"""The application factory: ``create_app(settings)``."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from server import bootstrap, first_key, isolation, logs
from server.api import console, docs, openapi, problems
from server.api.direct_door import HOT_PATH, SNAPSHOT_PATH, DirectDoor
from server.api.limits import BodyLimitMiddleware, RateLimitHeadersMiddleware
from server.api.mcp import QuiverMcp, protected_resource
from server.api.routes import (
    agent,
    analytics,
    audit,
    bots,
    calendars,
    calls,
    catalog,
    connections,
    datasets,
    demo,
    forms,
    handoff,
    health,
    jobs,
    leads,
    mcp_servers,
    packages,
    providers,
    secrets,
    sessions,
    tenants,
    tools,
    usage,
)
from server.clock import Clock
from server.logs import RequestIdMiddleware
from server.settings import Settings
from server.tracing import OFF, Tracing, failed
from server.version import VERSION

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export import SpanExporter

DESCRIPTION = """Multi-tenant registry and sandboxed runner of tools for LLM agents.

Authenticate with `Authorization: Bearer <api key>`. Admins act for a tenant with
`?tenant=<id>` (`*` for global tools). Errors are `application/problem+json` with a stable `code`.
"""


def _on_sighup(reload: Callable[[], object]) -> Callable[[], object]:
    """Production: ``kill -HUP`` reloads the tools folder. Returns the undo."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGHUP, reload)
    except (NotImplementedError, RuntimeError, ValueError, AttributeError):
        return lambda: None  # not the main thread, or a platform without SIGHUP
    return lambda: loop.remove_signal_handler(signal.SIGHUP)


class QuiverApp(FastAPI):
    """FastAPI with a direct door for the hot paths: a plain tool call or turn that no CORS rule
    concerns goes straight to its endpoint, which does the middleware stack's work for it itself
    (``server.api.direct_door``)."""

    door: DirectDoor | None = None
    tracing: Tracing = OFF  # the node's, once it started

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.tracing.on and scope["type"] == "http":
            await self._traced(scope, receive, send)
            return
        await self._serve(scope, receive, send)

    async def _traced(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The request in a server span named by its route (never its ids), continuing the
        caller's trace."""
        method, status = scope["method"], 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        with self.tracing.server_span(method, scope["headers"]) as span:
            span.set_attribute("http.request.method", method)
            try:
                await self._serve(scope, receive, sending)
            finally:
                route = route_of(scope)
                span.update_name(f"{method} {route}")
                span.set_attribute("http.route", route)
                span.set_attribute("http.response.status_code", status)
                if status >= 500 or status == 0:
                    failed(span, str(status or "no_response"))

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        door = self.door
        hot = door.direct(scope) if door is not None and scope["type"] == "http" else None
        if hot is None:
            await super().__call__(scope, receive, send)
            return
        scope["app"] = self
        assert door is not None
        await door.serve_direct(scope, receive, send, hot)


def _nothing() -> None:
    pass


def route_of(scope: Scope) -> str:
    """The route's template (``/v1/sessions/{sid}/calls``): the router's, or the direct door's."""
    route = getattr(scope.get("route"), "path", None)
    if isinstance(route, str):
        return route
    path = scope["path"]
    for pattern, template in DIRECT_ROUTES:
        if pattern.match(path):
            return template
    return "/mcp" if path == "/mcp" else "(unrouted)"


DIRECT_ROUTES = (
    (HOT_PATH, "/v1/sessions/{sid}/{calls_or_messages}"),
    (SNAPSHOT_PATH, "/v1/{bots_or_sessions}/{id}/snapshot"),
)


def create_app(
    settings: Settings, clock: Clock | None = None, span_exporter: SpanExporter | None = None
) -> FastAPI:
    """The application for ``settings``; ``clock``: a test's, to move the node's time;
    ``span_exporter``: a test's, to read the node's traces."""
    logs.redact_every_record()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        assert isinstance(app, QuiverApp)
        runtime = await bootstrap.start(settings, clock, span_exporter)
        if runtime.first_admin_key is not None:
            print(first_key.announcement(runtime.first_admin_key, sys.stdout.isatty()), flush=True)
        hangup: Callable[[], object] = _nothing  # until the SIGHUP handler is set
        try:
            if settings.require_isolation or settings.demo:
                # start the workers now and check what isolation they got (--demo: report only)
                await runtime.engines.restricted.start()
                isolation.check(
                    runtime.engines.restricted.pool.stats.layers,
                    required=settings.require_isolation and not settings.demo,
                )
            app.state.runtime = runtime
            app.tracing = runtime.tracing
            hangup = _on_sighup(runtime.reload_disk)
            if settings.demo:
                from server.demo import seed_demo

                await seed_demo(runtime)
            await mcp.start(runtime)
        except BaseException:
            # A node that cannot start closes what it built (its SQLite connection thread kept
            # the process alive) and re-raises: the server logs why and exits.
            hangup()
            await runtime.close()
            raise
        try:
            yield
        finally:
            await mcp.stop()
            hangup()
            app.tracing = OFF
            await runtime.close()

    app = QuiverApp(
        title="Quiver",
        version=VERSION,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # served offline: server/api/docs.py
        redoc_url=None,
    )
    mcp = QuiverMcp(
        per_key=settings.mcp_sessions_per_key,
        per_tenant=settings.mcp_sessions_per_tenant,
        idle_s=settings.mcp_session_idle_s,
        origins=tuple(o.strip() for o in settings.mcp_origins.split(",") if o.strip()),
    )
    app.router.routes.append(Route("/mcp", endpoint=mcp, methods=["GET", "POST", "DELETE"]))

    @app.get("/.well-known/oauth-protected-resource", tags=["mcp"])
    @app.get("/.well-known/oauth-protected-resource/mcp", tags=["mcp"], include_in_schema=False)
    async def oauth_protected_resource(request: Request) -> dict[str, Any]:
        """RFC 9728 metadata of `/mcp`: send an agent key as `Authorization: Bearer`."""
        return protected_resource(str(request.base_url).rstrip("/"))

    problems.install(app)
    openapi.install(app)
    docs.install(app)
    console.install(app)
    hot: dict[str, Any] = {
        "answer_call": sessions.answer_call,
        "send_message": sessions.send_message,
        "bot_snapshot": bots.answer_bot_snapshot,
        "session_snapshot": sessions.answer_session_snapshot,
    }
    app.add_middleware(DirectDoor, **hot)  # the hot paths, unrouted
    app.door = DirectDoor(  # past the stack
        app, **hot, max_body_bytes=settings.max_body_bytes, mcp=mcp
    )
    app.add_middleware(RateLimitHeadersMiddleware)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(RequestIdMiddleware)
    if settings.cors_origins:
        # Web agents call from their own pages: bearer keys, never cookies, so no credentials.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=[o.strip() for o in settings.cors_origins.split(",") if o.strip()],
            allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=[
                "Authorization",
                "Content-Type",
                "Last-Event-ID",
                "If-None-Match",
                "If-Match",
                "X-Request-ID",
            ],
            expose_headers=[
                "ETag",
                "X-Request-ID",
                "Retry-After",
                "RateLimit-Limit",
                "RateLimit-Remaining",
                "RateLimit-Reset",
            ],
            max_age=600,
        )
    for module in (
        health,
        tenants,
        tools,
        secrets,
        providers,
        bots,
        sessions,
        handoff,
        analytics,
        calls,
        jobs,
        mcp_servers,
        connections,
        packages,
        catalog,
        audit,
        usage,
        agent,
        datasets,
        leads,
        forms,
        calendars,
    ):
        app.include_router(module.router)
    if settings.demo:
        app.include_router(demo.router)
    return app
