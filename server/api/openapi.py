"""The OpenAPI description says every status code and content type a route can answer: each
operation gets the problem+json error responses (RFC 9457) next to its own, so generated
clients and conformance checkers (schemathesis) know them."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from server.api.docs import MCP_PATH
from server.api.problems import PROBLEM_JSON

ERRORS = {
    "400": "Malformed request body (`malformed_json`)",
    "401": "Missing or invalid API key (`unauthenticated`)",
    "403": "Not allowed for this key (`forbidden`)",
    "404": "Not found for this caller (`not_found`)",
    "405": "Method not allowed (`method_not_allowed`)",
    "409": "Conflict (`conflict`)",
    "412": "`If-Match` names a version another writer has replaced (`version_conflict`)",
    "413": "Request body too large (`payload_too_large`)",
    "422": "Invalid input; `errors` names each field (`validation_error`, `load_timeout`)",
    "429": (
        "Too many streams, sessions or requests, or a daily quota used up (`too_many_streams`, "
        "`too_many_sessions`, `rate_limited`, `quota_exceeded`); see `Retry-After`"
    ),
    "500": "A bug (`internal`); the server log has the details",
    "502": "The model provider failed or refused the key (`provider_error`, `provider_auth`)",
    "504": "The model provider did not answer in time (`provider_timeout`)",
    "503": "The database is away or not ready (`unavailable`, `not_ready`); see `Retry-After`",
}
PROBLEM = {
    "title": "Problem",
    "type": "object",
    "required": ["type", "title", "status", "code", "detail"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "code": {"type": "string"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "field": {"type": "string"},
                    "line": {"type": "integer"},
                    "message": {"type": "string"},
                },
                "required": ["message"],
            },
        },
    },
}
NOT_MODIFIED = {"description": "Not modified: the `If-None-Match` ETag is current"}


def install(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            schema = with_problems(schema)
            schema["paths"]["/mcp"] = MCP_PATH  # its answers are JSON-RPC, not problem+json
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def with_problems(schema: dict[str, Any]) -> dict[str, Any]:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["Problem"] = PROBLEM
    ref = {"$ref": "#/components/schemas/Problem"}
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status, description in ERRORS.items():
                responses[status] = {
                    "description": description,
                    "content": {PROBLEM_JSON: {"schema": ref}},
                }
            if method == "get" and path.endswith("/snapshot"):
                responses["304"] = NOT_MODIFIED
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    return schema
