"""Model Context Protocol at ``/mcp`` (streamable HTTP), with the official ``mcp`` SDK's
low-level ``Server``: the same registry and call pipeline as the HTTP API.

* Auth: an agent (or developer) key as ``Authorization: Bearer``; the bot as ``?bot=``; the end
  user the client acts for, if any, as ``?customer=`` (its session's customer: what tools that
  act as their end user need, docs/connections.md).
  Checked before the SDK sees the request, as are the key's request rate and session caps. A
  refusal keeps its HTTP status and headers; its body is problem+json, or — for an MCP client
  (one that accepts ``text/event-stream``) — a JSON-RPC error for the request's id whose
  ``data`` is that problem, which the SDKs hand to their caller (``data.code``: the reason).
* ``tools/list``: the bot's server tools for that key's tenant, as its session's snapshot has
  them (breakers, once-per-session, budget applied), in snapshot order, ``PAGE_SIZE`` per
  page with an opaque cursor.
* ``tools/call``: through the call pipeline. Argument and tool failures are ``isError``
  results carrying the envelope's ``modelMessage``; a name the snapshot does not hold is a
  protocol error. A plain one is read and answered past the SDK's per-request machinery
  (``server.api.mcp_direct``: the same ``_call``, the SDK's answer word for word); a POST
  without ``Origin`` comes past the middleware stack too (``server.api.direct_door``).
* Partial results (a code tool's ``context.emit``) reach a ``tools/call`` that carries a
  ``progressToken`` as ``notifications/progress``: ``progress`` counts them, ``message`` is the
  partial as JSON. Such a call always takes the SDK's way (the direct one answers in one piece).
* ``list_changed`` (advertised as ``tools.listChanged``): on every change of the tenant (this
  node's commits, other nodes' NOTIFY, breakers), to ``subscriptions/listen`` streams
  (2026-07-28 clients) and to handshake-era sessions as ``notifications/tools/list_changed``,
  from their ``initialized`` on.
* ``tools/list`` pages by name (the cursor is the last name: stable while tools are saved);
  tools carry ``title`` and hints from what Quiver knows (cacheable: read-only, idempotent;
  once per session: neither; webhooks: open world).
* A 401 names RFC 9728 metadata (``/.well-known/oauth-protected-resource``: no authorization
  server — an agent key is the token); a request with an ``Origin`` not in
  ``QUIVER_CORS_ORIGINS`` is refused (the transport spec's DNS-rebinding rule).

Each MCP client (key, bot, ``Mcp-Session-Id``) gets one Quiver session, so the per-session
breaker and once-per-session tools work as for any agent; clients without a session id (the
stateless era) share one session per key and bot.

MCP sessions are a per-node resource, so no caller may take them all: each key and each tenant
has a cap of open sessions (429 ``too_many_sessions`` beyond), idle sessions expire, and a
session answers only the key that opened it (any other key gets 404, as if it did not exist —
for use and for ``DELETE``). Session ids are credentials of a sort: they never reach the logs.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ipaddress
import logging
import re
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from urllib.parse import unquote_plus, urlsplit

import mcp_types as types
import orjson
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, AuthorizationContext
from mcp.server.auth.provider import AccessToken
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.runner import modern_error_data
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from server import metrics
from server.api import mcp_tasks
from server.api.deps import admit, authenticate, role_of, unit_of_work
from server.api.limits import replayed
from server.api.mcp_direct import InFlight, answer, plain_call, stamped
from server.api.mcp_tasks import TaskRequest, task_request
from server.api.problems import problem
from server.calls import jobs
from server.calls.session_calls import SessionState, attach, call_in_session, load_state
from server.errors import (
    FieldError,
    ForbiddenError,
    QuiverError,
    QuotaExceededError,
    TooManySessionsError,
    UnauthenticatedError,
    ValidationFailedError,
)
from server.keys import Principal
from server.ratelimit import RateLimitedLog
from server.registry.model import Snapshot
from server.version import VERSION

PAGE_SIZE = 100
MAX_ID_READ = 64 << 10  # bytes of a refused request read to find its JSON-RPC id
RESOURCE_METADATA = "/.well-known/oauth-protected-resource"
MAX_CLIENTS = 10_000  # MCP clients whose Quiver session this node remembers
MAX_PROGRESS_MESSAGE = 4000  # characters of a partial result's JSON in a progress message
BOT = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
SESSION_ID = re.compile(r"\b[0-9a-f]{32}\b")
# the SDK's modules that log session ids
SDK_LOGGERS = ("mcp.server.streamable_http_manager", "mcp.server.streamable_http")
log = logging.getLogger("quiver.mcp")
list_changed_failures = RateLimitedLog(log, every_s=60.0)


class Caller(NamedTuple):
    """Who sends an MCP request: the key, the bot it names, and its ``Mcp-Session-Id`` (``""``
    for the stateless era); and the end user it acts for (``?customer=``), if it names one."""

    principal: Principal
    bot: str
    mcp_session: str
    customer: str | None = None


class HideSessionIds(logging.Filter):
    """Replace MCP session ids in the SDK's log records (whoever reads the log could use one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if SESSION_ID.search(message):
            record.msg, record.args = SESSION_ID.sub("[session]", message), None
        return True


