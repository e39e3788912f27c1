"""Making a provider's SDK client: no CA bundle loaded on the event loop, no request past the
egress guard."""

from __future__ import annotations

import ssl
from typing import Any

import pytest

from server import tls
from server.agent.providers import ProviderConfig, make_provider
from server.egress import EgressGuard
from tests.test_egress import guard as egress_guard

KINDS = ["openai", "openai-responses", "anthropic", "gemini"]


def _config(kind: str, base: str, guard: EgressGuard) -> ProviderConfig:
    return ProviderConfig(kind=kind, base_url=f"{base}/v1", api_key="k", egress=(guard, None))


@pytest.fixture
async def guard() -> Any:
    checked = egress_guard()
    yield checked
    await checked.client.aclose()


async def test_a_providers_client_loads_no_ca_bundle(guard, monkeypatch) -> None:
    for module in ("httpx", "httpx2"):
        tls.context(module)  # the process's contexts, built once (at the node's start)
    loads: list[str] = []
    for method in ("load_verify_locations", "load_default_certs"):
        original = getattr(ssl.SSLContext, method)

        def counted(self, *args, _original=original, _method=method, **kwargs):
            loads.append(_method)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(ssl.SSLContext, method, counted)

    providers = [make_provider(_config(kind, "http://127.0.0.4:9", guard)) for kind in KINDS]
    for provider in providers:
        await provider.close()

    # each load is ~33 ms of CPU on the event loop: the SDKs' defaults made 1-3 per client
    assert loads == []


async def test_geminis_synchronous_client_reaches_nothing(guard, fake) -> None:
    gemini = make_provider(_config("gemini", fake.base, guard))
    try:
        with pytest.raises(Exception, match="synchronous requests are not made here"):
            gemini.client.models.generate_content(model="gemini-test", contents="hello")
    finally:
        await gemini.close()

    assert fake.requests == []
