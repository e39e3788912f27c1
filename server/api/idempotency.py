"""``Idempotency-Key`` on the POSTs that create or run something (a call, a tool, a session):
a retry with the same key and body gets the first answer again — no second execution, no second
log row; the same key with another body is a 422; while the first is still running, a 409.

    async with idempotent(request, runtime, principal, "calls", body) as idem:
        if idem.replay is not None:
            return idem.replay
        ...
        return idem.keep(response)
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import AsyncIterator
from typing import Annotated, Any

import orjson
from fastapi import Header, Response
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.background import BackgroundTask

from server.errors import ConflictError, FieldError, ValidationFailedError
from server.keys import Principal
from server.storage.idempotency import IdempotencyKeys
from server.storage.repositories import Store

LEASE_S = 120.0  # longer than any call may run (QUIVER_MAX_TIMEOUT_MS is 60 s by default)
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=255,
        pattern=r"^[\x21-\x7e]{1,255}$",
        description="a retry with the same key and body gets the first answer again",
    ),
]


class Idempotent:
    def __init__(
        self,
        keys: IdempotencyKeys,
        principal: Principal,
        scope: str,
        key: str,
        within: AsyncSession | None,
    ) -> None:
        self.keys, self.principal, self.scope, self.key = keys, principal, scope, key
        self.within = within  # the request's own transaction holds the claim (SQLite)
        self.replay: Response | None = None
        self.kept = False

    def keep(self, response: Response) -> Response:
        """Store ``response`` as the answer to this key, once it has gone out (after the
        request's own transaction committed)."""
        self.kept = True
        if response.status_code >= 500:
            response.background = BackgroundTask(self._release)
            return response
        response.background = BackgroundTask(
            self.keys.keep, self.principal.key_id, self.scope, self.key, response.status_code,
            bytes(response.body), response.media_type or "application/json",
        )  # fmt: skip
        response.headers["Idempotency-Key"] = self.key
        return response

    async def _release(self) -> None:
        await self.keys.release(self.principal.key_id, self.scope, self.key)

    async def _release_now(self) -> None:
        """The request failed or answered nothing to keep: free the key for a retry."""
        if self.within is None:
            await self._release()
        # else: the request's rollback (or this same transaction) takes the claim away
        elif not self.kept:
            await self.keys.release(self.principal.key_id, self.scope, self.key, self.within)


@contextlib.asynccontextmanager
async def idempotent(
    keys: IdempotencyKeys,
    principal: Principal,
    scope: str,
    key: str | None,
    body: Any,
    store: Store,
) -> AsyncIterator[Idempotent | None]:
    """``None`` without a key. Otherwise the claim: ``replay`` set when this is a retry."""
    if key is None:
        yield None
        return
    digest = hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()
    within = store.session if store.session.bind.dialect.name == "sqlite" else None
    claim = await keys.claim(principal.key_id, scope, key, digest, LEASE_S, within)
    if claim.outcome == "mismatch":
        raise ValidationFailedError(
            [FieldError("was used before with another body", field="Idempotency-Key")]
        )
    if claim.outcome == "running":
        raise ConflictError("a request with this Idempotency-Key is still running; retry shortly")
    slot = Idempotent(keys, principal, scope, key, within)
    if claim.outcome == "replay":
        slot.replay = Response(
            claim.response or b"", status_code=claim.status or 200, media_type=claim.media_type,
            headers={"Idempotency-Key": key, "Idempotent-Replayed": "true"},
        )  # fmt: skip
        yield slot
        return
    try:
        yield slot
    except BaseException:
        if within is None:
            await slot._release()  # it failed: a retry runs again
        raise
    if not slot.kept:
        await slot._release_now()
