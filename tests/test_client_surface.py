"""The typed client covers the API: ``Quiver`` and ``AsyncQuiver`` offer the same methods with
the same parameters, and every operation of the server's OpenAPI document is sent by one of
them. Which request each method sends is recorded by a transport that answers nothing useful;
what the answers mean is tested against a real server (``tests/test_client.py``)."""

from __future__ import annotations

import asyncio
import inspect
import re
import tempfile
import typing
from pathlib import Path
from typing import Any

import httpx

from quiver.client import AsyncQuiver, Quiver
from server.api.app import create_app
from server.secretbox import generate_key
from server.settings import Settings

# not API calls a Python client makes: MCP's own door and its discovery metadata, and the page
# client's script
NOT_FOR_THIS_CLIENT = {
    ("POST", "/mcp"),
    ("GET", "/.well-known/oauth-protected-resource"),
    ("GET", "/quiver-agent.js"),
}
LIFECYCLE = {"close", "aclose", "send"}


def public(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_") and name not in LIFECYCLE
    }


def test_both_clients_offer_the_same_methods_with_the_same_parameters() -> None:
    sync, async_ = public(Quiver), public(AsyncQuiver)

    assert sorted(sync) == sorted(async_)
    for name, signature in sync.items():
        assert list(signature.parameters) == list(async_[name].parameters), name


def operations() -> set[tuple[str, str]]:
    settings = Settings(
        _env_file=None,
        data_dir=Path(tempfile.mkdtemp()),
        admin_key="x" * 40,
        secret_key=generate_key(),
    )
    spec = create_app(settings).openapi()
    return {
        (method.upper(), path)
        for path, item in spec["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }


def example(parameter: inspect.Parameter, hints: dict[str, Any]) -> Any:
    hint = str(hints.get(parameter.name, ""))
    if parameter.default is not inspect.Parameter.empty:
        return parameter.default
    if "dict" in hint:
        return {}
    if "list" in hint:
        return []
    if "bytes" in hint:
        return b""
    if "int" in hint:
        return 1
    if "bool" in hint:
        return False
    return "x"


def arguments_for(function: Any) -> tuple[list[Any], dict[str, Any]]:
    hints = typing.get_type_hints(function)
    args = []
    for parameter in list(inspect.signature(function).parameters.values())[1:]:
        if parameter.kind is parameter.VAR_KEYWORD:
            continue
        if parameter.kind is parameter.KEYWORD_ONLY:
            continue
        args.append(example(parameter, hints))
    return args, {}


def sent_by(client_class: type) -> set[tuple[str, str]]:
    """(method, path) of every request the client's methods send."""
    seen: set[tuple[str, str]] = set()

    def record(request: httpx.Request) -> httpx.Response:
        seen.add((request.method, request.url.path))
        return httpx.Response(599, json={})  # nothing to read: each method stops here

    if client_class is Quiver:
        client = Quiver("http://q", "k", transport=httpx.MockTransport(record))
        for name in public(Quiver):
            args, kwargs = arguments_for(getattr(Quiver, name))
            try:
                answer = getattr(client, name)(*args, **kwargs)
                if inspect.isgenerator(answer):
                    next(answer)
            except Exception:  # noqa: BLE001, S112 - the request is what is recorded here
                continue
        return seen

    async def all_async() -> None:
        client = AsyncQuiver("http://q", "k", transport=httpx.MockTransport(record))
        for name in public(AsyncQuiver):
            args, kwargs = arguments_for(getattr(AsyncQuiver, name))
            try:
                answer = getattr(client, name)(*args, **kwargs)
                if inspect.isasyncgen(answer):
                    await anext(answer)
                elif inspect.iscoroutine(answer):
                    await answer
            except Exception:  # noqa: BLE001, S112 - the request is what is recorded here
                continue

    asyncio.run(all_async())
    return seen


def covered(sent: set[tuple[str, str]], method: str, template: str) -> bool:
    pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$")
    return any(m == method and pattern.match(path) for m, path in sent)


def test_every_operation_of_the_api_has_a_method_in_both_clients() -> None:
    wanted = operations() - NOT_FOR_THIS_CLIENT
    for client_class in (Quiver, AsyncQuiver):
        sent = sent_by(client_class)
        missing = sorted(op for op in wanted if not covered(sent, *op))
        assert missing == [], (client_class.__name__, missing)
