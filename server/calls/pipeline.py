"""The call pipeline: resolve → gate → validate/coerce → run → envelope → log (DESIGN §6)."""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import orjson

from sandbox.engine import Engine, HostHandler, Limits, Run, RunResult, ToolFailure, ToolSource
from sandbox.toolfile import parse_tool_file
from server import credentials, logs, metrics
from server.calls import code_mode, envelope
from server.calls.admission import AdmissionTimeout, FairAdmission
from server.calls.arguments import ArgumentCheckers, ArgumentError
from server.calls.cache import DEFAULT_TTL_S, ResultCache, cache_key, scope_owner
from server.calls.calllog import CallLog, truncate
from server.calls.code_mode import Program
from server.calls.connections import Connections
from server.calls.engines import Engines
from server.calls.guardrails import Guardrails, Subject
from server.calls.host import HostCallRefused, HttpHost
from server.calls.job_run import JobRun, progress_values
from server.calls.mcp_remote import McpSource
from server.calls.outputs import OutputCheckers
from server.calls.ports import CallStore
from server.calls.redaction import Redactor
from server.calls.sessions import SessionTracker
from server.calls.sources import SourceCache
from server.calls.tool_search import ToolSearch
from server.calls.webhook import WebhookSource
from server.egress import Allowlist, Bound
from server.errors import NotRecordedError
from server.guardrails import Policy
from server.quotas import Quotas
from server.ratelimit import RateLimitedLog
from server.registry.model import SessionInputs, SessionRecord, ToolDef
from server.registry.service import Registry
from server.skills.service import SkillCall, Skills
from server.tracing import INTERNAL, OFF, Tracing, failed

MAX_WEBHOOKS = 2048
# whether a JavaScript file declares onError, read from its text (if the guess is wrong, the
# worker answers that the tool has none and the call keeps its own error message)
JS_ON_ERROR = re.compile(r"\bonError\s*[:(]")
MAX_LLM_CALLS = 3  # context.modules.llm.chat calls per tool run
CLAIM_MARGIN_S = 10.0  # a once-per-session claim outlives its run's deadlines by this much
tool_log = logging.getLogger("quiver.tool")
state_lost = RateLimitedLog(logging.getLogger("quiver.database"), every_s=10.0)


class Claims(Protocol):
    """Once-per-session runs, claimed atomically across nodes (``server.storage.claims``)."""

    async def claim(
        self, session_id: str, tool: str, lease_s: float, store: CallStore | None = None
    ) -> bool: ...


@dataclass(frozen=True)
class CallRequest:
    tenant_id: str
    tool: str
    arguments: Any
    session: SessionRecord | None = None
    test: bool = False
    variables: dict[str, Any] | None = None  # a session's, when the caller already read them
    modules: tuple[str, ...] | None = None  # the tenant's granted modules, when already known
    egress_allow: tuple[str, ...] | None = None  # the tenant's own egress allowlist, likewise
    trial: bool = False  # the tenant's breaker for this tool is half-open: ask before running
    message_id: str | None = None  # the assistant message that asked for the call (agent loop)
    allow_llm: bool = False  # a test run that opted in to context.modules.llm
    extra_context: dict[str, Any] | None = None  # session-end hooks: transcript and end reason
    no_side_effects: bool = False  # evals: webhooks are not sent (code tools see test_mode)
    guardrails: Policy | None = None  # the tenant's, when the caller already holds them
    # the door's listener of the call's partial results (MCP progress, a streamed turn)
    on_partial: Callable[[dict[str, Any]], Awaitable[None]] | None = None
    call_id: str | None = None  # a run_code call's id: the parent of its program's calls
    parent_call_id: str | None = None  # a call a code-mode program made: the program's id
    program: Program | None = None  # run_code: what its program may call
    job: JobRun | None = None  # a long-running job's run (``server.calls.jobs``)


@dataclass(frozen=True)
class Executable:
    """A tool and what runs it: its engine (``None``: none on this node can yet) and what the
    engine runs — a ``ToolSource``, or a webhook's declaration."""

    tool: ToolDef
    source: Any
    engine: Engine[Any] | None
    timeout_ms: int | None = None  # the deadline the source declares (a webhook's timeout_ms)


MAX_PARTIAL_BYTES = 16 * 1024  # one partial result (``context.emit``), as JSON


