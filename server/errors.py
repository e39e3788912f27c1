"""The domain error tree. Each class carries its HTTP status and stable ``code``.

    QuiverError
     ├── MalformedRequestError      400 malformed_json
     ├── UnauthenticatedError       401 unauthenticated
     ├── ForbiddenError             403 forbidden
     ├── NotFoundError              404 not_found
     ├── ConflictError              409 conflict
     │    ├── SessionEndedError      409 session_ended      (calls and messages of an ended session)
     │    └── HandedOffError         409 handed_off         (messages while a person has it)
     ├── PayloadTooLargeError       413 payload_too_large
     ├── ValidationFailedError      422 validation_error   (errors: [{field|line, message}])
     │    └── LoadTimeoutError       422 load_timeout       (the tool file's top level ran too long)
     ├── TooManyStreamsError        429 too_many_streams   (a tenant's event streams on a node)
     ├── TooManySessionsError       429 too_many_sessions  (MCP sessions of a key or tenant)
     ├── RateLimitedError           429 rate_limited       (a key's or tenant's request rate)
     ├── QuotaExceededError         429 quota_exceeded     (a tenant's calls or CPU time today)
     ├── ProviderError              502 provider_error, provider_auth; 504 provider_timeout
     ├── NotReadyError              503 not_ready
     ├── UnavailableError           503 unavailable        (the database is unreachable or full)
     └── NotRecordedError           503 unavailable        (no room to journal calls)

The API edge maps every one of them to RFC 9457 problem+json in one handler. A tool that fails
while running is *not* an error here: its call succeeded and the envelope says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ErrorCode = Literal[
    "internal",
    "malformed_json",
    "unauthenticated",
    "forbidden",
    "not_found",
    "method_not_allowed",
    "conflict",
    "session_ended",
    "handed_off",
    "version_conflict",
    "payload_too_large",
    "validation_error",
    "load_timeout",
    "too_many_streams",
    "too_many_sessions",
    "rate_limited",
    "quota_exceeded",
    "provider_error",
    "provider_auth",
    "provider_timeout",
    "not_ready",
    "unavailable",
]
ERROR_CODES: tuple[str, ...] = ErrorCode.__args__  # type: ignore[attr-defined]


def field_path(parts: tuple[str | int, ...] | list[str | int]) -> str:
    """Where a problem is, in the one notation every error uses: names joined with dots, list
    positions in brackets (``messages[0].content``, ``[1].expect.tools[0].name``)."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


@dataclass(frozen=True)
class FieldError:
    """One problem with an input, located by a ``field`` path (``field_path``) and/or a source
    ``line``."""

    message: str
    field: str | None = None
    line: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.line is not None:
            out["line"] = self.line
        return out


class QuiverError(Exception):
    status: int = 500
    code: ErrorCode = "internal"
    title: str = "Internal error"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or self.title)
        self.detail = detail or self.title

    def extra(self) -> dict[str, Any]:
        return {}


class MalformedRequestError(QuiverError):
    status, code, title = 400, "malformed_json", "Malformed request body"


class UnauthenticatedError(QuiverError):
    status, code, title = 401, "unauthenticated", "Missing or invalid API key"


class ForbiddenError(QuiverError):
    status, code, title = 403, "forbidden", "Not allowed for this key"


class NotFoundError(QuiverError):
    status, code, title = 404, "not_found", "Not found"


class ConflictError(QuiverError):
    status, title = 409, "Conflict"
    code: ErrorCode = "conflict"  # its subclasses have codes of their own


class SessionEndedError(ConflictError):
    status, code, title = 409, "session_ended", "The session has ended"


class HandedOffError(ConflictError):
    status, code, title = 409, "handed_off", "A person has the conversation"


class VersionConflictError(QuiverError):
    """``If-Match`` named a version that is no longer the current one: another writer saved."""

    status, code, title = 412, "version_conflict", "Changed by another writer"

    def __init__(self, detail: str, current: dict[str, Any] | None) -> None:
        super().__init__(detail)
        self.current = current

    def extra(self) -> dict[str, Any]:
        return {"current": self.current}


class PayloadTooLargeError(QuiverError):
    status, code, title = 413, "payload_too_large", "Request body too large"


