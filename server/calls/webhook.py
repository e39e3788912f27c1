"""Webhook tools: declared, not coded. One HTTP request through the egress guard per call."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import re
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Mapping
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
    origin,
)

log = logging.getLogger("quiver.webhook")
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
MAX_RESPONSE_BYTES = 1024 * 1024
# a webhook's job location (docs/jobs.md): what its answer's ``status`` may say
JOB_RUNNING = frozenset({"queued", "pending", "accepted", "running", "in_progress"})
JOB_SUCCEEDED = frozenset({"succeeded", "completed", "done"})
JOB_FAILED = frozenset({"failed", "error", "cancelled", "canceled"})
MAX_POLL_FAILURES = 5  # in a row: the location unreachable, or answering 5xx or 429
MAX_POLL_WAIT_S = 60.0  # the longest Retry-After a location may ask for
# a job location that cannot be asked this time (counted towards MAX_POLL_FAILURES)
UNREACHABLE = (
    NameNotResolved,
    httpx.HTTPError,
    TimeoutError,
    TooManyRedirects,
    ResponseTooLarge,
    ValueError,
    OSError,
)


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
        # a session-end hook or a job: its reruns are marked
        run_id = run.context.get("hook_run_id") or run.context.get("job_id")
        if run_id and not any(h.lower() == "idempotency-key" for h in headers):
            headers["Idempotency-Key"] = str(run_id)
        timeout_s = min(config.get("timeout_ms", 10_000), limits.timeout_ms) / 1000
        if run.context.get("job_id"):  # a job's request may take the job's deadline
            timeout_s = limits.timeout_ms / 1000

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
        location = response.headers.get("location")
        if status == 202 and location:  # the work goes on there: the call becomes a job
            took = (time.perf_counter() - started) * 1000
            accepted = urllib.parse.urljoin(url, location)
            return RunResult(ok=True, value={}, duration_ms=took, accepted=accepted)
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

    async def follow(
        self,
        source: WebhookSource,
        run: Run,
        location: str,
        report: Callable[[Any, Any], Awaitable[bool]],
        every_s: float,
    ) -> RunResult:
        """A webhook's job: ``GET location`` (through the egress guard, with the webhook's
        headers and credentials) until it says the job ended — ``{"status": "running",
        "progress": 0.4, "message": "..."}`` while it runs (reported), then ``{"status":
        "succeeded", "result": {...}}`` or ``{"status": "failed", "error": {"message": ...}}``
        — within the job's deadline. ``Retry-After`` sets the next ask (at most a minute);
        five failures in a row (unreachable, 5xx, 429) end it. A location on another origin
        than the webhook's is asked without the webhook's secret."""
        started = time.perf_counter()
        config, secret_headers = source.config, auth_header(source.secret)
        called, _ = expand_url(config["url"], run.params)
        if origin(location) != origin(called):  # the webhook's secret stays with its origin
            secret_headers = {}
        headers = {**(config.get("headers") or {}), **secret_headers, "Accept": "application/json"}
        extra_allow = run.egress if isinstance(run.egress, Allowlist) else None

        def failed(code: str, message: str) -> RunResult:
            took = (time.perf_counter() - started) * 1000
            return RunResult.failure(code, message, took)  # type: ignore[arg-type]

        async def ask() -> tuple[httpx.Response, bytes]:
            return await self.guard.request(
                "GET",
                location,
                tenant=run.tenant,
                headers=headers,
                timeout_s=10.0,
                max_bytes=self.max_response_bytes,
                extra=extra_allow,
                secret_headers=frozenset(h.lower() for h in secret_headers),
                credentials=[c for c in run.credentials if isinstance(c, Bound)],
            )

        failures = 0
        try:
            async with asyncio.timeout(run.limits.timeout_ms / 1000):
                while True:
                    wait = every_s
                    try:
                        response, body = await ask()
                    except EgressDenied as exc:
                        return failed("egress_denied", f"the job location: {exc}")
                    except UNREACHABLE as exc:
                        failures += 1
                        if failures >= MAX_POLL_FAILURES:
                            said = f"the job location could not be reached ({type(exc).__name__})"
                            return failed("connect_error", said)
                    else:
                        status = response.status_code
                        if status >= 500 or status == 429:
                            failures += 1
                            if failures >= MAX_POLL_FAILURES:
                                said = f"the job location answered {status}"
                                return failed("upstream_5xx", said)
                        elif status >= 400:
                            return failed("upstream_4xx", f"the job location answered {status}")
                        else:
                            failures = 0
                            ended = await self._job_state(body, report, failed)
                            if ended is not None:
                                took = (time.perf_counter() - started) * 1000
                                return dataclasses.replace(ended, duration_ms=took)
                        wait = _retry_after(response.headers.get("retry-after"), every_s)
                    await asyncio.sleep(wait)
        except TimeoutError:
            return failed("timeout", "the job did not end within its deadline")

    async def _job_state(
        self,
        body: bytes,
        report: Callable[[Any, Any], Awaitable[bool]],
        failed: Callable[[str, str], RunResult],
    ) -> RunResult | None:
        """What one answer of a job location says: the job's end, or None while it runs."""
        try:
            value = json.loads(body) if body else None
        except ValueError:
            return failed("malformed_response", "the job location did not answer with JSON")
        state = value.get("status") if isinstance(value, dict) else None
        if not isinstance(value, dict) or not isinstance(state, str):
            return failed("malformed_response", 'the job location\'s answer has no "status"')
        state = state.lower()
        if state in JOB_SUCCEEDED:
            result = value.get("result")
            return RunResult.success(result if isinstance(result, dict) else {"data": result})
        if state in JOB_FAILED:
            error = value.get("error")
            said = error.get("message") if isinstance(error, dict) else error
            message = str(said or f"the job {state}")[:2000]
            return RunResult(ok=True, value={"success": False, "message": message})
        if state not in JOB_RUNNING:
            return failed("malformed_response", f"the job location says {state[:40]!r}")
        with contextlib.suppress(ValueError):  # a progress it cannot say: the job goes on
            await report(value.get("progress"), value.get("message"))
        return None


def _retry_after(header: str | None, default: float) -> float:
    """The wait a ``Retry-After`` of seconds asks for (at most a minute), else ``default``."""
    if header is None or not header.strip().isdigit():
        return default
    return min(float(header.strip()), MAX_POLL_WAIT_S)
