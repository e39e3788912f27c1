"""Tool definitions: turn an API body (or a tool file) into a checked ``ToolDraft``.

All three kinds of DESIGN §4 pass through here, and every problem is reported with the field it
concerns (``webhook_url``, ``parameters.properties.x.pattern``, ``tool.extra`` with its line …).
Nothing is stored unless this returns without errors.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

import jsonschema_rs
import orjson

from sandbox.toolfile import DYNAMIC, ToolFileSpec, parse_tool_file
from server import credentials
from server.egress import EgressDenied, origin, parse_url
from server.errors import Problems
from server.registry.model import ToolKind
from server.registry.schema import normalise_parameters

TOOL_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$")
FORBIDDEN_HEADERS = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer"}
)
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
SANDBOXES = ("restricted", "wasm")
WASM_MAGIC = b"\x00asm\x01\x00\x00\x00"
MAX_DESCRIPTION = 4096
MAX_URL = 2048
MAX_HEADERS = 32
MAX_CACHE_TTL_S = 7 * 24 * 3600

FIELDS_BY_KIND: dict[str, frozenset[str]] = {
    "python": frozenset({"kind", "sandbox", "source"}),
    "javascript": frozenset({"kind", "source"}),
    "wasm": frozenset({"kind", "module", "name", "description", "parameters", "metadata"}),
    "webhook": frozenset(
        {
            "kind",
            "name",
            "description",
            "parameters",
            "metadata",
            "webhook_url",
            "method",
            "headers",
            "auth_header",
            "timeout_ms",
        }
    ),
}


class _Keep:
    """Marker: an update that leaves the stored secret as it is."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP = _Keep()


@dataclass(frozen=True)
class DefinitionLimits:
    max_source_bytes: int = 256 * 1024
    max_module_bytes: int = 10 * 1024 * 1024
    default_timeout_ms: int = 5_000
    max_timeout_ms: int = 60_000
    max_job_timeout_s: int = 86_400


@dataclass
class ToolDraft:
    """A checked definition, ready to be stored as a new version."""

    name: str
    description: str
    parameters: dict[str, Any]
    metadata: dict[str, Any]
    kind: ToolKind
    sandbox: str | None = None
    source: str | None = None
    module: bytes | None = None
    webhook: dict[str, Any] | None = None
    auth_header: str | None | _Keep = None
    warnings: list[Any] = field(default_factory=list)
    on_error: bool = False  # the file declares an on_error handler (stored with the version)

    @property
    def module_sha256(self) -> str | None:
        return hashlib.sha256(self.module).hexdigest() if self.module is not None else None

    @property
    def content_hash(self) -> str:
        """Identifies what runs: changes whenever code, config or the declared interface change."""
        body = {
            "name": self.name,
            "description": self.description,
            "parameters": self.parameters,
            "metadata": self.metadata,
            "kind": self.kind,
            "sandbox": self.sandbox,
            "source": self.source,
            "module": self.module_sha256,
            "webhook": self.webhook,
        }
        return hashlib.sha256(
            json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
        ).hexdigest()


def check_name(name: Any, problems: Problems, field_: str = "name", line: int | None = None) -> str:
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        problems.add(field_, "must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$", line)
        return str(name)
    return name


def _check_description(value: Any, problems: Problems, field_: str, line: int | None = None) -> str:
    if not isinstance(value, str) or not value.strip():
        problems.add(field_, "must be a non-empty string", line)
        return ""
    if len(value) > MAX_DESCRIPTION:
        problems.add(field_, f"at most {MAX_DESCRIPTION} characters", line)
    return value


FLAGS = (
    "cacheable",
    "once_per_session",
    "requires_approval",
    "on_session_end",
    "read_only",
    "destructive",
    "idempotent",
)


