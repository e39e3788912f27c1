"""The HTTP benchmark's lowest row: a bare ASGI endpoint, no framework, answering the call
envelope ``bare_app`` answers. What uvicorn's HTTP and the socket cost a request, alone."""

from typing import Any

import orjson

from benchmarks.bare_app import BODY

ANSWER = orjson.dumps(BODY)
HEAD = [(b"content-type", b"application/json"), (b"content-length", str(len(ANSWER)).encode())]


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    more = True
    while more:  # the request's body, read to its end
        more = (await receive()).get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": HEAD})
    await send({"type": "http.response.body", "body": ANSWER})