def _owner(principal: Principal) -> AuthenticatedUser:
    """The SDK binds a session to the ``AuthenticatedUser`` that opened it: the key."""
    return AuthenticatedUser(
        AccessToken(token="", client_id=principal.key_id, scopes=[], subject=principal.tenant_id)
    )


class SessionManager(StreamableHTTPSessionManager):
    """The SDK's manager with per-key and per-tenant caps on open sessions.

    Admission and discarding are the SDK's two points where a session starts and ends; they
    keep a count per owner (key, tenant). ``refusal`` answers early with a clear error; the
    check in ``_admit_session`` (under the SDK's lock) is what makes the cap exact."""

    def __init__(self, *args: Any, per_key: int, per_tenant: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.per_key = per_key
        self.per_tenant = per_tenant
        self.owners: dict[str, tuple[str, str]] = {}  # session id -> (key id, tenant)
        self.per_key_open: dict[str, int] = {}
        self.per_tenant_open: dict[str, int] = {}
        self.on_discard: list[Any] = []

    def refusal(self, key_id: str, tenant: str) -> TooManySessionsError | None:
        if self.per_key_open.get(key_id, 0) >= self.per_key:
            return TooManySessionsError(
                f"this key already holds {self.per_key} open MCP sessions on this node; close "
                "one (DELETE /mcp with its Mcp-Session-Id) or let an idle one expire"
            )
        if self.per_tenant_open.get(tenant, 0) >= self.per_tenant:
            return TooManySessionsError(
                f"this tenant already holds {self.per_tenant} open MCP sessions on this node"
            )
        return None

    def _admit_session(self, requestor: AuthorizationContext | None) -> Any:
        if requestor is None:
            return None  # every request reaching the SDK was authenticated by QuiverMcp
        key_id, tenant = requestor["client_id"], requestor["subject"] or ""
        if self.refusal(key_id, tenant) is not None:
            return None
        transport = super()._admit_session(requestor)
        if transport is not None and transport.mcp_session_id is not None:
            self.owners[transport.mcp_session_id] = (key_id, tenant)
            self.per_key_open[key_id] = self.per_key_open.get(key_id, 0) + 1
            self.per_tenant_open[tenant] = self.per_tenant_open.get(tenant, 0) + 1
        return transport

    def held(self, session_id: str, key_id: str) -> Any:
        """The transport of an open session of ``key_id`` that is not expiring, else None."""
        transport = self._server_instances.get(session_id)
        owner = self.owners.get(session_id)
        if transport is None or owner is None or owner[0] != key_id or transport.is_terminated:
            return None
        if transport.idle_scope is not None and transport.idle_scope.cancel_called:
            return None
        return transport

    async def _discard_session(self, session_id: str, transport: Any) -> None:
        owner = self.owners.pop(session_id, None)
        if owner is not None:
            key_id, tenant = owner
            for counts, name in ((self.per_key_open, key_id), (self.per_tenant_open, tenant)):
                counts[name] -= 1
                if counts[name] <= 0:
                    del counts[name]
            for hook in self.on_discard:
                hook(key_id, session_id)
        await super()._discard_session(session_id, transport)


def _loopback_origin(origin: str) -> bool:
    try:
        host = urlsplit(origin).hostname or ""
    except ValueError:  # not a URL (a bracketed host that is not an address): not loopback
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name other than localhost: not loopback
        return False


class QuiverMcp:
    """One per app: the SDK server, its session manager, and the per-tenant change fan-out."""

    def __init__(
        self,
        per_key: int = 100,
        per_tenant: int = 1_000,
        idle_s: float | None = 600.0,
        origins: tuple[str, ...] = (),
        direct: bool = True,
    ) -> None:
        self.origins = origins
        self.direct = direct  # plain tools/call past the SDK's machinery (False: tests compare)
        self.server: Server[Any] = _Server(
            "quiver",
            version=VERSION,
            instructions=(
                "Tools of a Quiver bot. Failures come back as tool results the model can read."
            ),
            get_tool_input_schema=self._input_schema,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_subscriptions_listen=self._listen,
        )
        self.manager = SessionManager(
            app=self.server,
            security_settings=None,
            session_idle_timeout=idle_s,
            per_key=per_key,
            per_tenant=per_tenant,
        )
        self.manager.on_discard.append(self._forget)
        # handshake-era clients get list_changed from their `initialized` on
        self.server.add_notification_handler(
            "notifications/initialized", types.NotificationParams, self._initialized
        )
        for name in SDK_LOGGERS:
            logging.getLogger(name).addFilter(HideSessionIds())
        self.asgi = StreamableHTTPASGIApp(self.manager)
        self._buses: dict[str, tuple[InMemorySubscriptionBus, ListenHandler]] = {}
        self._legacy: dict[str, weakref.WeakSet[Any]] = {}
        self._ready: dict[str, Any] = {}  # handshake done: MCP session id -> its connection
        self._sessions: OrderedDict[tuple[str, str, str, str], str] = OrderedDict()
        self._clients: dict[str, tuple[str, str]] = {}  # Quiver session -> (tenant, MCP session)
        self._creating: dict[tuple[str, str, str, str], asyncio.Lock] = {}  # first requests racing
        self._runtime: Any = None
        self._pending: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    async def start(self, runtime: Any) -> None:
        """Run the SDK's session manager in a task of its own (its task group must be entered
        and left by the same task, whatever task runs the app's lifespan)."""
        self._runtime = runtime
        runtime.events.tenant_listeners.append(self.tenant_changed)
        runtime.events.session_listeners.append(self.session_changed)
        started, self._stop = asyncio.Event(), asyncio.Event()

        async def run() -> None:
            async with self.manager.run():
                started.set()
                await self._stop.wait()
                for _bus, handler in self._buses.values():
                    handler.close()

        self._task = asyncio.get_running_loop().create_task(run())
        await started.wait()

    async def stop(self) -> None:
        if self._task is not None:
            self._stop.set()
            await self._task

    # ASGI entry: authenticate, then hand over to the SDK ------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.asgi(scope, receive, send)
            return
        runtime = scope["app"].state.runtime
        try:
            self._check_origin(scope)
            principal, bot, customer = await self._authorise(runtime, scope)
        except QuiverError as exc:
            response = problem(
                exc.status, exc.code, exc.title, exc.detail, scope.get("path"), **exc.extra()
            )
            response = await _for_client(response, scope, receive)
            retry_after = getattr(exc, "retry_after_s", None)
            if retry_after is not None:
                response.headers["Retry-After"] = str(retry_after)
            if isinstance(exc, UnauthenticatedError):  # RFC 9728: where to learn how to get in
                metadata = f"{_base_url(scope)}{RESOURCE_METADATA}"
                response.headers["WWW-Authenticate"] = (
                    f'Bearer resource_metadata="{metadata}", error="invalid_token", '
                    'error_description="an agent key of a Quiver tenant is needed; OAuth is not '
                    'offered"'
                )
            await response(scope, receive, send)
            return
        if not _header(scope, b"mcp-session-id"):  # a request that would open a session
            refused = self.manager.refusal(principal.key_id, principal.tenant_id or "")
            if refused is not None:
                response = problem(
                    refused.status, refused.code, refused.title, refused.detail, scope.get("path")
                )
                response = await _for_client(response, scope, receive)
                response.headers["Retry-After"] = "60"
                await response(scope, receive, send)
                return
        if scope.get("method") == "POST":
            body = await _body(receive)
            if body is None:
                return  # the client left
            asked = task_request(scope, body)
            if asked is not None and await self._serve_task(
                send, asked, Caller(principal, bot, "", customer)
            ):
                return
            if self.direct and await self._direct_call(
                scope, send, body, Caller(principal, bot, "", customer)
            ):
                return
            receive = replayed(body, receive)
        scope["user"] = _owner(principal)
        scope.setdefault("state", {})
        scope["state"]["quiver_principal"] = principal
        scope["state"]["quiver_bot"] = bot
        scope["state"]["quiver_customer"] = customer
        await self.asgi(scope, receive, send)

    async def _direct_call(self, scope: Scope, send: Send, body: bytes, caller: Caller) -> bool:
        """A plain ``tools/call`` answered here, through the same ``_call`` as the SDK's handler
        (``server.api.mcp_direct``); False when the SDK is to take the request."""
        call = plain_call(scope, body)
        if call is None:
            return False
        guard: Any = contextlib.nullcontext()
        if call.mcp_session:
            transport = self.manager.held(call.mcp_session, caller.principal.key_id)
            connection = self._ready.get(call.mcp_session)
            if transport is None or connection is None:
                return False  # not ready, not this key's, closed, or expiring: the SDK says so
            if connection.protocol_version != call.version:
                return False
            guard = InFlight(transport)
        with guard:
            try:
                result = await self._call(
                    caller._replace(mcp_session=call.mcp_session), call.name, call.arguments
                )
            except Exception as exc:  # noqa: BLE001 - as the SDK's handler path: an MCPError
                # (unknown tool, ended session: its code in `data`) is its own JSON-RPC error;
                # anything else is logged with its traceback by `modern_error_data` and answered
                # as INTERNAL_ERROR — never swallowed, never a handler's internals on the wire
                error = modern_error_data(exc).model_dump(by_alias=True, exclude_none=True)
                await answer(send, call, error=error)
                return True
        await answer(send, call, result=stamped(call, result, self.server.server_info_stamp))
        return True

    async def _serve_task(self, send: Send, asked: TaskRequest, caller: Caller) -> bool:
        """A task's request of a ready 2025-11-25 session this node holds for the caller's key,
        answered here (``server.api.mcp_tasks``); False when the SDK is to take it."""
        transport = self.manager.held(asked.mcp_session, caller.principal.key_id)
        connection = self._ready.get(asked.mcp_session)
        if transport is None or connection is None:
            return False
        if connection.protocol_version != asked.version:
            return False
        with InFlight(transport):
            try:
                held = caller._replace(mcp_session=asked.mcp_session)
                result = await self._answer_task(held, asked)
            except Exception as exc:  # noqa: BLE001 - as in _direct_call: an MCPError is its own
                # JSON-RPC error; anything else is logged with its traceback by
                # `modern_error_data` and answered INTERNAL_ERROR, never swallowed
                error = modern_error_data(exc).model_dump(by_alias=True, exclude_none=True)
                await answer(send, asked, error=error)  # type: ignore[arg-type]
                return True
        await answer(send, asked, result=result)  # type: ignore[arg-type]
        return True

    async def _answer_task(self, caller: Caller, asked: TaskRequest) -> dict[str, Any]:
        runtime, params = self._runtime, asked.params
        tenant = self._tenant(caller.principal)
        if asked.method == "tools/call":
            return await self._start_task(caller, params)
        async with unit_of_work(runtime) as store:
            state, _ = await self._state(caller, store)
            sid = state.session.id
            if asked.method == "tasks/list":
                rows = await store.jobs.page(
                    tenant, session_id=sid, status=None, limit=100, after=None
                )
                return {"tasks": [mcp_tasks.task(r) for r in rows]}
            job = params.get("taskId")
            row = await store.jobs.find(job) if isinstance(job, str) else None
            if row is None or row.session_id != sid:
                raise MCPError(types.INVALID_PARAMS, f"no task {job!r} in this session")
            if asked.method == "tasks/get":
                return mcp_tasks.task(row)
            if asked.method == "tasks/cancel":
                if mcp_tasks.finished(row):
                    raise MCPError(types.INVALID_PARAMS, f"task {job!r} has already ended")
                return mcp_tasks.task(await runtime.services.jobs.cancel(store, tenant, row.id))
            job_id = row.id
        # tasks/result: once the job has ended (waited for, within the MCP wait)
        ended = await runtime.services.jobs.wait(tenant, job_id, runtime.settings.mcp_job_wait_s)
        if not mcp_tasks.finished(ended):
            raise MCPError(types.INVALID_REQUEST, f"task {ended.id!r} is still working")
        return mcp_tasks.related(_result(dict(ended.result or {})), ended.id)

    async def _start_task(self, caller: Caller, params: dict[str, Any]) -> dict[str, Any]:
        """``tools/call`` with ``task``: a job tool's call, answered with its job as the task."""
        name, arguments = params.get("name"), params.get("arguments") or {}
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise MCPError(types.INVALID_PARAMS, "tools/call needs a name and object arguments")
        async with unit_of_work(self._runtime) as store:
            state, _ = await self._state(caller, store)
            tool = state.view.tools_for(state.session.bot).get(name)
            if tool is None or tool.metadata.get("mode") != "job":
                message = f"{name!r} does not run as a task (its execution.taskSupport)"
                raise MCPError(types.METHOD_NOT_FOUND, message)
            started = await self._call_in(caller, name, arguments, store)
            store.answered = True
        if "job" not in started:  # refused before it could start (its arguments, the cap)
            error = started.get("error") or (started.get("structuredContent") or {}).get("error")
            raise MCPError(types.INVALID_PARAMS, str((error or {}).get("message")), error)
        tenant = self._tenant(caller.principal)
        row = await self._runtime.services.jobs.wait(tenant, started["job"], 0)
        return {"task": mcp_tasks.task(row)}

    def _check_origin(self, scope: Scope) -> None:
        """The transport spec: a request from a browser page (it sends ``Origin``) must come from
        an allowed origin, against DNS rebinding onto a local server: the server's own origin, a
        loopback one (local tools such as the MCP Inspector), or one QUIVER_MCP_ORIGINS lists."""
        origin = _header(scope, b"origin").decode("latin-1")
        if not origin or "*" in self.origins or origin in self.origins:
            return
        own = f"{scope.get('scheme', 'http')}://{_header(scope, b'host').decode('latin-1')}"
        if origin != own and not _loopback_origin(origin):
            raise ForbiddenError(f"origin {origin!r} may not use /mcp (QUIVER_MCP_ORIGINS)")

    async def _authorise(self, runtime: Any, scope: Scope) -> tuple[Principal, str, str | None]:
        headers = dict(scope["headers"])
        scheme, _, token = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise UnauthenticatedError("send `Authorization: Bearer <agent key>`")
        query = dict(
            part.split("=", 1)
            for part in scope.get("query_string", b"").decode().split("&")
            if "=" in part
        )
        bot = query.get("bot", "")
        customer = unquote_plus(query["customer"]) if "customer" in query else None
        if customer is not None and not 0 < len(customer) <= 128:
            raise ValidationFailedError(
                [FieldError("at most 128 characters: /mcp?customer=<id>", field="customer")]
            )
        async with unit_of_work(runtime) as store:  # a database session only on a cache miss
            principal = await authenticate(runtime, store, token.strip())
            if principal.tenant_id is None or principal.role not in ("agent", "developer"):
                raise ForbiddenError("/mcp needs an agent or developer key of a tenant")
            await admit(runtime, store, principal)
            if not BOT.match(bot):
                raise ValidationFailedError(
                    [FieldError("name the bot: /mcp?bot=<bot>", field="bot")]
                )
            view = await runtime.registry.view(store, principal.tenant_id)
        view.bot(bot)  # an unknown bot is refused here, before initialize can succeed
        return principal, bot, customer

    @staticmethod
    def _input_schema(name: str) -> None:
        """The schema the SDK checks a ``tools/call``'s ``Mcp-Param-*`` headers against: none.
        Only parameters annotated ``x-mcp-header`` make headers, and Quiver refuses that
        keyword when a tool is saved (a parameter schema has a fixed set of keywords), so no
        tool declares one and there is nothing to check. Without this answer the SDK ran the
        whole ``tools/list`` on every call to find that out: measured, an eighth of the
        server's time per MCP call."""
        return None

    def _remember_connection(self, ctx: Any, tenant: str) -> None:
        """Handshake-era clients get list_changed unasked, on their connection (ctx.session is a
        per-request proxy; the SDK offers no public handle on the connection behind it)."""
        connection = getattr(ctx.session, "_connection", None)
        if connection is not None and connection.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            self._legacy.setdefault(tenant, weakref.WeakSet()).add(connection)

    async def _initialized(self, ctx: Any, params: Any) -> None:
        """A handshake-era session is ready: list_changed reaches it from now on, and its
        ``tools/call`` may take the direct way (``_direct_call``)."""
        self._caller(ctx)
        connection = getattr(ctx.session, "_connection", None)
        mcp_session = ctx.request.headers.get("mcp-session-id", "")
        if connection is not None and mcp_session:
            self._ready[mcp_session] = connection

    def _forget(self, key_id: str, mcp_session: str) -> None:
        """A closed or expired MCP session: its Quiver session is no longer remembered here."""
        self._ready.pop(mcp_session, None)
        for key in [k for k in self._sessions if k[0] == key_id and k[2] == mcp_session]:
            self._clients.pop(self._sessions.pop(key), None)

    # handlers ---------------------------------------------------------------------------------
    def _caller(self, ctx: Any) -> Caller:
        """Who sends an SDK handler's request; handshake-era clients are remembered for
        list_changed on the way."""
        state = ctx.request.scope["state"]
        mcp_session = ctx.request.headers.get("mcp-session-id", "")
        principal = state["quiver_principal"]
        self._remember_connection(ctx, self._tenant(principal))
        return Caller(principal, state["quiver_bot"], mcp_session, state.get("quiver_customer"))

    @staticmethod
    def _tenant(principal: Principal) -> str:
        """The caller's tenant: ``_authorise`` lets in only a tenant's keys."""
        assert principal.tenant_id is not None
        return principal.tenant_id

    async def _state(self, caller: Caller, store: Any) -> tuple[SessionState, Snapshot]:
        """The caller's Quiver session (created on first use) and its snapshot, in ``store``'s
        transaction — a call must change the session in that same one."""
        principal, bot, mcp_session, customer = caller
        runtime = self._runtime
        tenant = self._tenant(principal)
        key = (principal.key_id, bot, mcp_session, customer or "")
        view = await runtime.registry.view(store, tenant)
        try:
            view.bot(bot)
        except QuiverError as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc)) from None
        sid = self._sessions.get(key)
        if sid is None:
            sid = await self._new_session(key, tenant, bot, principal.key_id, customer)
        else:
            self._sessions.move_to_end(key)
        state = await load_state(runtime.services, store, tenant, sid)
        return state, runtime.registry.snapshot(state.view, state.session.bot, state.inputs)

    async def _new_session(
        self,
        key: tuple[str, str, str, str],
        tenant: str,
        bot: str,
        actor: str,
        customer: str | None = None,
    ) -> str:
        """The client's Quiver session, created once however many of its first requests race:
        committed in its own unit of work before any request may use it (a request that saw
        it uncommitted found no session)."""
        lock = self._creating.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                sid = self._sessions.get(key)
                if sid is None:
                    runtime = self._runtime
                    async with runtime.sessions() as session, session.begin():
                        store = runtime.store(session)
                        attached = await attach(
                            runtime.services, store, tenant, bot, None, actor, customer
                        )
                    sid = self._sessions[key] = attached.session.id  # published once committed
                    self._clients[sid] = (tenant, key[2])
                    while len(self._sessions) > MAX_CLIENTS:  # the oldest clients start afresh
                        self._clients.pop(self._sessions.popitem(last=False)[1], None)
                return sid
        finally:
            if self._creating.get(key) is lock and not lock.locked():
                del self._creating[key]

    async def _list_tools(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        async with unit_of_work(self._runtime) as store:
            state, snapshot = await self._state(self._caller(ctx), store)
        # By name, and the cursor is the last name of the page: stable while tools come and go
        # (an offset repeated one tool and missed a new one when another was saved meanwhile)
        entries = sorted((e for e in snapshot.entries if e.executor == "server"), key=_by_name)
        cursor = params.cursor if params is not None else None
        if cursor:
            after = _decode_cursor(cursor)
            entries = [e for e in entries if e.name > after]
        page = entries[:PAGE_SIZE]
        more = len(entries) > PAGE_SIZE
        visible = state.view.tools_for(state.session.bot)
        return types.ListToolsResult(
            tools=[_tool(e, visible.get(e.name)) for e in page],
            next_cursor=_encode_cursor(page[-1].name) if more else None,
        )

    async def _call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        async def progress(data: dict[str, Any]) -> None:
            """A partial result as MCP progress (a no-op unless the client sent a token)."""
            message = orjson.dumps(data["partial"]).decode()[:MAX_PROGRESS_MESSAGE]
            await ctx.session.report_progress(data["seq"], None, message)

        async def job_progress(fraction: float, message: str | None) -> None:
            """A job's progress as MCP progress, of 1 (a no-op unless the client sent a token)."""
            await ctx.session.report_progress(fraction, 1.0, message)

        return types.CallToolResult.model_validate(
            await self._call(
                self._caller(ctx), params.name, params.arguments, progress, job_progress
            )
        )

    async def _call(
        self,
        caller: Caller,
        name: str,
        arguments: dict[str, Any] | None,
        on_partial: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
        on_job_progress: Callable[[float, str | None], Awaitable[None]] | None = None,
    ) -> Any:
        """A ``tools/call``'s result, as the wire carries it (both ways to it share this). A
        call that started a job waits for the job's end (its progress as MCP progress) up to
        ``QUIVER_MCP_JOB_WAIT_S``, once the unit of work that queued it has committed."""
        # a commit that fails because the database went away after the tool answered still
        # lets the answer out (the unit of work logs it), as over HTTP
        async with unit_of_work(self._runtime) as store:
            result = await self._call_in(caller, name, arguments or {}, store, on_partial)
            store.answered = True
        if isinstance(result, dict) and "job" in result:
            result = await self._job_end(caller, result, on_job_progress)
        return _result(result) if "success" in result else result

    async def _job_end(
        self,
        caller: Caller,
        started: dict[str, Any],
        on_progress: Callable[[float, str | None], Awaitable[None]] | None,
    ) -> dict[str, Any]:
        """The job's final envelope; or, if it runs past the wait, the call's own answer (the
        job's id) with what to do next."""
        reported = -1.0

        async def changed(row: Any) -> None:
            nonlocal reported
            if on_progress is not None and row.progress is not None and row.progress > reported:
                reported = row.progress
                await on_progress(row.progress, row.message)

        tenant = self._tenant(caller.principal)
        wait = self._runtime.settings.mcp_job_wait_s
        row = await self._runtime.services.jobs.wait(tenant, started["job"], wait, changed)
        if row.status in jobs.FINISHED:
            return dict(row.result or {})
        running = {
            **started["result"],
            "note": f"still running: GET /v1/jobs/{row.id} gives its result once it has ended",
        }
        return {**started, "result": running}

    async def _call_in(
        self,
        caller: Caller,
        name: str,
        arguments: dict[str, Any],
        store: Any,
        on_partial: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    ) -> dict[str, Any]:
        """``tools/call`` is the session's call use case, as over HTTP and in the agent loop: the
        same gate, ended sessions, handoff, breakers and once-per-session. MCP's own part: a name
        the client was never offered is a protocol error (``Unknown tool``), and the session's
        refusals are protocol errors too; a tool's failure is a result (``is_error``)."""
        state, snapshot = await self._state(caller, store)
        entry = snapshot.entry(name)
        held_out = name in state.inputs.open_breakers  # answered by the gate: circuit_open
        if (entry is None or entry.executor != "server") and not held_out:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name}")  # browser actions too
        try:
            envelope = await call_in_session(
                self._runtime.services,
                store,
                state,
                name,
                arguments,
                caller=role_of(caller.principal),
                on_partial=on_partial,
            )
        except QuotaExceededError as exc:  # to the model as a failed call, as HTTP says 429
            return _failed(exc.detail, {"code": exc.code, "message": exc.detail})
        except QuiverError as exc:  # the session refuses (ended): HTTP's 409; or the node
            data = {"code": exc.code, **exc.extra()}  # cannot record calls (toolRan says more)
            raise MCPError(types.INVALID_REQUEST, exc.detail, data) from None
        return envelope  # the wire's shape is ``_call``'s to give (a job's, once it ended)

    async def _listen(self, ctx: Any, params: types.SubscriptionsListenRequestParams) -> Any:
        _bus, handler = self._bus(self._tenant(self._caller(ctx).principal))
        return await handler(ctx, params)

    def _bus(self, tenant: str) -> tuple[InMemorySubscriptionBus, ListenHandler]:
        hit = self._buses.get(tenant)
        if hit is None:
            bus = InMemorySubscriptionBus()
            hit = self._buses[tenant] = (bus, ListenHandler(bus))
        return hit

    # change fan-out ---------------------------------------------------------------------------
    def tenant_changed(self, tenant: str) -> None:
        tenants = list(self._buses) + list(self._legacy) if tenant == "*" else [tenant]
        for name in set(tenants):
            task = asyncio.get_running_loop().create_task(self._announce(name))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    def session_changed(self, sid: str) -> None:
        """A Quiver session's snapshot changed (its intent, a tool done, tools it found): its
        MCP client hears list_changed — on its connection, or on the tenant's listen streams."""
        client = self._clients.get(sid)
        if client is None:
            return
        task = asyncio.get_running_loop().create_task(self._announce_to(*client))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _announce_to(self, tenant: str, mcp_session: str) -> None:
        if tenant in self._buses:
            await self._buses[tenant][0].publish(ToolsListChanged())
        connection = self._ready.get(mcp_session) if mcp_session else None
        if connection is not None:
            await _tell_list_changed(connection)

    async def _announce(self, tenant: str) -> None:
        if tenant in self._buses:
            await self._buses[tenant][0].publish(ToolsListChanged())
        for session in list(self._legacy.get(tenant, ())):
            await _tell_list_changed(session)