def check_metadata(
    raw: Any,
    problems: Problems,
    limits: DefinitionLimits,
    field_: str = "metadata",
    line: int | None = None,
) -> dict[str, Any]:
    """Known keys are type-checked; unknown keys are kept with a warning."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        problems.add(field_, "must be an object", line)
        return {}
    meta = dict(raw)

    def _int(key: str, low: int, high: int) -> None:
        value = meta.get(key)
        if key in meta and (
            not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high
        ):
            problems.add(f"{field_}.{key}", f"must be an integer from {low} to {high}", line)

    _int("timeout", 1, limits.max_timeout_ms)
    _int("cache_ttl", 0, MAX_CACHE_TTL_S)
    _int("job_timeout_s", 1, limits.max_job_timeout_s)  # a job's deadline (``mode: "job"``)
    _int("fuel", 1_000, 50_000_000_000)  # WASM: instructions (roughly) a call may run
    _int("memory_mb", 1, 256)  # WASM: linear memory a call may grow to
    # read_only, destructive, idempotent: what an MCP client is told of the tool's effects
    for key in FLAGS:
        if key in meta and not isinstance(meta[key], bool):
            problems.add(f"{field_}.{key}", "must be true or false", line)
    if "cache_scope" in meta and meta["cache_scope"] not in CACHE_SCOPES:
        problems.add(f"{field_}.cache_scope", f"must be one of {', '.join(CACHE_SCOPES)}", line)
    if "title" in meta and (not isinstance(meta["title"], str) or len(meta["title"]) > 200):
        problems.add(f"{field_}.title", "must be a string of at most 200 characters", line)
    if "category" in meta and not isinstance(meta["category"], str):
        problems.add(f"{field_}.category", "must be a string", line)
    intents = meta.get("intents")
    if "intents" in meta and (
        not isinstance(intents, list) or not all(isinstance(i, str) for i in intents)
    ):
        problems.add(f"{field_}.intents", "must be a list of intent names", line)
    if meta.get("cacheable") is True and meta.get("once_per_session") is True:
        problems.add(
            f"{field_}.cacheable",
            "a once_per_session tool cannot be cacheable: its effect must happen once, not be "
            "replayed",
            line,
        )
    _check_mode(meta, problems, field_, line)
    _check_breaker(meta, problems, f"{field_}.breaker", line)
    declared = meta.get("secrets")
    if "secrets" in meta and (
        not isinstance(declared, list)
        or len(declared) > MAX_DECLARED_SECRETS
        or not all(isinstance(n, str) and re.match(SECRET_NAME, n) for n in declared)
    ):
        problems.add(
            f"{field_}.secrets",
            f"must be a list of at most {MAX_DECLARED_SECRETS} secret names ({SECRET_NAME})",
            line,
        )
    if "credentials" in meta:  # added at egress, never given to the tool
        for where, message in credentials.parse(meta["credentials"])[1]:
            problems.add(f"{field_}.credentials{where}", message, line)
    if "auth" in meta:  # acts as the end user, through their connection to a provider
        for where, message in credentials.auth_problems(meta["auth"]):
            problems.add(f"{field_}.auth{where}", message, line)
    if "output_schema" in meta:
        _check_output_schema(meta["output_schema"], problems, f"{field_}.output_schema", line)
    known = {
        "timeout",
        "cache_ttl",
        "cacheable",
        "once_per_session",
        "category",
        "intents",
        "breaker",
        "fuel",
        "memory_mb",
        "cache_scope",
        "title",
        "output_schema",
        "secrets",
        "credentials",
        "requires_approval",
        "on_session_end",
        "read_only",
        "destructive",
        "idempotent",
        "mode",
        "job_timeout_s",
        "auth",
    }
    for key in meta.keys() - known:
        problems.warn(f"{field_}.{key}", "not a key Quiver knows; kept as is", line)
    return meta


# what a job cannot be: its effect must happen once (claimed, not queued); its answer is the
# job's id, not a result to reuse; a session-end hook runs in the background already
NOT_WITH_JOBS = ("once_per_session", "cacheable", "on_session_end")


def _check_mode(meta: dict[str, Any], problems: Problems, field_: str, line: int | None) -> None:
    """``mode``: ``"call"`` (the default: the answer is the result) or ``"job"`` (the answer is
    a job's id at once; the tool runs in the background with the job's deadline)."""
    mode = meta.get("mode", "call")
    if mode not in ("call", "job"):
        problems.add(f"{field_}.mode", 'must be "call" or "job"', line)
        return
    if mode == "call" and "job_timeout_s" in meta:
        problems.add(f"{field_}.job_timeout_s", 'only a job has one (mode: "job")', line)
    if mode == "job":
        for flag in NOT_WITH_JOBS:
            if meta.get(flag) is True:
                problems.add(f"{field_}.{flag}", f"a job tool cannot be {flag}", line)


def _check_output_schema(schema: Any, problems: Problems, field_: str, line: int | None) -> None:
    """``metadata.output_schema``: the JSON Schema of the tool's result (an object), published
    to MCP clients as ``outputSchema``; they check every result against it."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        problems.add(field_, 'must be a JSON Schema of an object ({"type": "object", ...})', line)
        return
    try:
        jsonschema_rs.meta.validate(schema)
    except (ValueError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError) as exc:
        problems.add(field_, f"is not a JSON Schema: {str(exc).splitlines()[0]}", line)


