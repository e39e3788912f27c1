"""Host calls from sandboxed tools: the only way a tool reaches the outside.

``http`` goes through the egress guard (``server/egress.py``) with the tenant's allowlist;
responses are capped and handed back as plain data.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import httpx

from server.calls.redaction import Redactor
from server.egress import (
    Allowlist,
    Bound,
    EgressDenied,
    EgressGuard,
    NameNotResolved,
    ResponseTooLarge,
    TooManyRedirects,
)

METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE"})
MAX_RESPONSE_BYTES = 1024 * 1024


class HostCallRefused(Exception):
    pass


class HttpHost:
    def __init__(self, guard: EgressGuard, max_bytes: int = MAX_RESPONSE_BYTES) -> None:
        self.guard = guard
        self.max_bytes = max_bytes

    async def __call__(
        self,
        method: str,
        args: dict[str, Any],
        timeout_s: float = 10.0,
        tenant: str = "",
        extra: Allowlist | None = None,
        credentials: Sequence[Bound] = (),
    ) -> dict[str, Any]:
        """The request, with ``credentials`` added at egress; the reply as plain data, their
        values masked (an API that echoes a key hands the tool ``[secret NAME]``)."""
        if method not in METHODS:
            raise HostCallRefused(f"method {method} is not allowed")
        data = args.get("data")
        try:
            response, body = await self.guard.request(
                method,
                str(args.get("url", "")),
                tenant=tenant,
                headers={str(k): str(v) for k, v in (args.get("headers") or {}).items()},
                params=args.get("params"),
                json=args.get("json"),
                content=data if isinstance(data, str | bytes) else None,
                timeout_s=min(float(args.get("timeout", timeout_s)), timeout_s),
                max_bytes=self.max_bytes,
                extra=extra,
                credentials=credentials,
            )
        except NameNotResolved as exc:
            raise HostCallRefused(f"name not resolved: {exc}") from None
        except EgressDenied as exc:
            raise HostCallRefused(f"egress denied: {exc}") from None
        except (TimeoutError, httpx.TimeoutException):
            raise HostCallRefused("the request timed out") from None
        except (ResponseTooLarge, TooManyRedirects) as exc:
            raise HostCallRefused(str(exc)) from None
        except httpx.HTTPError as exc:
            raise HostCallRefused(f"the request failed: {type(exc).__name__}") from None
        text = body.decode(response.encoding or "utf-8", errors="replace")
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = None
        reply = {
            "status": response.status_code,
            "headers": dict(response.headers),
            "text": text,
            "json": parsed,
        }
        if credentials:
            masked: dict[str, Any] = Redactor({b.credential.secret: b.value for b in credentials})(
                reply
            )
            return masked
        return reply
