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
import hashlib
import json
import os
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import httpx
from httpx_sse import aconnect_sse, connect_sse
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
    job: str | None = None  # a job tool's call: the job it started (``get_job``)


class Tenant(_Model):
    id: str
    name: str
    shared_tools: list[str] = Field(default_factory=list)
    sandbox_modules: list[str] = Field(default_factory=list)
    packages: list[dict[str, Any]] = Field(default_factory=list)  # granted reviewed packages
    egress_allow: list[str] = Field(default_factory=list)
    limits: dict[str, Any] = Field(default_factory=dict)
    guardrails: dict[str, Any] = Field(default_factory=dict)


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
    content: Any = None  # a body that is not JSON (bytes, or chunks to stream)


@dataclasses.dataclass(frozen=True)
class Listing:
    """A paged list: where it is read, the key of its items, its filters."""

    path: str
    key: str
    params: dict[str, Any] | None = None


def _model(cls: type[T]) -> Callable[[httpx.Response], T]:
    return lambda response: cls.model_validate(response.json())  # type: ignore[attr-defined]


def _tool(response: httpx.Response) -> Tool:
    unchanged = response.headers.get("Quiver-Unchanged") == "true"
    return Tool.model_validate({**response.json(), "unchanged": unchanged})


def _nothing(response: httpx.Response) -> None:
    return None


def _json(response: httpx.Response) -> Any:
    return response.json()