SECRET_NAME = r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"
MAX_DECLARED_SECRETS = 32

# Whose calls may share a cached result: one session's (the default), one end user's across
# sessions, or the whole tenant's (for tools that read nothing per user).
CACHE_SCOPES = ("session", "customer", "tenant")

BREAKER_KEYS = {
    "min_calls": (1, 100_000),
    "failure_rate": (0.01, 1.0),
    "window_s": (1, 86_400),
    "cooldown_s": (1, 86_400),
}


def _check_breaker(meta: dict[str, Any], problems: Problems, field_: str, line: int | None) -> None:
    """``metadata.breaker``: this tool's rolling-breaker thresholds (each optional)."""
    if "breaker" not in meta:
        return
    breaker = meta["breaker"]
    if not isinstance(breaker, dict):
        problems.add(field_, f"must be an object with any of {', '.join(BREAKER_KEYS)}", line)
        return
    for key, value in breaker.items():
        if key not in BREAKER_KEYS:
            problems.add(f"{field_}.{key}", f"unknown; allowed: {', '.join(BREAKER_KEYS)}", line)
            continue
        low, high = BREAKER_KEYS[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            problems.add(f"{field_}.{key}", f"must be a number from {low} to {high}", line)


def check_tool_body(
    body: Any, limits: DefinitionLimits, *, update: bool = False
) -> tuple[ToolDraft | None, Problems]:
    """Check an API tool body of any kind; the draft is ``None`` when there are errors."""
    problems = Problems()
    if not isinstance(body, dict):
        problems.add(None, "the body must be a JSON object")
        return None, problems
    kind = body.get("kind")
    if kind == "mcp":  # made by its server's listing, not saved by hand
        problems.add("kind", "an mcp tool is made by its server: PUT /v1/mcp-servers/{name}")
        return None, problems
    if kind not in FIELDS_BY_KIND:
        problems.add("kind", f"must be one of {', '.join(FIELDS_BY_KIND)}")
        return None, problems
    for key in sorted(body.keys() - FIELDS_BY_KIND[kind]):
        problems.add(
            key,
            f"unknown field for a {kind} tool; allowed: {', '.join(sorted(FIELDS_BY_KIND[kind]))}",
        )
    draft = {
        "python": _python_body,
        "wasm": _wasm_body,
        "webhook": _webhook_body,
        "javascript": _javascript_body,
    }[kind](body, limits, problems, update)
    return (None if problems else draft), problems


def _declared(
    body: dict[str, Any], limits: DefinitionLimits, problems: Problems
) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    name = check_name(body.get("name"), problems)
    description = _check_description(body.get("description"), problems, "description")
    parameters = normalise_parameters(body.get("parameters"), problems)
    metadata = check_metadata(body.get("metadata"), problems, limits)
    return name, description, parameters, metadata


def _python_body(
    body: dict[str, Any], limits: DefinitionLimits, problems: Problems, update: bool
) -> ToolDraft | None:
    sandbox = body.get("sandbox", "restricted")
    if sandbox not in SANDBOXES:
        problems.add("sandbox", f"must be one of {', '.join(SANDBOXES)}")
    source = body.get("source")
    if not isinstance(source, str) or not source.strip():
        problems.add("source", "must be the text of a tool file")
        return None
    if len(source.encode()) > limits.max_source_bytes:
        problems.add("source", f"is larger than {limits.max_source_bytes} bytes")
        return None
    drafts = drafts_from_tool_file(
        source, limits, problems, sandbox=sandbox, dynamic_ok=sandbox == "restricted"
    )
    if len(drafts) > 1:
        problems.add("source", f"declares {len(drafts)} tools; save one tool per request")
    return drafts[0] if len(drafts) == 1 else None


def _javascript_body(
    body: dict[str, Any], limits: DefinitionLimits, problems: Problems, update: bool
) -> ToolDraft | None:
    """A JavaScript tool file (LiteBot's ``module.exports = {...}``): what it declares is read
    when the engine loads it (``apply_loaded``), as for a Python file with computed values."""
    return javascript_draft(body.get("source"), limits, problems)


def javascript_draft(source: Any, limits: DefinitionLimits, problems: Problems) -> ToolDraft | None:
    if not isinstance(source, str) or not source.strip():
        problems.add("source", "must be the text of a JavaScript tool file")
        return None
    if len(source.encode()) > limits.max_source_bytes:
        problems.add("source", f"is larger than {limits.max_source_bytes} bytes")
        return None
    return ToolDraft(
        name="",
        description="",
        parameters={},
        metadata={},
        kind="javascript",
        sandbox="javascript",
        source=source,
    )


def drafts_from_tool_file(
    source: str,
    limits: DefinitionLimits,
    problems: Problems,
    *,
    sandbox: str | None,
    dynamic_ok: bool = False,
    async_ok: bool = False,
) -> list[ToolDraft]:
    """Every tool a tool file declares, checked; problems carry the line they come from.

    With ``dynamic_ok`` (an engine will load the file), values that are not literals are left
    for ``apply_loaded`` to check once the engine has read them from the running file.
    """
    specs, violations = parse_tool_file(source, dynamic_ok=dynamic_ok, async_ok=async_ok)
    for v in violations:
        problems.add(v.field, v.message, v.line)
    drafts = []
    for spec in specs:
        drafts.append(_draft_from_spec(spec, source, limits, problems, sandbox))
    return drafts


def _draft_from_spec(
    spec: ToolFileSpec,
    source: str,
    limits: DefinitionLimits,
    problems: Problems,
    sandbox: str | None,
) -> ToolDraft:
    p, lines = spec.field_prefix, spec.key_lines
    if DYNAMIC in (spec.name, spec.description, spec.parameters, spec.metadata):
        # Only known once the file runs: apply_loaded checks them after the engine loads it.
        name = spec.name if isinstance(spec.name, str) else ""
        return ToolDraft(
            name=name,
            description="",
            parameters={},
            metadata={},
            kind="python",
            sandbox=sandbox,
            source=source,
            on_error=spec.on_error is not None,
        )
    name = check_name(spec.name, problems, f"{p}.name", lines.get("name"))
    description = _check_description(
        spec.description, problems, f"{p}.description", lines.get("description")
    )
    local = Problems()
    parameters = normalise_parameters(spec.parameters, local, f"{p}.parameters")
    for e in local.errors:
        problems.add(e.field, e.message, lines.get("parameters", spec.line))
    for w in local.warnings:
        problems.warn(w.field, w.message, lines.get("parameters", spec.line))
    metadata = check_metadata(
        spec.metadata, problems, limits, f"{p}.metadata", lines.get("metadata")
    )
    return ToolDraft(
        name=name,
        description=description,
        parameters=parameters,
        metadata=metadata,
        kind="python",
        sandbox=sandbox,
        source=source,
        on_error=spec.on_error is not None,
    )


def apply_loaded(
    draft: ToolDraft, loaded: list[dict[str, Any]], limits: DefinitionLimits
) -> Problems:
    """Take name, description, parameters and metadata from the file as the engine loaded it."""
    problems = Problems()
    if len(loaded) != 1:
        problems.add("source", f"declares {len(loaded)} tools; save one tool per request")
        return problems
    spec = loaded[0]
    draft.name = check_name(spec.get("name"), problems, "tool.name")
    draft.description = _check_description(spec.get("description"), problems, "tool.description")
    draft.parameters = normalise_parameters(spec.get("parameters"), problems, "tool.parameters")
    draft.metadata = check_metadata(spec.get("metadata"), problems, limits, "tool.metadata")
    for key in ("has_on_error", "on_error"):  # as the Python and the JavaScript engines say it
        if key in spec:
            draft.on_error = spec[key] is True
    return problems


def _wasm_body(
    body: dict[str, Any], limits: DefinitionLimits, problems: Problems, update: bool
) -> ToolDraft:
    name, description, parameters, metadata = _declared(body, limits, problems)
    module = _decode_module(body.get("module"), limits, problems)
    return ToolDraft(
        name=name,
        description=description,
        parameters=parameters,
        metadata=metadata,
        kind="wasm",
        sandbox="wasm",
        module=module,
    )


def _decode_module(raw: Any, limits: DefinitionLimits, problems: Problems) -> bytes | None:
    if not isinstance(raw, str) or not raw:
        problems.add("module", "must be the module's bytes, base64-encoded")
        return None
    if len(raw) > (limits.max_module_bytes * 4) // 3 + 8:
        problems.add("module", f"is larger than {limits.max_module_bytes} bytes")
        return None
    try:
        module = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        problems.add("module", "is not valid base64")
        return None
    if len(module) > limits.max_module_bytes:
        problems.add("module", f"is larger than {limits.max_module_bytes} bytes")
    elif not module.startswith(WASM_MAGIC):
        problems.add("module", "is not a WebAssembly binary module (bad magic or version)")
    return module


def _webhook_body(
    body: dict[str, Any], limits: DefinitionLimits, problems: Problems, update: bool
) -> ToolDraft:
    name, description, parameters, metadata = _declared(body, limits, problems)
    method = body.get("method", "POST")
    if not isinstance(method, str) or method.upper() not in METHODS:
        problems.add("method", f"must be one of {', '.join(METHODS)}")
        method = "POST"
    timeout_ms = body.get("timeout_ms", 10_000)
    if (
        not isinstance(timeout_ms, int)
        or isinstance(timeout_ms, bool)
        or not 1 <= timeout_ms <= limits.max_timeout_ms
    ):
        problems.add("timeout_ms", f"must be an integer from 1 to {limits.max_timeout_ms}")
    url = _check_webhook_url(body.get("webhook_url"), parameters, problems)
    headers = _check_headers(body.get("headers"), problems)
    auth = body.get("auth_header", KEEP if update else None)
    if (
        auth is not None
        and auth is not KEEP
        and (
            not isinstance(auth, str)
            or not auth
            or len(auth) > 4096
            or any(c in auth for c in "\r\n\0")
        )
    ):
        problems.add("auth_header", "must be a single-line string of at most 4096 characters")
    if metadata.get("cacheable") is True and method.upper() != "GET":
        problems.add(
            "metadata.cacheable",
            f"only GET webhooks can be cacheable; a {method.upper()} may change something upstream",
        )
    webhook = {"url": url, "method": method.upper(), "headers": headers, "timeout_ms": timeout_ms}
    return ToolDraft(
        name=name,
        description=description,
        parameters=parameters,
        metadata=metadata,
        kind="webhook",
        webhook=webhook,
        auth_header=auth,
    )


def _check_webhook_url(url: Any, parameters: dict[str, Any], problems: Problems) -> str:
    if not isinstance(url, str) or not url or len(url) > MAX_URL:
        problems.add("webhook_url", f"must be an http(s) URL of at most {MAX_URL} characters")
        return ""
    marker = "qvrplaceholder"
    declared = parameters.get("properties", {})
    for placeholder in PLACEHOLDER.findall(url):
        if placeholder not in declared:
            problems.add(
                "webhook_url", f"placeholder {{{placeholder}}} is not a declared parameter"
            )
    try:
        parts = urllib.parse.urlsplit(PLACEHOLDER.sub(marker, url))
        parts.port  # noqa: B018 - raises for a port that is not a number from 0 to 65535
    except ValueError as exc:
        problems.add("webhook_url", f"is not a valid URL: {exc}")
        return url
    if parts.scheme not in ("http", "https") or not parts.hostname:
        problems.add("webhook_url", "must be an absolute http or https URL with a host")
    elif marker in parts.scheme + parts.netloc:
        problems.add(
            "webhook_url",
            "placeholders may appear in the path and query only, never in the scheme, host or port",
        )
    elif parts.username or parts.password:
        problems.add("webhook_url", "must not carry credentials; use auth_header")
    if any(c in url for c in " \r\n\t\0\\"):
        problems.add(
            "webhook_url", "must not contain whitespace, control characters or backslashes"
        )
    elif not problems.has("webhook_url"):
        try:  # the same check every call makes: a URL accepted here can always be called
            parse_url(PLACEHOLDER.sub(marker, url))
        except EgressDenied as exc:
            problems.add("webhook_url", f"cannot be called: {exc}")
    return url


def webhook_origin(template: str) -> tuple[str, str, int] | None:
    """The origin (scheme, host, port) a webhook URL template sends to: what its stored secret
    is bound to. Placeholders never reach the scheme, host or port (checked at save)."""
    try:
        return origin(PLACEHOLDER.sub("x", template))
    except EgressDenied:  # an unparsable old URL binds nothing: the secret must be sent again
        return None


def _check_headers(raw: Any, problems: Problems) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict) or len(raw) > MAX_HEADERS:
        problems.add(
            "headers", f"must be an object of at most {MAX_HEADERS} header names to string values"
        )
        return {}
    headers = {}
    for key, value in raw.items():
        if not HEADER_NAME.match(key) or key.lower() in FORBIDDEN_HEADERS:
            problems.add(f"headers.{key}", "is not a header name a webhook may set")
        elif not isinstance(value, str) or len(value) > 4096 or any(c in value for c in "\r\n\0"):
            problems.add(
                f"headers.{key}", "must be a single-line string of at most 4096 characters"
            )
        else:
            headers[key] = value
    return headers