async def _tell_list_changed(connection: Any) -> None:
    """``notifications/tools/list_changed`` to a handshake-era connection. One that cannot take
    it (its listening stream closed, the client gone) is counted and logged, never raised: the
    change is committed, and the client sees it at its next ``tools/list``."""
    try:
        await connection.send_tool_list_changed()
    except Exception as exc:  # the SDK's transports raise several kinds for a closed stream
        metrics.BACKGROUND_FAILURES.labels(task="mcp_list_changed").inc()
        list_changed_failures.warning("list_changed not delivered: %s", type(exc).__name__)


class _Server(Server[Any]):
    """Advertises ``tools.listChanged``: every change of the tenant reaches its clients."""

    def get_capabilities(
        self, notification_options: NotificationOptions | None = None, *args: Any, **kwargs: Any
    ) -> Any:
        given = notification_options or NotificationOptions()
        options = NotificationOptions(
            prompts_changed=given.prompts_changed,
            resources_changed=given.resources_changed,
            tools_changed=True,
        )
        capabilities = super().get_capabilities(options, *args, **kwargs)
        # job tools run as tasks for 2025-11-25 clients (``server.api.mcp_tasks``)
        return capabilities.model_copy(update={"tasks": mcp_tasks.CAPABILITY})


def _by_name(entry: Any) -> str:
    return str(entry.name)


