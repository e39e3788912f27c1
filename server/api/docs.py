"""The API's own documentation, served offline: Swagger UI at ``/docs`` and ReDoc at ``/redoc``
from the assets that ship inside the ``fastapi-offline`` package (no CDN, no web fonts; ReDoc's
page forbids fetching anything from elsewhere, so its footer's logo is not fetched from the
internet), and the MCP endpoint described in the OpenAPI document next to the REST routes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import HTMLResponse

ASSETS = Path(fastapi_offline.__file__).parent / "static"
ASSETS_URL = "/docs-assets"

MCP_PATH: dict[str, Any] = {
    "post": {
        "tags": ["mcp"],
        "summary": "MCP (Streamable HTTP): JSON-RPC requests of an MCP client",
        "description": (
            "The Model Context Protocol endpoint (Streamable HTTP transport). Send an agent key "
            "as `Authorization: Bearer`; `initialize` opens a session (its id comes back in "
            "`Mcp-Session-Id`; send it with every later request). `tools/list` returns the "
            "session's snapshot as MCP tools and `tools/call` runs one through the same call "
            "path as `POST /v1/sessions/{sid}/calls`. Answers are JSON or an event stream, as "
            "the client's `Accept` allows. `GET` opens the session's event stream "
            "(`notifications/tools/list_changed` when its tools change); `DELETE` closes the "
            "session. Any MCP client works, e.g. the official SDKs and MCP Inspector."
        ),
        "operationId": "mcp",
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"type": "object", "description": "a JSON-RPC 2.0 message"}
                }
            },
        },
        "responses": {
            "200": {
                "description": "The JSON-RPC answer",
                "content": {"application/json": {}, "text/event-stream": {}},
            },
            "202": {"description": "A notification or response was accepted"},
            **{
                status: {
                    "description": f"{why} (a JSON-RPC error to an MCP client, problem+json else)",
                    "content": {"application/json": {}, "application/problem+json": {}},
                }
                for status, why in (
                    ("400", "Not a JSON-RPC message, or a session id that is not one"),
                    ("401", "No key, or not a valid one (WWW-Authenticate names the metadata)"),
                    ("403", "An admin key, or a page from an origin /mcp does not take"),
                    ("404", "No such bot or session"),
                    ("406", "Accept takes neither JSON nor an event stream"),
                    ("413", "The body is larger than the server takes"),
                    ("415", "Not application/json"),
                    ("422", "No bot named (?bot=)"),
                    ("429", "Over a rate, or too many sessions (Retry-After)"),
                    ("503", "The database is unreachable"),
                )
            },
        },
    }
}


# this server only: ReDoc styles itself inline and searches in a worker made from a blob
REDOC_POLICY = (
    "default-src 'self'; script-src 'self' blob:; worker-src 'self' blob:; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:"
)


def install(app: FastAPI) -> None:
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} API",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            swagger_ui_parameters={"persistAuthorization": False},
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} API",
            redoc_js_url=f"{root}{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )
        page.headers["Content-Security-Policy"] = REDOC_POLICY
        return page