class TooManyStreamsError(QuiverError):
    status, code, title = 429, "too_many_streams", "Too many event streams"


class TooManySessionsError(QuiverError):
    status, code, title = 429, "too_many_sessions", "Too many open MCP sessions"


class RateLimitedError(QuiverError):
    status, title = 429, "Too many requests"
    code: ErrorCode = "rate_limited"  # its subclasses have codes of their own

    def __init__(self, detail: str, *, scope: str, limit: str, retry_after_s: int) -> None:
        super().__init__(detail)
        self.scope, self.limit, self.retry_after_s = scope, limit, retry_after_s

    def extra(self) -> dict[str, Any]:
        return {"scope": self.scope, "limit": self.limit}


class QuotaExceededError(RateLimitedError):
    status, code, title = 429, "quota_exceeded", "Daily quota used up"


class ProviderError(QuiverError):
    """A model provider failed (the agent loop): its own error, under a stable code."""

    status, code, title = 502, "provider_error", "The model provider failed"

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code  # type: ignore[assignment]
        self.status = 504 if code == "provider_timeout" else 502


class NotReadyError(QuiverError):
    status, code, title = 503, "not_ready", "Not ready"


class UnavailableError(QuiverError):
    status, code, title = 503, "unavailable", "Temporarily unavailable"
    retry_after_s = 1


class NotRecordedError(QuiverError):
    """This node cannot make a call's log row durable (its journal's disk is full or failing):
    before the tool runs, it is not run; after, its answer is withheld, because a success the
    node may lose is not one. Not an ``UnavailableError``: after a tool ran, that one lets the
    answer out."""

    status, code, title = 503, "unavailable", "Temporarily unavailable"
    retry_after_s = 5

    def __init__(self, ran: bool) -> None:
        self.ran = ran
        super().__init__(
            "the tool ran, but this node could not record the call (its disk is full or "
            "failing): it may have had effects, so check before you retry"
            if ran
            else "this node cannot record calls now (its disk is full or failing); the tool "
            "did not run: retry shortly, or on another node"
        )

    def extra(self) -> dict[str, Any]:
        return {"toolRan": self.ran}


class ValidationFailedError(QuiverError):
    status, title = 422, "Invalid input"
    code: ErrorCode = "validation_error"  # its subclasses have codes of their own

    def __init__(self, errors: list[FieldError], detail: str | None = None) -> None:
        self.errors = errors
        first = errors[0] if errors else None
        where = (first.field or (f"line {first.line}" if first.line else None)) if first else None
        summary = (
            f"{where}: {first.message}" if first and where else (first.message if first else None)
        )
        super().__init__(detail or summary)

    def extra(self) -> dict[str, Any]:
        return {"errors": [e.as_dict() for e in self.errors]}


class LoadTimeoutError(ValidationFailedError):
    code = "load_timeout"
    title = "Tool file took too long to load"


@dataclass
class Problems:
    """Collects every problem of an input before failing, so callers see them all at once."""

    errors: list[FieldError] = field(default_factory=list)
    warnings: list[FieldError] = field(default_factory=list)

    def add(self, field_: str | None, message: str, line: int | None = None) -> None:
        self.errors.append(FieldError(message=message, field=field_, line=line))

    def warn(self, field_: str | None, message: str, line: int | None = None) -> None:
        self._warning(FieldError(message=message, field=field_, line=line))

    def _warning(self, warning: FieldError) -> None:
        """Once per field and message: a file's declaration is checked as written and again as
        it loaded; the first (which knows the line) is kept."""
        for i, seen in enumerate(self.warnings):
            if (seen.field, seen.message) == (warning.field, warning.message):
                if seen.line is None and warning.line is not None:
                    self.warnings[i] = warning
                return
        self.warnings.append(warning)

    def has(self, field_: str) -> bool:
        return any(e.field == field_ for e in self.errors)

    def extend(self, other: Problems) -> None:
        self.errors.extend(other.errors)
        for warning in other.warnings:
            self._warning(warning)

    def raise_if_any(self) -> None:
        if self.errors:
            raise ValidationFailedError(self.errors)

    def __bool__(self) -> bool:
        return bool(self.errors)
