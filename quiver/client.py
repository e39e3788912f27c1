"""A typed Python client of the Quiver HTTP API, async (``AsyncQuiver``) and sync (``Quiver``),
on httpx. The CLI and the tests use it.

    from quiver.client import Quiver

    with Quiver("http://127.0.0.1:8000", key) as quiver:
        tool = quiver.push_tool("check_order", {"kind": "python", "source": text})
        print(tool.version, quiver.test_tool("check_order", {"order_id": "AB1234"}).success)

Every method is one API request (lists follow ``next_cursor`` to the end). A refusal raises
``ApiError`` carrying the problem+json fields (``status``, ``code``, ``detail``, ``errors``,
``retry_after``); a server that cannot be reached raises ``Unreachable``. Both sides share one
description of each request (``Request``), so the two clients cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import httpx
from httpx_sse import connect_sse
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ApiError",
    "AsyncQuiver",
    "Envelope",
    "Quiver",
    "Secret",
    "Tenant",
    "Tool",
    "ToolVersion",
    "Unreachable",
    "Usage",
    "Validation",
]

DEFAULT_URL = "http://127.0.0.1:8000"
T = TypeVar("T")


# what the API answers -------------------------------------------------------------------------
class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class Tool(_Model):
    name: str
    kind: str
    version: int
    enabled: bool
    origin: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)
    content_hash: str = ""
    sandbox: str | None = None
    source: str | None = None
    webhook_url: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    unchanged: bool = False  # a push of what the current version already holds (no new version)


class ToolVersion(_Model):
    version: int
    kind: str
    description: str = ""
    content_hash: str
    created_at: str | None = None
    created_by: str | None = None


class Problem(_Model):
    message: str
    field: str | None = None
    line: int | None = None


class Validation(_Model):
    valid: bool
    errors: list[Problem] = Field(default_factory=list)
    warnings: list[Problem] = Field(default_factory=list)


class Envelope(_Model):
    """A tool call's answer: ``result`` when it succeeded, ``error`` and ``modelMessage`` when
    not."""

    success: bool
    toolName: str  # noqa: N815 (the envelope's own spelling)
    executionTime: float  # noqa: N815
    result: Any = None
    error: dict[str, Any] | None = None
    modelMessage: str | None = None  # noqa: N815
    logs: list[str] | None = None


class Tenant(_Model):
    id: str
    name: str
    shared_tools: list[str] = Field(default_factory=list)
    sandbox_modules: list[str] = Field(default_factory=list)
    egress_allow: list[str] = Field(default_factory=list)
    limits: dict[str, Any] = Field(default_factory=dict)


class Key(_Model):
    id: str
    role: str
    tenant: str | None = None
    label: str = ""
    key: str | None = None  # the secret: only in the answer that created it


class Secret(_Model):
    """A secret's name and dates (values are never returned)."""

    name: str
    created_at: str | None = None
    updated_at: str | None = None
    updated_by: str | None = None


class Usage(_Model):
    tenant: str
    limits: dict[str, Any]
    overrides: dict[str, Any]
    today: dict[str, Any]


# errors ---------------------------------------------------------------------------------------
class ApiError(Exception):
    """The API refused a request (problem+json)."""

    def __init__(self, status: int, body: dict[str, Any], retry_after: float | None) -> None:
        self.status = status
        self.code: str = str(body.get("code") or "http_error")
        self.title: str = str(body.get("title") or "")
        self.detail: str = str(body.get("detail") or body.get("title") or f"HTTP {status}")
        self.errors = [Problem.model_validate(e) for e in body.get("errors") or []]
        self.body = body
        self.retry_after = retry_after
        super().__init__(f"{status} {self.code}: {self.detail}")


class Unreachable(Exception):
    """No answer from the server (refused, timed out, wrong address)."""


# one description of each request -------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Request(Generic[T]):
    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    params: dict[str, Any] | None = None
    json: Any = None
    headers: dict[str, str] | None = None


def _model(cls: type[T]) -> Callable[[httpx.Response], T]:
    return lambda response: cls.model_validate(response.json())  # type: ignore[attr-defined]


def _tool(response: httpx.Response) -> Tool:
    unchanged = response.headers.get("Quiver-Unchanged") == "true"
    return Tool.model_validate({**response.json(), "unchanged": unchanged})


def _nothing(response: httpx.Response) -> None:
    return None


def _json(response: httpx.Response) -> Any:
    return response.json()


