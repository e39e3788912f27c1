"""Tools of a federated MCP server (kind ``mcp``): each call is a ``tools/call`` to the remote
server, made with the official SDK's client over streamable HTTP through the egress guard.

The era is the remote's: ``mode="auto"`` asks ``server/discover`` and falls back to the
``initialize`` handshake of a server from before 2026-07-28. Whatever the remote does, a call is
contained: it ends by its deadline, reads at most ``max_bytes`` of any answer, and every failure
(refused by the guard, unreachable, a protocol error, an error result) is one of the failure
codes a webhook has. ``list_tools`` reads the remote's tools the same way, for the registry
(``server.calls.federation``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx2
import mcp_types as types

from sandbox.engine import Capabilities, Run, RunResult
from server.calls.mcp_clients import OpenClient, OpenClients
from server.calls.webhook import auth_header
from server.egress import (
    Allowlist,
    EgressDenied,
    EgressGuard,
    NameNotResolved,
    ResponseTooLarge,
)
from server.egress_transport import GuardedTransport

if TYPE_CHECKING:
    from mcp import Client
    from mcp.client.session import MessageHandlerFnT

log = logging.getLogger("quiver.mcp_remote")
MAX_RESPONSE_BYTES = 1024 * 1024
MAX_LIST_PAGES = 20  # tools/list pages read from a remote (a cursor that never ends stops here)
MAX_MESSAGE = 2000
CONNECT_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class McpSource:
    """What a federated tool runs: its server's URL, the remote tool's name, its deadline, and
    the server's decrypted auth header."""

    config: Mapping[str, Any]
    secret: str | None = None

    @property
    def timeout_ms(self) -> int | None:
        declared = self.config.get("timeout_ms")
        return int(declared) if declared else None


