"""The one interface every execution engine implements, and its value types.

An engine checks a tool source (returning *all* violations, never just the first) and runs it
with limits. Every native failure (a trap, a killed worker, a timeout) is translated by the
engine into a ``RunResult`` with a failure ``code``; only a broken engine raises.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

SourceKind = Literal["python", "wasm", "javascript"]
SandboxName = Literal["restricted", "wasm", "javascript"]

FailureCode = Literal[
    "tool_error",
    "timeout",
    "memory_limit",
    "out_of_fuel",
    "worker_crashed",
    "trap",
    "exit_code",
    "malformed_output",
    "result_too_large",
    "nesting_too_deep",
    "load_timeout",
    "busy",
    "host_call_error",
    # the built-in skills' outcomes (server/skills)
    "not_configured",
    "not_found",
    "invalid_input",
    "slot_taken",
]


class ToolFailure(Exception):
    """Raised by trusted (built-in) tool code: the call fails with this code and message."""

    def __init__(self, code: FailureCode, message: str) -> None:
        super().__init__(message)
        self.code: FailureCode = code
        self.message = message


# (module, method, args) -> value; raises to refuse. The server enforces policy here.
HostHandler = Callable[[str, str, dict[str, Any]], Awaitable[Any]]


@dataclass(frozen=True)
class Violation:
    """One reason a source cannot be loaded, located by line and/or field where known."""

    message: str
    line: int | None = None
    field: str | None = None


@dataclass(frozen=True)
class ToolSource:
    """What an engine loads: Python text or a WASM module, addressed by content hash.

    ``identity`` names the stored tool version it came from (content hash + version row id):
    engines key what they keep between calls (loaded modules and their state, instances) by
    ``key``, so a tool deleted and created again with the same content starts afresh."""

    kind: SourceKind
    sandbox: SandboxName
    text: str | None = None
    module: bytes | None = None
    identity: str | None = None

    @property
    def key(self) -> str:
        return self.identity or self.content_hash

    @functools.cached_property
    def content_hash(self) -> str:
        payload = self.text.encode() if self.text is not None else (self.module or b"")
        return hashlib.sha256(self.kind.encode() + b"\0" + payload).hexdigest()


@dataclass(frozen=True)
class Limits:
    """Per-call limits. ``timeout_ms`` is a wall-clock deadline and is always honoured."""

    timeout_ms: int = 5_000
    memory_bytes: int = 256 * 1024 * 1024
    fuel: int | None = None
    output_bytes: int = 64 * 1024


@dataclass(frozen=True)
class RunResult:
    """The outcome of one run: a value on success, or a failure code and message."""

    ok: bool
    value: Any = None
    code: FailureCode | None = None
    message: str | None = None
    duration_ms: float = 0.0
    logs: tuple[str, ...] = field(default_factory=tuple)
    updates: dict[str, Any] = field(default_factory=dict)
    line: int | None = None
    accepted: str | None = None  # a webhook answered 202: where its job's state is asked for

    @classmethod
    def success(cls, value: Any, duration_ms: float = 0.0) -> RunResult:
        return cls(ok=True, value=value, duration_ms=duration_ms)

    @classmethod
    def from_worker(
        cls,
        reply: Mapping[str, Any],
        duration_ms: float,
        logs: tuple[str, ...],
        default_code: FailureCode,
    ) -> RunResult:
        """A worker's reply (``{"ok", "value", "updates"}`` or ``{"ok": false, "code", …}``)."""
        if reply.get("ok"):
            return cls(
                ok=True,
                value=reply["value"],
                duration_ms=duration_ms,
                logs=logs,
                updates=reply.get("updates") or {},
            )
        return cls(
            ok=False,
            code=reply.get("code", default_code),
            message=reply.get("message"),
            duration_ms=duration_ms,
            logs=logs,
            line=reply.get("line"),
        )

    @classmethod
    def failure(cls, code: FailureCode, message: str, duration_ms: float = 0.0) -> RunResult:
        return cls(ok=False, code=code, message=message, duration_ms=duration_ms)


