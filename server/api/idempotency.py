"""``Idempotency-Key`` on the POSTs that create or run something (a call, a tool, a session):
a retry with the same key and body gets the first answer again — no second execution, no second
log row; the same key with another body is a 422; while the first is still running, a 409.

    return await answer_once(keys, principal, "call:<sid>", key, body, store, produce)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Header, Response
from starlette.background import BackgroundTask

from server.errors import ConflictError, FieldError, ValidationFailedError
from server.keys import Principal
from server.storage.database import dialect_name
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
    """A claimed key: what answers it is kept once it has gone out."""

    def __init__(self, keys: IdempotencyKeys, principal: Principal, scope: str, key: str) -> None:
        self.keys, self.principal, self.scope, self.key = keys, principal, scope, key

    def keep(self, response: Response) -> Response:
        """Store ``response`` as the answer to this key, once it has gone out (after the
        request's own transaction committed)."""
        if response.status_code >= 500:
            response.background = BackgroundTask(self._release)
            return response
        response.background = BackgroundTask(
            self.keys.keep,
            self.principal.key_id,
            self.scope,
            self.key,
            response.status_code,
            bytes(response.body),
            response.media_type or "application/json",
        )
        response.headers["Idempotency-Key"] = self.key
        return response

    async def _release(self) -> None:
        await self.keys.release(self.principal.key_id, self.scope, self.key)


async def answer_once(
    keys: IdempotencyKeys,
    principal: Principal,
    scope: str,
    key: str | None,
    body: Any,
    store: Store | None,
    produce: Callable[[], Awaitable[Response]],
) -> Response:
    """``produce()``'s response — or, for a retry with the same key and body, the first one
    again (a retry with another body: 422; while the first still runs: 409). ``store``: the
    request's unit of work, which on SQLite holds the claim; ``None`` where the request holds
    no transaction while it runs (an agent turn opens its own), so the claim commits at once."""
    if key is None:
        return await produce()
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(canonical.encode("utf-8", "backslashreplace")).hexdigest()
    within = store.session if store and dialect_name(store.session) == "sqlite" else None
    claim = await keys.claim(principal.key_id, scope, key, digest, LEASE_S, within)
    if within is not None and store is not None:
        store.holds_write_lock = True  # what else must be claimed is claimed in it
    if claim.outcome == "mismatch":
        raise ValidationFailedError(
            [FieldError("was used before with another body", field="Idempotency-Key")]
        )
    if claim.outcome == "running":
        raise ConflictError("a request with this Idempotency-Key is still running; retry shortly")
    if claim.outcome == "replay":
        return Response(
            claim.response or b"",
            status_code=claim.status or 200,
            media_type=claim.media_type,
            headers={"Idempotency-Key": key, "Idempotent-Replayed": "true"},
        )
    slot = Idempotent(keys, principal, scope, key)
    try:
        response = await produce()
    except BaseException:
        if within is None:
            await slot._release()  # it failed: a retry runs again (SQLite: the rollback does)
        raise
    if within is not None and response.status_code < 500:  # SQLite: with the claim, so a
        await keys.keep(  # retry waiting on this transaction finds the answer, not "running"
            principal.key_id,
            scope,
            key,
            response.status_code,
            bytes(response.body),
            response.media_type or "application/json",
            within=within,
        )
        response.headers["Idempotency-Key"] = key
        return response
    return slot.keep(response)