def _encode_cursor(name: str) -> str:
    return base64.urlsafe_b64encode(name.encode()).decode()


def _decode_cursor(cursor: str) -> str:
    try:
        name = base64.urlsafe_b64decode(cursor.encode()).decode()
    except (ValueError, UnicodeDecodeError):
        name = ""
    if not BOT.match(name):  # tool names share the bot-name pattern
        raise MCPError(types.INVALID_PARAMS, f"invalid cursor {cursor!r}")
    return name


def _tool(entry: Any, tool: Any) -> types.Tool:
    """An MCP tool with what Quiver knows of it as hints: a cacheable tool's result depends on
    its arguments only (read-only, idempotent); a once-per-session tool changes something; a
    webhook or a federated server's tool reaches the world outside; ``metadata.read_only``,
    ``destructive`` and ``idempotent`` say so outright. A tool without parameters takes a
    closed empty object, so clients that make schemas strict (the Agents SDK) can."""
    metadata = tool.metadata if tool is not None else {}
    hints: dict[str, Any] = {}
    if metadata.get("cacheable") is True:
        hints.update(read_only_hint=True, idempotent_hint=True)
    if metadata.get("once_per_session") is True:
        hints.update(read_only_hint=False, idempotent_hint=False)
    if tool is not None and tool.kind in ("webhook", "mcp"):
        hints["open_world_hint"] = True
        if tool.method in ("GET", "HEAD"):  # reads, as HTTP says a GET does
            hints.update(read_only_hint=True, idempotent_hint=True)
    for key, hint in (
        ("read_only", "read_only_hint"),
        ("destructive", "destructive_hint"),
        ("idempotent", "idempotent_hint"),
    ):
        if isinstance(metadata.get(key), bool):
            hints[hint] = metadata[key]
    title = metadata.get("title") if isinstance(metadata.get("title"), str) else None
    schema = entry.parameters
    if not schema.get("properties") and "additionalProperties" not in schema:
        schema = {**schema, "type": "object", "properties": {}, "additionalProperties": False}
    job = metadata.get("mode") == "job"  # a task where the client's version has them
    return types.Tool(
        name=entry.name,
        title=title,
        description=entry.description,
        input_schema=schema,
        output_schema=metadata.get("output_schema"),
        annotations=types.ToolAnnotations(title=title, **hints) if hints or title else None,
        execution=types.ToolExecution(task_support="optional") if job else None,
    )