class RemoteFailure(Exception):
    """A remote that could not be asked, or answered nothing usable: ``code`` is a call's
    failure code (``egress_denied``, ``dns_error``, ``timeout``, ``too_large``,
    ``connect_error``, ``malformed_response``, ``tool_error``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class McpEngine:
    name = "mcp"
    # no tenant code runs here, and the remote's answer is the tool's whole effect
    capabilities = Capabilities(counts_cpu=False, external=True)

    def __init__(self, guard: EgressGuard, max_response_bytes: int = MAX_RESPONSE_BYTES) -> None:
        self.guard = guard
        self.max_response_bytes = max_response_bytes
        # one pool of connections (and one TLS context) for every remote: a transport of its
        # own per call would cost a TLS context's making each time (tens of milliseconds)
        self.clients = OpenClients()  # one open client per server, shared by its calls
        self.connections = httpx2.AsyncHTTPTransport(
            trust_env=False, limits=httpx2.Limits(max_connections=256, max_keepalive_connections=64)
        )

    async def close(self) -> None:
        await self.clients.close()
        await self.connections.aclose()

    def transport(self, extra: Allowlist | None, max_bytes: int | None = None) -> GuardedTransport:
        return GuardedTransport(
            self.guard, extra, max_bytes or self.max_response_bytes, self.connections
        )

    @contextlib.asynccontextmanager
    async def connect(
        self,
        url: str,
        secret: str | None,
        transport: GuardedTransport,
        message_handler: MessageHandlerFnT | None = None,
    ) -> AsyncIterator[Client]:
        """A connected client of the remote at ``url`` (its era negotiated), through
        ``transport``. (The SDK's client is imported here, not with the call path: it loads the
        SDK's server side and its web framework with it.)"""
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        http = httpx2.AsyncClient(
            transport=transport,
            headers=auth_header(secret),
            timeout=httpx2.Timeout(CONNECT_TIMEOUT_S, read=300.0),
            follow_redirects=False,
        )
        async with (
            http,
            Client(
                streamable_http_client(url, http_client=http),
                mode="auto",
                cache=None,
                message_handler=message_handler,
            ) as client,
        ):
            yield client

    async def run(self, source: McpSource, run: Run) -> RunResult:
        started = time.perf_counter()
        config = source.config
        timeout_ms = min(int(config.get("timeout_ms") or 10_000), run.limits.timeout_ms)
        if run.context.get("job_id"):  # a job's call may take the job's deadline
            timeout_ms = run.limits.timeout_ms
        extra = run.egress if isinstance(run.egress, Allowlist) else None
        url, secret = config["url"], source.secret
        key = _client_key(run.tenant, url, secret, extra)

        def took() -> float:
            return (time.perf_counter() - started) * 1000

        def opened(transport: GuardedTransport) -> Any:
            return self.connect(url, secret, transport)

        try:
            async with asyncio.timeout(timeout_ms / 1000):
                for attempt in (1, 2):
                    entry: OpenClient | None = None
                    made = self.transport(extra)  # the new client's, if none is open
                    try:
                        async with self.clients.use(key, made, opened) as entry:
                            result = await entry.client.call_tool(config["tool"], dict(run.params))
                        return _outcome(result, took())
                    except TimeoutError:
                        raise
                    except BaseException as exc:  # noqa: BLE001 — the SDK's groups wrap it
                        used = entry.transport if entry is not None else made
                        failure = classify(exc, used)
                        if failure is None:
                            raise
                        if failure.code == "tool_error":  # the server answered: the client is fine
                            return _failed(failure.code, str(failure), took())
                        if entry is not None:
                            self.clients.drop(key, entry)
                        # a session the server no longer knows (404): it ran nothing; once more
                        if attempt == 1 and used.refused == 404:
                            continue
                        return _failed(failure.code, str(failure), took())
        except TimeoutError:
            said = f"the MCP server did not answer within {timeout_ms} ms"
            return _failed("timeout", said, took())
        raise AssertionError("unreachable: the second attempt returns")

    async def list_tools(
        self, url: str, secret: str | None, extra: Allowlist | None, timeout_s: float
    ) -> tuple[list[types.Tool], str]:
        """The remote's tools (every page, up to ``MAX_LIST_PAGES``) and its protocol version.
        Raises ``RemoteFailure``."""
        transport = self.transport(extra, max_bytes=4 << 20)
        try:
            async with asyncio.timeout(timeout_s):
                async with self.connect(url, secret, transport) as client:
                    tools: list[types.Tool] = []
                    cursor: str | None = None
                    for _ in range(MAX_LIST_PAGES):
                        page = await client.list_tools(cursor=cursor)
                        tools += page.tools
                        cursor = page.next_cursor
                        if not cursor:
                            break
                    return tools, client.protocol_version
        except TimeoutError:
            raise RemoteFailure(
                "timeout", f"the MCP server did not list its tools within {timeout_s:g} s"
            ) from None
        except BaseException as exc:  # noqa: BLE001 — the SDK's task groups wrap what failed
            failure = classify(exc, transport)
            if failure is None:
                raise
            raise failure from None


def _client_key(tenant: str, url: str, secret: str | None, extra: Allowlist | None) -> str:
    """Whose open client a call may share: the same tenant, server, secret and allowlist."""
    admitted = repr((sorted(map(str, extra.hosts)), extra.networks)) if extra else ""
    said = "\n".join((tenant, url, secret or "", admitted))
    return hashlib.sha256(said.encode()).hexdigest()


def classify(exc: BaseException, transport: GuardedTransport | None) -> RemoteFailure | None:
    """What failed, as a call's failure; ``None`` for what is not the remote's doing (a
    cancellation, an error of this node), which goes on up. What the ``transport`` saw comes
    first: what it refused, and the last HTTP status of 400 or more it was answered (the SDK
    reports either only as a broken stream or a protocol error)."""
    from mcp.shared.exceptions import MCPError  # loads the whole SDK: not with the call path

    leaves = list(_leaves(exc))
    if any(isinstance(e, asyncio.CancelledError | KeyboardInterrupt | SystemExit) for e in leaves):
        return None
    seen = transport.failure if transport is not None else None
    refused = transport.refused if transport is not None else None
    if seen is not None:
        leaves.insert(0, seen)
    for leaf in leaves:
        if isinstance(leaf, NameNotResolved):
            return RemoteFailure("dns_error", str(leaf))
        if isinstance(leaf, EgressDenied):
            return RemoteFailure("egress_denied", str(leaf))
        if isinstance(leaf, ResponseTooLarge):
            return RemoteFailure("too_large", f"the MCP server's answer: {leaf}")
        if isinstance(leaf, TimeoutError | httpx2.TimeoutException):
            return RemoteFailure("timeout", "the MCP server did not answer in time")
    if refused is not None and any(isinstance(e, MCPError | httpx2.HTTPError) for e in leaves):
        code = "upstream_5xx" if refused >= 500 else "upstream_4xx"
        hint = " (is its auth_header right?)" if refused in (401, 403) else ""
        return RemoteFailure(code, f"the MCP server answered {refused}{hint}")
    for leaf in leaves:
        if isinstance(leaf, MCPError):
            message = f"the MCP server answered error {leaf.error.code}: {leaf.error.message}"
            return RemoteFailure("tool_error", message[:MAX_MESSAGE])
        if isinstance(leaf, httpx2.HTTPStatusError):
            status = leaf.response.status_code
            code = "upstream_5xx" if status >= 500 else "upstream_4xx"
            return RemoteFailure(code, f"the MCP server answered {status}")
        if isinstance(leaf, httpx2.HTTPError | OSError):
            return RemoteFailure(
                "connect_error", f"could not reach the MCP server ({type(leaf).__name__})"
            )
    if any(isinstance(e, Exception) for e in leaves):  # the SDK's own: a reply it could not read
        log.info("an MCP server's answer could not be read: %r", leaves[0])
        first = next(e for e in leaves if isinstance(e, Exception))
        said = f"the MCP server's answer could not be read ({type(first).__name__})"
        return RemoteFailure("malformed_response", said)
    return None


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    """The exceptions inside (nested) exception groups, and their causes' chain heads."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)
        return
    yield exc
    if exc.__cause__ is not None and exc.__cause__ is not exc:
        yield from _leaves(exc.__cause__)


def _failed(code: str, message: str, took_ms: float) -> RunResult:
    """A failure with one of the codes a webhook has too (``server.calls.envelope.CODES``)."""
    return RunResult.failure(code, message, took_ms)  # type: ignore[arg-type]


def _outcome(result: Any, took_ms: float) -> RunResult:
    """A ``tools/call`` result as a run's: an error result is the tool's reported failure; else
    its structured content, or its content blocks."""
    if not isinstance(result, types.CallToolResult):  # an extension's result it did not claim
        return _failed(
            "malformed_response", "the MCP server's result is not a tool result", took_ms
        )
    blocks = [b.model_dump(mode="json", by_alias=True, exclude_none=True) for b in result.content]
    if result.is_error:
        text = " ".join(b.get("text", "") for b in blocks if b.get("type") == "text").strip()
        message = (text or "the remote tool reported an error")[:MAX_MESSAGE]
        return RunResult(ok=True, value={"success": False, "message": message}, duration_ms=took_ms)
    structured = result.structured_content
    value = structured if isinstance(structured, dict) else {"content": blocks}
    return RunResult(ok=True, value=value, duration_ms=took_ms)
