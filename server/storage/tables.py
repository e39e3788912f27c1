"""SQLAlchemy tables: one model set for SQLite (JSON) and PostgreSQL (JSONB).

The schema only changes through Alembic migrations (``migrations/``).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from server.storage.text_codec import from_stored, to_stored

JSONType = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC on both databases (SQLite stores no offset, so add it back on read)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class SafeString(TypeDecorator[str]):
    """``VARCHAR`` that holds any text, the same on both databases: a NUL or a lone surrogate
    is spelled out as it is written and read back as it was (``text_codec``)."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Any) -> str | None:
        return value if value is None else to_stored(value)

    def process_result_value(self, value: str | None, dialect: Any) -> str | None:
        return value if value is None else from_stored(value)


class SafeText(SafeString):
    """``TEXT`` that holds any text (see ``SafeString``)."""

    impl = Text
    cache_ok = True


class Base(DeclarativeBase):
    pass


class TenantRow(Base):
    __tablename__ = "tenants"

    id: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    name: Mapped[str] = mapped_column(SafeString(200))
    shared_tools: Mapped[list[str]] = mapped_column(JSONType, default=list)
    sandbox_modules: Mapped[list[str]] = mapped_column(JSONType, default=list, server_default="[]")
    # an admin's grants of reviewed packages: [{"name", "version", "sha256", "language"}]
    packages: Mapped[list[dict[str, Any]]] = mapped_column(
        JSONType, default=list, server_default="[]"
    )
    egress_allow: Mapped[list[str]] = mapped_column(JSONType, default=list, server_default="[]")
    # an admin's overrides of the request rates and daily quotas (``server.quotas``)
    limits: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict, server_default="{}")
    # an admin's policy checked around every call of the tenant's tools (``server.guardrails``)
    guardrails: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict, server_default="{}")
    handoff_url: Mapped[str | None] = mapped_column(SafeString(2000))
    handoff_secret_ct: Mapped[str | None] = mapped_column(SafeText)
    registry_version: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class ApiKeyRow(Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(SafeString(32), primary_key=True)
    tenant_id: Mapped[str | None] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[str] = mapped_column(SafeString(16))
    secret_hash: Mapped[str] = mapped_column(SafeString(64))
    label: Mapped[str] = mapped_column(SafeString(200), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    created_by: Mapped[str | None] = mapped_column(SafeString(32))
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class ToolRow(Base):
    __tablename__ = "tools"
    __table_args__ = (UniqueConstraint("tenant_id", "name", name="uq_tools_tenant_name"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(SafeString(64))
    current_version: Mapped[int] = mapped_column(Integer)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class SecretRow(Base):
    """A value code tools read as ``context.secrets[name]``; encrypted, never returned."""

    __tablename__ = "secrets"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    value_ct: Mapped[str] = mapped_column(SafeText)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(SafeString(32))


class ToolVersionRow(Base):
    __tablename__ = "tool_versions"
    __table_args__ = (UniqueConstraint("tool_id", "version", name="uq_tool_versions_tool_version"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    tool_id: Mapped[int] = mapped_column(ForeignKey("tools.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(SafeString(16))
    sandbox: Mapped[str | None] = mapped_column(SafeString(16))
    description: Mapped[str] = mapped_column(SafeText)
    parameters: Mapped[dict[str, Any]] = mapped_column(JSONType)
    meta: Mapped[dict[str, Any]] = mapped_column("metadata", JSONType)
    source: Mapped[str | None] = mapped_column(SafeText)
    module: Mapped[bytes | None] = mapped_column(LargeBinary)
    module_sha256: Mapped[str | None] = mapped_column(SafeString(64))
    webhook: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    auth_header_ct: Mapped[str | None] = mapped_column(SafeText)
    content_hash: Mapped[str] = mapped_column(SafeString(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    created_by: Mapped[str | None] = mapped_column(SafeString(32))
    # what the save learnt of the code: it declares an on_error handler (NULL: saved before 0011)
    on_error: Mapped[bool | None] = mapped_column(Boolean)


class WasmArtefactRow(Base):
    """A WASM module of a tool version as one engine compiled it (so no node compiles it again)."""

    __tablename__ = "wasm_artefacts"

    version_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("tool_versions.id", ondelete="CASCADE"), primary_key=True
    )
    engine: Mapped[str] = mapped_column(SafeString(160), primary_key=True)  # wasmtime + settings
    artefact: Mapped[bytes] = mapped_column(LargeBinary)
    mac: Mapped[str] = mapped_column(SafeString(96))  # SecretBox.mac, bound to version and engine
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class BotRow(Base):
    __tablename__ = "bots"
    __table_args__ = (UniqueConstraint("tenant_id", "name", name="uq_bots_tenant_name"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(SafeString(64))
    tools: Mapped[list[str] | None] = mapped_column(JSONType)
    intents: Mapped[dict[str, list[str]] | None] = mapped_column(JSONType)
    max_tools: Mapped[int | None] = mapped_column(Integer)
    model: Mapped[str | None] = mapped_column(SafeString(200))  # "provider/model"
    tool_round_model: Mapped[str | None] = mapped_column(SafeString(200))
    max_rounds: Mapped[int | None] = mapped_column(Integer)
    max_context_tokens: Mapped[int | None] = mapped_column(Integer)
    action_timeout_s: Mapped[int | None] = mapped_column(Integer)
    max_tool_calls: Mapped[int | None] = mapped_column(Integer)
    max_turn_tool_calls: Mapped[int | None] = mapped_column(Integer)
    turn_timeout_s: Mapped[int | None] = mapped_column(Integer)
    approvers: Mapped[list[str] | None] = mapped_column(JSONType)
    tool_loading: Mapped[str | None] = mapped_column(SafeString(16))  # "all" (None) | "search"
    code_mode: Mapped[str | None] = mapped_column(SafeString(16))  # "python" | "javascript"
    job_wait_s: Mapped[int | None] = mapped_column(Integer)  # the loop's wait for a job's end
    system_prompt: Mapped[str | None] = mapped_column(SafeText)
    idle_timeout_s: Mapped[int | None] = mapped_column(Integer)
    intent_detection: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    evals: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONType)
    skills: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class ProviderRow(Base):
    """A tenant's model provider; its API key is encrypted and never returned."""

    __tablename__ = "providers"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    kind: Mapped[str] = mapped_column(SafeString(32))
    base_url: Mapped[str | None] = mapped_column(SafeString(2000))
    models: Mapped[list[str]] = mapped_column(JSONType, default=list, server_default="[]")
    api_key_ct: Mapped[str | None] = mapped_column(SafeText)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class MessageRow(Base):
    """One message of a session's conversation, in order (``seq``)."""

    __tablename__ = "messages"
    __table_args__ = (
        Index("ux_messages_session_seq", "session_id", "seq", unique=True),
        Index("ix_messages_tenant_created", "tenant_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(SafeString(36), primary_key=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    tenant_id: Mapped[str] = mapped_column(SafeString(64))
    bot: Mapped[str] = mapped_column(SafeString(64))
    seq: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(SafeString(16))  # user, assistant, tool
    content: Mapped[str | None] = mapped_column(SafeText)
    tool_calls: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONType)
    tool_call_id: Mapped[str | None] = mapped_column(SafeString(256))
    name: Mapped[str | None] = mapped_column(SafeString(64))
    turn: Mapped[str | None] = mapped_column(SafeString(36))  # the user message a turn answers
    model: Mapped[str | None] = mapped_column(SafeString(200))
    input_tokens: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    output_tokens: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    cached_tokens: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    tool_round: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    offered: Mapped[list[str] | None] = mapped_column(JSONType)  # the tools the call was offered
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class AuditRow(Base):
    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    actor: Mapped[str | None] = mapped_column(SafeString(32))
    tenant_id: Mapped[str | None] = mapped_column(SafeString(64), index=True)
    action: Mapped[str] = mapped_column(SafeString(64))
    target: Mapped[str] = mapped_column(SafeString(200))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSONType)


class SessionRow(Base):
    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(SafeString(36), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), index=True)
    bot: Mapped[str] = mapped_column(SafeString(64))
    intent: Mapped[str | None] = mapped_column(SafeString(64))
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    created_by: Mapped[str | None] = mapped_column(SafeString(32))
    # the session breakers: [{"tool", "until"}] (epoch seconds; closed once past)
    open_breakers: Mapped[list[dict[str, Any]]] = mapped_column(JSONType, default=list)
    actions: Mapped[list[dict[str, Any]]] = mapped_column(JSONType, default=list)
    # what search_tools found for it (a bot with tool_loading "search"), oldest first
    loaded_tools: Mapped[list[str]] = mapped_column(JSONType, default=list, server_default="[]")
    customer: Mapped[str | None] = mapped_column(SafeString(128))
    status: Mapped[str] = mapped_column(SafeString(16), default="active", server_default="active")
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    end_reason: Mapped[str | None] = mapped_column(SafeString(200))
    handed_off_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (
        Index("ix_sessions_tenant_customer", "tenant_id", "customer"),
        Index("ix_sessions_tenant_status_created", "tenant_id", "status", "created_at"),
    )


class SessionEndHookRow(Base):
    """A session-end tool to run for an ended session: pending, running (leased), done, failed."""

    __tablename__ = "session_end_hooks"
    __table_args__ = (Index("ix_session_end_hooks_status", "status", "lease_until"),)

    session_id: Mapped[str] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    tool: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(SafeString(64))
    status: Mapped[str] = mapped_column(SafeString(16))
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    outcome: Mapped[str | None] = mapped_column(SafeString(64))


class JobRow(Base):
    """A long-running call (``metadata.mode: "job"``, or a webhook that answered 202): queued,
    running (leased by one node), then succeeded, failed or cancelled (``server.calls.jobs``)."""

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_due", "status", "lease_until"),
        Index("ix_jobs_tenant", "tenant_id", "status"),
        Index("ix_jobs_session", "session_id"),
    )

    id: Mapped[str] = mapped_column(SafeString(36), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    session_id: Mapped[str | None] = mapped_column(SafeString(36))
    bot: Mapped[str | None] = mapped_column(SafeString(64))
    tool: Mapped[str] = mapped_column(SafeString(64))
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(SafeString(16))
    arguments_ct: Mapped[str] = mapped_column(SafeText)  # what the tool receives, encrypted
    location: Mapped[str | None] = mapped_column(SafeText)  # a webhook's job: where to ask
    status: Mapped[str] = mapped_column(SafeString(16))
    progress: Mapped[float | None] = mapped_column(Float)
    message: Mapped[str | None] = mapped_column(SafeString(200))
    result: Mapped[Any] = mapped_column(JSONType)  # the final envelope
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    timeout_s: Mapped[int] = mapped_column(Integer)
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    deliver: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    message_id: Mapped[str | None] = mapped_column(SafeString(36))  # the assistant's ask
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    cpu_ms: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")


class EvalRunRow(Base):
    """One run of a bot's evals: the pass rate and the report (cases, transcripts, per tool)."""

    __tablename__ = "eval_runs"
    __table_args__ = (Index("ix_eval_runs_bot", "tenant_id", "bot", "created_at"),)

    id: Mapped[str] = mapped_column(SafeString(36), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    bot: Mapped[str] = mapped_column(SafeString(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    pass_rate: Mapped[float] = mapped_column(Float)
    report: Mapped[dict[str, Any]] = mapped_column(JSONType)


class IdempotencyKeyRow(Base):
    """The first answer to a POST sent with an ``Idempotency-Key``, per API key and route."""

    __tablename__ = "idempotency_keys"

    key_id: Mapped[str] = mapped_column(SafeString(32), primary_key=True)
    scope: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    idem_key: Mapped[str] = mapped_column(SafeString(255), primary_key=True)
    body_hash: Mapped[str] = mapped_column(SafeString(64))
    status: Mapped[int | None] = mapped_column(Integer)
    response: Mapped[bytes | None] = mapped_column(LargeBinary)
    media_type: Mapped[str | None] = mapped_column(SafeString(64))
    lease_until: Mapped[datetime] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class SessionToolClaimRow(Base):
    """A once-per-session tool's run in one session, claimed before it runs."""

    __tablename__ = "session_tool_claims"

    session_id: Mapped[str] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    tool: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    lease_until: Mapped[datetime] = mapped_column(UTCDateTime())


class SessionToolFailureRow(Base):
    """Failures of one tool in one session, for the per-session breaker."""

    __tablename__ = "session_tool_failures"

    session_id: Mapped[str] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    tool: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)


class BreakerOpeningRow(Base):
    __tablename__ = "breaker_openings"
    __table_args__ = (Index("ix_breaker_openings_tenant_at", "tenant_id", "at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    tenant_id: Mapped[str] = mapped_column(SafeString(64))
    tool: Mapped[str] = mapped_column(SafeString(64))
    scope: Mapped[str] = mapped_column(SafeString(16))  # "session" or "tool"
    session_id: Mapped[str | None] = mapped_column(SafeString(36))


class SessionVariableRow(Base):
    __tablename__ = "session_variables"

    session_id: Mapped[str] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(SafeString(128), primary_key=True)
    value: Mapped[Any] = mapped_column(JSONType, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class ToolCallRow(Base):
    __tablename__ = "tool_calls"
    # The analytics indexes differ per database (INCLUDE on PostgreSQL): see migration 0004.

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    tenant_id: Mapped[str] = mapped_column(SafeString(64))
    session_id: Mapped[str | None] = mapped_column(SafeString(36), index=True)
    tool: Mapped[str] = mapped_column(SafeString(64))
    version: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(SafeString(16))
    arguments: Mapped[Any] = mapped_column(JSONType)
    result: Mapped[str | None] = mapped_column(SafeText)
    success: Mapped[bool] = mapped_column(Boolean)
    latency_ms: Mapped[float] = mapped_column(Float)
    error_code: Mapped[str | None] = mapped_column(SafeString(32))
    error_message: Mapped[str | None] = mapped_column(SafeText)
    test: Mapped[bool] = mapped_column(Boolean, default=False)
    cached: Mapped[bool] = mapped_column(Boolean, default=False)
    call_id: Mapped[str | None] = mapped_column(SafeString(36))
    uid: Mapped[str | None] = mapped_column(SafeString(32))  # unique: ux_tool_calls_uid
    message_id: Mapped[str | None] = mapped_column(SafeString(36))  # the assistant message's
    # a call a code-mode program made: the program's (``run_code``'s) call_id
    parent_call_id: Mapped[str | None] = mapped_column(SafeString(36))
    logs: Mapped[list[str] | None] = mapped_column(JSONType)  # the tool's own lines, bounded

    __table_args__ = (
        Index("ux_tool_calls_uid", "uid", unique=True),
        Index("ix_tool_calls_tenant_id", "tenant_id", "id"),
    )


class ToolCallDailyRow(Base):
    """Per tool and UTC day: calls, successes and cache hits (test runs excluded)."""

    __tablename__ = "tool_call_daily"

    tenant_id: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    tool: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    calls: Mapped[int] = mapped_column(Integer)
    successes: Mapped[int] = mapped_column(Integer)
    cached: Mapped[int] = mapped_column(Integer)


class ToolCallLatencyRow(Base):
    """Per tool and UTC day: how many calls fell in each latency bucket (see storage.rollups)."""

    __tablename__ = "tool_call_latency"

    tenant_id: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    tool: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    bucket: Mapped[int] = mapped_column(Integer, primary_key=True)
    calls: Mapped[int] = mapped_column(Integer)


class DatasetRow(Base):
    """A tenant's data set for the skills: its kind and current version (items are per version)."""

    __tablename__ = "datasets"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    kind: Mapped[str] = mapped_column(SafeString(16))
    version: Mapped[int] = mapped_column(Integer)
    items: Mapped[int] = mapped_column(Integer)
    bytes: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class DatasetItemRow(Base):
    """One item of one version of a data set, at its place in the upload."""

    __tablename__ = "dataset_items"
    __table_args__ = (Index("ix_dataset_items_item", "tenant_id", "dataset", "version", "item_id"),)

    tenant_id: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    dataset: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    item_id: Mapped[str | None] = mapped_column(SafeString(128))
    data: Mapped[dict[str, Any]] = mapped_column(JSONType)


class PreferenceRow(Base):
    """A customer's latest reaction to a product (recommendations), kept across sessions."""

    __tablename__ = "customer_preferences"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    customer: Mapped[str] = mapped_column(SafeString(128), primary_key=True)
    dataset: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    product_id: Mapped[str] = mapped_column(SafeString(128), primary_key=True)
    response: Mapped[str] = mapped_column(SafeString(16))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class LeadRow(Base):
    __tablename__ = "leads"
    __table_args__ = (Index("ix_leads_tenant_created", "tenant_id", "created_at", "id"),)

    id: Mapped[str] = mapped_column(SafeString(36), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    session_id: Mapped[str | None] = mapped_column(SafeString(36))
    customer: Mapped[str | None] = mapped_column(SafeString(128))
    bot: Mapped[str | None] = mapped_column(SafeString(64))
    name: Mapped[str] = mapped_column(SafeString(200))
    email: Mapped[str | None] = mapped_column(SafeString(254))
    phone: Mapped[str | None] = mapped_column(SafeString(32))
    interest: Mapped[str] = mapped_column(SafeString(1000))
    forwarded: Mapped[str | None] = mapped_column(SafeString(32))  # the CRM webhook's outcome
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class FormRow(Base):
    """A tenant-defined form: the JSON Schema its submissions must satisfy."""

    __tablename__ = "forms"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    description: Mapped[str] = mapped_column(SafeText, default="")
    schema: Mapped[dict[str, Any]] = mapped_column(JSONType)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class FormSubmissionRow(Base):
    __tablename__ = "form_submissions"
    __table_args__ = (Index("ix_form_submissions_form", "tenant_id", "form", "created_at", "id"),)

    id: Mapped[str] = mapped_column(SafeString(36), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    form: Mapped[str] = mapped_column(SafeString(64))
    session_id: Mapped[str | None] = mapped_column(SafeString(36))
    customer: Mapped[str | None] = mapped_column(SafeString(128))
    fields: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class CalendarRow(Base):
    """A tenant's bookable slots: ``[{"start", "end"}]`` (ISO 8601 with an offset)."""

    __tablename__ = "calendars"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    description: Mapped[str] = mapped_column(SafeText, default="")
    slots: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class AppointmentRow(Base):
    """A booked slot. The primary key is the slot itself: two bookings of one slot cannot both
    commit, whichever node they run on."""

    __tablename__ = "appointments"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    calendar: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    start: Mapped[datetime] = mapped_column(UTCDateTime(), primary_key=True)
    id: Mapped[str] = mapped_column(SafeString(36), unique=True)
    end: Mapped[datetime] = mapped_column(UTCDateTime())
    session_id: Mapped[str | None] = mapped_column(SafeString(36))
    customer: Mapped[str | None] = mapped_column(SafeString(128))
    name: Mapped[str] = mapped_column(SafeString(200))
    contact: Mapped[str | None] = mapped_column(SafeString(254))
    note: Mapped[str | None] = mapped_column(SafeString(1000))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class McpServerRow(Base):
    """A remote MCP server a tenant federates (``server.calls.federation``): where it is, which
    of its tools become the tenant's (kind ``mcp``), and how its last listing went."""

    __tablename__ = "mcp_servers"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(SafeString(32), primary_key=True)
    url: Mapped[str] = mapped_column(SafeText)
    tools: Mapped[list[str]] = mapped_column(JSONType)  # the allowlist of remote tools
    prefix: Mapped[str] = mapped_column(SafeString(32))
    timeout_ms: Mapped[int] = mapped_column(Integer)
    cacheable: Mapped[list[str] | None] = mapped_column(JSONType)  # tools whose results may be
    cache_ttl: Mapped[int | None] = mapped_column(Integer)  # cached, and for how long
    secret_ct: Mapped[str | None] = mapped_column(SafeText)  # its auth header, encrypted
    made: Mapped[list[str]] = mapped_column(JSONType)  # the tools its last listing made
    protocol_version: Mapped[str | None] = mapped_column(SafeString(32))
    status: Mapped[str] = mapped_column(SafeString(16))  # ok | failing
    error: Mapped[dict[str, Any] | None] = mapped_column(JSONType)  # {"code", "message"}
    skipped: Mapped[list[Any] | None] = mapped_column(JSONType)
    refreshed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # the node that listens for its list_changed, until when (a lease it renews)
    watched_by: Mapped[str | None] = mapped_column(SafeString(32))
    watch_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(SafeString(32))


class OAuthProviderRow(Base):
    """An OAuth 2.1 authorization server a tenant's tools act through for their end users
    (``server.calls.connections``): where to send them, the client Quiver is there, and the API
    origins its access tokens are added to."""

    __tablename__ = "oauth_providers"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(SafeString(32), primary_key=True)
    authorize_url: Mapped[str] = mapped_column(SafeText)
    token_url: Mapped[str] = mapped_column(SafeText)
    client_id: Mapped[str] = mapped_column(SafeString(256))
    client_secret_ct: Mapped[str | None] = mapped_column(SafeText)  # encrypted; none: public
    scopes: Mapped[list[str]] = mapped_column(JSONType)  # asked for on every connection
    api: Mapped[list[str]] = mapped_column(JSONType)  # the origins its tokens are added to
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class OAuthConnectionRow(Base):
    """One end user's (a session's ``customer``) connection to a provider: the tokens,
    encrypted and bound to tenant, provider and customer."""

    __tablename__ = "oauth_connections"

    tenant_id: Mapped[str] = mapped_column(
        ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    provider: Mapped[str] = mapped_column(SafeString(32), primary_key=True)
    customer: Mapped[str] = mapped_column(SafeString(128), primary_key=True)
    access_ct: Mapped[str] = mapped_column(SafeText)
    refresh_ct: Mapped[str | None] = mapped_column(SafeText)
    scopes: Mapped[list[str]] = mapped_column(JSONType)  # what was granted
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class PackageRow(Base):
    """A reviewed package an admin uploaded (``server.registry.packages``): pinned by name,
    version and the archive's SHA-256; its code kept as text, by path."""

    __tablename__ = "packages"

    name: Mapped[str] = mapped_column(SafeString(100), primary_key=True)
    version: Mapped[str] = mapped_column(SafeString(64), primary_key=True)
    language: Mapped[str] = mapped_column(SafeString(16))
    sha256: Mapped[str] = mapped_column(SafeString(64), unique=True)
    size: Mapped[int] = mapped_column(BigInteger)
    files: Mapped[dict[str, str]] = mapped_column(JSONType)
    modules: Mapped[list[str]] = mapped_column(JSONType)  # Python: the top-level import names
    main: Mapped[str | None] = mapped_column(SafeText)  # JavaScript: what require(name) loads
    uploaded_by: Mapped[str | None] = mapped_column(SafeString(32))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