def _text(response: httpx.Response) -> str:
    return response.text


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

    def set_guardrails(self, tenant: str, policy: dict[str, Any]) -> Request[Tenant]:
        return Request("PUT", f"/v1/tenants/{tenant}/guardrails", _model(Tenant), json=policy)

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

    def push_dataset(self, name: str, lines: Any, kind: str | None) -> Request[dict[str, Any]]:
        params = self._scoped({"kind": kind} if kind else {})
        headers = {"Content-Type": "application/x-ndjson"}
        return Request("PUT", f"/v1/datasets/{name}", _json, params, headers=headers, content=lines)

    def list_datasets(self) -> Listing:
        return Listing("/v1/datasets", "datasets")

    def delete_dataset(self, name: str) -> Request[None]:
        return Request("DELETE", f"/v1/datasets/{name}", _nothing, self._scoped())

    def tail_calls(self, tool: str | None) -> Request[None]:
        params = self._scoped({"tool": tool} if tool else {})
        return Request("GET", "/v1/calls/stream", _nothing, params)

    def session_events(self, sid: str) -> Request[None]:
        return Request("GET", f"/v1/sessions/{sid}/events", _nothing, self._scoped())

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

    # the rest of the API, one request each ------------------------------------------------
    def _get(self, path: str, params: dict[str, Any] | None = None) -> Request[Any]:
        return Request("GET", path, _json, self._scoped(params))

    def _send(self, method: str, path: str, body: Any = None) -> Request[Any]:
        return Request(method, path, _json, self._scoped(), body)

    def _delete(self, path: str) -> Request[None]:
        return Request("DELETE", path, _nothing, self._scoped())

    def page(self, listing: Listing, cursor: str | None) -> Request[dict[str, Any]]:
        query = {"limit": 500, **(listing.params or {}), **({"cursor": cursor} if cursor else {})}
        return Request("GET", listing.path, _json, self._scoped(query))

    def health(self) -> Request[Any]:
        return Request("GET", "/healthz", _json)

    def ready(self) -> Request[Any]:
        return Request("GET", "/readyz", _json)

    def metrics(self) -> Request[str]:
        return Request("GET", "/metrics", _text)

    def whoami(self) -> Request[Any]:
        return self._get("/v1/whoami")

    def disk_tools(self) -> Request[Any]:
        return self._get("/v1/disk-tools")

    def reload_disk_tools(self) -> Request[Any]:
        return self._send("POST", "/v1/disk-tools/reload")

    def list_keys(self, tenant: str) -> Listing:
        return Listing(f"/v1/tenants/{tenant}/keys", "keys", None)

    def set_modules(self, tenant: str, modules: list[str]) -> Request[Tenant]:
        return Request(
            "PUT", f"/v1/tenants/{tenant}/modules", _model(Tenant), json={"modules": modules}
        )

    def set_egress(self, tenant: str, allow: list[str]) -> Request[Tenant]:
        return Request("PUT", f"/v1/tenants/{tenant}/egress", _model(Tenant), json={"allow": allow})

    def upload_package(self, name: str, version: str, archive: bytes) -> Request[Any]:
        digest = hashlib.sha256(archive).hexdigest()
        headers = {"content-type": "application/octet-stream"}
        path = f"/v1/packages/{name}/{version}"
        return Request("PUT", path, _json, {"sha256": digest}, headers=headers, content=archive)

    def list_packages(self) -> Request[Any]:
        return self._get("/v1/packages")

    def get_package(self, name: str, version: str) -> Request[Any]:
        return self._get(f"/v1/packages/{name}/{version}")

    def delete_package(self, name: str, version: str) -> Request[None]:
        return self._delete(f"/v1/packages/{name}/{version}")

    def grant_packages(self, tenant: str, packages: dict[str, str]) -> Request[Tenant]:
        path = f"/v1/tenants/{tenant}/packages"
        return Request("PUT", path, _model(Tenant), json={"packages": packages})

    def create_tool(self, body: dict[str, Any]) -> Request[Tool]:
        return Request("POST", "/v1/tools", _tool, self._scoped(), body)

    def put_provider(self, name: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("PUT", f"/v1/providers/{name}", body)

    def get_provider(self, name: str) -> Request[Any]:
        return self._get(f"/v1/providers/{name}")

    def delete_provider(self, name: str) -> Request[None]:
        return self._delete(f"/v1/providers/{name}")

    def list_providers(self) -> Request[Any]:
        return self._get("/v1/providers")

    def create_bot(self, body: dict[str, Any]) -> Request[Any]:
        return self._send("POST", "/v1/bots", body)

    def list_bots(self) -> Listing:
        return Listing("/v1/bots", "bots", None)

    def get_bot(self, bot: str) -> Request[Any]:
        return self._get(f"/v1/bots/{bot}")

    def put_bot(self, bot: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("PUT", f"/v1/bots/{bot}", body)

    def delete_bot(self, bot: str) -> Request[None]:
        return self._delete(f"/v1/bots/{bot}")

    def bot_panel(self, bot: str, skill: str, params: dict[str, Any]) -> Request[Any]:
        return self._get(f"/v1/bots/{bot}/panel/{skill}", params)

    def bot_snapshot(self, bot: str, format: str) -> Request[Any]:
        return self._get(f"/v1/bots/{bot}/snapshot", {"format": format})

    def get_evals(self, bot: str) -> Request[Any]:
        return self._get(f"/v1/bots/{bot}/evals")

    def eval_runs(self, bot: str) -> Request[Any]:
        return self._get(f"/v1/bots/{bot}/evals/runs")

    def list_sessions(self, params: dict[str, Any]) -> Listing:
        return Listing("/v1/sessions", "sessions", params)

    def get_session(self, sid: str) -> Request[Any]:
        return self._get(f"/v1/sessions/{sid}")

    def session_snapshot(self, sid: str, format: str) -> Request[Any]:
        return self._get(f"/v1/sessions/{sid}/snapshot", {"format": format})

    def set_intent(self, sid: str, intent: str | None) -> Request[Any]:
        return self._send("PUT", f"/v1/sessions/{sid}/intent", {"intent": intent})

    def detect_intent(self, sid: str, text: str) -> Request[Any]:
        return self._send("POST", f"/v1/sessions/{sid}/intent/detect", {"text": text})

    def set_actions(self, sid: str, actions: list[dict[str, Any]]) -> Request[Any]:
        return self._send("PUT", f"/v1/sessions/{sid}/actions", {"actions": actions})

    def get_variables(self, sid: str) -> Request[Any]:
        return self._get(f"/v1/sessions/{sid}/variables")

    def set_variables(self, sid: str, values: dict[str, Any]) -> Request[Any]:
        return self._send("PATCH", f"/v1/sessions/{sid}/variables", {"variables": values})

    def list_session_calls(self, sid: str) -> Listing:
        return Listing(f"/v1/sessions/{sid}/calls", "calls", None)

    def report_outcome(self, sid: str, call_id: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("POST", f"/v1/sessions/{sid}/calls/{call_id}/result", body)

    def send_message(self, sid: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("POST", f"/v1/sessions/{sid}/messages", body)

    def list_messages(self, sid: str) -> Listing:
        return Listing(f"/v1/sessions/{sid}/messages", "messages", None)

    def answer_actions(self, sid: str, mid: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("POST", f"/v1/sessions/{sid}/messages/{mid}/results", body)

    def end_session(self, sid: str, reason: str | None) -> Request[Any]:
        return self._send("POST", f"/v1/sessions/{sid}/end", {"reason": reason} if reason else {})

    def resume_session(self, sid: str) -> Request[Any]:
        return self._send("POST", f"/v1/sessions/{sid}/resume", {})

    def set_handoff(self, body: dict[str, Any]) -> Request[Any]:
        return self._send("PUT", "/v1/handoff", body)

    def get_handoff(self) -> Request[Any]:
        return self._get("/v1/handoff")

    def tool_analytics(self, params: dict[str, Any]) -> Request[Any]:
        return self._get("/v1/analytics/tools", params)

    def list_calls(self, params: dict[str, Any]) -> Listing:
        return Listing("/v1/calls", "calls", params)

    def list_jobs(self, params: dict[str, Any]) -> Listing:
        return Listing("/v1/jobs", "jobs", params)

    def get_job(self, job: str, wait: float) -> Request[Any]:
        return self._get(f"/v1/jobs/{job}", {"wait": wait} if wait else None)

    def cancel_job(self, job: str) -> Request[Any]:
        return self._send("POST", f"/v1/jobs/{job}/cancel")

    def put_mcp_server(self, name: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("PUT", f"/v1/mcp-servers/{name}", body)

    def list_mcp_servers(self) -> Request[Any]:
        return self._get("/v1/mcp-servers")

    def get_mcp_server(self, name: str) -> Request[Any]:
        return self._get(f"/v1/mcp-servers/{name}")

    def refresh_mcp_server(self, name: str) -> Request[Any]:
        return self._send("POST", f"/v1/mcp-servers/{name}/refresh")

    def delete_mcp_server(self, name: str) -> Request[None]:
        return self._delete(f"/v1/mcp-servers/{name}")

    def put_oauth_provider(self, name: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("PUT", f"/v1/oauth-providers/{name}", body)

    def list_oauth_providers(self) -> Request[Any]:
        return self._get("/v1/oauth-providers")

    def get_oauth_provider(self, name: str) -> Request[Any]:
        return self._get(f"/v1/oauth-providers/{name}")

    def delete_oauth_provider(self, name: str) -> Request[None]:
        return self._delete(f"/v1/oauth-providers/{name}")

    def list_connections(self, customer: str | None) -> Request[Any]:
        return self._get("/v1/connections", {"customer": customer} if customer else None)

    def delete_connection(self, provider: str, customer: str) -> Request[None]:
        return self._delete(f"/v1/connections/{provider}/{customer}")

    def connect_link(self, session: str, provider: str) -> Request[Any]:
        return self._send("POST", f"/v1/sessions/{session}/connections/{provider}")

    def catalog(self) -> Request[Any]:
        return self._get("/v1/catalog")

    def audit(self, params: dict[str, Any]) -> Listing:
        return Listing("/v1/audit", "entries", params)

    def usage_daily(self, params: dict[str, Any]) -> Request[Any]:
        return self._get("/v1/usage/daily", params)

    def get_dataset(self, name: str, params: dict[str, Any]) -> Request[Any]:
        return self._get(f"/v1/datasets/{name}", params)

    def list_leads(self) -> Listing:
        return Listing("/v1/leads", "leads", None)

    def put_form(self, name: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("PUT", f"/v1/forms/{name}", body)

    def get_form(self, name: str) -> Request[Any]:
        return self._get(f"/v1/forms/{name}")

    def delete_form(self, name: str) -> Request[None]:
        return self._delete(f"/v1/forms/{name}")

    def list_forms(self) -> Listing:
        return Listing("/v1/forms", "forms", None)

    def form_submissions(self, name: str) -> Listing:
        return Listing(f"/v1/forms/{name}/submissions", "submissions", None)

    def put_calendar(self, name: str, body: dict[str, Any]) -> Request[Any]:
        return self._send("PUT", f"/v1/calendars/{name}", body)

    def get_calendar(self, name: str) -> Request[Any]:
        return self._get(f"/v1/calendars/{name}")

    def delete_calendar(self, name: str) -> Request[None]:
        return self._delete(f"/v1/calendars/{name}")

    def list_calendars(self) -> Listing:
        return Listing("/v1/calendars", "calendars", None)


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
                content=request.content,
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

    def _list(self, listing: Listing) -> list[Any]:
        return list(self._pages(lambda cursor: self.requests.page(listing, cursor), listing.key))

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

    def _events(self, request: Request[None], wanted: str) -> Iterator[dict[str, Any]]:
        """The ``wanted`` events of a stream of server-sent events, until it ends."""
        timeout = httpx.Timeout(self.http.timeout.connect, read=None)
        try:
            with connect_sse(
                self.http, "GET", request.path, params=request.params, timeout=timeout
            ) as source:
                if source.response.is_error:
                    source.response.read()
                    _raise_for(source.response)
                for event in source.iter_sse():
                    if event.event == wanted:
                        yield json.loads(event.data)
        except httpx.TransportError as exc:
            raise Unreachable(f"{self.url}: {exc or type(exc).__name__}") from exc

    def tail_calls(self, tool: str | None = None) -> Iterator[dict[str, Any]]:
        """The tenant's calls as they are logged (``GET /v1/calls/stream``), until closed."""
        return self._events(self.requests.tail_calls(tool), "call")

    def session_events(self, sid: str) -> Iterator[dict[str, Any]]:
        """The session's snapshots as its tools change (``snapshot`` events), until closed."""
        return self._events(self.requests.session_events(sid), "snapshot")

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

    def set_guardrails(self, tenant: str, policy: dict[str, Any]) -> Tenant:
        """The policy checked around every call of the tenant's tools (admin; ``{}``: none)."""
        return self.send(self.requests.set_guardrails(tenant, policy))

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
        answer: dict[str, Any] = self.send(self.requests.push_dataset(name, lines, kind))
        return answer

    def list_datasets(self) -> list[dict[str, Any]]:
        return self._list(self.requests.list_datasets())

    def delete_dataset(self, name: str) -> None:
        self.send(self.requests.delete_dataset(name))

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

    # the rest of the API --------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        """`/healthz`: the process answers."""
        return self.send(self.requests.health())

    def ready(self) -> dict[str, Any]:
        """`/readyz`: the node can serve (database, schema, call log)."""
        return self.send(self.requests.ready())

    def metrics(self) -> str:
        """This node's Prometheus metrics (text)."""
        return self.send(self.requests.metrics())

    def whoami(self) -> dict[str, Any]:
        """The key's role and tenant."""
        return self.send(self.requests.whoami())

    def disk_tools(self) -> dict[str, Any]:
        """The tools folder's global tools and their problems (admin)."""
        return self.send(self.requests.disk_tools())

    def reload_disk_tools(self) -> dict[str, Any]:
        """Read the tools folder again (admin)."""
        return self.send(self.requests.reload_disk_tools())

    def list_keys(self, tenant: str) -> list[dict[str, Any]]:
        """A tenant's keys (admin; never their secrets)."""
        return self._list(self.requests.list_keys(tenant))

    def set_modules(self, tenant: str, modules: list[str]) -> Tenant:
        """The reviewed extra modules a tenant's code tools may import (admin)."""
        return self.send(self.requests.set_modules(tenant, modules))

    def set_egress(self, tenant: str, allow: list[str]) -> Tenant:
        """The hosts and networks a tenant's tools may reach (admin)."""
        return self.send(self.requests.set_egress(tenant, allow))

    def upload_package(self, name: str, version: str, archive: bytes) -> dict[str, Any]:
        """Upload a reviewed package (admin): a pure-Python wheel or an npm tarball's bytes,
        pinned by their SHA-256 (docs/packages.md)."""
        return self.send(self.requests.upload_package(name, version, archive))

    def list_packages(self) -> list[dict[str, Any]]:
        """Every uploaded package (admin), or the ones granted to the key's tenant."""
        return list(self.send(self.requests.list_packages())["packages"])

    def get_package(self, name: str, version: str) -> dict[str, Any]:
        """One package: its hash, its files' paths, its tenants (admin)."""
        return self.send(self.requests.get_package(name, version))

    def delete_package(self, name: str, version: str) -> None:
        """Delete a package no tenant is granted (admin)."""
        self.send(self.requests.delete_package(name, version))

    def grant_packages(self, tenant: str, packages: dict[str, str]) -> Tenant:
        """The reviewed packages (name -> version) a tenant's code tools may import (admin)."""
        return self.send(self.requests.grant_packages(tenant, packages))

    def create_tool(self, body: dict[str, Any]) -> Tool:
        """Create a tool (409 if the name is taken; ``push_tool`` saves a new version)."""
        return self.send(self.requests.create_tool(body))

    def put_provider(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a model provider (its key is kept encrypted)."""
        return self.send(self.requests.put_provider(name, body))

    def get_provider(self, name: str) -> dict[str, Any]:
        """A model provider (without its key)."""
        return self.send(self.requests.get_provider(name))

    def delete_provider(self, name: str) -> None:
        """Delete a model provider."""
        self.send(self.requests.delete_provider(name))

    def list_providers(self) -> dict[str, Any]:
        """The tenant's model providers."""
        return self.send(self.requests.list_providers())

    def create_bot(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a bot."""
        return self.send(self.requests.create_bot(body))

    def list_bots(self) -> list[dict[str, Any]]:
        """The tenant's bots."""
        return self._list(self.requests.list_bots())

    def get_bot(self, bot: str) -> dict[str, Any]:
        """A bot."""
        return self.send(self.requests.get_bot(bot))

    def put_bot(self, bot: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a bot."""
        return self.send(self.requests.put_bot(bot, body))

    def delete_bot(self, bot: str) -> None:
        """Delete a bot."""
        self.send(self.requests.delete_bot(bot))

    def bot_panel(self, bot: str, skill: str, **params: Any) -> dict[str, Any]:
        """A page of a bot's FAQ (``qa``) or catalog (``search``) for an end user's panel."""
        return self.send(self.requests.bot_panel(bot, skill, params))

    def bot_snapshot(self, bot: str, format: str = "native") -> dict[str, Any]:
        """The bot's tools in a provider format."""
        return self.send(self.requests.bot_snapshot(bot, format))

    def get_evals(self, bot: str) -> dict[str, Any]:
        """A bot's eval cases."""
        return self.send(self.requests.get_evals(bot))

    def eval_runs(self, bot: str) -> dict[str, Any]:
        """A bot's eval runs, newest first."""
        return self.send(self.requests.eval_runs(bot))

    def list_sessions(self, **params: Any) -> list[dict[str, Any]]:
        """The tenant's sessions (filters as query parameters)."""
        return self._list(self.requests.list_sessions(params))

    def get_session(self, sid: str) -> dict[str, Any]:
        """A session."""
        return self.send(self.requests.get_session(sid))

    def session_snapshot(self, sid: str, format: str = "native") -> dict[str, Any]:
        """The session's tools now, in a provider format."""
        return self.send(self.requests.session_snapshot(sid, format))

    def set_intent(self, sid: str, intent: str | None) -> dict[str, Any]:
        """Set (or clear) the session's intent."""
        return self.send(self.requests.set_intent(sid, intent))

    def detect_intent(self, sid: str, text: str) -> dict[str, Any]:
        """The intent of a text by the bot's detection (a new one becomes the session's)."""
        return self.send(self.requests.detect_intent(sid, text))

    def set_actions(self, sid: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Replace the session's browser actions."""
        return self.send(self.requests.set_actions(sid, actions))

    def get_variables(self, sid: str) -> dict[str, Any]:
        """The session's variables."""
        return self.send(self.requests.get_variables(sid))

    def set_variables(self, sid: str, values: dict[str, Any]) -> dict[str, Any]:
        """Set some of the session's variables (the others are kept)."""
        return self.send(self.requests.set_variables(sid, values))

    def list_session_calls(self, sid: str) -> list[dict[str, Any]]:
        """The session's calls, newest first."""
        return self._list(self.requests.list_session_calls(sid))

    def report_outcome(self, sid: str, call_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """A browser action's outcome."""
        return self.send(self.requests.report_outcome(sid, call_id, body))

    def send_message(self, sid: str, body: dict[str, Any]) -> dict[str, Any]:
        """A user's message: the agent loop's turn (not streamed)."""
        return self.send(self.requests.send_message(sid, body))

    def list_messages(self, sid: str) -> list[dict[str, Any]]:
        """The session's conversation."""
        return self._list(self.requests.list_messages(sid))

    def answer_actions(self, sid: str, mid: str, body: dict[str, Any]) -> dict[str, Any]:
        """The results of a paused turn's actions or approvals: the turn goes on."""
        return self.send(self.requests.answer_actions(sid, mid, body))

    def end_session(self, sid: str, reason: str | None = None) -> dict[str, Any]:
        """End a session."""
        return self.send(self.requests.end_session(sid, reason))

    def resume_session(self, sid: str) -> dict[str, Any]:
        """Give a handed-off session back to the agent."""
        return self.send(self.requests.resume_session(sid))

    def set_handoff(self, body: dict[str, Any]) -> dict[str, Any]:
        """Where the tenant's handoffs are announced."""
        return self.send(self.requests.set_handoff(body))

    def get_handoff(self) -> dict[str, Any]:
        """The tenant's handoff announcements."""
        return self.send(self.requests.get_handoff())

    def tool_analytics(self, **params: Any) -> dict[str, Any]:
        """Calls, failures and latency per tool."""
        return self.send(self.requests.tool_analytics(params))

    def list_calls(self, **params: Any) -> list[dict[str, Any]]:
        """The tenant's call log (filters as query parameters)."""
        return self._list(self.requests.list_calls(params))

    def list_jobs(self, **params: Any) -> list[dict[str, Any]]:
        """The tenant's long-running jobs, newest first (``session``, ``status`` filter)."""
        return self._list(self.requests.list_jobs(params))

    def get_job(self, job: str, wait: float = 0) -> dict[str, Any]:
        """A job (the id a job tool's call answered); with ``wait``, once it has ended or the
        seconds (at most 60) have passed."""
        return self.send(self.requests.get_job(job, wait))

    def cancel_job(self, job: str) -> dict[str, Any]:
        """Cancel a queued or running job (409 once it has ended)."""
        return self.send(self.requests.cancel_job(job))

    def put_mcp_server(
        self,
        name: str,
        url: str,
        tools: list[str],
        *,
        prefix: str | None = None,
        auth_header: str | None = None,
        timeout_ms: int | None = None,
        cacheable: list[str] | None = None,
        cache_ttl: int | None = None,
    ) -> dict[str, Any]:
        """Federate a remote MCP server: each of its tools that ``tools`` allows (names or
        globs; ``["*"]``: all) becomes the tool ``<prefix>__<name>`` (docs/federation.md)."""
        body: dict[str, Any] = {"url": url, "tools": tools}
        optional = {
            "prefix": prefix,
            "auth_header": auth_header,
            "timeout_ms": timeout_ms,
            "cacheable": cacheable,
            "cache_ttl": cache_ttl,
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        return self.send(self.requests.put_mcp_server(name, body))

    def list_mcp_servers(self) -> list[dict[str, Any]]:
        """The tenant's federated MCP servers."""
        listed = self.send(self.requests.list_mcp_servers())
        return list(listed["servers"])

    def get_mcp_server(self, name: str) -> dict[str, Any]:
        """A federated server: the tools it made, and how its last listing went."""
        return self.send(self.requests.get_mcp_server(name))

    def refresh_mcp_server(self, name: str) -> dict[str, Any]:
        """List a federated server again now and bring its tools up to date."""
        return self.send(self.requests.refresh_mcp_server(name))

    def delete_mcp_server(self, name: str) -> None:
        """Remove a federated server and every tool it made."""
        self.send(self.requests.delete_mcp_server(name))

    def put_oauth_provider(self, name: str, **body: Any) -> dict[str, Any]:
        """An OAuth 2.1 provider the tenant's tools act through for their end users
        (``authorize_url``, ``token_url``, ``client_id``, ``client_secret``, ``scopes``,
        ``api``; docs/connections.md)."""
        return self.send(self.requests.put_oauth_provider(name, body))

    def list_oauth_providers(self) -> list[dict[str, Any]]:
        """The tenant's OAuth providers (client secrets masked)."""
        listed = self.send(self.requests.list_oauth_providers())
        return list(listed["providers"])

    def get_oauth_provider(self, name: str) -> dict[str, Any]:
        """One OAuth provider (its client secret masked)."""
        return self.send(self.requests.get_oauth_provider(name))

    def delete_oauth_provider(self, name: str) -> None:
        """Remove a provider and every end user's connection to it."""
        self.send(self.requests.delete_oauth_provider(name))

    def list_connections(self, customer: str | None = None) -> list[dict[str, Any]]:
        """End users' connections (never their tokens), of one customer if named."""
        listed = self.send(self.requests.list_connections(customer))
        return list(listed["connections"])

    def delete_connection(self, provider: str, customer: str) -> None:
        """Forget an end user's tokens: their next call asks them to connect again."""
        self.send(self.requests.delete_connection(provider, customer))

    def connect_link(self, session: str, provider: str) -> dict[str, Any]:
        """Whether the session's customer is connected to ``provider``, and if not, the link
        that connects them (``url``)."""
        return self.send(self.requests.connect_link(session, provider))

    def catalog(self) -> dict[str, Any]:
        """The tools this key may use: its tenant's, shared and built-in."""
        return self.send(self.requests.catalog())

    def audit(self, **params: Any) -> list[dict[str, Any]]:
        """The audit log (filters as query parameters)."""
        return self._list(self.requests.audit(params))

    def usage_daily(self, **params: Any) -> dict[str, Any]:
        """Calls and tokens per day."""
        return self.send(self.requests.usage_daily(params))

    def get_dataset(self, name: str, **params: Any) -> dict[str, Any]:
        """A data set and a page of its items."""
        return self.send(self.requests.get_dataset(name, params))

    def list_leads(self) -> list[dict[str, Any]]:
        """The leads the lead-capture skill collected."""
        return self._list(self.requests.list_leads())

    def put_form(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a form."""
        return self.send(self.requests.put_form(name, body))

    def get_form(self, name: str) -> dict[str, Any]:
        """A form."""
        return self.send(self.requests.get_form(name))

    def delete_form(self, name: str) -> None:
        """Delete a form."""
        self.send(self.requests.delete_form(name))

    def list_forms(self) -> list[dict[str, Any]]:
        """The tenant's forms."""
        return self._list(self.requests.list_forms())

    def form_submissions(self, name: str) -> list[dict[str, Any]]:
        """A form's submissions."""
        return self._list(self.requests.form_submissions(name))

    def put_calendar(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a booking calendar."""
        return self.send(self.requests.put_calendar(name, body))

    def get_calendar(self, name: str) -> dict[str, Any]:
        """A calendar."""
        return self.send(self.requests.get_calendar(name))

    def delete_calendar(self, name: str) -> None:
        """Delete a calendar."""
        self.send(self.requests.delete_calendar(name))

    def list_calendars(self) -> list[dict[str, Any]]:
        """The tenant's calendars."""
        return self._list(self.requests.list_calendars())


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
                content=request.content,
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

    async def _list(self, listing: Listing) -> list[Any]:
        return await self._all(lambda cursor: self.requests.page(listing, cursor), listing.key)

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

    async def set_guardrails(self, tenant: str, policy: dict[str, Any]) -> Tenant:
        """The policy checked around every call of the tenant's tools (admin; ``{}``: none)."""
        return await self.send(self.requests.set_guardrails(tenant, policy))

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

    async def _events(self, request: Request[None], wanted: str) -> AsyncIterator[dict[str, Any]]:
        """The ``wanted`` events of a stream of server-sent events, until it ends."""
        timeout = httpx.Timeout(self.http.timeout.connect, read=None)
        try:
            async with aconnect_sse(
                self.http, "GET", request.path, params=request.params, timeout=timeout
            ) as source:
                if source.response.is_error:
                    await source.response.aread()
                    _raise_for(source.response)
                async for event in source.aiter_sse():
                    if event.event == wanted:
                        yield json.loads(event.data)
        except httpx.TransportError as exc:
            raise Unreachable(f"{self.url}: {exc or type(exc).__name__}") from exc

    def tail_calls(self, tool: str | None = None) -> AsyncIterator[dict[str, Any]]:
        """The tenant's calls as they are logged (``GET /v1/calls/stream``), until closed."""
        return self._events(self.requests.tail_calls(tool), "call")

    def session_events(self, sid: str) -> AsyncIterator[dict[str, Any]]:
        """The session's snapshots as its tools change (``snapshot`` events), until closed."""
        return self._events(self.requests.session_events(sid), "snapshot")

    async def push_dataset(
        self, name: str, lines: bytes | AsyncIterable[bytes], kind: str | None = None
    ) -> dict[str, Any]:
        """Replace a data set with NDJSON ``lines`` (bytes, or async chunks: streamed)."""
        answer: dict[str, Any] = await self.send(self.requests.push_dataset(name, lines, kind))
        return answer

    async def list_datasets(self) -> list[dict[str, Any]]:
        return await self._list(self.requests.list_datasets())

    async def delete_dataset(self, name: str) -> None:
        await self.send(self.requests.delete_dataset(name))

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

    # the rest of the API --------------------------------------------------------------------
    async def health(self) -> dict[str, Any]:
        """`/healthz`: the process answers."""
        return await self.send(self.requests.health())

    async def ready(self) -> dict[str, Any]:
        """`/readyz`: the node can serve (database, schema, call log)."""
        return await self.send(self.requests.ready())

    async def metrics(self) -> str:
        """This node's Prometheus metrics (text)."""
        return await self.send(self.requests.metrics())

    async def whoami(self) -> dict[str, Any]:
        """The key's role and tenant."""
        return await self.send(self.requests.whoami())

    async def disk_tools(self) -> dict[str, Any]:
        """The tools folder's global tools and their problems (admin)."""
        return await self.send(self.requests.disk_tools())

    async def reload_disk_tools(self) -> dict[str, Any]:
        """Read the tools folder again (admin)."""
        return await self.send(self.requests.reload_disk_tools())

    async def list_keys(self, tenant: str) -> list[dict[str, Any]]:
        """A tenant's keys (admin; never their secrets)."""
        return await self._list(self.requests.list_keys(tenant))

    async def set_modules(self, tenant: str, modules: list[str]) -> Tenant:
        """The reviewed extra modules a tenant's code tools may import (admin)."""
        return await self.send(self.requests.set_modules(tenant, modules))

    async def set_egress(self, tenant: str, allow: list[str]) -> Tenant:
        """The hosts and networks a tenant's tools may reach (admin)."""
        return await self.send(self.requests.set_egress(tenant, allow))

    async def upload_package(self, name: str, version: str, archive: bytes) -> dict[str, Any]:
        """Upload a reviewed package (admin): a pure-Python wheel or an npm tarball's bytes,
        pinned by their SHA-256 (docs/packages.md)."""
        return await self.send(self.requests.upload_package(name, version, archive))

    async def list_packages(self) -> list[dict[str, Any]]:
        """Every uploaded package (admin), or the ones granted to the key's tenant."""
        return list((await self.send(self.requests.list_packages()))["packages"])

    async def get_package(self, name: str, version: str) -> dict[str, Any]:
        """One package: its hash, its files' paths, its tenants (admin)."""
        return await self.send(self.requests.get_package(name, version))

    async def delete_package(self, name: str, version: str) -> None:
        """Delete a package no tenant is granted (admin)."""
        await self.send(self.requests.delete_package(name, version))

    async def grant_packages(self, tenant: str, packages: dict[str, str]) -> Tenant:
        """The reviewed packages (name -> version) a tenant's code tools may import (admin)."""
        return await self.send(self.requests.grant_packages(tenant, packages))

    async def create_tool(self, body: dict[str, Any]) -> Tool:
        """Create a tool (409 if the name is taken; ``push_tool`` saves a new version)."""
        return await self.send(self.requests.create_tool(body))

    async def put_provider(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a model provider (its key is kept encrypted)."""
        return await self.send(self.requests.put_provider(name, body))

    async def get_provider(self, name: str) -> dict[str, Any]:
        """A model provider (without its key)."""
        return await self.send(self.requests.get_provider(name))

    async def delete_provider(self, name: str) -> None:
        """Delete a model provider."""
        await self.send(self.requests.delete_provider(name))

    async def list_providers(self) -> dict[str, Any]:
        """The tenant's model providers."""
        return await self.send(self.requests.list_providers())

    async def create_bot(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a bot."""
        return await self.send(self.requests.create_bot(body))

    async def list_bots(self) -> list[dict[str, Any]]:
        """The tenant's bots."""
        return await self._list(self.requests.list_bots())

    async def get_bot(self, bot: str) -> dict[str, Any]:
        """A bot."""
        return await self.send(self.requests.get_bot(bot))

    async def put_bot(self, bot: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a bot."""
        return await self.send(self.requests.put_bot(bot, body))

    async def delete_bot(self, bot: str) -> None:
        """Delete a bot."""
        await self.send(self.requests.delete_bot(bot))

    async def bot_panel(self, bot: str, skill: str, **params: Any) -> dict[str, Any]:
        """A page of a bot's FAQ (``qa``) or catalog (``search``) for an end user's panel."""
        return await self.send(self.requests.bot_panel(bot, skill, params))

    async def bot_snapshot(self, bot: str, format: str = "native") -> dict[str, Any]:
        """The bot's tools in a provider format."""
        return await self.send(self.requests.bot_snapshot(bot, format))

    async def get_evals(self, bot: str) -> dict[str, Any]:
        """A bot's eval cases."""
        return await self.send(self.requests.get_evals(bot))

    async def eval_runs(self, bot: str) -> dict[str, Any]:
        """A bot's eval runs, newest first."""
        return await self.send(self.requests.eval_runs(bot))

    async def list_sessions(self, **params: Any) -> list[dict[str, Any]]:
        """The tenant's sessions (filters as query parameters)."""
        return await self._list(self.requests.list_sessions(params))

    async def get_session(self, sid: str) -> dict[str, Any]:
        """A session."""
        return await self.send(self.requests.get_session(sid))

    async def session_snapshot(self, sid: str, format: str = "native") -> dict[str, Any]:
        """The session's tools now, in a provider format."""
        return await self.send(self.requests.session_snapshot(sid, format))

    async def set_intent(self, sid: str, intent: str | None) -> dict[str, Any]:
        """Set (or clear) the session's intent."""
        return await self.send(self.requests.set_intent(sid, intent))

    async def detect_intent(self, sid: str, text: str) -> dict[str, Any]:
        """The intent of a text by the bot's detection (a new one becomes the session's)."""
        return await self.send(self.requests.detect_intent(sid, text))

    async def set_actions(self, sid: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Replace the session's browser actions."""
        return await self.send(self.requests.set_actions(sid, actions))

    async def get_variables(self, sid: str) -> dict[str, Any]:
        """The session's variables."""
        return await self.send(self.requests.get_variables(sid))

    async def set_variables(self, sid: str, values: dict[str, Any]) -> dict[str, Any]:
        """Set some of the session's variables (the others are kept)."""
        return await self.send(self.requests.set_variables(sid, values))

    async def list_session_calls(self, sid: str) -> list[dict[str, Any]]:
        """The session's calls, newest first."""
        return await self._list(self.requests.list_session_calls(sid))

    async def report_outcome(self, sid: str, call_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """A browser action's outcome."""
        return await self.send(self.requests.report_outcome(sid, call_id, body))

    async def send_message(self, sid: str, body: dict[str, Any]) -> dict[str, Any]:
        """A user's message: the agent loop's turn (not streamed)."""
        return await self.send(self.requests.send_message(sid, body))

    async def list_messages(self, sid: str) -> list[dict[str, Any]]:
        """The session's conversation."""
        return await self._list(self.requests.list_messages(sid))

    async def answer_actions(self, sid: str, mid: str, body: dict[str, Any]) -> dict[str, Any]:
        """The results of a paused turn's actions or approvals: the turn goes on."""
        return await self.send(self.requests.answer_actions(sid, mid, body))

    async def end_session(self, sid: str, reason: str | None = None) -> dict[str, Any]:
        """End a session."""
        return await self.send(self.requests.end_session(sid, reason))

    async def resume_session(self, sid: str) -> dict[str, Any]:
        """Give a handed-off session back to the agent."""
        return await self.send(self.requests.resume_session(sid))

    async def set_handoff(self, body: dict[str, Any]) -> dict[str, Any]:
        """Where the tenant's handoffs are announced."""
        return await self.send(self.requests.set_handoff(body))

    async def get_handoff(self) -> dict[str, Any]:
        """The tenant's handoff announcements."""
        return await self.send(self.requests.get_handoff())

    async def tool_analytics(self, **params: Any) -> dict[str, Any]:
        """Calls, failures and latency per tool."""
        return await self.send(self.requests.tool_analytics(params))

    async def list_calls(self, **params: Any) -> list[dict[str, Any]]:
        """The tenant's call log (filters as query parameters)."""
        return await self._list(self.requests.list_calls(params))

    async def list_jobs(self, **params: Any) -> list[dict[str, Any]]:
        """The tenant's long-running jobs, newest first (``session``, ``status`` filter)."""
        return await self._list(self.requests.list_jobs(params))

    async def get_job(self, job: str, wait: float = 0) -> dict[str, Any]:
        """A job (the id a job tool's call answered); with ``wait``, once it has ended or the
        seconds (at most 60) have passed."""
        return await self.send(self.requests.get_job(job, wait))

    async def cancel_job(self, job: str) -> dict[str, Any]:
        """Cancel a queued or running job (409 once it has ended)."""
        return await self.send(self.requests.cancel_job(job))

    async def put_mcp_server(
        self,
        name: str,
        url: str,
        tools: list[str],
        *,
        prefix: str | None = None,
        auth_header: str | None = None,
        timeout_ms: int | None = None,
        cacheable: list[str] | None = None,
        cache_ttl: int | None = None,
    ) -> dict[str, Any]:
        """Federate a remote MCP server: each of its tools that ``tools`` allows (names or
        globs; ``["*"]``: all) becomes the tool ``<prefix>__<name>`` (docs/federation.md)."""
        body: dict[str, Any] = {"url": url, "tools": tools}
        optional = {
            "prefix": prefix,
            "auth_header": auth_header,
            "timeout_ms": timeout_ms,
            "cacheable": cacheable,
            "cache_ttl": cache_ttl,
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        return await self.send(self.requests.put_mcp_server(name, body))

    async def list_mcp_servers(self) -> list[dict[str, Any]]:
        """The tenant's federated MCP servers."""
        listed = await self.send(self.requests.list_mcp_servers())
        return list(listed["servers"])

    async def get_mcp_server(self, name: str) -> dict[str, Any]:
        """A federated server: the tools it made, and how its last listing went."""
        return await self.send(self.requests.get_mcp_server(name))

    async def refresh_mcp_server(self, name: str) -> dict[str, Any]:
        """List a federated server again now and bring its tools up to date."""
        return await self.send(self.requests.refresh_mcp_server(name))

    async def delete_mcp_server(self, name: str) -> None:
        """Remove a federated server and every tool it made."""
        await self.send(self.requests.delete_mcp_server(name))

    async def put_oauth_provider(self, name: str, **body: Any) -> dict[str, Any]:
        """An OAuth 2.1 provider the tenant's tools act through for their end users
        (``authorize_url``, ``token_url``, ``client_id``, ``client_secret``, ``scopes``,
        ``api``; docs/connections.md)."""
        return await self.send(self.requests.put_oauth_provider(name, body))

    async def list_oauth_providers(self) -> list[dict[str, Any]]:
        """The tenant's OAuth providers (client secrets masked)."""
        listed = await self.send(self.requests.list_oauth_providers())
        return list(listed["providers"])

    async def get_oauth_provider(self, name: str) -> dict[str, Any]:
        """One OAuth provider (its client secret masked)."""
        return await self.send(self.requests.get_oauth_provider(name))

    async def delete_oauth_provider(self, name: str) -> None:
        """Remove a provider and every end user's connection to it."""
        await self.send(self.requests.delete_oauth_provider(name))

    async def list_connections(self, customer: str | None = None) -> list[dict[str, Any]]:
        """End users' connections (never their tokens), of one customer if named."""
        listed = await self.send(self.requests.list_connections(customer))
        return list(listed["connections"])

    async def delete_connection(self, provider: str, customer: str) -> None:
        """Forget an end user's tokens: their next call asks them to connect again."""
        await self.send(self.requests.delete_connection(provider, customer))

    async def connect_link(self, session: str, provider: str) -> dict[str, Any]:
        """Whether the session's customer is connected to ``provider``, and if not, the link
        that connects them (``url``)."""
        return await self.send(self.requests.connect_link(session, provider))

    async def catalog(self) -> dict[str, Any]:
        """The tools this key may use: its tenant's, shared and built-in."""
        return await self.send(self.requests.catalog())

    async def audit(self, **params: Any) -> list[dict[str, Any]]:
        """The audit log (filters as query parameters)."""
        return await self._list(self.requests.audit(params))

    async def usage_daily(self, **params: Any) -> dict[str, Any]:
        """Calls and tokens per day."""
        return await self.send(self.requests.usage_daily(params))

    async def get_dataset(self, name: str, **params: Any) -> dict[str, Any]:
        """A data set and a page of its items."""
        return await self.send(self.requests.get_dataset(name, params))

    async def list_leads(self) -> list[dict[str, Any]]:
        """The leads the lead-capture skill collected."""
        return await self._list(self.requests.list_leads())

    async def put_form(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a form."""
        return await self.send(self.requests.put_form(name, body))

    async def get_form(self, name: str) -> dict[str, Any]:
        """A form."""
        return await self.send(self.requests.get_form(name))

    async def delete_form(self, name: str) -> None:
        """Delete a form."""
        await self.send(self.requests.delete_form(name))

    async def list_forms(self) -> list[dict[str, Any]]:
        """The tenant's forms."""
        return await self._list(self.requests.list_forms())

    async def form_submissions(self, name: str) -> list[dict[str, Any]]:
        """A form's submissions."""
        return await self._list(self.requests.form_submissions(name))

    async def put_calendar(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create or replace a booking calendar."""
        return await self.send(self.requests.put_calendar(name, body))

    async def get_calendar(self, name: str) -> dict[str, Any]:
        """A calendar."""
        return await self.send(self.requests.get_calendar(name))

    async def delete_calendar(self, name: str) -> None:
        """Delete a calendar."""
        await self.send(self.requests.delete_calendar(name))

    async def list_calendars(self) -> list[dict[str, Any]]:
        """The tenant's calendars."""
        return await self._list(self.requests.list_calendars())