def _raise_for(response: httpx.Response) -> None:
    if response.is_success:
        return
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    retry = response.headers.get("Retry-After")
    raise ApiError(response.status_code, body, float(retry) if retry else None)


class _Requests:
    """What each method of the clients sends, and how its answer is read."""

    def __init__(self, tenant: str | None) -> None:
        self.tenant = tenant

    def _scoped(self, params: dict[str, Any] | None = None) -> dict[str, Any]:
        out = dict(params or {})
        if self.tenant is not None:
            out["tenant"] = self.tenant
        return out

    # tools
    def tools_page(self, cursor: str | None) -> Request[dict[str, Any]]:
        params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        return Request("GET", "/v1/tools", _json, self._scoped(params))

    def get_tool(self, name: str) -> Request[Tool]:
        return Request("GET", f"/v1/tools/{name}", _tool, self._scoped())

    def validate(self, body: dict[str, Any]) -> Request[Validation]:
        return Request("POST", "/v1/tools/validate", _model(Validation), self._scoped(), body)

    def push_tool(self, name: str, body: dict[str, Any]) -> Request[Tool]:
        return Request("PUT", f"/v1/tools/{name}", _tool, self._scoped(), body)

    def versions_page(self, name: str, cursor: str | None) -> Request[dict[str, Any]]:
        params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        return Request("GET", f"/v1/tools/{name}/versions", _json, self._scoped(params))

    def get_version(self, name: str, version: int) -> Request[Tool]:
        return Request("GET", f"/v1/tools/{name}/versions/{version}", _tool, self._scoped())

    def rollback(self, name: str, version: int) -> Request[Tool]:
        path = f"/v1/tools/{name}/rollback"
        return Request("POST", path, _tool, self._scoped(), {"version": version})

    def set_enabled(self, name: str, enabled: bool) -> Request[Tool]:
        return Request("PATCH", f"/v1/tools/{name}", _tool, self._scoped(), {"enabled": enabled})

    def delete_tool(self, name: str) -> Request[None]:
        return Request("DELETE", f"/v1/tools/{name}", _nothing, self._scoped())

    def test_tool(
        self, name: str, arguments: dict[str, Any], variables: dict[str, Any] | None
    ) -> Request[Envelope]:
        body = {"arguments": arguments, "variables": variables or {}}
        return Request("POST", f"/v1/tools/{name}/test", _model(Envelope), self._scoped(), body)

    # tenants (admin)
    def tenants_page(self, cursor: str | None) -> Request[dict[str, Any]]:
        params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        return Request("GET", "/v1/tenants", _json, params)

    def get_tenant(self, tenant: str) -> Request[Tenant]:
        return Request("GET", f"/v1/tenants/{tenant}", _model(Tenant))

    def create_tenant(self, tenant: str, name: str) -> Request[Tenant]:
        return Request("POST", "/v1/tenants", _model(Tenant), json={"id": tenant, "name": name})

    def set_shared_tools(self, tenant: str, tools: list[str]) -> Request[Tenant]:
        path = f"/v1/tenants/{tenant}/shared-tools"
        return Request("PUT", path, _model(Tenant), json={"tools": tools})

    def set_limits(self, tenant: str, limits: dict[str, Any]) -> Request[Tenant]:
        return Request("PUT", f"/v1/tenants/{tenant}/limits", _model(Tenant), json=limits)

    def create_key(self, tenant: str, role: str, label: str) -> Request[Key]:
        body = {"role": role, "label": label}
        return Request("POST", f"/v1/tenants/{tenant}/keys", _model(Key), json=body)

    def revoke_key(self, key_id: str) -> Request[None]:
        return Request("DELETE", f"/v1/keys/{key_id}", _nothing)

    # secrets
    def set_secret(self, name: str, value: str) -> Request[Secret]:
        return Request(
            "PUT", f"/v1/secrets/{name}", _model(Secret), self._scoped(), {"value": value}
        )

    def secrets_page(self, cursor: str | None) -> Request[dict[str, Any]]:
        params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        return Request("GET", "/v1/secrets", _json, self._scoped(params))

    def delete_secret(self, name: str) -> Request[None]:
        return Request("DELETE", f"/v1/secrets/{name}", _nothing, self._scoped())

    # evals
    def put_evals(self, bot: str, cases: list[dict[str, Any]]) -> Request[dict[str, Any]]:
        return Request("PUT", f"/v1/bots/{bot}/evals", _json, self._scoped(), cases)

    def run_evals(self, bot: str) -> Request[dict[str, Any]]:
        return Request("POST", f"/v1/bots/{bot}/evals/run", _json, self._scoped())

    def import_openapi(self, source: str, options: dict[str, Any]) -> Request[dict[str, Any]]:
        body = {"source": source, **{k: v for k, v in options.items() if v is not None}}
        return Request("POST", "/v1/tools/import/openapi", _json, self._scoped(), body)

    # usage, sessions and calls
    def usage(self) -> Request[Usage]:
        return Request("GET", "/v1/usage", _model(Usage), self._scoped())

    def attach(self, bot: str, customer: str | None) -> Request[dict[str, Any]]:
        body = {"bot": bot, **({"customer": customer} if customer else {})}
        return Request("POST", "/v1/sessions", _json, json=body)

    def call(self, session: str, tool: str, arguments: dict[str, Any]) -> Request[Envelope]:
        body = {"tool": tool, "arguments": arguments}
        return Request("POST", f"/v1/sessions/{session}/calls", _model(Envelope), json=body)


