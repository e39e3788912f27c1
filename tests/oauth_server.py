"""A real OAuth 2.1 authorization server and API for per-user connection tests, served by uvicorn
on 127.0.0.2: the authorization code flow with PKCE (S256 only, the verifier checked), a
confidential client (HTTP Basic), refresh tokens that rotate, codes that work once, and an API
(``/api/me``) that takes only the newest access token."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import secrets
import urllib.parse
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.servers import served

CLIENT_ID, CLIENT_SECRET = "quiver-acme", "client-s3cr3t"


@dataclass
class Grant:
    customer: str
    scope: str


@dataclass
class OAuthServer:
    base: str = ""
    user: str = "alice"  # who signs in at /authorize next
    expires_in: int = 3600
    codes: dict[str, dict[str, Any]] = field(default_factory=dict)
    access: dict[str, Grant] = field(default_factory=dict)  # the valid access tokens
    refresh: dict[str, Grant] = field(default_factory=dict)  # the valid refresh tokens
    api_auth: list[str | None] = field(default_factory=list)  # what /api/me was sent
    grants: list[str] = field(default_factory=list)  # the token endpoint's grant types, in order

    def revoke_all(self) -> None:
        self.access.clear()
        self.refresh.clear()

    def _issue(self, grant: Grant) -> dict[str, Any]:
        access, refresh = "at-" + secrets.token_hex(8), "rt-" + secrets.token_hex(8)
        self.access = {t: g for t, g in self.access.items() if g.customer != grant.customer}
        self.access[access] = grant
        self.refresh[refresh] = grant
        return {"access_token": access, "token_type": "Bearer", "expires_in": self.expires_in,
                "refresh_token": refresh, "scope": grant.scope}  # fmt: skip

    async def authorize(self, request: Request) -> Response:
        q = request.query_params
        if q.get("client_id") != CLIENT_ID or q.get("code_challenge_method") != "S256":
            return JSONResponse({"error": "invalid_request"}, 400)
        if q.get("response_type") != "code" or not q.get("code_challenge"):
            return JSONResponse({"error": "invalid_request"}, 400)
        code = "c-" + secrets.token_hex(8)
        self.codes[code] = {"challenge": q["code_challenge"], "redirect_uri": q["redirect_uri"],
                            "scope": q.get("scope", ""), "customer": self.user}  # fmt: skip
        back = {"code": code, "state": q.get("state", "")}
        return RedirectResponse(q["redirect_uri"] + "?" + urllib.parse.urlencode(back), 302)

    async def token(self, request: Request) -> Response:
        expected = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
        if request.headers.get("authorization") != f"Basic {expected}":
            return JSONResponse({"error": "invalid_client"}, 401)
        form = dict(await request.form())
        self.grants.append(str(form.get("grant_type")))
        if form.get("grant_type") == "authorization_code":
            issued = self.codes.pop(str(form.get("code")), None)  # a code works once
            if issued is None or issued["redirect_uri"] != form.get("redirect_uri"):
                return JSONResponse({"error": "invalid_grant"}, 400)
            digest = hashlib.sha256(str(form.get("code_verifier", "")).encode()).digest()
            if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != issued["challenge"]:
                return JSONResponse({"error": "invalid_grant"}, 400)
            return JSONResponse(self._issue(Grant(issued["customer"], issued["scope"])))
        if form.get("grant_type") == "refresh_token":
            grant = self.refresh.pop(str(form.get("refresh_token")), None)  # rotated
            if grant is None:
                return JSONResponse({"error": "invalid_grant"}, 400)
            return JSONResponse(self._issue(grant))
        return JSONResponse({"error": "unsupported_grant_type"}, 400)

    async def me(self, request: Request) -> Response:
        auth = request.headers.get("authorization")
        self.api_auth.append(auth)
        grant = self.access.get((auth or "").removeprefix("Bearer "))
        if grant is None:
            return JSONResponse({"error": "invalid_token"}, 401)
        return JSONResponse({"user": grant.customer, "scope": grant.scope})


@contextlib.asynccontextmanager
async def oauth_server() -> AsyncIterator[OAuthServer]:
    server = OAuthServer()
    app = Starlette(routes=[
        Route("/authorize", server.authorize),
        Route("/token", server.token, methods=["POST"]),
        Route("/api/me", server.me),
    ])  # fmt: skip
    async with served(app, host="127.0.0.2") as base:
        server.base = base
        yield server
