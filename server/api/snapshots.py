"""The one way a snapshot leaves the API: format choice, ETag, 304, cached body."""

from __future__ import annotations

from fastapi import Response

from server.errors import FieldError, ValidationFailedError
from server.registry.formats import FORMATS, STRICT_FORMATS, Format
from server.registry.model import SessionInputs
from server.registry.service import Registry, TenantView
from server.registry.snapshot import NO_SESSION


def snapshot_format(format: str, strict: bool) -> Format:
    if format not in FORMATS:
        raise ValidationFailedError(
            [FieldError(f"must be one of {', '.join(FORMATS)}", field="format")]
        )
    return STRICT_FORMATS.get(format, format) if strict else format  # type: ignore[return-value]


def snapshot_response(
    registry: Registry,
    view: TenantView,
    bot: str,
    fmt: Format,
    if_none_match: str | None,
    inputs: SessionInputs = NO_SESSION,
) -> Response:
    """304 when the client's ETag is current (nothing rendered), else the cached JSON body."""
    etag = registry.etag(view, bot, fmt, inputs)
    if if_none_match is not None and etag in [t.strip() for t in if_none_match.split(",")]:
        return Response(status_code=304, headers={"ETag": etag})
    etag, body = registry.rendered(view, bot, fmt, inputs)
    return Response(
        body, media_type="application/json", headers={"ETag": etag, "Cache-Control": "no-cache"}
    )
