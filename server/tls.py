"""One TLS context per process for the outbound HTTP clients.

Building a verifying context loads the CA bundle: ~33 ms of CPU, on the event loop when a
client is made. httpx builds one for every client and transport it makes itself, so a node that
made a provider's SDK client for a tenant's first turn blocked every other request for that long
(Gemini's SDK made three). The context is immutable once built and safe to share: every client
gets this one.
"""

from __future__ import annotations

import functools
import importlib
import ssl


@functools.cache
def context(http_module: str) -> ssl.SSLContext:
    """The verifying context ``http_module`` (httpx, or the fork some SDKs use) would build."""
    return importlib.import_module(http_module).create_ssl_context()  # type: ignore[no-any-return]
