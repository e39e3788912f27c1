"""Response shapes (``*Public``) and request bodies of the management API."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, field_validator

from server.agent.providers import ProviderKind
from server.calls.session_calls import ERROR_CODE
from server.errors import FieldError, ValidationFailedError
from server.quotas import check_rate
from server.records import StoredBot, StoredTool, StoredToolVersion
from server.secretbox import mask
from server.storage.repositories import BOT_MODEL_FIELDS
from server.storage.tables import ApiKeyRow, TenantRow

TENANT_ID = r"^[a-z0-9][a-z0-9_-]{0,63}$"
INTENT_NAME = re.compile(r"^(\*|[A-Za-z0-9][A-Za-z0-9_.:-]{0,63})$")
TOOL_NAME = r"^[A-Za-z][A-Za-z0-9_-]{0,63}$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TenantCreate(Strict):
    id: str = Field(pattern=TENANT_ID, examples=["acme"])
    name: str = Field(default="", max_length=200, examples=["Acme Inc."])


MAX_SECRET_BYTES = 8 * 1024


class SecretPut(Strict):
    value: str = Field(
        min_length=4,
        max_length=MAX_SECRET_BYTES,
        description="at least 4 characters (shorter values could not be redacted from results)",
        examples=["crm-token-7f3a9"],
    )


class LimitsUpdate(Strict):
    """An admin's overrides of one tenant's limits. A field left out follows the server's
    default; ``null`` (or a quota of 0) means no limit for this tenant."""

    requests: str | None = Field(
        default=None,
        description="the tenant's request rate (all keys, all nodes)",
        examples=["500/second"],
    )
    key_requests: str | None = Field(
        default=None, description="each of its keys' request rate", examples=["100/second"]
    )
    calls_per_day: int | None = Field(default=None, ge=0, le=10**12, examples=[100_000])
    cpu_ms_per_day: int | None = Field(default=None, ge=0, le=10**12, examples=[3_600_000])
    running_jobs: int | None = Field(
        default=None, ge=0, le=100_000, description="jobs queued or running at once", examples=[20]
    )

    @field_validator("requests", "key_requests")
    @classmethod
    def _rate(cls, value: str | None) -> str | None:
        return None if value is None else check_rate(value)


class SharedToolsUpdate(Strict):
    tools: list[str] = Field(
        max_length=10_000, examples=[["qa_lookup", "escalate_to_human"], ["*"]]
    )

    @field_validator("tools")
    @classmethod
    def _names(cls, tools: list[str]) -> list[str]:
        for name in tools:
            if name != "*" and not re.match(TOOL_NAME, name):
                raise ValueError(f"{name!r} is not a tool name (or `*`)")
        return list(dict.fromkeys(tools))


class KeyCreate(Strict):
    role: Literal["developer", "agent"]
    label: str = Field(default="", max_length=200)


class RollbackRequest(Strict):
    version: int = Field(ge=1, le=2**31 - 1)


class EnabledUpdate(Strict):
    enabled: bool


class TestRequest(Strict):
    arguments: dict[str, Any] = Field(default_factory=dict, examples=[{"order_id": "AB1234"}])
    variables: dict[str, Any] = Field(
        default_factory=dict, description="session variables the test run sees"
    )
    llm: bool = Field(
        default=False, description="let the run use context.modules.llm (it spends model tokens)"
    )


class ModulesUpdate(Strict):
    modules: list[str] = Field(examples=[["textwrap", "zoneinfo"]])


class EgressUpdate(Strict):
    allow: list[str] = Field(max_length=256, examples=[["crm.internal.example", "10.20.0.0/16"]])


class SessionCreate(Strict):
    bot: str = Field(pattern=TOOL_NAME, examples=["support"])
    intent: str | None = Field(default=None, max_length=64)
    customer: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9._:@+-]{1,128}$",
        description="the end user's id in the tenant's world (results cached with "
        "cache_scope customer are shared across this user's sessions)",
        examples=["crm-4711"],
    )


class IntentUpdate(Strict):
    intent: str | None = Field(max_length=64)


class CallBody(Strict):
    tool: str = Field(max_length=64, examples=["check_order"])
    arguments: Any = Field(default_factory=dict, examples=[{"order_id": "AB1234"}])
    call_id: str | None = Field(
        default=None,
        max_length=256,
        description="the model's id of this tool call, echoed in the `message` (with `?format=`)",
    )


class VariablesBody(Strict):
    variables: dict[str, Any] = Field(
        description="names and values to set (the others are kept); a tool reads them in "
        "context.variables",
        examples=[{"order_id": "AB1234", "delivery": "express"}],
    )


class ActionsBody(Strict):
    actions: Any = Field(
        description=(
            "the session's browser actions (replaces the set): name, description, parameters"
        ),
        examples=[[{"name": "open_cart", "description": "Show the cart", "parameters": {}}]],
    )


class OutcomeError(Strict):
    code: str = Field(default="browser_error", pattern=ERROR_CODE.pattern)
    message: str = Field(default="", max_length=2000)


class OutcomeBody(Strict):
    """What the agent reports after running a browser action."""

    tool: str = Field(pattern=TOOL_NAME, examples=["open_cart"])
    success: bool
    arguments: dict[str, Any] = Field(
        default_factory=dict,
        description="what the model asked the page to do (logged redacted and capped, as a "
        "server tool's arguments are)",
        examples=[{"product": "sku-42"}],
    )
    result: Any = None
    error: OutcomeError | None = None
    latency_ms: float = Field(default=0.0, ge=0, le=3_600_000)


MODEL_REF = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}/\S{1,135}$"


class ToolPin(Strict):
    name: str = Field(pattern=TOOL_NAME)
    version: int | None = Field(
        default=None, ge=1, le=2**31 - 1, description="keep this version (null: follow the newest)"
    )


SkillName = Literal[
    "qa", "search", "classify", "recommend", "leads", "forms", "appointments", "memory"
]


class SkillSettings(Strict):
    """One skill's settings on a bot; each skill reads the ones that concern it."""

    dataset: str | None = Field(
        default=None,
        pattern=TOOL_NAME,
        description="the data set (default: the tenant's only one of the kind)",
    )
    top_k: int | None = Field(default=None, ge=1, le=50, description="results per call")
    threshold: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="qa: the confidence from which the top entry is an answer (`answered`); "
        "default 0.5",
    )
    field_weights: dict[str, Annotated[float, Field(gt=0, le=100)]] | None = Field(
        default=None,
        max_length=32,
        description="search, recommend: weight per catalog field (unlisted fields: not searched)",
        examples=[{"title": 3, "body": 1}],
    )
    lang: str | None = Field(
        default=None,
        max_length=16,
        description="classify: the texts' language when the call gives none",
    )
    webhook_url: str | None = Field(
        default=None,
        pattern=r"^https?://",
        max_length=2000,
        description="leads: the CRM webhook each lead is POSTed to (through the egress guard)",
    )
    forms: list[Annotated[str, Field(pattern=TOOL_NAME)]] | None = Field(
        default=None,
        max_length=100,
        description="forms: the forms this bot may submit (default: all)",
    )
    calendar: str | None = Field(
        default=None, pattern=TOOL_NAME, description="appointments: the calendar"
    )
    sessions: int | None = Field(
        default=None, ge=1, le=200, description="memory: how many earlier sessions to search"
    )