@dataclass(frozen=True)
class Inspection:
    """What loading a file for real found: violations, or the tools it declares."""

    violations: list[Violation]
    tools: list[dict[str, Any]] = field(default_factory=list)
    code: str | None = None  # "load_timeout" / "memory_limit" / "busy" when loading itself failed

    @classmethod
    def from_reply(cls, reply: Mapping[str, Any], load_timeout_ms: int) -> Inspection:
        """A worker's answer to loading a file (``{"ok", "tools"}`` or violations / a code)."""
        if reply.get("ok"):
            return cls([], reply["tools"])
        code = reply.get("code")
        if code in ("timeout", "out_of_fuel"):
            message = f"loading the file took longer than {load_timeout_ms} ms"
            if code == "out_of_fuel":
                message = "loading the file ran out of fuel (too much computation)"
            return cls([Violation(message, field="source")], code="load_timeout")
        if reply.get("violations"):
            violations = [
                Violation(v["message"], v.get("line"), v.get("field")) for v in reply["violations"]
            ]
            return cls(violations, code=code)
        message = reply.get("message", "the file could not be loaded")
        return cls([Violation(message, field="source")], code=code)


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What an engine can do. Callers ask these, never an engine's name."""

    # it runs a tenant's code: its run time is the tenant's CPU time (the daily quota)
    counts_cpu: bool = True
    imports: bool = False  # it takes the tenant's granted modules (``Run.modules``)
    on_error: bool = False  # it can run a file's ``on_error`` to word a failure for the model
    metered: bool = False  # it takes fuel and a memory cap per call (``Limits``)
    # it acts on the world itself, not through host calls (a webhook): a run that must have
    # no side effects does not run it, and the tool's declared secrets are not its context's
    external: bool = False


@dataclass(frozen=True, slots=True)
class Run:
    """One run of one tool: what every engine is given, whatever it runs."""

    tenant: str  # whose call it is: what an engine keeps between runs is kept per tenant
    tool: str
    params: Mapping[str, Any]
    context: Mapping[str, Any]
    limits: Limits
    host: HostHandler | None = None  # where the tool's host calls go (policy is there)
    modules: tuple[str, ...] = ()  # the tenant's granted modules (engines with ``imports``)
    # the tenant's own egress allowlist, for an ``external`` engine that reaches the network
    # itself (opaque here; sandboxed code reaches the network only through ``host``)
    egress: object | None = None
    # credentials the egress guard adds to an ``external`` engine's requests (opaque here too;
    # sandboxed code's requests get them through ``host``)
    credentials: tuple[object, ...] = ()
    entry: Literal["execute", "on_error"] = "execute"
    error: Mapping[str, Any] | None = None  # what ``on_error`` is told

    def payload(self) -> dict[str, Any]:
        """The fields a worker is sent for this run, whatever its pool."""
        return {
            "tenant": self.tenant,
            "tool": self.tool,
            "entry": self.entry,
            "params": dict(self.params),
            "context": dict(self.context),
            "error": dict(self.error or {}),
            "modules": list(self.modules),
            "timeout_ms": self.limits.timeout_ms,
        }


PACKAGE = "pkg:"  # ``Run.modules`` names a granted reviewed package by ``pkg:<sha256>``


def package_keys(modules: tuple[str, ...]) -> list[str]:
    """The content hashes of the reviewed packages among a tenant's granted modules."""
    return [m[len(PACKAGE) :] for m in modules if m.startswith(PACKAGE)]


class PackageFiles(Protocol):
    """Where an engine finds a granted package's files, by content hash: ``{"key", "name",
    "version", "language", "files"}`` (``None``: no such package is stored)."""

    async def spec(self, key: str) -> Mapping[str, Any] | None: ...


S = TypeVar("S", contravariant=True)


class Engine(Protocol[S]):
    """Runs tools of one kind from their ``S`` (a ``ToolSource``; a webhook's declaration)."""

    @property
    def name(self) -> str: ...

    @property
    def capabilities(self) -> Capabilities: ...

    async def run(self, source: S, run: Run) -> RunResult:
        """Run ``run.entry`` of ``run.tool`` once under ``run.limits``; every failure of the
        tool or of the sandbox is a ``RunResult`` with a failure code."""
        ...


class Loader(Protocol):
    """An engine that loads a tool file for real at save, within the load-time limit."""

    @property
    def capabilities(self) -> Capabilities: ...

    async def inspect(
        self, source: ToolSource, tenant: str = "", modules: tuple[str, ...] = ()
    ) -> Inspection:
        """What the file declares, or every reason it cannot be loaded."""
        ...
