"""Prometheus metrics (``/metrics``). Labels are bounded sets only — kind, outcome, scope,
tier — never tenant or tool names, whose number has no bound."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

REGISTRY = CollectorRegistry()

CALLS = Counter(
    "quiver_tool_calls_total",
    "Tool calls by tool kind and outcome (ok, or the failure code)",
    ["kind", "outcome"],
    registry=REGISTRY,
)
CALL_SECONDS = Histogram(
    "quiver_tool_call_seconds",
    "Tool call latency by tool kind and outcome (ok or error)",
    ["kind", "outcome"],
    buckets=(
        0.0005,
        0.001,
        0.0025,
        0.005,
        0.01,
        0.025,
        0.05,
        0.1,
        0.25,
        0.5,
        1,
        2.5,
        5,
        10,
        30,
        60,
    ),
    registry=REGISTRY,
)
BREAKER_OPENINGS = Counter(
    "quiver_breaker_openings_total",
    "Breakers opened: per session (3 failures) or per tool (rolling failure rate)",
    ["scope"],
    registry=REGISTRY,
)
CACHE_HITS = Counter(
    "quiver_result_cache_hits_total", "Result cache hits by tier", ["tier"], registry=REGISTRY
)
CACHE_MISSES = Counter("quiver_result_cache_misses_total", "Result cache misses", registry=REGISTRY)
POOL_BUSY = Gauge("quiver_worker_pool_busy", "Sandbox workers running a call", registry=REGISTRY)
POOL_QUEUED = Gauge(
    "quiver_worker_pool_queued", "Calls waiting for a sandbox worker", registry=REGISTRY
)
POOL_RESTARTS = Gauge(
    "quiver_worker_pool_restarts",
    "Sandbox workers killed and replaced since start",
    registry=REGISTRY,
)
GUARDRAILS = Counter(
    "quiver_guardrail_decisions_total",
    "Guardrail decisions by phase (before, after) and decision (deny, redact, modify, allow, "
    "fail_open, fail_closed)",
    ["phase", "decision"],
    registry=REGISTRY,
)
ADMISSION_WAITS = Counter(
    "quiver_admission_waits_total",
    "Calls that waited for a slot of the node (all were taken; shared fairly by tenant)",
    registry=REGISTRY,
)
CALL_LOG_FAILURES = Counter(
    "quiver_call_log_failures_total",
    "Call-log writes that failed: unavailable (database away; rows kept queued), refused (a "
    "row set aside), journal (local journal write or sync), journal_full (a call refused: no "
    "room), no_room (the database's disk), queue_full (rows left to the journal), lost",
    ["reason"],
    registry=REGISTRY,
)
DEGRADED = Gauge(
    "quiver_degraded",
    "1 while a dependency is away and the node runs without it (redis: in-process tier)",
    ["dependency"],
    registry=REGISTRY,
)
EVENT_STREAMS = Gauge(
    "quiver_event_streams", "Agents attached to a session event stream", registry=REGISTRY
)


_call_series: dict[tuple[str, str | None], tuple[Any, Any]] = {}  # bounded as the labels are


def observe_call(kind: str, code: str | None, seconds: float) -> None:
    series = _call_series.get((kind, code))
    if series is None:  # ``labels`` builds its key and takes a lock: once per label pair
        series = _call_series[(kind, code)] = (
            CALLS.labels(kind=kind, outcome=code or "ok"),
            CALL_SECONDS.labels(kind=kind, outcome="ok" if code is None else "error"),
        )
    series[0].inc()
    series[1].observe(seconds)


def watch_pool(
    busy: Callable[[], float], queued: Callable[[], float], restarts: Callable[[], float]
) -> None:
    """Read the node's worker pool at scrape time."""
    POOL_BUSY.set_function(busy)
    POOL_QUEUED.set_function(queued)
    POOL_RESTARTS.set_function(restarts)


def exposition() -> tuple[bytes, str]:
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


MODEL_CALLS = Counter(
    "quiver_model_calls_total",
    "Model provider calls of the agent loop by provider kind and outcome",
    ["kind", "outcome"],
    registry=REGISTRY,
)
MODEL_TOKENS = Counter(
    "quiver_model_tokens_total",
    "Tokens the model providers reported (input includes cached)",
    ["kind"],
    registry=REGISTRY,
)
AGENT_REFUSALS = Counter(
    "quiver_agent_refusals_total",
    "What the agent loop refused a model's answer (or an answer to a paused turn), by reason: "
    "final_round_tool_calls, round_tool_calls, turn_tool_calls, reply_tool_calls, "
    "invalid_tool_call, message_too_large, turn_too_large, turn_deadline, provider_reply, "
    "wrong_answer, not_an_approver",
    ["reason"],
    registry=REGISTRY,
)
UNSTORED_MESSAGES = Counter(
    "quiver_unstored_user_messages_total",
    "A failed turn's user message that could not be stored either, by code: unavailable (the "
    "database away) or internal",
    ["code"],
    registry=REGISTRY,
)
BACKGROUND_FAILURES = Counter(
    "quiver_background_failures_total",
    "Background work that failed and was logged (the request that started it had answered): "
    "action_timeout, handoff_announce, end_hook, session_sweep, key_touches, sqlite_watch, "
    "mcp_list_changed, jobs, job_run, job_deliver, mcp_watch, mcp_refresh",
    ["task"],
    registry=REGISTRY,
)
JOBS = Counter(
    "quiver_jobs_total",
    "Long-running tool jobs finished on this node, by how they ended: succeeded, failed, cancelled",
    ["status"],
)
