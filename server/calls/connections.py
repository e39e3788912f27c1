"""Per-user connections: a tool that acts as its end user (``metadata.auth: {"provider",
"scopes"}``) runs with the token of the session's customer's connection to that provider, added
by the egress guard to the provider's API origins — never given to the tool (as
``metadata.credentials`` are not).

The connection is made once, through OAuth 2.1's authorization code flow with PKCE (S256), run by
Quiver: a call without one fails with ``requires_connection`` and the URL the end user opens;
the provider sends the browser back to ``/v1/oauth/callback``, where Quiver exchanges the code
(through the egress guard) and keeps the tokens encrypted per tenant, provider and customer. A
token about to run out is refreshed before the call; a refresh the provider refuses asks for the
connection again. The ``state`` carries the PKCE verifier sealed (authenticated encryption
bound to its purpose, with an expiry): it cannot be forged, replayed past ten minutes, or read
by the provider or the browser.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import time
import urllib.parse
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import httpx
import orjson

from server.calls.ports import CallStore
from server.egress import (
    Allowlist,
    Bound,
    Credential,
    EgressDenied,
    EgressGuard,
    ResponseTooLarge,
    TooManyRedirects,
    origin,
)

EARLY_S = 30.0  # a token that ends within this is refreshed before the call
STATE_TTL_S = 600.0  # how long an authorization may take
MAX_TOKEN_BYTES = 64 * 1024


class Transactions(Protocol):
    """Where a refresh commits on its own (``server.calls.services.Storage`` is one)."""

    def transaction(self) -> AbstractAsyncContextManager[CallStore]: ...


@dataclass(frozen=True)
class NeedsConnection:
    """Why a call cannot act as its end user yet, and (``url``) where the user fixes that."""

    code: str  # requires_connection | not_configured
    message: str
    provider: str
    url: str | None = None


class ConnectionFailed(Exception):
    """An authorization that cannot be finished (its state, the provider's answer)."""


class _Refused(ConnectionFailed):
    """The token endpoint refused a refresh; ``seen``: when the connection was last written."""

    def __init__(self, message: str, seen: datetime) -> None:
        super().__init__(message)
        self.seen = seen


class Connections:
    def __init__(
        self,
        guard: EgressGuard,
        public_url: str | None,
        clock: Callable[[], float] = time.time,
        storage: Transactions | None = None,
    ) -> None:
        self.guard = guard
        self.public_url = public_url.rstrip("/") if public_url else None
        self.clock = clock
        self.storage = storage  # refreshes commit in a transaction of their own
        self._refreshing: dict[tuple[str, str, str], asyncio.Lock] = {}

    @property
    def redirect_uri(self) -> str | None:
        return f"{self.public_url}/v1/oauth/callback" if self.public_url else None

    async def bearer(
        self,
        store: CallStore,
        tenant_id: str,
        auth: dict[str, Any],
        customer: str | None,
        session_id: str | None,
    ) -> list[Bound] | NeedsConnection:
        """The customer's token for the provider's API origins, refreshed if it is about to
        run out; or what stands in the way."""
        name = str(auth.get("provider"))
        provider = await store.oauth.provider(tenant_id, name)
        if provider is None:
            said = f"OAuth provider {name!r} is not set (PUT /v1/oauth-providers/{name})"
            return NeedsConnection("not_configured", said, name)
        if not customer:
            said = "it acts as the end user: the session needs a `customer`"
            return NeedsConnection("not_configured", said, name)
        if self.redirect_uri is None:
            said = "the server's public address is not set (QUIVER_PUBLIC_URL)"
            return NeedsConnection("not_configured", said, name)
        scopes = sorted(set(provider.scopes) | set(auth.get("scopes") or ()))
        row = await store.oauth.connection(tenant_id, name, customer)
        if row is None or not set(scopes) <= set(row.scopes):
            url = self.authorize_url(store, provider, customer, scopes, session_id)
            said = f"the user has not connected their {name} account (open {url})"
            return NeedsConnection("requires_connection", said, name, url)
        access, _ = store.oauth.tokens(row)
        if self._ends_soon(row):
            try:
                access = await self._refreshed(tenant_id, name, customer)
            except ConnectionFailed as exc:
                url = self.authorize_url(store, provider, customer, scopes, session_id)
                said = f"the user's {name} connection must be renewed ({exc}; open {url})"
                return NeedsConnection("requires_connection", said, name, url)
        return [
            Bound(
                Credential(
                    secret=f"oauth:{name}",
                    origin=origin(api),
                    header="Authorization",
                    format="Bearer {secret}",
                ),
                access,
            )
            for api in provider.api
        ]

    def _ends_soon(self, row: Any) -> bool:
        expires = row.expires_at.timestamp() if row.expires_at is not None else None
        return expires is not None and expires - EARLY_S <= self.clock()

    async def _refreshed(self, tenant_id: str, name: str, customer: str) -> str:
        """A fresh access token for the connection, made once however many calls need it: in a
        transaction of its own (committed at once, so the provider's rotated refresh token is
        never lost with a call that fails), one at a time per connection on this node, and
        read again first — another call, or another node, may have refreshed it meanwhile."""
        if self.storage is None:
            raise ConnectionFailed("this node cannot refresh tokens")
        key = (tenant_id, name, customer)
        lock = self._refreshing.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                try:
                    async with self.storage.transaction() as own:
                        return await self._refresh(own, tenant_id, name, customer)
                except _Refused as refused:  # another node may have used the token first
                    async with self.storage.transaction() as again:
                        row = await again.oauth.connection(tenant_id, name, customer)
                        if (
                            row is not None
                            and row.updated_at != refused.seen
                            and not self._ends_soon(row)
                        ):
                            return again.oauth.tokens(row)[0]
                    raise ConnectionFailed(str(refused)) from None
        finally:
            if not lock.locked() and self._refreshing.get(key) is lock:
                del self._refreshing[key]

    async def _refresh(self, store: CallStore, tenant_id: str, name: str, customer: str) -> str:
        row = await store.oauth.connection(tenant_id, name, customer)
        provider = await store.oauth.provider(tenant_id, name)
        if row is None or provider is None:
            raise ConnectionFailed("the connection was removed")
        access, refresh = store.oauth.tokens(row)
        if not self._ends_soon(row):  # refreshed meanwhile
            return access
        if refresh is None:
            raise ConnectionFailed("the token ran out and there is no refresh token")
        form = {"grant_type": "refresh_token", "refresh_token": refresh}
        extra = await store.tenants.allowlist(tenant_id)
        try:
            access, _ = await self._tokens(
                store, provider, form, customer, extra, granted=list(row.scopes)
            )
        except ConnectionFailed as exc:
            raise _Refused(str(exc), row.updated_at) from None
        return access

    def authorize_url(
        self,
        store: CallStore,
        provider: Any,
        customer: str,
        scopes: list[str],
        session_id: str | None,
    ) -> str:
        """Where the end user authorizes: the provider's authorization endpoint, with a PKCE
        challenge and a sealed state that carries the verifier."""
        verifier = secrets.token_urlsafe(48)  # 64 characters (RFC 7636: 43 to 128)
        digest = hashlib.sha256(verifier.encode("ascii")).digest()
        challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
        state = store.oauth.seal_state(
            {
                "t": provider.tenant_id,
                "p": provider.name,
                "c": customer,
                "v": verifier,
                "s": scopes,
                "sid": session_id,
                "exp": self.clock() + STATE_TTL_S,
            }
        )
        query = {
            "response_type": "code",
            "client_id": provider.client_id,
            "redirect_uri": self.redirect_uri,
            "scope": " ".join(scopes),
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        joiner = "&" if "?" in provider.authorize_url else "?"
        return str(provider.authorize_url) + joiner + urllib.parse.urlencode(query)

    async def finish(self, store: CallStore, code: str, sealed: str) -> dict[str, Any]:
        """The provider sent the end user back with ``code``: exchange it (with the verifier
        the state carries) and keep the tokens. Raises ``ConnectionFailed``."""
        state = store.oauth.open_state(sealed)
        if state is None:
            raise ConnectionFailed("this link is not one Quiver made")
        if float(state.get("exp") or 0) < self.clock():
            raise ConnectionFailed("this link has run out: ask for a new one")
        tenant_id, name, customer = str(state["t"]), str(state["p"]), str(state["c"])
        provider = await store.oauth.provider(tenant_id, name)
        if provider is None:
            raise ConnectionFailed(f"the provider {name!r} is no longer set")
        extra = await store.tenants.allowlist(tenant_id)
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": self.redirect_uri or "",
            "code_verifier": str(state["v"]),
        }
        await self._tokens(store, provider, form, customer, extra, granted=list(state["s"]))
        return {
            "tenant": tenant_id,
            "provider": name,
            "customer": customer,
            "session": state.get("sid"),
        }

    async def _tokens(
        self,
        store: CallStore,
        provider: Any,
        form: dict[str, str],
        customer: str,
        extra: Allowlist | None,
        granted: list[str],
    ) -> tuple[str, str | None]:
        """Ask the token endpoint (through the egress guard) and keep what it gives."""
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        }
        secret = store.oauth.client_secret(provider)
        if secret is not None:  # RFC 6749 2.3.1: each part form-encoded, then Basic
            pair = f"{_form(provider.client_id)}:{_form(secret)}".encode()
            headers["Authorization"] = "Basic " + base64.b64encode(pair).decode("ascii")
        else:
            form = {**form, "client_id": provider.client_id}
        try:
            response, body = await self.guard.request(
                "POST",
                provider.token_url,
                tenant=provider.tenant_id,
                headers=headers,
                content=urllib.parse.urlencode(form),
                timeout_s=10.0,
                max_bytes=MAX_TOKEN_BYTES,
                extra=extra,
                secret_headers=frozenset({"authorization"}),
            )
        except EgressDenied as exc:
            raise ConnectionFailed(f"the token endpoint: {exc}") from None
        except (httpx.HTTPError, TimeoutError, ResponseTooLarge, TooManyRedirects, OSError) as exc:
            raise ConnectionFailed(
                f"the token endpoint could not be reached ({type(exc).__name__})"
            ) from None
        try:
            answer = orjson.loads(body)
        except orjson.JSONDecodeError:
            answer = None
        if response.status_code != 200 or not isinstance(answer, dict):
            error = answer.get("error") if isinstance(answer, dict) else None
            said = f"{response.status_code} {str(error or '')[:100]}".strip()
            raise ConnectionFailed(f"the provider refused ({said})")
        access = answer.get("access_token")
        kind = str(answer.get("token_type") or "bearer").lower()
        if not isinstance(access, str) or not access or kind != "bearer":
            raise ConnectionFailed("the provider's answer has no bearer access token")
        refresh = answer.get("refresh_token")
        expires_in = answer.get("expires_in")
        expires_at = (
            datetime.fromtimestamp(self.clock() + float(expires_in), UTC)
            if isinstance(expires_in, int | float) and not isinstance(expires_in, bool)
            else None
        )
        scope = answer.get("scope")
        scopes = scope.split() if isinstance(scope, str) else granted
        await store.oauth.connect(
            provider.tenant_id,
            provider.name,
            customer,
            access,
            refresh if isinstance(refresh, str) and refresh else None,
            sorted(set(scopes)),
            expires_at,
        )
        return access, refresh if isinstance(refresh, str) else None


def _form(value: str) -> str:
    return urllib.parse.quote_plus(value)
