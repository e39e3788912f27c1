"""Webhook tools: declared, not coded. One HTTP request through the egress guard per call."""

from __future__ import annotations

import json
import logging
import re
import time
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from sandbox.engine import Capabilities, Run, RunResult
from server.egress import (
    Allowlist,
    Bound,
    EgressDenied,
    EgressGuard,
    NameNotResolved,
    ResponseTooLarge,
    TooManyRedirects,
)

log = logging.getLogger("quiver.webhook")
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
MAX_RESPONSE_BYTES = 1024 * 1024


def expand_url(template: str, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Fill ``{param}`` placeholders, each value percent-encoded as one segment; return the URL
    and the arguments that were not used by it."""
    used: set[str] = set()

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        used.add(name)
        value = params.get(name, "")
        text = (
            json.dumps(value)
            if isinstance(value, dict | list)
            else ""
            if value is None
            else str(value).lower()
            if isinstance(value, bool)
            else str(value)
        )
        return urllib.parse.quote(text, safe="")

    url = PLACEHOLDER.sub(fill, template)
    return url, {k: v for k, v in params.items() if k not in used}


def auth_header(secret: str | None) -> dict[str, str]:
    """``"Name: value"`` sets that header; a bare value is sent as ``Authorization``."""
    if not secret:
        return {}
    name, sep, value = secret.partition(":")
    if sep and re.fullmatch(r"[A-Za-z0-9-]{1,64}", name.strip()) and " " not in name.strip():
        return {name.strip(): value.strip()}
    return {"Authorization": secret}


@dataclass(frozen=True, slots=True)
class WebhookSource:
    """What a webhook tool runs: its declaration (url, method, headers, timeout_ms) and its
    decrypted secret."""

    config: Mapping[str, Any]
    secret: str | None = None

    @property
    def timeout_ms(self) -> int | None:
        """The deadline the declaration gives (the tool's own ``timeout`` wins over it)."""
        declared = self.config.get("timeout_ms")
        return int(declared) if declared else None


class WebhookEngine:
    name = "webhook"
    # no tenant code runs, and the request is the tool's whole effect
    capabilities = Capabilities(counts_cpu=False, external=True)

    def __init__(self, guard: EgressGuard, max_response_bytes: int = MAX_RESPONSE_BYTES) -> None:
        self.guard = guard
        self.max_response_bytes = max_response_bytes

    async def run(self, source: WebhookSource, run: Run) -> RunResult:
        started = time.perf_counter()
        config, secret, limits = source.config, source.secret, run.limits
        extra_allow = run.egress if isinstance(run.egress, Allowlist) else None
        url, rest = expand_url(config["url"], run.params)
        method = config.get("method", "POST")
        secret_headers = auth_header(secret)
        headers = {**(config.get("headers") or {}), **secret_headers, "Accept": "application/json"}
        run_id = run.context.get("hook_run_id")  # a session-end hook: its reruns are marked
        if run_id and not any(h.lower() == "idempotency-key" for h in headers):
            headers["Idempotency-Key"] = str(run_id)
        timeout_s = min(config.get("timeout_ms", 10_000), limits.timeout_ms) / 1000

        def failed(code: str, message: str) -> RunResult:
            took = (time.perf_counter() - started) * 1000
            return RunResult.failure(code, message, took)  # type: ignore[arg-type]

        try:
            response, body = await self.guard.request(
                method,
                url,
                tenant=run.tenant,
                headers=headers,
                params=rest if method == "GET" else None,
                json=rest if method != "GET" else None,
                timeout_s=timeout_s,
                max_bytes=self.max_response_bytes,
                extra=extra_allow,
                secret_headers=frozenset(h.lower() for h in secret_headers),
                credentials=[c for c in run.credentials if isinstance(c, Bound)],
            )
        except NameNotResolved as exc:
            return failed("dns_error", str(exc))
        except EgressDenied as exc:
            return failed("egress_denied", str(exc))
        except (TimeoutError, httpx.TimeoutException):
            return failed(
                "timeout", f"the endpoint did not answer within {int(timeout_s * 1000)} ms"
            )
        except ResponseTooLarge as exc:
            return failed("too_large", str(exc))
        except TooManyRedirects as exc:
            return failed("connect_error", str(exc))
        except httpx.HTTPError as exc:
            return failed("connect_error", f"could not reach the endpoint ({type(exc).__name__})")
        except (ValueError, OverflowError, OSError) as exc:  # a URL the socket layer refuses
            log.warning("webhook %s could not be sent: %r", config.get("url"), exc)
            return failed("connect_error", f"could not reach the endpoint ({type(exc).__name__})")
        status = response.status_code
        if 400 <= status < 500:
            return failed("upstream_4xx", f"the endpoint answered {status}")
        if status >= 500:
            return failed("upstream_5xx", f"the endpoint answered {status}")
        if not 200 <= status < 300:
            return failed("malformed_response", f"the endpoint answered {status}")
        try:
            value = json.loads(body) if body else None
        except ValueError:
            return failed("malformed_response", "the endpoint did not answer with JSON")
        took = (time.perf_counter() - started) * 1000
        return RunResult(
            ok=True, value=value if isinstance(value, dict) else {"data": value}, duration_ms=took
        )