MAX_BROWSER_ACTIONS = 64


def check_browser_actions(raw: Any, problems: Problems) -> list[dict[str, Any]]:
    """A session's browser actions (DESIGN §4.4), checked like tool definitions: name,
    description and parameters each, names unique. Each gets a fingerprint of its content."""
    if not isinstance(raw, list):
        problems.add("actions", "must be a list of {name, description, parameters}")
        return []
    if len(raw) > MAX_BROWSER_ACTIONS:
        problems.add("actions", f"at most {MAX_BROWSER_ACTIONS} actions per session")
        return []
    actions: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = f"actions[{i}]"
        if not isinstance(item, dict):
            problems.add(where, "must be an object with name, description and parameters")
            continue
        for key in sorted(item.keys() - {"name", "description", "parameters", "label"}):
            problems.add(
                f"{where}.{key}", "unknown field; allowed: name, description, parameters, label"
            )
        label = item.get("label")  # a title for people (dddk's actions carry one)
        if label is not None and (not isinstance(label, str) or len(label) > 200):
            problems.add(f"{where}.label", "must be a string of at most 200 characters")
            label = None
        name = check_name(item.get("name"), problems, f"{where}.name")
        description = _check_description(item.get("description"), problems, f"{where}.description")
        parameters = normalise_parameters(item.get("parameters"), problems, f"{where}.parameters")
        if name in seen:
            problems.add(f"{where}.name", f"{name!r} is registered twice")
        seen.add(name)
        fingerprint = hashlib.sha256(
            orjson.dumps([name, description, parameters], option=orjson.OPT_SORT_KEYS)
        ).hexdigest()[:24]
        action = {
            "name": name,
            "description": description,
            "parameters": parameters,
            "fingerprint": fingerprint,
        }
        if label is not None:
            action["label"] = label
        actions.append(action)
    return actions
