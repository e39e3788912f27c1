"""Request dependencies: the unit of work, the caller, and the tenant a request acts for."""

from __future__ import annotations

import contextlib
import hmac
import logging
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Annotated, Any, cast

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from server.bootstrap import Runtime
from server.errors import FieldError, ForbiddenError, UnauthenticatedError, ValidationFailedError
from server.keys import Principal, matches, parse_token
from server.quotas import Admitted
from server.ratelimit import RateLimitedLog
from server.registry.model import GLOBAL_TENANT, Role
from server.storage.database import is_unavailable
from server.storage.repositories import Store
from server.storage.tables import utcnow

bearer = HTTPBearer(auto_error=False, description="An API key: `qk_<id>_<secret>`")


# Dependencies are ``async def`` on purpose: FastAPI runs a plain ``def`` dependency in a worker
# thread, which cost four thread hops per request here.
async def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


class unit_of_work:  # noqa: N801 - used as ``async with unit_of_work(runtime) as store``
    """One transaction per request, committed before the response is sent (its database
    session is opened only if the request needs one). A commit that fails because the database
    went away after a tool ran still lets the call's answer out (``Store.answered``); anything
    else that fails is an error response.

    A class, not an ``asynccontextmanager``: it is on every request's path, where the
    generator and its two coroutines cost more than the unit of work itself."""

    __slots__ = ("store",)

    def __init__(self, runtime: Runtime) -> None:
        self.store = runtime.store()

    async def __aenter__(self) -> Store:
        return self.store

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> bool:
        store = self.store
        try:
            if exc is None:
                try:
                    if store.opened is not None:
                        await store.opened.commit()
                except Exception as failed:
                    if not await self._failed(failed):
                        raise
                return False
            return isinstance(exc, Exception) and await self._failed(exc)
        finally:
            await store.close()

    async def _failed(self, exc: Exception) -> bool:
        """Roll back; whether ``exc`` is swallowed (the database away after a tool answered)."""
        store = self.store
        if store.opened is not None:
            with contextlib.suppress(Exception):  # the error that matters is ``exc``
                await store.opened.rollback()
        if not (store.answered and is_unavailable(exc)):
            return False
        state_lost.warning("a call's session state was not saved (database away): %s", exc)
        return True


async def get_store(runtime: RuntimeDep) -> AsyncIterator[Store]:
    async with unit_of_work(runtime) as store:
        yield store


state_lost = RateLimitedLog(logging.getLogger("quiver.database"), every_s=10.0)


# scope="function": commit before the response goes out, so a client never reads stale data
# after a success, and a failed commit is an error response rather than a silent loss.
StoreDep = Annotated[Store, Depends(get_store, scope="function")]


async def get_principal(
    request: Request,
    runtime: RuntimeDep,
    store: StoreDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Principal:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise UnauthenticatedError("send `Authorization: Bearer <api key>`")
    principal = await authenticate(runtime, store, credentials.credentials)
    admitted = await admit(runtime, store, principal)
    if admitted is not None:
        request.scope.setdefault("state", {})[RATE_STATE] = admitted
    return principal


RATE_STATE = "quiver_rate"


async def get_principal_alone(
    request: Request,
    runtime: RuntimeDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Principal:
    """The caller, authenticated in a unit of work of its own that is over before the route
    runs: for long routes (the agent loop) that open their own and must not wait on the
    request's (SQLite has one writer)."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise UnauthenticatedError("send `Authorization: Bearer <api key>`")
    async with unit_of_work(runtime) as store:
        principal = await authenticate(runtime, store, credentials.credentials)
        admitted = await admit(runtime, store, principal)
    if admitted is not None:
        request.scope.setdefault("state", {})[RATE_STATE] = admitted
    return principal


PrincipalAloneDep = Annotated[Principal, Depends(get_principal_alone)]


async def admit(runtime: Runtime, store: Store, principal: Principal) -> Admitted | None:
    """Count the request against the key's and the tenant's rates (429 ``rate_limited``)."""
    quotas = runtime.quotas
    if quotas is None:
        return None
    limits = await quotas.limits_for(principal.tenant_id, lambda t: store.tenants.limits(t))
    return await quotas.admit_request(limits, principal.tenant_id, principal.key_id)


async def authenticate(runtime: Runtime, store: Store, token: str) -> Principal:
    """The caller a bearer token names (the API and ``/mcp`` share this)."""
    admin_key = runtime.settings.admin_key
    if admin_key is not None and hmac.compare_digest(
        token.encode(), admin_key.get_secret_value().encode()
    ):
        return Principal(key_id="bootstrap", role="admin", tenant_id=None)
    parsed = parse_token(token)
    if parsed is None:
        raise UnauthenticatedError("the API key is invalid or revoked")
    key = runtime.keys.get(parsed[0])
    if key is None:
        row = await store.keys.get(parsed[0])
        key = runtime.keys.put(row) if row is not None and row.revoked_at is None else None
    if key is None or not matches(key.secret_hash, *parsed):
        raise UnauthenticatedError("the API key is invalid or revoked")
    now = utcnow()
    touch_after = timedelta(seconds=runtime.settings.key_touch_interval_s)
    if key.last_used_at is None or now - key.last_used_at > touch_after:
        runtime.key_touches.note(key.id, now)  # written in a batch, off the request's path
        key.last_used_at = now
    role = cast(Role, key.role)  # the column holds only the roles a key is made with
    return Principal(key_id=key.id, role=role, tenant_id=key.tenant_id)


PrincipalDep = Annotated[Principal, Depends(get_principal)]
TenantQuery = Annotated[
    str | None, Query(alias="tenant", description="admins: the tenant to act for (`*` = global)")
]


def require(principal: Principal, *roles: Role) -> None:
    """Admins pass every role check; others need one of ``roles``."""
    if not principal.is_admin and principal.role not in roles:
        raise ForbiddenError(f"this needs a {' or '.join(roles)} key")


def role_of(principal: Principal) -> str:
    """The caller's role as the use cases know it: ``admin``, ``developer`` or ``agent``."""
    return "admin" if principal.is_admin else str(principal.role)


def acting_tenant(principal: Principal, tenant: str | None, *, allow_global: bool = False) -> str:
    """The tenant a request acts for: the key's own, or for admins the ``?tenant=`` value."""
    if not principal.is_admin:
        if tenant is not None and tenant != principal.tenant_id:
            raise ForbiddenError("a tenant key can only act for its own tenant")
        assert principal.tenant_id is not None
        return principal.tenant_id
    if tenant is None:
        raise ValidationFailedError(
            [
                FieldError(
                    "admins must say which tenant: ?tenant=<id> (or * for global tools)",
                    field="tenant",
                )
            ]
        )
    if tenant == GLOBAL_TENANT and not allow_global:
        raise ValidationFailedError([FieldError("`*` (global) is not valid here", field="tenant")])
    return tenant


def developer_tenant(
    principal: Principal, tenant: str | None, *, allow_global: bool = False
) -> str:
    """The tenant a developer request acts for (admins name it with ``?tenant=``)."""
    require(principal, "developer")
    return acting_tenant(principal, tenant, allow_global=allow_global)


async def require_admin(principal: PrincipalDep) -> Principal:
    if not principal.is_admin:
        raise ForbiddenError("this needs an admin key")
    return principal


AdminDep = Annotated[Principal, Depends(require_admin)]


def same_name(body_name: str, path_name: str) -> None:
    """A PUT body must name the resource its path names."""
    if body_name != path_name:
        message = f"the body names {body_name!r} but the path says {path_name!r}"
        raise ValidationFailedError([FieldError(message, field="name")])