def _settings(url: str | None, key: str | None) -> tuple[str, str | None]:
    return (url or os.environ.get("QUIVER_URL") or DEFAULT_URL).rstrip("/"), key or os.environ.get(
        "QUIVER_KEY"
    )


def _headers(key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


class Quiver:
    """The sync client. ``url`` and ``key`` default to ``QUIVER_URL`` and ``QUIVER_KEY``;
    ``tenant`` is the tenant an admin key acts for (``*`` for global tools)."""

    def __init__(
        self,
        url: str | None = None,
        key: str | None = None,
        *,
        tenant: str | None = None,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url, key = _settings(url, key)
        self.requests = _Requests(tenant)
        self.http = httpx.Client(
            base_url=self.url, headers=_headers(key), timeout=timeout, transport=transport
        )

    def __enter__(self) -> Quiver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def send(self, request: Request[T]) -> T:
        try:
            response = self.http.request(
                request.method,
                request.path,
                params=request.params,
                json=request.json,
                headers=request.headers,
            )
        except httpx.TransportError as exc:
            raise Unreachable(f"{self.url}: {exc or type(exc).__name__}") from exc
        _raise_for(response)
        return request.parse(response)

    def _pages(
        self, page: Callable[[str | None], Request[dict[str, Any]]], key: str
    ) -> Iterator[Any]:
        cursor: str | None = None
        while True:
            body = self.send(page(cursor))
            yield from body[key]
            cursor = body.get("next_cursor")
            if not cursor:
                return

    def list_tools(self) -> list[Tool]:
        return [Tool.model_validate(t) for t in self._pages(self.requests.tools_page, "tools")]

    def get_tool(self, name: str) -> Tool:
        return self.send(self.requests.get_tool(name))

    def validate(self, body: dict[str, Any]) -> Validation:
        return self.send(self.requests.validate(body))

    def push_tool(self, name: str, body: dict[str, Any]) -> Tool:
        return self.send(self.requests.push_tool(name, body))

    def versions(self, name: str) -> list[ToolVersion]:
        pages = self._pages(lambda c: self.requests.versions_page(name, c), "versions")
        return [ToolVersion.model_validate(v) for v in pages]

    def get_version(self, name: str, version: int) -> Tool:
        return self.send(self.requests.get_version(name, version))

    def rollback(self, name: str, version: int) -> Tool:
        return self.send(self.requests.rollback(name, version))

    def set_enabled(self, name: str, enabled: bool) -> Tool:
        return self.send(self.requests.set_enabled(name, enabled))

    def delete_tool(self, name: str) -> None:
        self.send(self.requests.delete_tool(name))

    def test_tool(
        self, name: str, arguments: dict[str, Any], variables: dict[str, Any] | None = None
    ) -> Envelope:
        return self.send(self.requests.test_tool(name, arguments, variables))

    def tail_calls(self, tool: str | None = None) -> Iterator[dict[str, Any]]:
        """The tenant's calls as they are logged (``GET /v1/calls/stream``), until closed."""
        params = self.requests._scoped({"tool": tool} if tool else {})
        timeout = httpx.Timeout(self.http.timeout.connect, read=None)
        try:
            with connect_sse(
                self.http, "GET", "/v1/calls/stream", params=params, timeout=timeout
            ) as source:
                if source.response.is_error:
                    source.response.read()
                    _raise_for(source.response)
                for event in source.iter_sse():
                    if event.event == "call":
                        yield json.loads(event.data)
        except httpx.TransportError as exc:
            raise Unreachable(f"{self.url}: {exc or type(exc).__name__}") from exc

    def list_tenants(self) -> list[Tenant]:
        pages = self._pages(self.requests.tenants_page, "tenants")
        return [Tenant.model_validate(t) for t in pages]

    def get_tenant(self, tenant: str) -> Tenant:
        return self.send(self.requests.get_tenant(tenant))

    def create_tenant(self, tenant: str, name: str = "") -> Tenant:
        return self.send(self.requests.create_tenant(tenant, name))

    def set_shared_tools(self, tenant: str, tools: list[str]) -> Tenant:
        return self.send(self.requests.set_shared_tools(tenant, tools))

    def set_limits(self, tenant: str, limits: dict[str, Any]) -> Tenant:
        return self.send(self.requests.set_limits(tenant, limits))

    def create_key(self, tenant: str, role: str, label: str = "") -> Key:
        return self.send(self.requests.create_key(tenant, role, label))

    def revoke_key(self, key_id: str) -> None:
        self.send(self.requests.revoke_key(key_id))

    def set_secret(self, name: str, value: str) -> Secret:
        return self.send(self.requests.set_secret(name, value))

    def list_secrets(self) -> list[Secret]:
        return [
            Secret.model_validate(s) for s in self._pages(self.requests.secrets_page, "secrets")
        ]

    def delete_secret(self, name: str) -> None:
        self.send(self.requests.delete_secret(name))

    def push_dataset(
        self, name: str, lines: bytes | Iterable[bytes], kind: str | None = None
    ) -> dict[str, Any]:
        """Replace a data set with NDJSON ``lines`` (bytes, or an iterable of chunks: streamed)."""
        params = self.requests._scoped({"kind": kind} if kind else {})
        try:
            response = self.http.request(
                "PUT",
                f"/v1/datasets/{name}",
                params=params,
                content=lines,
                headers={"Content-Type": "application/x-ndjson"},
            )
        except httpx.TransportError as exc:
            raise Unreachable(f"{self.url}: {exc or type(exc).__name__}") from exc
        _raise_for(response)
        return dict(response.json())

    def list_datasets(self) -> list[dict[str, Any]]:
        def page(cursor: str | None) -> Request[dict[str, Any]]:
            query = {"limit": 500, **({"cursor": cursor} if cursor else {})}
            return Request("GET", "/v1/datasets", _json, self.requests._scoped(query))

        return list(self._pages(page, "datasets"))

    def delete_dataset(self, name: str) -> None:
        self.send(Request("DELETE", f"/v1/datasets/{name}", _nothing, self.requests._scoped()))

    def import_openapi(
        self,
        source: str,
        *,
        operations: list[str] | None = None,
        tags: list[str] | None = None,
        server: str | None = None,
        prefix: str | None = None,
        credentials: dict[str, str] | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Webhook tools from an OpenAPI 3 document (JSON or YAML text): the tools made, the
        operations they came from, and the operations left out with their reasons."""
        options = {
            "operations": operations,
            "tags": tags,
            "server": server,
            "prefix": prefix,
            "credentials": credentials,
            "dry_run": dry_run,
        }
        return self.send(self.requests.import_openapi(source, options))

    def put_evals(self, bot: str, cases: list[dict[str, Any]]) -> dict[str, Any]:
        return self.send(self.requests.put_evals(bot, cases))

    def run_evals(self, bot: str) -> dict[str, Any]:
        """Run the bot's eval cases through the agent loop; the stored report."""
        return self.send(self.requests.run_evals(bot))

    def usage(self) -> Usage:
        return self.send(self.requests.usage())

    def attach(self, bot: str, customer: str | None = None) -> dict[str, Any]:
        return self.send(self.requests.attach(bot, customer))

    def call(self, session: str, tool: str, arguments: dict[str, Any] | None = None) -> Envelope:
        return self.send(self.requests.call(session, tool, arguments or {}))


class AsyncQuiver:
    """The async client: the same methods as ``Quiver``, awaited."""

    def __init__(
        self,
        url: str | None = None,
        key: str | None = None,
        *,
        tenant: str | None = None,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.url, key = _settings(url, key)
        self.requests = _Requests(tenant)
        self.http = httpx.AsyncClient(
            base_url=self.url, headers=_headers(key), timeout=timeout, transport=transport
        )

    async def __aenter__(self) -> AsyncQuiver:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def send(self, request: Request[T]) -> T:
        try:
            response = await self.http.request(
                request.method,
                request.path,
                params=request.params,
                json=request.json,
                headers=request.headers,
            )
        except httpx.TransportError as exc:
            raise Unreachable(f"{self.url}: {exc or type(exc).__name__}") from exc
        _raise_for(response)
        return request.parse(response)

    async def _all(
        self, page: Callable[[str | None], Request[dict[str, Any]]], key: str
    ) -> list[Any]:
        items: list[Any] = []
        cursor: str | None = None
        while True:
            body = await self.send(page(cursor))
            items.extend(body[key])
            cursor = body.get("next_cursor")
            if not cursor:
                return items

    async def list_tools(self) -> list[Tool]:
        return [Tool.model_validate(t) for t in await self._all(self.requests.tools_page, "tools")]

    async def get_tool(self, name: str) -> Tool:
        return await self.send(self.requests.get_tool(name))

    async def validate(self, body: dict[str, Any]) -> Validation:
        return await self.send(self.requests.validate(body))

    async def push_tool(self, name: str, body: dict[str, Any]) -> Tool:
        return await self.send(self.requests.push_tool(name, body))

    async def versions(self, name: str) -> list[ToolVersion]:
        pages = await self._all(lambda c: self.requests.versions_page(name, c), "versions")
        return [ToolVersion.model_validate(v) for v in pages]

    async def get_version(self, name: str, version: int) -> Tool:
        return await self.send(self.requests.get_version(name, version))

    async def rollback(self, name: str, version: int) -> Tool:
        return await self.send(self.requests.rollback(name, version))

    async def set_enabled(self, name: str, enabled: bool) -> Tool:
        return await self.send(self.requests.set_enabled(name, enabled))

    async def delete_tool(self, name: str) -> None:
        await self.send(self.requests.delete_tool(name))

    async def test_tool(
        self, name: str, arguments: dict[str, Any], variables: dict[str, Any] | None = None
    ) -> Envelope:
        return await self.send(self.requests.test_tool(name, arguments, variables))

    async def list_tenants(self) -> list[Tenant]:
        pages = await self._all(self.requests.tenants_page, "tenants")
        return [Tenant.model_validate(t) for t in pages]

    async def get_tenant(self, tenant: str) -> Tenant:
        return await self.send(self.requests.get_tenant(tenant))

    async def create_tenant(self, tenant: str, name: str = "") -> Tenant:
        return await self.send(self.requests.create_tenant(tenant, name))

    async def set_shared_tools(self, tenant: str, tools: list[str]) -> Tenant:
        return await self.send(self.requests.set_shared_tools(tenant, tools))

    async def set_limits(self, tenant: str, limits: dict[str, Any]) -> Tenant:
        return await self.send(self.requests.set_limits(tenant, limits))

    async def create_key(self, tenant: str, role: str, label: str = "") -> Key:
        return await self.send(self.requests.create_key(tenant, role, label))

    async def revoke_key(self, key_id: str) -> None:
        await self.send(self.requests.revoke_key(key_id))

    async def set_secret(self, name: str, value: str) -> Secret:
        return await self.send(self.requests.set_secret(name, value))

    async def list_secrets(self) -> list[Secret]:
        pages = await self._all(self.requests.secrets_page, "secrets")
        return [Secret.model_validate(s) for s in pages]

    async def delete_secret(self, name: str) -> None:
        await self.send(self.requests.delete_secret(name))

    async def import_openapi(
        self,
        source: str,
        *,
        operations: list[str] | None = None,
        tags: list[str] | None = None,
        server: str | None = None,
        prefix: str | None = None,
        credentials: dict[str, str] | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """As ``Quiver.import_openapi``."""
        options = {
            "operations": operations,
            "tags": tags,
            "server": server,
            "prefix": prefix,
            "credentials": credentials,
            "dry_run": dry_run,
        }
        return await self.send(self.requests.import_openapi(source, options))

    async def put_evals(self, bot: str, cases: list[dict[str, Any]]) -> dict[str, Any]:
        return await self.send(self.requests.put_evals(bot, cases))

    async def run_evals(self, bot: str) -> dict[str, Any]:
        return await self.send(self.requests.run_evals(bot))

    async def usage(self) -> Usage:
        return await self.send(self.requests.usage())

    async def attach(self, bot: str, customer: str | None = None) -> dict[str, Any]:
        return await self.send(self.requests.attach(bot, customer))

    async def call(
        self, session: str, tool: str, arguments: dict[str, Any] | None = None
    ) -> Envelope:
        return await self.send(self.requests.call(session, tool, arguments or {}))
