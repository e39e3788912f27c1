"""Model providers behind one call: ``complete(history, tools) -> Reply``, through each
provider's official SDK (``openai`` for Chat Completions and every OpenAI-compatible server —
vLLM, Ollama, llama.cpp by base URL — and for Responses; ``anthropic`` for Messages). The SDKs
time out, retry 429/5xx with backoff, and speak the wire format, streaming included.

The conversation is kept in one neutral shape and turned into each provider's messages here:

    {"role": "user", "content": str}
    {"role": "assistant", "content": str | None, "tool_calls": [{"id", "name", "arguments"}]}
    {"role": "tool", "tool_call_id", "name", "content": str, "is_error": bool}

Token use comes from the provider's own usage (requested in streams); ``input`` includes the
cached part, ``cached`` is that part.

A provider's answer is untrusted input. Whatever goes wrong with it surfaces as one
``ProviderError``: an answer that cannot be read (truncated JSON, garbage events) or a stream that
ends before the provider said it was done is ``provider_error``, never a partial answer taken as
whole; an error's text is passed through the redactor (no API key, in any form) and cut. An
answer is held to ``max_bytes`` as it streams in: past it, nothing more is read or forwarded, and
the reply comes back ``cut``.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, get_args

import anthropic
import httpx
import httpx2
import openai
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import Response as OpenAIResponse
from openai.types.responses import ResponseStreamEvent

from server import known_secrets, tls
from server.agent.transport import guarded_client
from server.errors import ProviderError
from server.registry.formats import Format

# A provider kind is one entry of ``PROVIDERS`` (end of the module): its client class and the
# tool format its requests carry. The API's provider body takes exactly these kinds.
ProviderKind = Literal["openai", "openai-responses", "anthropic", "gemini"]
KINDS: tuple[str, ...] = get_args(ProviderKind)
TIMEOUT_S = 60.0
MAX_RETRIES = 2
MAX_TOKENS = 1024  # Anthropic needs a cap on the answer; a round is short

OnText = Callable[[str], Awaitable[None]]


@dataclass(frozen=True)
class ProviderConfig:
    kind: str
    api_key: str | None
    base_url: str | None = None
    timeout_s: float = TIMEOUT_S
    max_retries: int = MAX_RETRIES
    egress: Any = None  # (EgressGuard, tenant Allowlist | None): every request goes through it


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass
class Usage:
    input: int = 0
    output: int = 0
    cached: int = 0

    def add(self, other: Usage) -> None:
        self.input += other.input
        self.output += other.output
        self.cached += other.cached

    def as_dict(self) -> dict[str, int]:
        return {"input": self.input, "output": self.output, "cached": self.cached}


@dataclass
class Reply:
    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cut: bool = False  # the answer went past its byte cap: ``text`` is its start, no tool calls
    hands_off: bool = False  # the text asked for a person (``[[HANDOFF]]``, taken out of it)


SURROGATE = re.compile("[\ud800-\udfff]")


def unicode_text(text: str) -> str:
    """``text`` as valid Unicode: a lone surrogate half in a model's words — which no UTF-8
    channel, database or client can carry — becomes U+FFFD, as decoders do with bad bytes."""
    if text.isascii() or SURROGATE.search(text) is None:
        return text
    return SURROGATE.sub("\ufffd", text)


def unicode_value(value: Any) -> Any:
    """``value`` (a tool call's arguments) with every string valid Unicode."""
    if isinstance(value, str):
        return unicode_text(value)
    if isinstance(value, dict):
        return {unicode_text(str(k)): unicode_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unicode_value(v) for v in value]
    return value


def valid_reply(reply: Reply) -> Reply:
    """The reply with its text and its calls' ids, names and arguments valid Unicode."""
    calls = [
        ToolCall(unicode_text(c.id), unicode_text(c.name), unicode_value(c.arguments))
        for c in reply.tool_calls
    ]
    return Reply(unicode_text(reply.text), calls, reply.usage, reply.cut)


def clip(text: str, max_bytes: float) -> str:
    """The longest start of ``text`` whose UTF-8 takes at most ``max_bytes``."""
    data = text.encode()
    if len(data) <= max_bytes:
        return text
    return data[: max(int(max_bytes), 0)].decode(errors="ignore")


class _Output:
    """A streamed answer held to its byte cap: text past it is neither kept nor forwarded."""

    def __init__(self, max_bytes: int | None, on_text: OnText | None) -> None:
        self.left: float = math.inf if max_bytes is None else max_bytes
        self.parts: list[str] = []
        self.on_text = on_text
        self.cut = False

    async def text(self, piece: str) -> bool:
        """Keep and forward ``piece`` (as much of it as fits); False once the cap is reached."""
        piece = unicode_text(piece)
        size = len(piece.encode())
        if size > self.left:
            piece, self.cut = clip(piece, self.left), True
            size = len(piece.encode())
        self.left -= size
        if piece:
            self.parts.append(piece)
            if self.on_text is not None:
                await self.on_text(piece)
        return not self.cut

    def count(self, piece: str) -> bool:
        """A piece of a tool call (not forwarded); False once the cap is passed."""
        self.left -= len(piece.encode())
        self.cut = self.cut or self.left < 0
        return not self.cut

    def reply(self, calls: list[ToolCall], usage: Usage) -> Reply:
        text = "".join(self.parts)
        return Reply(text, [], usage, cut=True) if self.cut else Reply(text, calls, usage)


class StreamEnded(ProviderError):
    def __init__(self) -> None:
        super().__init__(
            "provider_error", "the model provider's stream ended before its answer did"
        )


class Provider(Protocol):
    async def complete(
        self,
        model: str,
        system: str | None,
        history: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_text: OnText | None = None,
        max_bytes: int | None = None,
    ) -> Reply: ...

    async def close(self) -> None: ...


def make_provider(config: ProviderConfig, http_client: Any = None) -> Provider:
    known_secrets.remember(config.api_key)  # shown in no error, log line or row
    if config.kind not in PROVIDERS:
        raise ValueError(f"unknown provider kind {config.kind!r}")
    client, _format = PROVIDERS[config.kind]
    provider: Provider = client(config)
    return provider


HTTPX, HTTPX2 = "httpx", "httpx2"


def _client(config: ProviderConfig, module_name: str) -> Any:
    """The SDK's HTTP client, through the egress guard (None: the SDK's own, tests of the
    provider layer alone)."""
    if config.egress is None:
        return None
    import importlib

    guard, extra = config.egress
    return guarded_client(importlib.import_module(module_name), guard, extra, config.timeout_s)


class _Refused(httpx.BaseTransport):
    def handle_request(self, request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("synchronous requests are not made here", request=request)


def _no_sync_client() -> httpx.Client:
    """For an SDK that insists on a synchronous client beside the async one: it could only
    reach the network past the egress guard, so it reaches nothing."""
    return httpx.Client(transport=_Refused())


def _arguments(text: str | None) -> dict[str, Any]:
    """A tool call's arguments: JSON text from the model, which may be broken."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {"__unparsed__": text or ""}
    return value if isinstance(value, dict) else {"__unparsed__": text or ""}


def _said(text: object) -> str:
    """What a provider said, as anyone may see it: every known secret redacted, then cut to 300
    characters (in that order, so a key cut in half cannot show its first half; only the first
    4 KiB are read, far more than a key's length past what is kept)."""
    return known_secrets.redact(str(text)[:4096])[:300]


def _raised(exc: Exception) -> ProviderError:
    """The SDK's error as a stable code: never a 500, never the key."""
    timeout = (openai.APITimeoutError, anthropic.APITimeoutError)
    auth = (
        openai.AuthenticationError,
        openai.PermissionDeniedError,
        anthropic.AuthenticationError,
        anthropic.PermissionDeniedError,
    )
    if isinstance(exc, timeout):
        return ProviderError("provider_timeout", "the model provider did not answer in time")
    if isinstance(exc, auth):
        return ProviderError("provider_auth", "the model provider refused the API key")
    status = getattr(exc, "status_code", None)
    detail = f"the model provider answered {status}" if status else "the model provider failed"
    message = getattr(exc, "message", None) or str(exc)
    return ProviderError("provider_error", f"{detail}: {_said(message)}")


@contextlib.contextmanager
def _translated() -> Iterator[None]:
    """An SDK's failure, or an answer that cannot be read, as a ``ProviderError``."""
    try:
        yield
    except PROVIDER_ERRORS as exc:
        raise _raised(exc) from None
    except UNREADABLE as exc:
        raise _unreadable(exc) from None


def _unreadable(exc: Exception) -> ProviderError:
    """An answer that could not be read: broken JSON, events that are not the wire format, a
    connection lost mid-answer."""
    if isinstance(exc, TRANSPORT_TIMEOUTS):
        return ProviderError("provider_timeout", "the model provider did not answer in time")
    kind = "connection" if isinstance(exc, TRANSPORT_ERRORS) else "answer"
    return ProviderError(
        "provider_error", f"the model provider's {kind} failed: {_said(type(exc).__name__)}"
    )


PROVIDER_ERRORS = (openai.OpenAIError, anthropic.AnthropicError)
# google-genai raises its transport's own errors (httpx, or its fork httpx2)
TRANSPORT_TIMEOUTS = (httpx.TimeoutException, httpx2.TimeoutException)
TRANSPORT_ERRORS = (httpx.HTTPError, httpx2.HTTPError)
# what reading a broken answer raises: JSON and validation errors are ValueErrors; the rest is
# an SDK meeting a shape it did not expect; a stream cut off mid-way is a transport error
UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, IndexError, *TRANSPORT_ERRORS)


# The OpenAI SDK's requests, posted as its own methods post them but for their transform of
# the parameters: it walks every message against the SDK's typed dictionaries (measured: 0.6 ms
# of CPU for a conversation's first round, 4.4 ms at 21 messages — paid again every round),
# and the bodies built here are the wire format already, plain JSON data.
_CHAT, _RESPONSES = "/chat/completions", "/responses"


def _openai(config: ProviderConfig) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(
        api_key=config.api_key or "none",
        base_url=config.base_url,
        timeout=config.timeout_s,
        max_retries=config.max_retries,
        http_client=_client(config, HTTPX2),
    )


class OpenAIChat:
    """Chat Completions (and every server that speaks it)."""

    def __init__(self, config: ProviderConfig) -> None:
        self.client = _openai(config)

    async def close(self) -> None:
        await self.client.close()

    @staticmethod
    def messages(system: str | None, history: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        for m in history:
            if m["role"] == "assistant":
                entry: dict[str, Any] = {"role": "assistant", "content": m.get("content")}
                if m.get("tool_calls"):
                    entry["tool_calls"] = [
                        {
                            "id": c["id"],
                            "type": "function",
                            "function": {
                                "name": c["name"],
                                "arguments": json.dumps(c["arguments"]),
                            },
                        }
                        for c in m["tool_calls"]
                    ]
                out.append(entry)
            elif m["role"] == "tool":
                out.append(
                    {"role": "tool", "tool_call_id": m["tool_call_id"], "content": m["content"]}
                )
            else:
                out.append({"role": "user", "content": m["content"]})
        return out

    async def complete(
        self,
        model: str,
        system: str | None,
        history: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_text: OnText | None = None,
        max_bytes: int | None = None,
    ) -> Reply:
        kwargs: dict[str, Any] = {"model": model, "messages": self.messages(system, history)}
        if tools:
            kwargs["tools"] = tools
        with _translated():
            if on_text is None:
                response = await self.client.post(_CHAT, body=kwargs, cast_to=ChatCompletion)
                return self._reply(response)
            return await self._stream(kwargs, _Output(max_bytes, on_text))

    def _reply(self, response: Any) -> Reply:
        choice = response.choices[0].message if response.choices else None
        calls = [
            ToolCall(c.id, c.function.name, _arguments(c.function.arguments))
            for c in (choice.tool_calls or [] if choice else [])
            if getattr(c, "function", None) is not None
        ]
        return Reply((choice.content or "") if choice else "", calls, _openai_usage(response.usage))

    async def _stream(self, kwargs: dict[str, Any], out: _Output) -> Reply:
        body = {**kwargs, "stream": True, "stream_options": {"include_usage": True}}
        stream = await self.client.post(
            _CHAT,
            body=body,
            cast_to=ChatCompletion,
            stream=True,
            stream_cls=openai.AsyncStream[ChatCompletionChunk],
        )
        calls: dict[int, dict[str, Any]] = {}
        usage = Usage()
        finished = False
        try:
            async for chunk in stream:
                if chunk.usage is not None:
                    usage = _openai_usage(chunk.usage)
                for choice in chunk.choices or ():
                    finished = finished or choice.finish_reason is not None
                    delta = choice.delta
                    if delta.content and not await out.text(delta.content):
                        return out.reply([], usage)
                    for part in delta.tool_calls or ():
                        call = calls.setdefault(part.index, {"id": "", "name": "", "arguments": ""})
                        call["id"] = part.id or call["id"]
                        if part.function is not None:
                            call["name"] += part.function.name or ""
                            call["arguments"] += part.function.arguments or ""
                            if not out.count(
                                (part.function.name or "") + (part.function.arguments or "")
                            ):
                                return out.reply([], usage)
        finally:
            await stream.close()
        if not finished:
            raise StreamEnded()
        tool_calls = [
            ToolCall(c["id"], c["name"], _arguments(c["arguments"]))
            for _, c in sorted(calls.items())
        ]
        return out.reply(tool_calls, usage)


def _openai_usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) or 0
    return Usage(usage.prompt_tokens or 0, usage.completion_tokens or 0, cached)


class OpenAIResponses:
    """The Responses API: input items in, output items out."""

    def __init__(self, config: ProviderConfig) -> None:
        self.client = _openai(config)

    async def close(self) -> None:
        await self.client.close()

    @staticmethod
    def items(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for m in history:
            if m["role"] == "assistant":
                if m.get("content"):
                    out.append({"role": "assistant", "content": m["content"]})
                for c in m.get("tool_calls") or ():
                    out.append(
                        {
                            "type": "function_call",
                            "call_id": c["id"],
                            "name": c["name"],
                            "arguments": json.dumps(c["arguments"]),
                        }
                    )
            elif m["role"] == "tool":
                out.append(
                    {
                        "type": "function_call_output",
                        "call_id": m["tool_call_id"],
                        "output": m["content"],
                    }
                )
            else:
                out.append({"role": "user", "content": m["content"]})
        return out

    async def complete(
        self,
        model: str,
        system: str | None,
        history: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_text: OnText | None = None,
        max_bytes: int | None = None,
    ) -> Reply:
        kwargs: dict[str, Any] = {"model": model, "input": self.items(history)}
        if system:
            kwargs["instructions"] = system
        if tools:
            kwargs["tools"] = tools
        with _translated():
            if on_text is None:
                return self._reply(
                    await self.client.post(_RESPONSES, body=kwargs, cast_to=OpenAIResponse)
                )
            return await self._stream(kwargs, _Output(max_bytes, on_text))

    async def _stream(self, kwargs: dict[str, Any], out: _Output) -> Reply:
        final = None
        stream = await self.client.post(
            _RESPONSES,
            body={**kwargs, "stream": True},
            cast_to=OpenAIResponse,
            stream=True,
            stream_cls=openai.AsyncStream[ResponseStreamEvent],
        )
        try:
            async for event in stream:
                if event.type == "response.output_text.delta":
                    if not await out.text(event.delta):
                        return out.reply([], Usage())
                elif event.type == "response.function_call_arguments.delta":
                    if not out.count(event.delta):
                        return out.reply([], Usage())
                elif event.type == "response.completed":
                    final = event.response
        finally:
            await stream.close()
        if final is None:
            raise StreamEnded()
        return self._reply(final)

    @staticmethod
    def _reply(response: Any) -> Reply:
        text: list[str] = []
        calls: list[ToolCall] = []
        for item in response.output or ():
            if item.type == "message":
                text += [c.text for c in item.content if getattr(c, "type", "") == "output_text"]
            elif item.type == "function_call":
                calls.append(ToolCall(item.call_id, item.name, _arguments(item.arguments)))
        usage = Usage()
        if response.usage is not None:
            details = getattr(response.usage, "input_tokens_details", None)
            usage = Usage(
                response.usage.input_tokens or 0,
                response.usage.output_tokens or 0,
                getattr(details, "cached_tokens", 0) or 0,
            )
        return Reply("".join(text), calls, usage)


class AnthropicMessages:
    def __init__(self, config: ProviderConfig) -> None:
        self.client = anthropic.AsyncAnthropic(
            api_key=config.api_key or "none",
            base_url=config.base_url,
            timeout=config.timeout_s,
            max_retries=config.max_retries,
            http_client=_client(config, HTTPX2),
        )

    async def close(self) -> None:
        await self.client.close()

    @staticmethod
    def messages(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Anthropic's turns: tool results go back as one user message of tool_result blocks."""
        out: list[dict[str, Any]] = []
        for m in history:
            if m["role"] == "assistant":
                blocks: list[dict[str, Any]] = []
                if m.get("content"):
                    blocks.append({"type": "text", "text": m["content"]})
                for c in m.get("tool_calls") or ():
                    blocks.append(
                        {
                            "type": "tool_use",
                            "id": c["id"],
                            "name": c["name"],
                            "input": c["arguments"],
                        }
                    )
                out.append(
                    {"role": "assistant", "content": blocks or [{"type": "text", "text": ""}]}
                )
            elif m["role"] == "tool":
                block = {
                    "type": "tool_result",
                    "tool_use_id": m["tool_call_id"],
                    "content": m["content"],
                }
                if m.get("is_error"):
                    block["is_error"] = True
                if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list):
                    out[-1]["content"].append(block)
                else:
                    out.append({"role": "user", "content": [block]})
            else:
                out.append({"role": "user", "content": m["content"]})
        return out

    async def complete(
        self,
        model: str,
        system: str | None,
        history: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_text: OnText | None = None,
        max_bytes: int | None = None,
    ) -> Reply:
        kwargs: dict[str, Any] = {
            "model": model,
            "max_tokens": MAX_TOKENS,
            "messages": self.messages(history),
        }
        if system:
            kwargs["system"] = system
        if tools:
            kwargs["tools"] = tools
        with _translated():
            if on_text is None:
                return self._reply(await self.client.messages.create(**kwargs))
            return await self._stream(kwargs, _Output(max_bytes, on_text))

    @staticmethod
    def _reply(message: Any) -> Reply:
        text = "".join(b.text for b in message.content if b.type == "text")
        calls = [
            ToolCall(b.id, b.name, dict(b.input or {}))
            for b in message.content
            if b.type == "tool_use"
        ]
        return Reply(text, calls, _anthropic_usage(message.usage))

    async def _stream(self, kwargs: dict[str, Any], out: _Output) -> Reply:
        stream = await self.client.messages.create(**kwargs, stream=True)
        blocks: dict[int, dict[str, Any]] = {}
        usage = Usage()
        stopped = False
        try:
            async for event in stream:
                if event.type == "message_start":
                    usage = _anthropic_usage(event.message.usage)
                elif event.type == "content_block_start" and event.content_block.type == "tool_use":
                    block = event.content_block
                    blocks[event.index] = {"id": block.id, "name": block.name, "json": ""}
                    if not out.count(block.id + block.name):
                        return out.reply([], usage)
                elif event.type == "content_block_delta":
                    if event.delta.type == "text_delta":
                        if not await out.text(event.delta.text):
                            return out.reply([], usage)
                    elif event.delta.type == "input_json_delta" and event.index in blocks:
                        blocks[event.index]["json"] += event.delta.partial_json
                        if not out.count(event.delta.partial_json):
                            return out.reply([], usage)
                elif event.type == "message_delta" and event.usage is not None:
                    usage.output = event.usage.output_tokens or usage.output
                elif event.type == "message_stop":
                    stopped = True
        finally:
            await stream.close()
        if not stopped:
            raise StreamEnded()
        calls = [
            ToolCall(b["id"], b["name"], _arguments(b["json"] or "{}"))
            for _, b in sorted(blocks.items())
        ]
        return out.reply(calls, usage)


def _anthropic_usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    cached = getattr(usage, "cache_read_input_tokens", None) or 0
    created = getattr(usage, "cache_creation_input_tokens", None) or 0
    return Usage((usage.input_tokens or 0) + cached + created, usage.output_tokens or 0, cached)


class Gemini:
    """Gemini's generateContent (``google-genai``): the function declarations as one tool."""

    def __init__(self, config: ProviderConfig) -> None:
        from google import genai
        from google.genai import types

        self.types = types
        options = types.HttpOptions(
            base_url=config.base_url,
            timeout=int(config.timeout_s * 1000),
            retry_options=types.HttpRetryOptions(attempts=config.max_retries + 1),
            httpx_async_client=_client(config, HTTPX),
            # the SDK makes a synchronous client and a websocket context as well, each loading
            # the CA bundle (~33 ms on the event loop): neither is used here (every request is
            # async, through the guard), so it gets a client that refuses and the shared context
            httpx_client=_no_sync_client() if config.egress is not None else None,
            async_client_args={"ssl": tls.context(HTTPX)},
        )
        self.client = genai.Client(api_key=config.api_key or "none", http_options=options)

    async def close(self) -> None:
        await self.client.aio.aclose()

    def contents(self, history: list[dict[str, Any]]) -> list[Any]:
        t = self.types
        out: list[Any] = []
        for m in history:
            if m["role"] == "assistant":
                parts = [t.Part(text=m["content"])] if m.get("content") else []
                parts += [
                    t.Part(
                        function_call=t.FunctionCall(
                            id=c["id"], name=c["name"], args=c["arguments"]
                        )
                    )
                    for c in m.get("tool_calls") or ()
                ]
                out.append(t.Content(role="model", parts=parts or [t.Part(text="")]))
            elif m["role"] == "tool":
                try:
                    value = json.loads(m["content"])
                except ValueError:
                    value = None
                response = (
                    value
                    if isinstance(value, dict)
                    else {"result": value if value is not None else m["content"]}
                )
                part = t.Part(
                    function_response=t.FunctionResponse(
                        id=m["tool_call_id"], name=m["name"], response=response
                    )
                )
                previous = out[-1] if out else None
                if (
                    previous is not None
                    and previous.role == "user"
                    and previous.parts
                    and previous.parts[0].function_response
                ):
                    previous.parts.append(part)
                else:
                    out.append(t.Content(role="user", parts=[part]))
            else:
                out.append(t.Content(role="user", parts=[t.Part(text=m["content"])]))
        return out

    async def complete(
        self,
        model: str,
        system: str | None,
        history: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_text: OnText | None = None,
        max_bytes: int | None = None,
    ) -> Reply:
        from google.genai import errors

        t = self.types
        config = t.GenerateContentConfig(
            system_instruction=system or None,
            tools=[t.Tool(function_declarations=tools)] if tools else None,
            automatic_function_calling=t.AutomaticFunctionCallingConfig(disable=True),
        )
        contents = self.contents(history)
        try:
            if on_text is None:
                response = await self.client.aio.models.generate_content(
                    model=model, contents=contents, config=config
                )
                return self._reply([response])
            return await self._stream(model, contents, config, _Output(max_bytes, on_text))
        except errors.APIError as exc:
            if exc.code in (401, 403):
                raise ProviderError(
                    "provider_auth", "the model provider refused the API key"
                ) from None
            raise ProviderError(
                "provider_error", f"the model provider answered {exc.code}: {_said(exc.message)}"
            ) from None
        except TRANSPORT_TIMEOUTS:
            raise ProviderError(
                "provider_timeout", "the model provider did not answer in time"
            ) from None
        except TRANSPORT_ERRORS as exc:  # refused by the egress guard, connection lost, …
            raise ProviderError(
                "provider_error", f"the model provider failed: {_said(exc)}"
            ) from None
        except UNREADABLE as exc:
            raise _unreadable(exc) from None

    async def _stream(self, model: str, contents: list[Any], config: Any, out: _Output) -> Reply:
        chunks = []
        finished = False
        stream = await self.client.aio.models.generate_content_stream(
            model=model, contents=contents, config=config
        )
        try:
            async for chunk in stream:
                chunks.append(chunk)
                finished = finished or any(c.finish_reason for c in chunk.candidates or ())
                text = "".join(
                    p.text
                    for c in chunk.candidates or ()
                    for p in (c.content.parts if c.content else None) or ()
                    if p.text
                )
                if text and not await out.text(text):
                    return out.reply([], self._reply(chunks).usage)
                calls = [
                    p.function_call
                    for c in chunk.candidates or ()
                    for p in (c.content.parts if c.content else None) or ()
                    if p.function_call
                ]
                if calls and not out.count(json.dumps([c.args for c in calls], default=str)):
                    return out.reply([], self._reply(chunks).usage)
        finally:
            close = getattr(stream, "aclose", None)  # an async generator: stop reading
            if close is not None:
                await close()
        if not finished:
            raise StreamEnded()
        return self._reply(chunks)

    @staticmethod
    def _reply(chunks: list[Any]) -> Reply:
        text: list[str] = []
        calls: list[ToolCall] = []
        usage = Usage()
        for chunk in chunks:
            for candidate in chunk.candidates or ():
                for part in (candidate.content.parts if candidate.content else None) or ():
                    if part.text and not part.thought:
                        text.append(part.text)
                    if part.function_call is not None:
                        call = part.function_call
                        calls.append(
                            ToolCall(
                                call.id or f"call_{len(calls)}",
                                call.name or "",
                                dict(call.args or {}),
                            )
                        )
            meta = chunk.usage_metadata
            if meta is not None and meta.prompt_token_count is not None:
                usage = Usage(
                    meta.prompt_token_count or 0,
                    meta.candidates_token_count or 0,
                    meta.cached_content_token_count or 0,
                )
        return Reply("".join(text), calls, usage)


PROVIDERS: dict[str, tuple[Any, Format]] = {
    "openai": (OpenAIChat, "openai"),
    "openai-responses": (OpenAIResponses, "openai-responses"),
    "anthropic": (AnthropicMessages, "anthropic"),
    "gemini": (Gemini, "gemini"),
}
assert set(PROVIDERS) == set(KINDS), "every kind has its client, and only these"
FORMAT_OF_KIND: dict[str, Format] = {kind: fmt for kind, (_, fmt) in PROVIDERS.items()}