def _base_url(scope: Scope) -> str:
    host = _header(scope, b"host").decode("latin-1") or "localhost"
    return f"{scope.get('scheme', 'http')}://{host}"


def protected_resource(base_url: str) -> dict[str, Any]:
    """RFC 9728 metadata of ``/mcp``: bearer keys in the header, no authorization server — a
    client that tries OAuth learns it must be given an agent key instead."""
    return {
        "resource": f"{base_url}/mcp",
        "authorization_servers": [],
        "bearer_methods_supported": ["header"],
        "resource_name": "Quiver MCP (an agent key of a tenant as the bearer token)",
        "resource_documentation": f"{base_url}/docs",
    }


async def _for_client(response: JSONResponse, scope: Scope, receive: Receive) -> JSONResponse:
    """A refusal as the caller reads one: problem+json, or for an MCP client a JSON-RPC error
    (which is what its SDK surfaces; a problem body reads to it as a bare "error response")."""
    if b"text/event-stream" not in _header(scope, b"accept") or scope.get("method") != "POST":
        return response
    refused = orjson.loads(response.body)
    error = {"code": types.INVALID_REQUEST, "message": refused["detail"], "data": refused}
    answer = JSONResponse(
        {"jsonrpc": "2.0", "id": await _request_id(receive), "error": error},
        status_code=response.status_code,
    )
    answer.headers.update(
        {k: v for k, v in response.headers.items() if k not in ("content-type", "content-length")}
    )
    return answer


