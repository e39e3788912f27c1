"""The JavaScript client for web agents, served as a static ES module (no build step)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Header, Response

router = APIRouter(tags=["agents"])
SOURCE = (Path(__file__).resolve().parents[2] / "static" / "quiver-agent.js").read_bytes()
ETAG = '"' + hashlib.blake2b(SOURCE, digest_size=12).hexdigest() + '"'


@router.get("/quiver-agent.js", response_class=Response)
async def agent_client(if_none_match: Annotated[str | None, Header()] = None) -> Response:
    """`import { attach, registerAction, call, on } from "<this URL>"` in a page."""
    headers = {"ETag": ETAG, "Cache-Control": "public, max-age=300"}
    if if_none_match == ETAG:
        return Response(status_code=304, headers=headers)
    return Response(SOURCE, media_type="text/javascript; charset=utf-8", headers=headers)