class BotBody(Strict):
    name: str = Field(pattern=TOOL_NAME, examples=["support"])
    tools: list[str | ToolPin] | None = Field(
        ...,
        max_length=10_000,
        description="tool names, or `{name, version}` to pin a version (staged rollout: a new "
        "version reaches only the bots that follow the newest); null = every visible tool, [] = "
        "none",
        examples=[["check_order", {"name": "lookup", "version": 3}]],
    )
    intents: dict[str, list[str]] | None = Field(
        default=None,
        description="intent → tool names; `*` lists always-on tools",
        examples=[{"orders": ["check_order"], "*": ["escalate_to_human"]}],
    )
    model: str | None = Field(
        default=None,
        pattern=MODEL_REF,
        max_length=200,
        description=(
            "the model the agent loop answers with: `provider/model` (a provider of the tenant)"
        ),
        examples=["openai/gpt-4.1-mini"],
    )
    tool_round_model: str | None = Field(
        default=None,
        pattern=MODEL_REF,
        max_length=200,
        description="a cheaper model for the rounds that only dispatch tools (default: `model`)",
    )
    max_rounds: int | None = Field(
        default=None, ge=1, le=20, description="tool rounds per turn (default 5)"
    )
    max_context_tokens: int | None = Field(
        default=None,
        ge=1000,
        le=2_000_000,
        description="history sent to the model is cut to this (oldest turns first); default 32000",
    )
    action_timeout_s: int | None = Field(default=None, ge=1, le=3600)
    max_tool_calls: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="tool calls the agent loop runs per round (default 16); the model's calls "
        "past it fail to the model with `too_many_tool_calls`",
    )
    max_turn_tool_calls: int | None = Field(
        default=None, ge=1, le=256, description="tool calls per turn, all rounds (default 64)"
    )
    turn_timeout_s: int | None = Field(
        default=None,
        ge=1,
        le=900,
        description="a turn's deadline for its model calls (default 120); past it the turn "
        "ends with `provider_timeout` and the session stays usable",
    )
    approvers: list[Literal["agent", "developer"]] | None = Field(
        default=None,
        min_length=1,
        max_length=2,
        description="who may approve a call that needs approval: agent keys (the app, for its "
        "user) and/or developer keys (an operator); default both. Admins always may.",
    )
    intent_detection: dict[str, Any] | None = Field(
        default=None,
        description='each message\'s intent: {"mode": "rules", "rules": {intent: [regex, …]}}, '
        '{"mode": "model"} (the tool-round model picks one of `intents`) or {"mode": "classifier", '
        '"dataset": <samples data set>, "threshold": 0.5} (the classify_text skill\'s model)',
    )
    idle_timeout_s: int | None = Field(
        default=None,
        ge=10,
        le=30 * 86_400,
        description="a session idle this long is ended (reason `idle`); null: never",
    )
    system_prompt: str | None = Field(default=None, max_length=20_000)
    skills: dict[SkillName, SkillSettings] | None = Field(
        default=None,
        description="the built-in skills this bot uses and their settings; a configured skill's "
        "tools join the bot's snapshot when the tenant may use them (shared tools)",
        examples=[
            {
                "qa": {"dataset": "faq", "top_k": 3},
                "search": {"dataset": "products", "field_weights": {"title": 3, "body": 1}},
            }
        ],
    )
    tool_loading: Literal["all", "search"] | None = Field(
        default=None,
        description='"all" (null): every tool of the gate is offered; "search": a session is '
        "offered `search_tools`, the always-on (`*`) intent's tools and what it found so far — "
        "for bots with many tools (docs/tool-search.md)",
    )
    code_mode: Literal["python", "javascript"] | None = Field(
        default=None,
        description="a session is offered `run_code` alone: the model answers with one short "
        "program in this language that calls the session's tools as functions (docs/agent.md)",
    )
    job_wait_s: int | None = Field(
        default=None,
        ge=0,
        le=600,
        description="how long the agent loop waits for a job a tool started (default 30); past "
        "it the model is told the job runs, and its result comes as a later message",
    )
    max_tools: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="per-turn tool budget: at most this many tools in a snapshot, the most "
        "relevant first (the intent's tools, then the most used); null = no cap",
    )

    @field_validator("tools")
    @classmethod
    def _tools(cls, tools: list[str | ToolPin] | None) -> list[str | ToolPin] | None:
        if tools is None:
            return None
        seen: dict[str, str | ToolPin] = {}
        for item in tools:
            name = item if isinstance(item, str) else item.name
            if not re.match(TOOL_NAME, name):
                raise ValueError(f"{name!r} is not a tool name")
            if name in seen and seen[name] != item:
                raise ValueError(f"{name!r} is listed twice with different versions")
            seen.setdefault(name, item)
        return list(seen.values())

    def stored_tools(self) -> list[Any] | None:
        """The tool list as stored: names, and pins as ``{"name", "version"}``."""
        if self.tools is None:
            return None
        return [
            item
            if isinstance(item, str)
            else item.name
            if item.version is None
            else item.model_dump()
            for item in self.tools
        ]

    def pins(self) -> list[tuple[int, ToolPin]]:
        return [
            (i, t) for i, t in enumerate(self.tools or ()) if isinstance(t, ToolPin) and t.version
        ]

    @field_validator("intents")
    @classmethod
    def _intents(cls, intents: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
        if intents is None:
            return None
        for intent, names in intents.items():
            if not INTENT_NAME.match(intent):
                raise ValueError(f"{intent!r} is not an intent name")
            for name in names:
                if not re.match(TOOL_NAME, name):
                    raise ValueError(f"intent {intent!r}: {name!r} is not a tool name")
        return intents


def aware(value: datetime | None, field: str) -> datetime | None:
    """A query's time, in UTC; one without a zone is refused naming the field."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValidationFailedError(
            [FieldError("needs a time zone, e.g. 2026-12-01T00:00:00Z", field=field)]
        )
    return value.astimezone(UTC)


def iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def call_public(c: Any, *, logs: bool = False) -> dict[str, Any]:
    """A logged tool call (``ToolCallRow``); its own log lines with ``logs``."""
    out = {
        "call_id": c.call_id,
        "at": iso(c.at),
        "tool": c.tool,
        "version": c.version,
        "kind": c.kind,
        "arguments": c.arguments,
        "success": c.success,
        "latency_ms": c.latency_ms,
        "cached": c.cached,
        "message_id": c.message_id,
        "parent_call_id": c.parent_call_id,
        "error": {"code": c.error_code, "message": c.error_message} if c.error_code else None,
        "result": orjson.loads(c.result) if _json_text(c.result) else c.result,
    }
    if logs:
        out = {"id": c.id, "session_id": c.session_id, "test": c.test, **out, "logs": c.logs or []}
    return out


def _json_text(text: str | None) -> bool:
    return text is not None and not text.endswith("…[truncated]")


def tenant_public(row: TenantRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "shared_tools": row.shared_tools,
        "sandbox_modules": row.sandbox_modules or [],
        "packages": [
            {"name": p["name"], "version": p["version"], "language": p["language"]}
            for p in row.packages or ()
        ],
        "egress_allow": row.egress_allow or [],
        "limits": row.limits or {},
        "guardrails": row.guardrails or {},
        "registry_version": row.registry_version,
        "created_at": iso(row.created_at),
    }


def key_public(row: ApiKeyRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "tenant": row.tenant_id,
        "role": row.role,
        "label": row.label,
        "created_at": iso(row.created_at),
        "last_used_at": iso(row.last_used_at),
        "revoked_at": iso(row.revoked_at),
    }


def tool_public(tool: StoredTool, version: StoredToolVersion) -> dict[str, Any]:
    """A tool as its developers see it: source and config, secrets masked."""
    out: dict[str, Any] = {
        "name": tool.name,
        "kind": version.kind,
        "sandbox": version.sandbox,
        "description": version.description,
        "parameters": version.parameters,
        "metadata": version.meta,
        "version": version.version,
        "enabled": tool.enabled,
        "content_hash": version.content_hash,
        "origin": "global" if tool.tenant_id == "*" else "tenant",
        "created_at": iso(tool.created_at),
        "updated_at": iso(tool.updated_at),
    }
    if version.kind in ("python", "javascript"):
        out["source"] = version.source
    elif version.kind == "wasm":
        out["module_sha256"] = version.module_sha256
        out["module_size"] = len(version.module or b"")
    elif version.kind == "mcp":  # a federated server's tool (its secret is the server's)
        config = version.webhook or {}
        out.update(mcp_server=config.get("server"), remote_tool=config.get("tool"))
    elif version.kind == "webhook":
        webhook = version.webhook or {}
        out.update(
            webhook_url=webhook.get("url"),
            method=webhook.get("method"),
            headers=webhook.get("headers", {}),
            timeout_ms=webhook.get("timeout_ms"),
            auth_header=mask(version.auth_header_ct),
        )
    return out


def version_public(row: StoredToolVersion) -> dict[str, Any]:
    return {
        "version": row.version,
        "kind": row.kind,
        "description": row.description,
        "content_hash": row.content_hash,
        "created_at": iso(row.created_at),
        "created_by": row.created_by,
    }


def bot_public(row: StoredBot) -> dict[str, Any]:
    return {
        "name": row.name,
        "tools": row.tools,
        "intents": row.intents,
        "max_tools": row.max_tools,
        **{key: getattr(row, key) for key in BOT_MODEL_FIELDS},
        "created_at": iso(row.created_at),
        "updated_at": iso(row.updated_at),
    }


class OpenApiImport(Strict):
    """Webhook tools from an OpenAPI 3.x document: give it as `document` (JSON) or `source`
    (JSON or YAML text)."""

    document: dict[str, Any] | None = None
    source: str | None = Field(default=None, max_length=5 * 1024 * 1024)
    operations: list[str] | None = Field(
        default=None, max_length=1000, description="operationIds to import"
    )
    tags: list[str] | None = Field(
        default=None, max_length=100, description="import the operations with these tags"
    )
    server: str | None = Field(
        default=None, max_length=2000, description="base URL (default: the document's first server)"
    )
    credentials: dict[str, str] = Field(
        default_factory=dict,
        description="security scheme name → credential; kept as each tool's encrypted auth header",
    )
    prefix: str = Field(
        default="",
        pattern=r"^([A-Za-z][A-Za-z0-9_]{0,15})?$",
        description="put before every tool name",
    )
    timeout_ms: int = Field(default=5000, ge=100, le=60_000)
    dry_run: bool = Field(default=False, description="show what would be created; store nothing")


class ProviderBody(Strict):
    kind: ProviderKind = Field(
        description="openai: Chat Completions (and every OpenAI-compatible server by base_url); "
        "openai-responses: the Responses API; anthropic: Messages; gemini: generateContent"
    )
    base_url: str | None = Field(
        default=None, max_length=2000, examples=["https://api.openai.com/v1"]
    )
    models: list[str] = Field(default_factory=list, max_length=100)
    api_key: str | None = Field(
        default=None, min_length=1, max_length=4096, description="never returned"
    )


class MessageBody(Strict):
    content: str = Field(min_length=1, max_length=100_000)
    stream: bool = Field(default=False, description="answer with server-sent events")


def message_public(row: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row.id, "seq": row.seq, "role": row.role, "content": row.content}
    if row.role == "assistant":
        out.update(
            tool_calls=row.tool_calls or [],
            model=row.model,
            tool_round=row.tool_round,
            usage={
                "input": row.input_tokens,
                "output": row.output_tokens,
                "cached": row.cached_tokens,
            },
        )
    elif row.role == "tool":
        out.update(tool_call_id=row.tool_call_id, name=row.name)
    elif row.name:  # a message the server wrote for the user's side: a job's end ("job")
        out["name"] = row.name
    out["created_at"] = iso(row.created_at)
    return out


class ActionAnswer(Strict):
    """The page's outcome of a browser action (`success`, `result` or `error`), an operator's
    decision on a call that needs approval (`approved`, `reason`), or whether the user connected
    the account a call acts through (`connected`)."""

    call_id: str = Field(min_length=1, max_length=256)
    success: bool | None = None
    result: Any = None
    error: str | dict[str, Any] | None = None
    approved: bool | None = None
    reason: str | None = Field(default=None, max_length=2000)
    connected: bool | None = None  # the user connected the account the call acts through


class EndBody(Strict):
    reason: str = Field(default="ended by the agent", min_length=1, max_length=200)


class HandoffBody(Strict):
    url: str | None = Field(default=None, max_length=2000, description="null: no announcements")
    secret: str | None = Field(
        default=None,
        min_length=16,
        max_length=512,
        description="signs each announcement (HMAC-SHA256); never returned",
    )


def session_public(
    row: Any, messages: int | None = None, calls: int | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": row.id,
        "bot": row.bot,
        "status": row.status,
        "customer": row.customer,
        "intent": row.intent,
        "created_at": iso(row.created_at),
        "ended_at": iso(row.ended_at),
        "end_reason": row.end_reason,
        "handed_off_at": iso(row.handed_off_at),
    }
    if messages is not None:
        out.update(messages=messages, calls=calls)
    return out


class DetectBody(Strict):
    text: str = Field(min_length=1, max_length=20_000)


class ExpectedTool(Strict):
    name: str = Field(pattern=TOOL_NAME)
    arguments_subset: dict[str, Any] = Field(default_factory=dict)


class Expectation(Strict):
    tools: list[ExpectedTool] = Field(default_factory=list, max_length=50)
    not_tools: list[str] = Field(default_factory=list, max_length=50)
    max_rounds: int | None = Field(default=None, ge=1, le=20)


class EvalCase(Strict):
    name: str = Field(min_length=1, max_length=200)
    messages: list[str] = Field(min_length=1, max_length=20)
    expect: Expectation = Field(default_factory=Expectation)
