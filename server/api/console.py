"""The developer console: static ES modules served by this process at ``/`` (no build step, no
CDN). The page holds no secret: it asks for an API key and calls the API with it.

The console's responses carry a strict Content Security Policy (scripts and styles from this
origin only, no inline script, no framing), so data shown from the API cannot run as code.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.responses import FileResponse, Response
from starlette.types import Message, Receive, Scope, Send

ROOT = Path(__file__).resolve().parents[1] / "console"
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors "
    "'none'"
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",  # revalidated (ETag) so an upgrade is seen at once
}


class ConsoleFiles(StaticFiles):
    """StaticFiles with the console's headers on every answer."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    *((k.lower().encode(), v.encode()) for k, v in HEADERS.items()),
                ]
            await send(message)

        await super().__call__(scope, receive, send_with_headers)


def install(app: FastAPI) -> None:
    app.mount("/console", ConsoleFiles(directory=ROOT), name="console")

    @app.get("/", include_in_schema=False)
    async def console() -> Response:
        return FileResponse(ROOT / "index.html", headers=HEADERS)
