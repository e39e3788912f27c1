"""A real fake model server on loopback: it speaks OpenAI Chat Completions, OpenAI Responses and
Anthropic Messages on the wire (JSON and server-sent events), follows a script of answers and
records every request — so the agent loop is tested through the providers' own SDKs, with no
network and no mocks inside the process.

A step of the script: ``{"text": "..."}`` or ``{"tool_calls": [{"name", "arguments"}]}`` (both
may be given), ``"usage": {"input", "output", "cached"}``, or ``{"status": 500}`` / ``{"status":
401}`` to fail, or ``{"hang": True}`` to never answer (a provider timeout).

Faults a broken or hostile provider shows (OpenAI Chat Completions): ``{"status": 400,
"echo_key": True}`` answers with an error that repeats the request's ``Authorization`` header
(as sent and URL-encoded); ``{"raw": "...", "content_type": "..."}`` answers 200 with that body
(truncated JSON, or a non-SSE body to a streamed request); ``{"cut": True}`` ends a stream in
the middle of a chunk; ``{"garbage": True}`` streams events that are not JSON; ``{"trickle_s":
0.5}`` streams one word per interval; ``{"big": n}`` streams n bytes of text in 16 KiB chunks. ``sent`` counts the text bytes streamed so far.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.servers import free_port, served

DEFAULT_USAGE = {"input": 100, "output": 20, "cached": 0}


class FakeModel:
    def __init__(self, host: str = "127.0.0.4") -> None:
        self.host = host
        self.port = free_port()
        self.script: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self.default: dict[str, Any] = {"text": "(the script is over)"}  # once the script is
        self.record = True  # keep every request (off for long benchmark runs)
        self.closed = asyncio.Event()
        self.hanging = asyncio.Event()  # set when a request starts to hang
        self.sent = 0  # text bytes streamed (Chat Completions)
        self.app = Starlette(routes=[
            Route("/v1/chat/completions", self._chat, methods=["POST"]),
            Route("/v1/responses", self._responses, methods=["POST"]),
            Route("/v1/messages", self._messages, methods=["POST"]),
            Route("/v1beta/models/{call:path}", self._gemini, methods=["POST"]),
            Route("/v1/models/{call:path}", self._gemini, methods=["POST"]),
        ])  # fmt: skip

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def reply(self, *steps: dict[str, Any]) -> None:
        self.script.extend(steps)

    async def _next(self, request: Request) -> tuple[dict[str, Any], dict[str, Any]]:
        body = await request.json()
        if self.record:
            self.requests.append({"path": request.url.path, "headers": dict(request.headers), "body": body})  # fmt: skip
        step = self.script.pop(0) if self.script else self.default
        if step.get("hang"):  # never answers (a provider timeout); ends with the server
            self.hanging.set()
            await self.closed.wait()
        if step.get("delay_s"):  # a model that takes its time (benchmarks)
            await asyncio.sleep(step["delay_s"])
        return body, step

    # OpenAI Chat Completions -------------------------------------------------------------------
    async def _chat(self, request: Request) -> Response:
        body, step = await self._next(request)
        if step.get("echo_key"):  # a provider that repeats the credentials it was sent
            auth = request.headers.get("authorization", "")
            echoed = f"invalid request; headers: Authorization: {auth}; url: ?key={quote(auth.split()[-1], safe='')}"  # fmt: skip
            return JSONResponse({"error": {"message": echoed, "type": "invalid_request_error"}}, step.get("status", 400))  # fmt: skip
        if "status" in step:
            return JSONResponse({"error": {"message": "scripted failure", "type": "server_error"}}, step["status"])  # fmt: skip
        if "raw" in step:
            return Response(step["raw"], 200, media_type=step.get("content_type", "application/json"))  # fmt: skip
        usage = {**DEFAULT_USAGE, **step.get("usage", {})}
        calls = [
            {
                "id": f"call_{uuid.uuid4().hex[:8]}",
                "type": "function",
                "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
            }  # fmt: skip
            for c in step.get("tool_calls", [])
        ]
        wire_usage = {
            "prompt_tokens": usage["input"], "completion_tokens": usage["output"],
            "total_tokens": usage["input"] + usage["output"],
            "prompt_tokens_details": {"cached_tokens": usage["cached"]},
        }  # fmt: skip
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            message = {"role": "assistant", "content": step.get("text"), **({"tool_calls": calls} if calls else {})}  # fmt: skip
            return JSONResponse({
                "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": wire_usage,
            })  # fmt: skip

        def chunk(delta: dict[str, Any], finish_reason: str | None = None, **extra: Any) -> bytes:
            data = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}], **extra}  # fmt: skip
            return b"data: " + json.dumps(data).encode() + b"\n\n"

        async def events() -> AsyncIterator[bytes]:
            yield chunk({"role": "assistant", "content": ""})
            for piece in _pieces(step.get("text") or ""):
                if step.get("trickle_s"):
                    await asyncio.sleep(step["trickle_s"])
                self.sent += len(piece.encode())
                yield chunk({"content": piece})
            for _ in range(step.get("big", 0) // 16_384):  # a model that will not stop …
                if await request.is_disconnected():  # … until its client hangs up
                    return
                self.sent += 16_384
                yield chunk({"content": "x" * 16_384})
            if step.get("cut"):  # the connection ends in the middle of a chunk
                yield chunk({"content": "and then"})[:25]
                return
            if step.get("garbage"):
                yield b"data: {this is not json\n\n"
                return
            for i, call in enumerate(calls):
                arguments = call["function"]["arguments"]
                half = len(arguments) // 2
                yield chunk({"tool_calls": [{"index": i, "id": call["id"], "type": "function", "function": {"name": call["function"]["name"], "arguments": arguments[:half]}}]})  # fmt: skip
                yield chunk({"tool_calls": [{"index": i, "function": {"arguments": arguments[half:]}}]})  # fmt: skip
            yield chunk({}, finish)
            usage_chunk = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": body["model"], "choices": [], "usage": wire_usage}  # fmt: skip
            yield b"data: " + json.dumps(usage_chunk).encode() + b"\n\n"
            yield b"data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    # OpenAI Responses -------------------------------------------------------------------------
    async def _responses(self, request: Request) -> Response:
        body, step = await self._next(request)
        if "status" in step:
            return JSONResponse({"error": {"message": "scripted failure", "type": "server_error"}}, step["status"])  # fmt: skip
        usage = {**DEFAULT_USAGE, **step.get("usage", {})}
        output: list[dict[str, Any]] = []
        if step.get("text"):
            output.append({"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
                           "content": [{"type": "output_text", "text": step["text"], "annotations": []}]})  # fmt: skip
        for c in step.get("tool_calls", []):
            output.append({"type": "function_call", "id": f"fc_{uuid.uuid4().hex[:8]}", "call_id": f"call_{uuid.uuid4().hex[:8]}",
                           "name": c["name"], "arguments": json.dumps(c["arguments"]), "status": "completed"})  # fmt: skip
        response = {
            "id": "resp_1", "object": "response", "created_at": 0, "model": body["model"], "status": "completed",
            "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
            "usage": {"input_tokens": usage["input"], "output_tokens": usage["output"],
                      "total_tokens": usage["input"] + usage["output"],
                      "input_tokens_details": {"cached_tokens": usage["cached"]},
                      "output_tokens_details": {"reasoning_tokens": 0}},
        }  # fmt: skip
        if not body.get("stream"):
            return JSONResponse(response)

        async def events() -> AsyncIterator[bytes]:
            n = 0
            for piece in _pieces(step.get("text") or ""):
                n += 1
                yield _sse("response.output_text.delta", {"type": "response.output_text.delta", "delta": piece, "item_id": "msg_1", "output_index": 0, "content_index": 0, "sequence_number": n})  # fmt: skip
            yield _sse("response.completed", {"type": "response.completed", "response": response, "sequence_number": n + 1})  # fmt: skip

        return StreamingResponse(events(), media_type="text/event-stream")

    # Anthropic Messages -----------------------------------------------------------------------
    async def _messages(self, request: Request) -> Response:
        body, step = await self._next(request)
        if "status" in step:
            return JSONResponse({"type": "error", "error": {"type": "api_error", "message": "scripted failure"}}, step["status"])  # fmt: skip
        usage = {**DEFAULT_USAGE, **step.get("usage", {})}
        wire_usage = {
            "input_tokens": usage["input"] - usage["cached"], "output_tokens": usage["output"],
            "cache_read_input_tokens": usage["cached"], "cache_creation_input_tokens": 0,
        }  # fmt: skip
        blocks: list[dict[str, Any]] = []
        if step.get("text"):
            blocks.append({"type": "text", "text": step["text"]})
        for c in step.get("tool_calls", []):
            blocks.append({"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:8]}", "name": c["name"], "input": c["arguments"]})  # fmt: skip
        stop = "tool_use" if step.get("tool_calls") else "end_turn"
        message = {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
                   "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": wire_usage}  # fmt: skip
        if not body.get("stream"):
            return JSONResponse(message)

        async def events() -> AsyncIterator[bytes]:
            start = {
                **message,
                "content": [],
                "stop_reason": None,
                "usage": {**wire_usage, "output_tokens": 1},
            }
            yield _sse("message_start", {"type": "message_start", "message": start})
            for i, block in enumerate(blocks):
                if block["type"] == "text":
                    yield _sse("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}})  # fmt: skip
                    for piece in _pieces(block["text"]):
                        yield _sse("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": piece}})  # fmt: skip
                else:
                    yield _sse("content_block_start", {"type": "content_block_start", "index": i, "content_block": {**block, "input": {}}})  # fmt: skip
                    text = json.dumps(block["input"])
                    for piece in (text[: len(text) // 2], text[len(text) // 2 :]):
                        yield _sse("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": piece}})  # fmt: skip
                yield _sse("content_block_stop", {"type": "content_block_stop", "index": i})
            yield _sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": usage["output"]}})  # fmt: skip
            yield _sse("message_stop", {"type": "message_stop"})

        return StreamingResponse(events(), media_type="text/event-stream")

    async def _gemini(self, request: Request) -> Response:
        body, step = await self._next(request)
        model, _, method = request.path_params["call"].partition(":")
        body["model"] = model  # the request names it (and streaming) in the path
        body["stream"] = method == "streamGenerateContent"
        if self.record:
            self.requests[-1]["body"] = body
        if "status" in step:
            return JSONResponse({"error": {"code": step["status"], "message": "scripted failure", "status": "INTERNAL"}}, step["status"])  # fmt: skip
        usage = {**DEFAULT_USAGE, **step.get("usage", {})}
        meta = {"promptTokenCount": usage["input"], "candidatesTokenCount": usage["output"],
                "cachedContentTokenCount": usage["cached"], "totalTokenCount": usage["input"] + usage["output"]}  # fmt: skip
        calls = [{"functionCall": {"id": f"call_{uuid.uuid4().hex[:8]}", "name": c["name"], "args": c["arguments"]}} for c in step.get("tool_calls", [])]  # fmt: skip

        def chunk(parts: list[dict[str, Any]], last: bool) -> dict[str, Any]:
            candidate = {"content": {"role": "model", "parts": parts}, "index": 0}
            if last:
                candidate["finishReason"] = "STOP"
            return {"candidates": [candidate], **({"usageMetadata": meta} if last else {})}

        if method == "generateContent":
            text = [{"text": step["text"]}] if step.get("text") else []
            return JSONResponse(chunk(text + calls, True))

        async def events() -> AsyncIterator[bytes]:
            for piece in _pieces(step.get("text") or ""):
                yield b"data: " + json.dumps(chunk([{"text": piece}], False)).encode() + b"\r\n\r\n"
            yield b"data: " + json.dumps(chunk(calls, True)).encode() + b"\r\n\r\n"

        return StreamingResponse(events(), media_type="text/event-stream")


def _pieces(text: str) -> list[str]:
    words = text.split(" ")
    return [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)] if text else []


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


@contextlib.asynccontextmanager
async def fake_model_server(host: str = "127.0.0.4") -> AsyncIterator[FakeModel]:
    fake = FakeModel(host)
    async with served(fake.app, host, fake.port):
        try:
            yield fake
        finally:
            fake.closed.set()  # requests told to hang end now