async def _request_id(receive: Receive) -> str | int | None:
    """The JSON-RPC id of the request being refused, read from at most 64 KiB of its body."""
    body = b""
    while len(body) <= MAX_ID_READ:
        message = await receive()
        if message["type"] != "http.request":
            break
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    try:
        request = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    found = request.get("id") if isinstance(request, dict) else None
    return found if isinstance(found, str | int) and not isinstance(found, bool) else None


async def _body(receive: Receive) -> bytes | None:
    """A POST's whole body (its size is capped before it gets here), or None if the client
    left."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _header(scope: Scope, name: bytes) -> bytes:
    return next((value for key, value in scope["headers"] if key == name), b"")


def _result(envelope: dict[str, Any]) -> dict[str, Any]:
    """A ``CallToolResult`` on the wire: the result as text, and as structured content when it
    is an object; a failure as the message the model reads, with its error."""
    if envelope["success"]:
        answer = envelope["result"]
        result: dict[str, Any] = {
            "content": [{"type": "text", "text": orjson.dumps(answer).decode()}]
        }
        if isinstance(answer, dict):
            result["structuredContent"] = answer
        result["isError"] = False
        return result
    return _failed(envelope["modelMessage"], envelope["error"])


def _failed(message: str, error: Any) -> dict[str, Any]:
    return {
        "content": [{"type": "text", "text": message}],
        "structuredContent": {"error": error},
        "isError": True,
    }