class CallPipeline:
    def __init__(
        self,
        registry: Registry,
        engines: Engines,
        http: HttpHost,
        log: CallLog,
        default_timeout_ms: int,
        max_timeout_ms: int,
        tracker: SessionTracker,
        cache: ResultCache,
        claims: Claims,
    ) -> None:
        self.tracker = tracker
        self.claims = claims
        self.cache = cache
        self.wasm_fuel = 2_000_000_000  # default fuel of a WASM call; admins set the maxima
        self.wasm_max_fuel = 50_000_000_000
        self.wasm_max_memory_mb = 256
        self.registry = registry
        self.engines = engines
        self.http = http
        self.result_cap = 64 * 1024
        self.outputs = OutputCheckers()
        self.quotas: Quotas | None = None
        # the node's calls in flight, shared fairly between tenants (``server.calls.admission``)
        self.admission: FairAdmission | None = None
        # context.modules.llm.chat: (tenant, bot, args) -> answer (server.agent.tool_llm)
        self.llm: Callable[[str, str | None, dict[str, Any]], Awaitable[Any]] | None = (
            None  # daily calls and CPU time (``server.quotas``)
        )
        # the built-in skills and context.modules.knowledge_base (server.skills.service)
        self.skills: Skills | None = None
        self.log = log
        self.checkers = ArgumentCheckers()
        self.default_timeout_ms = default_timeout_ms
        self.max_timeout_ms = max_timeout_ms
        # does this error say the database is away (storage's ``is_unavailable``)?
        self.unavailable: Callable[[BaseException], bool] = lambda exc: False
        self.tracing: Tracing = OFF
        self.guardrails = Guardrails(None)  # the node's, with its egress guard, once built
        self._sources = SourceCache()
        self.tool_search = ToolSearch()  # search_tools' indexes (``server.calls.tool_search``)
        self.job_timeout_s = 900  # a job's deadline unless its metadata says (``job_timeout_s``)
        self.job_poll_s = 2.0  # how often a webhook's job location is asked, unless it says
        # a call's partial results to its session's streams on this node (``EventHub.partial``)
        self.partials: Callable[[str, dict[str, Any]], None] = lambda session, data: None
        # per-user connections (``metadata.auth``): the node's, once built
        self.connections: Connections | None = None
        self._on_error: dict[str, bool] = {}
        self._webhooks: OrderedDict[str, Executable] = OrderedDict()
        # around writes after a tool ran: a database gone away loses them (logged), never the
        # answer — an error would make the client retry and the tool run twice
        self._saving = _Saving(self)

    async def _webhook(self, store: CallStore, tool: ToolDef) -> Executable:
        """A webhook's or a federated MCP server's tool: its config and decrypted secret,
        cached per exact stored version."""
        key = tool.identity
        hit = self._webhooks.get(key)
        if hit is None:
            row = await store.tools.stored_version(tool)
            secret = store.tools.decrypt_secret(tool.tenant_id, tool.name, row)
            if tool.kind == "mcp":
                remote = McpSource(row.webhook or {}, secret)
                hit = Executable(tool, remote, self.engines.mcp, remote.timeout_ms)
            else:
                source = WebhookSource(row.webhook or {}, secret)
                hit = Executable(tool, source, self.engines.webhook, source.timeout_ms)
            self._webhooks[key] = hit
            if len(self._webhooks) > MAX_WEBHOOKS:
                self._webhooks.popitem(last=False)
        return hit

    async def _wasm(self, store: CallStore, tool: ToolDef, tenant: str) -> Executable:
        """A WASI module's bytes, cached per content hash; and its compiled artefact on this
        node: the one stored with the tool version, or — stored by a node with another wasmtime,
        or before artefacts were kept — compiled now, once, and stored for every node."""
        source = self._sources.get(tool.identity)
        row = None
        if source is None:
            row = await store.tools.stored_version(tool)
            source = self._sources.put(
                tool.identity, ToolSource("wasm", "wasm", module=row.module, identity=tool.identity)
            )
        engine = self.engines.wasm
        if not engine.has(tenant, source):
            row = row or await store.tools.stored_version(tool)
            artefact = await store.tools.artefact(row.id, engine.engine_id)
            if artefact is not None:
                engine.adopt(tenant, source, artefact)
            elif not await engine.compile(tenant, source):
                compiled = engine.artefact(tenant, source)
                if compiled is not None:
                    await store.tools.keep_artefact(row.id, engine.engine_id, compiled)
        return Executable(tool, source, engine)

    async def _javascript(self, store: CallStore, tool: ToolDef) -> Executable:
        source = self._sources.get(tool.identity)
        if source is None:
            disk = self.registry.disk.tools.get(tool.name)
            if tool.origin != "tenant" and disk is not None and disk.tool is tool:
                text = disk.source
            else:
                text = (await store.tools.stored_version(tool)).source or ""
            source = self._sources.put(
                tool.identity,
                ToolSource("javascript", "javascript", text, identity=tool.identity),
            )
            self._learnt(  # saved before versions kept it: found from the source, once
                tool.identity,
                tool.on_error
                if tool.on_error is not None
                else JS_ON_ERROR.search(text) is not None,
            )
        return Executable(tool, source, self.engines.javascript)

    def _learnt(self, identity: str, on_error: bool) -> None:
        """Whether a cached source's tool answers its own errors (dropped with its source)."""
        self._on_error[identity] = on_error
        if len(self._on_error) > 2 * self._sources.entries:
            self._on_error = {k: v for k, v in self._on_error.items() if k in self._sources}

    async def executable(self, store: CallStore, tool: ToolDef, tenant: str) -> Executable:
        """What runs ``tool`` for a caller of ``tenant`` (a global tool's callers are others)."""
        if tool.kind in ("webhook", "mcp"):
            return await self._webhook(store, tool)
        if tool.kind == "wasm":
            return await self._wasm(store, tool, tenant)
        if tool.kind == "javascript":
            return await self._javascript(store, tool)
        engine = self.engines.for_tool(tool.kind, tool.sandbox, tool.origin)
        if engine is None:
            return Executable(tool, None, None)
        source = self._sources.get(tool.identity)
        if source is None:
            disk = self.registry.disk.tools.get(tool.name)
            if (
                tool.origin != "tenant"
                and tool.tenant_id == "*"
                and disk is not None
                and disk.tool is tool
            ):
                text = disk.source
            else:
                text = (await store.tools.stored_version(tool)).source or ""
            source = self._sources.put(
                tool.identity, ToolSource("python", "restricted", text, identity=tool.identity)
            )
            if tool.on_error is not None:  # what the save learnt
                self._learnt(tool.identity, tool.on_error)
            else:  # saved before versions kept it: found from the source, once
                specs, _ = parse_tool_file(text or "")
                self._learnt(tool.identity, any(s.name == tool.name and s.on_error for s in specs))
        return Executable(tool, source, engine)

    async def call(self, store: CallStore, request: CallRequest, tool: ToolDef) -> dict[str, Any]:
        """Run a resolved (and, for sessions, gated) tool; always returns an envelope — unless
        the tenant's daily quota is used up (``QuotaExceededError``, before anything runs) or
        the call cannot be recorded (``NotRecordedError``: this node's disk is full)."""
        if self.tracing.on:
            return await self._traced(store, request, tool)
        return await self._enter(store, request, tool)

    async def _traced(
        self, store: CallStore, request: CallRequest, tool: ToolDef
    ) -> dict[str, Any]:
        """The call in an ``execute_tool`` span (GenAI semantic conventions)."""
        attributes: dict[str, str | int | float | bool] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool.name,
            "gen_ai.tool.type": "extension" if tool.kind in ("webhook", "mcp") else "function",
            "quiver.tenant.id": request.tenant_id,
            "quiver.tool.kind": tool.kind,
            "quiver.tool.version": tool.version,
            "quiver.test": request.test,
        }
        if request.session is not None:
            attributes["quiver.session.id"] = request.session.id
        if request.message_id is not None:
            attributes["quiver.message.id"] = request.message_id
        with self.tracing.span(f"execute_tool {tool.name}", INTERNAL, attributes) as span:
            result = await self._enter(store, request, tool)
            code = (result.get("error") or {}).get("code")
            span.set_attribute("quiver.call.outcome", code or "success")
            if not result.get("success"):
                failed(span, str(code or "tool_failed"))
            return result

    async def _enter(self, store: CallStore, request: CallRequest, tool: ToolDef) -> dict[str, Any]:
        """The call through the node's fair admission."""
        self.log.admit()
        admission = self.admission
        if admission is None or request.parent_call_id is not None:
            # a program's call runs in the slot its run_code call holds (waiting for it)
            return await self._admitted(store, request, tool)
        started = time.perf_counter()
        try:
            await admission.enter(request.tenant_id)
        except AdmissionTimeout:
            return await self._turned_away(request, tool, started)
        try:
            return await self._admitted(store, request, tool)
        finally:
            admission.leave(request.tenant_id)

    async def _admitted(
        self, store: CallStore, request: CallRequest, tool: ToolDef
    ) -> dict[str, Any]:
        quotas = self.quotas
        if quotas is None or request.tenant_id == "*":
            return await self._call(store, request, tool)
        limits = await quotas.limits_for(request.tenant_id, lambda t: store.tenants.limits(t))
        await quotas.admit_call(limits, request.tenant_id)
        result = await self._call(store, request, tool)
        if self._counts_cpu(tool) and not result.get("cached"):
            await quotas.charge_cpu(limits, request.tenant_id, result["executionTime"])
        return result

    async def _call(self, store: CallStore, request: CallRequest, tool: ToolDef) -> dict[str, Any]:
        started = time.perf_counter()
        logs.bind(
            tenant=request.tenant_id,
            session=request.session.id if request.session else None,
            tool=tool.name,
        )
        checker = self.checkers.get(tool.identity, tool.parameters)
        try:
            params = checker.prepare(request.arguments)
        except ArgumentError as exc:
            result = envelope.failure(
                tool.name, _ms(started), "invalid_arguments", str(exc), argument=exc.argument
            )
            declared = _declared(tool, request.arguments)
            return await self._finish(store, request, tool, result, started, declared)
        policy = request.guardrails
        if policy is None:  # no session view at hand (a test run, a hook): read the tenant's
            policy = await store.tenants.guardrails(request.tenant_id)
            request = dataclasses.replace(request, guardrails=policy)
        if policy.active:
            checked = await self.guardrails.before(
                _subject(request, tool, policy), params, checker.prepare
            )
            params = checked.arguments
            if checked.denied is not None:
                result = envelope.failure(
                    tool.name, _ms(started), "guardrail_denied", checked.denied
                )
                return await self._finish(store, request, tool, result, started, params)
        if (
            request.trial
            and not request.test
            and not await self.tracker.admit(request.tenant_id, tool.name)
        ):
            return await self.circuit_open(request, tool, started, params)
        if (
            request.job is None
            and tool.metadata.get("mode") == "job"
            and request.session is not None
            and not request.test
        ):
            result = await self._start_job(store, request, tool, params, started)
            request = dataclasses.replace(request, call_id=result.get("job"))
            return await self._finish(store, request, tool, result, started, params)
        cache_key_ = None
        if tool.metadata.get("cacheable") is True and not request.test:
            session = request.session
            owner = scope_owner(
                tool.metadata.get("cache_scope"),
                session.id if session else None,
                session.customer if session else None,
            )
            cache_key_ = cache_key(request.tenant_id, tool.identity, owner, params)
            hit = await self.cache.get(cache_key_)
            if hit is not None:
                metrics.CACHE_HITS.labels(tier=hit[1]).inc()
                result = envelope.success(tool.name, _ms(started), hit[0], cached=True)
                result = await self._guarded(request, tool, params, result, started)
                await self._log(request, tool, result, params, ran=False, cached=True)
                metrics.observe_call(tool.kind, None, _ms(started) / 1000)
                return result
            metrics.CACHE_MISSES.inc()
        once = (
            tool.metadata.get("once_per_session") is True
            and request.session is not None
            and not request.test
        )
        if once:
            return await self._once(store, request, tool, params, started)
        result = await self._run(store, request, tool, params, started)
        if "job" in result:  # a webhook answered 202: its job was queued
            request = dataclasses.replace(request, call_id=result["job"])
        elif cache_key_ is not None and result["success"]:
            ttl = tool.metadata.get("cache_ttl")
            await self.cache.put(
                cache_key_, result["result"], DEFAULT_TTL_S if ttl is None else float(ttl)
            )
        return await self._finish(store, request, tool, result, started, params)

    async def _start_job(
        self,
        store: CallStore,
        request: CallRequest,
        tool: ToolDef,
        params: Any,
        started: float,
        location: str | None = None,
    ) -> dict[str, Any]:
        """Queue the call as a job, in its unit of work: ``{"job": id, "status": "running"}``;
        or ``too_many_jobs`` when the tenant has its limit of jobs queued or running (a webhook
        that answered 202 has started its work already: its job is always kept)."""
        session = request.session
        assert session is not None
        quotas = self.quotas
        if location is None and quotas is not None and request.tenant_id != "*":
            limits = await quotas.limits_for(request.tenant_id, lambda t: store.tenants.limits(t))
            cap = limits.running_jobs
            if cap and await store.jobs.unfinished(request.tenant_id) >= cap:
                message = f"the tenant has {cap} jobs queued or running, as many as it may"
                return envelope.failure(tool.name, _ms(started), "too_many_jobs", message)
        job = await store.jobs.create(
            tenant_id=request.tenant_id,
            session_id=session.id,
            bot=session.bot,
            tool=tool.name,
            version=tool.version,
            kind=tool.kind,
            arguments=params,
            timeout_s=int(tool.metadata.get("job_timeout_s") or self.job_timeout_s),
            now=datetime.now(UTC),
            message_id=request.message_id,
            location=location,
        )
        value = {"job": job.id, "status": "running"}
        return envelope.success(tool.name, _ms(started), value, job=job.id)

    async def run_job(
        self, store: CallStore, request: CallRequest, tool: ToolDef
    ) -> tuple[dict[str, Any], float]:
        """A queued job's run (``request.job``): the tool with the job's deadline, its outcome
        counted for the breakers and its CPU for the tenant's quota — the job's runner logs it
        as it finishes the job. The envelope and the CPU milliseconds counted."""
        started = time.perf_counter()
        session = request.session.id if request.session else None
        logs.bind(tenant=request.tenant_id, session=session, tool=tool.name)
        result = await self._run(store, request, tool, request.arguments, started)
        cpu_ms = 0.0
        if self._counts_cpu(tool):
            cpu_ms = float(result["executionTime"])
            if self.quotas is not None and request.tenant_id != "*":
                limits = await self.quotas.limits_for(
                    request.tenant_id, lambda t: store.tenants.limits(t)
                )
                await self.quotas.charge_cpu(limits, request.tenant_id, cpu_ms)
        code = None if result["success"] else result["error"]["code"]
        with self._saving:
            await self.tracker.outcome(
                store, request.tenant_id, request.session, tool.name, code, tool.metadata, tool.kind
            )
        metrics.observe_call(tool.kind, code, _ms(started) / 1000)
        return result, cpu_ms

    async def _once(
        self, store: CallStore, request: CallRequest, tool: ToolDef, params: Any, started: float
    ) -> dict[str, Any]:
        """Run a once-per-session tool only for the caller that claims the run: of any number
        of concurrent calls, on any node, one runs; the others are told it is done."""
        session = request.session
        assert session is not None
        # a webhook may run for its own timeout_ms, up to the maximum
        timeout_ms = self.max_timeout_ms if tool.kind in ("webhook", "mcp") else self._timeout(tool)
        lease_s = 2 * timeout_ms / 1000 + CLAIM_MARGIN_S
        if not await self.claims.claim(session.id, tool.name, lease_s, store):
            result = envelope.failure(
                tool.name,
                _ms(started),
                "already_done",
                f"{tool.name!r} runs once per conversation and has already run (or is running)",
            )
            await self._log(request, tool, result, params, ran=False)
            metrics.observe_call(tool.kind, "already_done", _ms(started) / 1000)
            return result
        try:
            result = await self._run(store, request, tool, params, started)
        except BaseException:
            with self._saving:
                await store.sessions.finish_claim(session.id, tool.name, done=False)
            raise
        with self._saving:
            await store.sessions.finish_claim(session.id, tool.name, done=bool(result["success"]))
        return await self._finish(store, request, tool, result, started, params)

    def _counts_cpu(self, tool: ToolDef) -> bool:
        engine = self.engines.for_tool(tool.kind, tool.sandbox, tool.origin)
        return engine is not None and engine.capabilities.counts_cpu

    def _timeout(self, tool: ToolDef) -> int:
        return min(
            int(tool.metadata.get("timeout") or self.default_timeout_ms), self.max_timeout_ms
        )

    async def _turned_away(
        self, request: CallRequest, tool: ToolDef, started: float
    ) -> dict[str, Any]:
        """The node was full for as long as a call may wait (its tenant's turn did not come)."""
        result = envelope.failure(
            tool.name,
            _ms(started),
            "busy",
            "this node is running all the calls it can; try again shortly",
        )
        await self._log(request, tool, result, _declared(tool, request.arguments), ran=False)
        metrics.observe_call(tool.kind, "busy", _ms(started) / 1000)
        return result

    async def circuit_open(
        self, request: CallRequest, tool: ToolDef, started: float, params: Any = None
    ) -> dict[str, Any]:
        """The answer while a breaker holds the tool out (logged, not counted as a failure)."""
        result = envelope.failure(
            tool.name,
            _ms(started),
            "circuit_open",
            f"{tool.name!r} failed repeatedly and is switched off for now",
        )
        arguments = params if params is not None else _declared(tool, request.arguments)
        await self._log(request, tool, result, arguments, ran=False)
        metrics.observe_call(tool.kind, "circuit_open", _ms(started) / 1000)
        return result

    async def _finish(
        self,
        store: CallStore,
        request: CallRequest,
        tool: ToolDef,
        result: dict[str, Any],
        started: float,
        arguments: Any,
    ) -> dict[str, Any]:
        """Count the outcome for the breakers and the metrics, and log the call with the
        ``arguments`` the tool received."""
        code = None if result["success"] else result["error"]["code"]
        if not request.test:
            with self._saving:
                await self.tracker.outcome(
                    store,
                    request.tenant_id,
                    request.session,
                    tool.name,
                    code,
                    tool.metadata,
                    tool.kind,
                )
        metrics.observe_call(tool.kind, code, _ms(started) / 1000)
        await self._log(request, tool, result, arguments, ran=code != "invalid_arguments")
        return result

    async def _run(
        self, store: CallStore, request: CallRequest, tool: ToolDef, params: Any, started: float
    ) -> dict[str, Any]:
        executable = await self.executable(store, tool, request.tenant_id)
        if executable.engine is None:
            return envelope.failure(
                tool.name,
                _ms(started),
                "engine_unavailable",
                f"{tool.kind} tools ({tool.sandbox or 'no sandbox'}) cannot run on this server yet",
            )
        session = request.session
        variables = (
            dict(request.variables)
            if request.variables is not None
            else await store.sessions.variables(session.id)
            if session
            else {}
        )
        context = {
            "session_id": session.id if session else None,
            "tenant_id": request.tenant_id,
            "bot_id": session.bot if session else None,
            "test_mode": request.test,
            "variables": variables,
            **(request.extra_context or {}),
        }
        engine, can = executable.engine, executable.engine.capabilities
        secrets: dict[str, str] = {}
        declared = tool.metadata.get("secrets") or []
        if declared and not can.external:
            secrets = await store.secrets.values(tool.tenant_id, list(declared))
            missing = [name for name in declared if name not in secrets]
            if missing:
                message = f"secret {missing[0]!r} is not set (PUT /v1/secrets/{missing[0]})"
                return envelope.failure(tool.name, _ms(started), "missing_secret", message)
            context["secrets"] = secrets
        bound = await self._credentials(store, tool)
        if isinstance(bound, str):
            return envelope.failure(tool.name, _ms(started), "missing_secret", bound)
        if tool.metadata.get("auth"):  # it acts as the end user: their token, at egress
            user = await self._as_user(store, request, tool)
            if isinstance(user, dict):
                user["executionTime"] = round(_ms(started), 3)
                return user
            bound = [*bound, *user]
        timeout = self._timeout(tool)
        if executable.timeout_ms is not None and "timeout" not in tool.metadata:
            # what the source declares is its deadline (a webhook's was cut to the default)
            timeout = min(executable.timeout_ms, self.max_timeout_ms)
        job = request.job
        if job is not None:
            timeout = job.timeout_ms
        limits = Limits(timeout_ms=timeout)
        if can.metered:
            meta = tool.metadata
            limits = Limits(
                timeout_ms=timeout,
                fuel=min(int(meta.get("fuel") or self.wasm_fuel), self.wasm_max_fuel),
                memory_bytes=min(int(meta.get("memory_mb") or 64), self.wasm_max_memory_mb) << 20,
                output_bytes=self.result_cap,
            )
        if request.modules is not None and request.egress_allow is not None:
            modules, egress = request.modules, request.egress_allow
        else:
            modules, egress = await store.tenants.sandbox(request.tenant_id)
        extra = Allowlist.parse(egress) if egress else None
        run = Run(
            tenant=request.tenant_id,
            tool=tool.name,
            params=params,
            context=context,
            limits=limits,
            modules=tuple(modules) if can.imports else (),
            egress=extra,
            credentials=tuple(bound),
            host=self._host(
                timeout,
                request.tenant_id,
                extra,
                request,
                skill=(store, tool) if engine is self.engines.builtin else None,
                credentials=bound,
            ),
        )
        if job is not None:
            await store.checkpoint()  # a run of minutes holds no connection
        if job is not None and job.location is not None:  # a webhook's job, taken over
            outcome = await self._follow(executable, run, job, job.location)
        elif can.external and request.no_side_effects:
            outcome = RunResult.success({"test_mode": True, "sent": False})
        elif self.tracing.on:
            with self.tracing.span(
                f"sandbox.run {engine.name}", INTERNAL, {"quiver.engine": engine.name}
            ) as span:
                outcome = await engine.run(executable.source, run)
                span.set_attribute("quiver.sandbox.outcome", outcome.code or "ok")
                if not outcome.ok:
                    failed(span, str(outcome.code or "tool_error"))
        else:
            outcome = await engine.run(executable.source, run)
        if outcome.accepted is not None:  # a webhook answered 202 with its job's location
            if job is not None:
                outcome = await self._follow(executable, run, job, outcome.accepted)
            elif session is not None and not request.test:
                return await self._start_job(
                    store, request, tool, params, started, location=outcome.accepted
                )
            else:  # a test run has no session to keep a job in: the answer is the 202's
                value = {"status": "accepted", "location": outcome.accepted}
                outcome = dataclasses.replace(outcome, value=value)
        redact = Redactor(secrets | {b.credential.secret: b.value for b in bound})
        if redact:
            outcome = dataclasses.replace(
                outcome,
                value=redact(outcome.value),
                message=redact(outcome.message),
                logs=tuple(redact(list(outcome.logs))),
                updates=redact(outcome.updates),
            )
        result = await self._wrap(executable, run, outcome, started)
        if redact:  # what on_error said with the secrets in reach
            result = redact(result)
        if outcome.ok and (outcome.updates or tool.metadata.get("once_per_session")):
            with self._saving:
                await self._apply_updates(store, request, tool, outcome, result)
        for line in outcome.logs:
            tool_log.info(
                "%s",
                line,
                extra={
                    "tenant": request.tenant_id,
                    "tool": tool.name,
                    "session": session.id if session else None,
                },
            )
        result = await self._guarded(request, tool, params, result, started)
        if outcome.logs or request.test:  # the log keeps them; a test run's envelope shows them
            result["logs"] = list(outcome.logs)
        return result

    async def _follow(
        self, executable: Executable, run: Run, job: JobRun, location: str
    ) -> RunResult:
        """A webhook's job: its location asked until it says the job ended (kept on the job
        first, so that a node taking the job over asks there rather than start it again)."""
        if job.locate is not None and location != job.location:
            await job.locate(location)
        if executable.engine is not self.engines.webhook:
            return RunResult.failure("tool_error", "only a webhook may answer with a job location")
        return await self.engines.webhook.follow(
            executable.source, run, location, job.progress, self.job_poll_s
        )

    async def _guarded(
        self,
        request: CallRequest,
        tool: ToolDef,
        params: Any,
        result: dict[str, Any],
        started: float,
    ) -> dict[str, Any]:
        """A successful result through the tenant's guardrails (run or cached alike)."""
        policy = request.guardrails
        if policy is None or not policy.active or not result["success"]:
            return result
        value, withheld = await self.guardrails.after(
            _subject(request, tool, policy), params, result["result"]
        )
        if withheld is not None:
            return envelope.failure(tool.name, _ms(started), "guardrail_denied", withheld)
        result["result"] = value
        return result

    async def _as_user(
        self, store: CallStore, request: CallRequest, tool: ToolDef
    ) -> list[Bound] | dict[str, Any]:
        """The session's customer's token for the tool's provider (``metadata.auth``), or the
        failure that says what is missing: ``requires_connection`` names where to connect."""
        session = request.session
        if self.connections is None:
            said = "this node cannot act as end users (no connections)"
            return envelope.failure(tool.name, 0.0, "not_configured", said)
        user = await self.connections.bearer(
            store,
            request.tenant_id,
            tool.metadata["auth"],
            session.customer if session else None,
            session.id if session else None,
        )
        if isinstance(user, list):
            return user
        failed = envelope.failure(tool.name, 0.0, user.code, user.message)
        failed["error"]["provider"] = user.provider
        if user.url is not None:
            failed["error"]["connect_url"] = user.url
        return failed

    async def _credentials(self, store: CallStore, tool: ToolDef) -> list[Bound] | str:
        """The tool's ``metadata.credentials`` with their secrets' values, for the egress guard
        (never for the tool); or why the call cannot run (a secret is not set)."""
        declared = tool.metadata.get("credentials")
        if not declared:
            return []
        found, _ = credentials.parse(declared)  # checked at save: nothing is left out here
        values = await store.secrets.values(tool.tenant_id, sorted({c.secret for c in found}))
        for credential in found:
            if credential.secret not in values:
                name = credential.secret
                return f"secret {name!r} is not set (PUT /v1/secrets/{name})"
        return [Bound(c, values[c.secret]) for c in found]

    async def _apply_updates(
        self,
        store: CallStore,
        request: CallRequest,
        tool: ToolDef,
        outcome: RunResult,
        result: dict[str, Any],
    ) -> None:
        """Write the call's ``update_context`` values (and ``<tool>_done``) through to the
        session."""
        updates = dict(outcome.updates)
        if result["success"] and tool.metadata.get("once_per_session"):
            updates[f"{tool.name}_done"] = True
        if not updates:
            return
        if request.session is None:  # a test run: show the writes instead of storing them
            result["variables"] = updates
            return
        await store.sessions.set_variables(request.session.id, updates)
        if f"{tool.name}_done" in updates:
            await store.sessions.bump(request.session.id)  # the snapshot loses the tool

    async def _wrap(
        self, executable: Executable, run: Run, outcome: RunResult, started: float
    ) -> dict[str, Any]:
        name = executable.tool.name
        if outcome.ok:
            value = outcome.value
            if value.get("success") is False:
                message = str(value.get("message") or "the tool reported a failure")
                return envelope.failure(name, _ms(started), "tool_failed", message, result=value)
            schema = executable.tool.metadata.get("output_schema")
            broken = schema and self.outputs.problem(executable.tool.identity, schema, value)
            if broken:
                message = f"the result does not match the tool's output_schema ({broken})"
                return envelope.failure(name, _ms(started), "malformed_output", message)
            return envelope.success(name, _ms(started), self._capped(value))
        code, message = outcome.code or "tool_error", outcome.message or "the tool failed"
        model_message = None
        engine = executable.engine
        if (
            engine is not None
            and engine.capabilities.on_error
            and code != "busy"
            and self._on_error.get(executable.tool.identity)
        ):
            limits = dataclasses.replace(run.limits, timeout_ms=min(1000, run.limits.timeout_ms))
            shaped = await engine.run(
                executable.source,
                dataclasses.replace(
                    run,
                    limits=limits,
                    host=None,
                    entry="on_error",
                    error={"code": code, "message": message},
                ),
            )
            if shaped.ok and isinstance(shaped.value, dict) and shaped.value.get("message"):
                model_message = str(shaped.value["message"])
        return envelope.failure(name, _ms(started), code, message, model_message)

    def _capped(self, value: Any) -> Any:
        """What the model is given: the result, or its start and a marker when over the cap."""
        text = orjson.dumps(value)
        if len(text) <= self.result_cap:
            return value
        return {
            "truncated": True,
            "size": len(text),
            "content": text[: self.result_cap].decode(errors="ignore"),
        }

    def _host(
        self,
        timeout_ms: int,
        tenant: str,
        extra: Allowlist | None,
        request: CallRequest | None = None,
        skill: tuple[CallStore, ToolDef] | None = None,
        credentials: Sequence[Bound] = (),
    ) -> HostHandler:
        """What a tool's host calls reach: ``http`` (the egress guard), ``llm`` (the tenant's
        provider), ``knowledge_base`` (the tenant's documents); and, for built-in tools only
        (``skill``: the call's unit of work and tool), ``skills``."""
        llm_calls = partials = 0
        extra_context = (request.extra_context or {}) if request else {}
        run_id = extra_context.get("hook_run_id") or extra_context.get("job_id")

        def keyed(args: dict[str, Any]) -> dict[str, Any]:
            """A session-end hook's or a job's request carries its run's id as
            ``Idempotency-Key`` (unless the tool set one): a rerun's requests can be told apart
            from new ones."""
            headers = args.get("headers") or {}
            if run_id is None or not isinstance(headers, dict):
                return args
            if any(str(k).lower() == "idempotency-key" for k in headers):
                return args
            return {**args, "headers": {**headers, "Idempotency-Key": run_id}}

        async def handle(module: str, method: str, args: dict[str, Any]) -> Any:
            nonlocal llm_calls, partials
            if module == "context" and method == "emit" and request is not None:
                partials += 1
                return await self._emit(request, partials, args.get("partial"))
            if module == "context" and method == "progress":
                try:
                    values = progress_values(args.get("progress"), args.get("message"))
                except ValueError as exc:
                    raise HostCallRefused(str(exc)) from None
                job = request.job if request is not None else None
                return False if job is None else await job.progress(*values)
            if module == "http":
                return await self.http(
                    method,
                    keyed(args),
                    timeout_s=timeout_ms / 1000,
                    tenant=tenant,
                    extra=extra,
                    credentials=credentials,
                )
            if module == "llm" and method == "chat" and self.llm is not None:
                if request is not None and request.test and not request.allow_llm:
                    raise HostCallRefused(
                        'llm.chat is off in test runs unless the test opts in ("llm": true)'
                    )
                llm_calls += 1
                if llm_calls > MAX_LLM_CALLS:
                    raise HostCallRefused(f"llm.chat: at most {MAX_LLM_CALLS} calls per tool run")
                bot = request.session.bot if request is not None and request.session else None
                return await self.llm(tenant, bot, args)
            if module == "knowledge_base" and method == "search" and self.skills is not None:
                return await self.skills.knowledge_search(tenant, args)
            if module == "skills" and skill is not None:
                store, tool = skill
                if method != tool.name:
                    raise HostCallRefused(f"{tool.name} may only run its own skill")
                if tool.metadata.get("skill") == "tool_search":
                    return await self._search_tools(store, tenant, request, args)
                if tool.metadata.get("skill") == "code_mode":
                    return await self._run_code(request, args)
                if self.skills is None:
                    raise HostCallRefused("the skills are not available on this node")
                call = await self._skill_call(store, tenant, request, tool, extra)
                return await self.skills.run(store, tool.name, call, args)
            raise HostCallRefused(f"no host module {module!r}")

        return handle

    async def _emit(self, request: CallRequest, seq: int, partial: Any) -> bool:
        """``context.emit``: a partial result to the session's streams and the door's listener,
        as the tenant's result guardrails shape it; False when it was held back."""
        if len(orjson.dumps(partial)) > MAX_PARTIAL_BYTES:
            raise HostCallRefused(f"a partial result is at most {MAX_PARTIAL_BYTES} bytes of JSON")
        policy = request.guardrails
        if policy is not None and policy.active:
            partial = self.guardrails.partial(policy, request.tenant_id, request.tool, partial)
            if partial is None:
                return False
        data = {"tool": request.tool, "seq": seq, "partial": partial}
        if request.session is not None:
            self.partials(request.session.id, data)
        if request.on_partial is not None:
            await request.on_partial(data)
        return True

    async def _run_code(self, request: CallRequest | None, args: dict[str, Any]) -> Any:
        """``run_code``: the program, in its language's sandbox, calling the session's tools."""
        program = request.program if request is not None else None
        if request is None or program is None or request.session is None:
            message = "run_code runs programs in a session of a bot with code_mode"
            raise ToolFailure("not_configured", message)
        engine: Engine[Any] = (
            self.engines.javascript if program.language == "javascript" else self.engines.restricted
        )
        session, code = request.session, str(args.get("code") or "")
        tenant = request.tenant_id
        return await code_mode.run(engine, program, code, tenant, session.id, session.bot)

    async def _search_tools(
        self, store: CallStore, tenant: str, request: CallRequest | None, args: dict[str, Any]
    ) -> dict[str, Any]:
        """``search_tools``: the session's deferred tools that match, loaded into it."""
        session = request.session if request is not None else None
        view = await self.registry.view(store, tenant)  # cached per node and version
        inputs = SessionInputs()
        ranking: Sequence[str] = ()
        if session is not None:
            variables = request.variables if request is not None else None
            if variables is None:
                variables = await store.sessions.variables(session.id)
            inputs = await self.tracker.inputs(store, session, view, variables)
            ranking, _ = await self.tracker.usage.get(store, tenant)
        return await self.tool_search.run(store, view, session, inputs, ranking, args)

    async def _skill_call(
        self,
        store: CallStore,
        tenant: str,
        request: CallRequest | None,
        tool: ToolDef,
        extra: Allowlist | None,
    ) -> SkillCall:
        """Who calls the skill, with the settings the session's bot gives it (``skills``)."""
        session = request.session if request is not None else None
        bot = session.bot if session is not None else None
        view = await self.registry.view(store, tenant)  # cached per node and version
        bot_def = view.bots.get(bot) if bot is not None else None
        skills = bot_def.skills if bot_def is not None else {}
        return SkillCall(
            tenant_id=tenant,
            session_id=session.id if session else None,
            customer=session.customer if session else None,
            bot=bot,
            settings=(skills or {}).get(str(tool.metadata.get("skill"))),
            test=request.test if request is not None else False,
            egress=(self.http.guard, extra),
        )

    async def _log(
        self,
        request: CallRequest,
        tool: ToolDef,
        result: dict[str, Any],
        arguments: Any,
        ran: bool,
        cached: bool = False,
    ) -> None:
        """Record the call's log row, returning once it is durable: the arguments the tool
        received (never what the caller sent beyond the declared ones); its latency is the
        envelope's ``executionTime``. ``NotRecordedError`` (saying whether the tool ``ran``)
        if it could not be journalled: such a call is not answered as a success."""
        error = result.get("error") or {}
        lines = result.get("logs") if request.test else result.pop("logs", None)
        try:
            self.log.record(
                tenant_id=request.tenant_id,
                session_id=request.session.id if request.session else None,
                tool=tool.name,
                version=tool.version,
                kind=tool.kind,
                arguments=arguments,
                result=truncate(result.get("result")),
                success=bool(result["success"]),
                latency_ms=result["executionTime"],
                error_code=error.get("code"),
                error_message=error.get("message"),
                test=request.test,
                cached=cached,
                message_id=request.message_id,
                logs=lines,
                call_id=request.call_id,
                parent_call_id=request.parent_call_id,
            )
            await self.log.durable()
        except NotRecordedError as exc:  # the log says "ran"; only the pipeline knows
            raise NotRecordedError(ran) from exc.__cause__


def _subject(request: CallRequest, tool: ToolDef, policy: Policy) -> Subject:
    session = request.session.id if request.session else None
    return Subject(policy, request.tenant_id, tool.name, session, request.egress_allow)


class _Saving:
    """``CallPipeline._saving``: one plain, stateless context manager (around awaits, it sees
    what they raise), as it is on every call's path (an ``asynccontextmanager`` cost a
    generator and two coroutines each time). It asks the pipeline's ``unavailable``, which is
    set after the pipeline is built."""

    __slots__ = ("pipeline",)

    def __init__(self, pipeline: CallPipeline) -> None:
        self.pipeline = pipeline

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> bool:
        if exc is None or not isinstance(exc, Exception) or not self.pipeline.unavailable(exc):
            return False  # nothing went wrong, or not the database being away: raised on
        state_lost.warning("a call's session state was not saved (database away): %s", exc)
        return True


def _declared(tool: ToolDef, arguments: Any) -> dict[str, Any]:
    """The declared part of arguments that failed validation: what the log may keep of them."""
    if not isinstance(arguments, dict):
        return {}
    properties = tool.parameters.get("properties") or {}
    return {k: v for k, v in arguments.items() if k in properties}


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
