"""Settings: the only place that reads the environment (prefix ``QUIVER_``).

Build one ``Settings`` in ``main()`` or a test fixture and pass it down; nothing reads the
environment at import time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PACKAGE_ROOT = Path(__file__).resolve().parent


def default_builtins_dir() -> Path:
    """The bundled tools: ``builtins/`` in a checkout, ``server/_builtins`` in a wheel."""
    checkout = PACKAGE_ROOT.parent / "builtins"
    return checkout if checkout.is_dir() else PACKAGE_ROOT / "_builtins"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="QUIVER_", extra="ignore")

    data_dir: Path = Path(".quiver")
    cache_dir: Path | None = Field(
        default=None,
        description="built artefacts (the Python WASM runner); default ~/.cache/quiver",
    )
    database_url: str | None = Field(
        default=None, description="SQLAlchemy async URL; default: SQLite file in the data dir"
    )
    admin_key: SecretStr | None = Field(default=None, description="bootstrap admin key")
    secret_key: SecretStr | None = Field(
        default=None,
        description="comma-separated base64 AES-256 keys; the first encrypts, all decrypt",
    )
    tools_dir: Path | None = None
    builtins_dir: Path = Field(default_factory=default_builtins_dir)
    redis_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    auto_migrate: bool = True
    demo: bool = False
    log_level: str = "info"
    # traces (OpenTelemetry): off unless set, an OTLP/HTTP collector's traces URL
    # (e.g. http://collector:4318/v1/traces); docs/deploy.md
    otlp_endpoint: str | None = None
    otlp_service_name: str = "quiver"

    max_body_bytes: int = 16 * 1024 * 1024
    # HTTP connections one server process holds at once; one past it is answered 503
    max_connections: int = Field(default=4096, ge=1)
    # the skills' data sets: what one tenant's sets may hold together, and items per set
    dataset_max_bytes: int = 256 * 1024 * 1024
    dataset_max_items: int = 1_000_000
    max_source_bytes: int = 256 * 1024
    max_module_bytes: int = 10 * 1024 * 1024
    default_timeout_ms: int = 5_000
    max_timeout_ms: int = 60_000
    load_timeout_ms: int = 1_000
    key_touch_interval_s: int = 60
    workers: int = Field(
        default_factory=lambda: max(1, os.cpu_count() or 1), description="sandbox worker processes"
    )
    worker_memory_mb: int = 512
    worker_max_calls: int = Field(
        default=100_000,  # a fresh worker starts with no tool loaded: over thousands of tenants,
        ge=1,  # half of a 10,000-call life went to loading them again
        description="calls a sandbox worker serves before a fresh one takes its place",
    )
    worker_uid_base: int | None = Field(
        default=61_000, description="workers run as uid base+i when started as root"
    )
    tenant_concurrency: int | None = Field(
        default=None, description="busy workers one tenant may hold (default workers-1)"
    )
    queue_wait_ms: int = 2_000
    call_slots: int = Field(
        default=0,
        ge=0,
        description="tool calls a node runs at once, shared fairly between the tenants asking "
        "(0: four per sandbox worker, at least 8)",
    )
    worker_spares: int = Field(
        default=1,
        ge=0,
        le=16,
        description="warm sandbox workers per pool that replace a dead worker at once",
    )
    tenant_restart_burst: int = Field(
        default=10,
        description="sandbox worker restarts one tenant's calls may cause at once (0: no cap)",
    )
    tenant_restarts_per_s: float = Field(
        default=1.0, description="how fast a tenant's restart budget refills"
    )
    require_isolation: bool = Field(
        default=True,
        description="refuse to start when a sandbox layer cannot be applied (docs/deploy.md)",
    )
    result_cap_bytes: int = 64 * 1024
    egress_allow: str | None = Field(
        default=None,
        description="comma-separated internal hosts and CIDRs tools may reach, each with "
        "`:port` to admit that port only",
    )
    call_log_flush_ms: int = 500
    call_log_reserve_mb: int = Field(
        default=4,
        ge=1,
        description="below this much free disk, the call-log journal takes no calls (503)",
    )
    call_log_fsync: bool = Field(
        default=True,
        description="sync each call's journalled row before the call answers (group commit)",
    )
    tenant_egress_concurrency: int = Field(
        default=16, description="outbound calls one tenant may have in flight"
    )
    auth_cache_ttl_s: float = Field(default=5.0, description="how long a node trusts a key lookup")
    registry_cache_ttl_ms: int = Field(
        default=1_000, description="how long a node trusts a tenant's registry version counters"
    )
    breaker_min_calls: int = Field(
        default=10, description="rolling breaker: calls in the window before it may open"
    )
    breaker_failure_rate: float = Field(
        default=0.5, description="rolling breaker: failure share that opens it"
    )
    breaker_window_s: float = Field(default=60.0, description="rolling breaker: window length")
    breaker_cooldown_s: float = Field(
        default=30.0, description="rolling breaker: open this long, then half-open"
    )
    result_cache_entries: int = Field(
        default=10_000, description="in-process result cache size (entries) per node"
    )
    usage_refresh_s: float = Field(
        default=300.0, description="how often the tool budget's by-use ranking is refreshed"
    )
    sse_heartbeat_s: float = Field(default=15.0, description="event stream heartbeat interval")
    call_tail_poll_s: float = Field(
        default=1.0, gt=0, description="the live call tail looks for other nodes' calls this often"
    )
    wasm_max_fuel: int = Field(
        default=50_000_000_000, description="the most fuel a WASM tool's metadata may ask for"
    )
    wasm_max_memory_mb: int = Field(
        default=256, description="the most linear memory a WASM tool's metadata may ask for"
    )
    session_marks: str | None = Field(
        default=None,
        description="set by `serve --workers N` for its processes: the table of marks that keeps "
        "their cached session states exact between them (not to be set by hand)",
    )
    session_cache_size: int = Field(
        default=20_000,
        ge=0,
        description=(
            "sessions whose state a node keeps in memory (0: read each call's from the database)"
        ),
    )
    max_streams_per_tenant: int = Field(
        default=1_000, description="event streams one tenant may hold open on one node"
    )
    tenant_requests: str | None = Field(
        default="2000/second",
        description="requests one tenant may make (all its keys, all nodes); none: no limit",
    )
    key_requests: str | None = Field(
        default="1000/second", description="requests one API key may make (all nodes)"
    )
    tenant_calls_per_day: int | None = Field(
        default=None, description="tool calls one tenant may make per UTC day (none: no quota)"
    )
    tenant_cpu_ms_per_day: int | None = Field(
        default=None,
        description="milliseconds code tools of one tenant may run per UTC day (none: no quota)",
    )
    tenant_running_jobs: int | None = Field(
        default=20,
        description="long-running jobs one tenant may have queued or running at once (none: no "
        "limit)",
    )
    job_slots: int = Field(default=4, ge=0, description="jobs one node runs at once")
    job_lease_s: float = Field(
        default=30.0,
        ge=1.0,
        description="a running job's lease: renewed by its node every third of it; once it has "
        "passed (the node died), another node runs the job again",
    )
    job_timeout_s: int = Field(
        default=900, ge=1, description="a job's deadline unless its metadata says (job_timeout_s)"
    )
    max_job_timeout_s: int = Field(
        default=86_400, ge=1, description="the longest deadline a job tool may declare"
    )
    job_poll_s: float = Field(
        default=2.0,
        gt=0,
        description="how often a webhook's job location is asked (unless it sends Retry-After), "
        "and how often a node looks for jobs queued on others",
    )
    mcp_job_wait_s: float = Field(
        default=300.0,
        ge=0,
        description="how long an MCP tools/call waits for a job it started (its progress sent as "
        "MCP progress); past it the call answers the job's id",
    )
    public_url: str | None = Field(
        default=None,
        description="this server's address as end users' browsers reach it (https://…): where "
        "OAuth providers send them back (<public_url>/v1/oauth/callback, to register with each "
        "provider); unset, tools that act as their end user cannot be connected",
    )
    mcp_watch_lease_s: float = Field(
        default=60.0,
        ge=1.0,
        description="a federated MCP server is listened to by one node, which renews its lease "
        "every third of this; once it has passed (the node died), another node listens",
    )
    mcp_watch_max: int = Field(
        default=1000,
        ge=0,
        description="federated MCP servers one node listens to at most (the rest are left to "
        "other nodes)",
    )
    mcp_refresh_s: float = Field(
        default=300.0,
        gt=0,
        description="how often a federated MCP server is listed again even if it announced no "
        "change",
    )
    session_sweep_s: float = Field(
        default=30.0, description="how often a node ends sessions idle past their bot's timeout"
    )
    provider_timeout_s: float = Field(
        default=60.0, description="the agent loop's wait for a model provider's answer"
    )
    provider_retries: int = Field(
        default=2, ge=0, le=10, description="retries (with backoff) of a provider's 429 and 5xx"
    )
    agent_message_bytes: int = Field(
        default=65_536,
        ge=1_024,
        le=16 << 20,
        description="the most one model answer or tool result of the agent loop stores and "
        "forwards (bytes of UTF-8); past it the answer is cut and the turn ends `incomplete`",
    )
    agent_turn_bytes: int = Field(
        default=524_288,
        ge=1_024,
        le=64 << 20,
        description="the most one turn of the agent loop stores, its messages together",
    )
    mcp_sessions_per_key: int = Field(
        default=100, description="MCP sessions one key may hold open on one node (429 beyond)"
    )
    mcp_sessions_per_tenant: int = Field(
        default=1_000, description="MCP sessions one tenant may hold open on one node (429 beyond)"
    )
    mcp_session_idle_s: float = Field(
        default=600.0, description="an MCP session with no request for this long is closed"
    )
    watch_tools: bool = Field(
        default=False,
        description="development: reload the tools folder whenever a file in it changes",
    )
    cors_origins: str = Field(
        default="*",
        description=(
            "comma-separated origins whose pages may call the API (web agents); empty = none"
        ),
    )
    mcp_origins: str = Field(
        default="",
        description=(
            "comma-separated origins whose pages may use /mcp besides the server's own and "
            "loopback ones ('*': any); requests without Origin (not from a page) always may"
        ),
    )
    environment: Literal["development", "production"] = Field(
        default="development",
        description="production: `serve` refuses to start without the settings a production "
        "node needs (docs/deploy.md)",
    )
    notify: bool = Field(
        default=True, description="PostgreSQL: announce and hear changes with LISTEN/NOTIFY"
    )
    poll_ms: int = Field(
        default=1_000,
        description="how often a node looks for changes it is not told of (PostgreSQL: other "
        "nodes', while not listening; SQLite: the CLI's)",
    )

    @field_validator("egress_allow")
    @classmethod
    def _allow_entries(cls, value: str | None) -> str | None:
        from server.egress import allow_entry

        for item in (value or "").split(","):
            if item.strip() and allow_entry(item) is None:
                raise ValueError(f"{item.strip()!r} is neither a host, an address nor a CIDR")
        return value

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'quiver.db').resolve()}"

    @property
    def is_sqlite(self) -> bool:
        return self.effective_database_url.startswith("sqlite")
