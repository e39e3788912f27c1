"""Start-up of a node: database, migrations, secret key, bootstrap admin key, disk tools."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from sandbox.pool import PoolConfig, WorkerPool
from sandbox.restricted.engine import RestrictedEngine
from sandbox.wasm.engine import WasmEngine
from sandbox.wasm.javascript import build as quickjs_build
from sandbox.wasm.javascript.engine import JavaScriptEngine
from sandbox.wasm.python import build as python_runner
from sandbox.wasm.python import config as runner_config
from sandbox.wasm.python.engine import PythonWasmEngine
from server import first_key, metrics, tls
from server.agent.loop import AgentLoop
from server.agent.tool_llm import ToolLlm
from server.calls.admission import FairAdmission
from server.calls.breakers import BreakerPolicy, FallbackBreakers, MemoryBreakers, RedisBreakers
from server.calls.cache import ResultCache
from server.calls.calllog import CallLog
from server.calls.connections import Connections
from server.calls.engines import Engines
from server.calls.federation_watch import FederationWatch
from server.calls.guardrails import Guardrails
from server.calls.host import HttpHost
from server.calls.jobs import Jobs
from server.calls.journal import DiskRoom, Journal
from server.calls.lifecycle import Handoffs, SessionEndHooks, SessionSweeper
from server.calls.mcp_remote import McpEngine
from server.calls.pipeline import CallPipeline
from server.calls.services import Services
from server.calls.session_marks import marks_from
from server.calls.session_state import SessionStates
from server.calls.sessions import SessionTracker, UsageRanking
from server.calls.webhook import WebhookEngine
from server.clock import Clock
from server.dependency import Dependency
from server.egress import Allowlist, EgressGuard
from server.errors import FieldError, Problems
from server.events import EventHub
from server.first_key import FirstAdminKey
from server.keycache import KeyCache, KeyTouches
from server.propagation import Propagation, SqliteWatch, announce_now
from server.quotas import Quotas, TenantLimits
from server.registry.definitions import DefinitionLimits
from server.registry.disk import DiskTools, load_disk_tools
from server.registry.service import Registry
from server.secretbox import SecretBox, SecretBoxError, generate_key
from server.settings import Settings
from server.skills.indexes import Indexes
from server.skills.service import Skills
from server.storage import backup, migrate
from server.storage.calls import CallRows
from server.storage.claims import OnceClaims
from server.storage.conversations import MessageLog
from server.storage.database import (
    create_engine,
    is_unavailable,
    local_directory,
    local_file,
    session_factory,
)
from server.storage.idempotency import IdempotencyKeys
from server.storage.packages import StoredPackageFiles
from server.storage.repositories import KeyRepository, Store
from server.storage.skills import DatasetRepository
from server.storage.units import DatabaseStorage
from server.tracing import OFF, Tracing
from server.version import VERSION

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export import SpanExporter

log = logging.getLogger("quiver")
T = TypeVar("T")


def build_call_log(
    settings: Settings, sessions: async_sessionmaker[AsyncSession], clock: Clock
) -> CallLog:
    """The node's call log: journalled in the data directory until rows are in the database.
    A database on the journal's own disk (SQLite, as by default) is written only while that
    disk has twice the journal's reserve free: writing a backlog must not take the room the
    journal keeps for calls."""
    reserve = settings.call_log_reserve_mb << 20
    journal = None
    try:
        journal = Journal(
            settings.data_dir / "call-log",
            reserve=reserve,
            clock=clock.monotonic,
            sync=settings.call_log_fsync,
        )
    except OSError as exc:
        log.warning("call-log journal disabled (%s): a crash may lose the last rows", exc)
    local = local_directory(settings.effective_database_url)
    room = None
    if journal is not None and local is not None and _same_disk(local, journal.directory):
        room = DiskRoom(local, 2 * reserve, clock.monotonic)
    return CallLog(
        CallRows(sessions),
        settings.call_log_flush_ms / 1000,
        unavailable=is_unavailable,
        journal=journal,
        room=(lambda: room.enough()) if room is not None else (lambda: True),
    )


def touch_keys(
    sessions: async_sessionmaker[AsyncSession],
) -> Callable[[dict[str, datetime]], Awaitable[None]]:
    async def write(touches: dict[str, datetime]) -> None:
        async with sessions() as session, session.begin():
            await KeyRepository(session).touch_many(touches)

    return write


def _same_disk(one: Path, other: Path) -> bool:
    try:
        return one.stat().st_dev == other.stat().st_dev
    except OSError:  # not there yet: the database's folder is made when it is created
        return False


WASM_UID_OFFSET = 1_000


async def _read(
    sessions: async_sessionmaker[AsyncSession], read: Callable[[DatasetRepository], Awaitable[T]]
) -> T:
    """A read of the skills' data sets in a unit of work of its own."""
    async with sessions() as session, session.begin():
        return await read(DatasetRepository(session))


async def _no_load(tenant: str, name: str, version: int) -> list[dict[str, Any]]:
    return []


async def _no_versions(tenant: str) -> dict[str, tuple[str, int]]:
    return {}


@dataclass
class Runtime:
    """Everything one node holds for its lifetime."""

    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    registry: Registry
    limits: DefinitionLimits
    keys: KeyCache
    key_touches: KeyTouches
    engines: Engines
    http_client: httpx.AsyncClient
    call_log: CallLog
    pipeline: CallPipeline
    tracker: SessionTracker
    events: EventHub
    storage: DatabaseStorage
    services: Services  # what the use cases are given: never the runtime itself
    idempotency: IdempotencyKeys
    agent: AgentLoop
    handoffs: Handoffs
    hooks: SessionEndHooks
    sweeper: SessionSweeper
    federation: FederationWatch  # keeps federated MCP servers' tools up to date
    jobs: Jobs  # runs the jobs this node claims (the use cases see ``services.jobs``)
    redis: Any = None
    redis_health: Dependency | None = None
    quotas: Quotas | None = None
    egress: EgressGuard | None = None
    tracing: Tracing = OFF
    indexes: Indexes = field(default_factory=lambda: Indexes(_no_load, _no_versions))
    session_states: SessionStates = field(default_factory=SessionStates)
    propagation: Propagation | SqliteWatch | None = None
    first_admin_key: FirstAdminKey | None = None  # created at this start; announced once
    clock: Clock = field(default_factory=Clock)
    node_lock: int | None = None  # SQLite: held while the node lives (restore refuses then)

    _stop_watching: asyncio.Event = field(default_factory=asyncio.Event)
    _watcher: asyncio.Task[None] | None = None
    javascript_loaded: asyncio.Task[None] | None = None

    def reload_disk(self) -> DiskTools:
        """Read the tools folder (and builtins) again; every attached agent sees the result.
        JavaScript files join when QuickJS has loaded them (``javascript_loaded``)."""
        disk = load_disk(self.settings, self.limits, self.registry.disk.generation + 1)
        self.registry.replace_disk(disk)
        self.events.everything_changed()
        log.info(
            "disk tools reloaded: %d tools, %d invalid files", len(disk.tools), len(disk.errors)
        )
        if disk.pending:
            self.javascript_loaded = asyncio.get_running_loop().create_task(
                self.load_javascript(disk)
            )
        return disk

    async def reload_disk_now(self) -> DiskTools:
        """``reload_disk``, and its JavaScript files loaded."""
        self.reload_disk()
        if self.javascript_loaded is not None:
            await self.javascript_loaded
        return self.registry.disk

    async def load_javascript(self, disk: DiskTools) -> None:
        """Load a folder's JavaScript files in QuickJS (within the load-time limit) and add the
        tools they declare; a file that fails is reported by name, like any disk file."""
        from sandbox.engine import ToolSource
        from server.registry.definitions import apply_loaded, javascript_draft
        from server.registry.disk import DiskTool, add, disk_def, javascript_tool

        seen: dict[str, str] = {}
        for path, source, origin in disk.pending:
            problems = Problems()
            draft = javascript_draft(source, self.limits, problems)
            declared: list[dict[str, Any]] = []
            if draft is not None:
                source_ = ToolSource("javascript", "javascript", source)
                inspection = await self.engines.javascript.inspect(source_, "_disk")
                for v in inspection.violations:
                    problems.add(v.field or "source", v.message, v.line)
                declared = inspection.tools
            if problems or draft is None:
                disk.errors[path.name] = problems.errors
                continue
            # one tool, named after its file; or a group (``{tools: [...]}``), each by its name
            if not declared:
                disk.errors[path.name] = [FieldError("declares no tool", field="source")]
                continue
            found_here: list[DiskTool] = []
            for spec in declared:
                one = dataclasses.replace(draft)
                problems = apply_loaded(one, [spec], self.limits)
                if problems:
                    disk.errors.setdefault(path.name, []).extend(problems.errors)
                    continue
                if len(declared) == 1:
                    found = javascript_tool(path, source, origin, one)
                    if isinstance(found, FieldError):
                        disk.errors[path.name] = [found]
                        continue
                    found_here.append(found)
                else:
                    found_here.append(DiskTool(disk_def(one, origin), path, source))
            for found in found_here:
                same_folder = {
                    n: t.path.name for n, t in disk.tools.items() if t.path.parent == path.parent
                }
                add(disk, {**same_folder, **seen}, found)
                seen[found.tool.name] = path.name
        disk.pending = []
        if self.registry.disk is disk:
            self.registry.replace_disk(dataclasses.replace(disk, generation=disk.generation + 1))
            self.events.everything_changed()
        for filename, errors in disk.errors.items():
            log.warning(
                "disk tool file %s was not loaded: %s",
                filename,
                "; ".join(e.message for e in errors),
            )

    async def watch_disk(self) -> None:
        """Development: reload whenever a file in the tools folder changes."""
        import watchfiles

        folder = self.settings.tools_dir
        if folder is None:
            return
        async for _changes in watchfiles.awatch(folder, stop_event=self._stop_watching):
            self.reload_disk()

    @property
    def box(self) -> SecretBox:
        """The node's secret box (one: the units of work encrypt and decrypt with it)."""
        return self.storage.box

    def store(self, session: Any = None) -> Store:
        """A unit of work in ``session`` — or, without one, in a session it opens on first use."""
        return self.storage.store(session)

    def committed(self, store: Store) -> None:
        """Make this node's caches see what a committed unit of work changed (called by the
        unit of work as it commits: ``server.storage.database.UnitOfWork``)."""
        for record in store.sessions.committed_creations():  # its first request reads nothing
            self.session_states.put(record, {}, self.session_states.seen(record.id))
            self.agent.histories.keep(record.id, [], 1)
        if store.sessions.touched:
            self.session_states.changed(store.sessions.touched)
            store.sessions.touched = set()
        if store.changed_tenants:
            self.registry.invalidate(store.changed_tenants)
            if self.quotas is not None:
                self.quotas.forget(store.changed_tenants)
            for tenant in store.changed_tenants:
                self.events.tenant_changed(tenant)
        for session in store.sessions.bumped:
            self.events.session_changed(session)
        if store.revoked_keys:
            self.keys.evict(store.revoked_keys)
        jobs = store.changed_jobs
        if jobs:
            self.jobs_changed(dict(jobs))
            jobs.clear()
        for tenant in store.changed_datasets:
            self.indexes.forget(tenant)
        if store.servers_due:  # a federated MCP server declared: the watcher takes it now
            self.services.servers_due.set()
            store.servers_due = False
        # a later transaction of the same unit of work reports only its own changes
        store.changed_tenants, store.changed_datasets, store.revoked_keys = set(), set(), set()
        store.sessions.bumped = set()

    def jobs_changed(self, jobs: dict[str, str | None], *, remote: bool = False) -> None:
        """Jobs changed (a commit here; ``remote``: another node's announcement): their
        sessions' streams send them, and whoever waits for them reads them again."""
        for job, session in jobs.items():
            if session:
                self.events.job_changed(session, job)
        self.jobs.changed(jobs, remote=remote)

    async def close(self) -> None:
        self.events.close()
        await self.jobs.stop()  # first: its runs use what the rest closes
        await self.federation.stop()
        self._stop_watching.set()
        if self._watcher is not None:
            await self._watcher
        if self.propagation is not None:
            await self.propagation.stop()
        await self.call_log.stop()
        await self.key_touches.stop()
        await self.agent.close()
        await self.sweeper.stop()
        await self.handoffs.drain()
        await self.tracker.breakers.close()
        if self.quotas is not None:
            await self.quotas.close()
        if self.redis is not None:
            await self.redis.aclose()
        await self.engines.close()
        await self.http_client.aclose()
        await self.engine.dispose()
        self.tracing.close()  # what is still batched goes out
        if self.node_lock is not None:
            os.close(self.node_lock)
            self.node_lock = None


def redis_client(settings: Settings) -> Any:
    """The shared tier (breakers, result cache) when ``QUIVER_REDIS_URL`` is set."""
    if not settings.redis_url:
        return None
    import redis.asyncio

    # short timeouts: a Redis that hangs must not hold calls (the in-process tier takes over)
    return redis.asyncio.from_url(settings.redis_url, **REDIS_OPTIONS)


def _redis_options() -> dict[str, Any]:
    import redis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    return {
        "socket_timeout": 0.5,
        "socket_connect_timeout": 0.5,
        # a pooled connection is dead after Redis restarted: reconnect once at once instead of
        # reporting Redis away (which sends the node to its in-process tier for a while)
        "retry": Retry(NoBackoff(), 1),
        "retry_on_error": [redis.ConnectionError],
    }


REDIS_OPTIONS = _redis_options()


def definition_limits(settings: Settings) -> DefinitionLimits:
    return DefinitionLimits(
        max_source_bytes=settings.max_source_bytes,
        max_module_bytes=settings.max_module_bytes,
        default_timeout_ms=settings.default_timeout_ms,
        max_timeout_ms=settings.max_timeout_ms,
        max_job_timeout_s=settings.max_job_timeout_s,
    )


def egress_allowlist(settings: Settings) -> Allowlist:
    """``QUIVER_EGRESS_ALLOW`` (the demo admits its own endpoint for the demo tenant only)."""
    return Allowlist.parse(settings.egress_allow)


def pool_config(settings: Settings) -> PoolConfig:
    return PoolConfig(
        size=settings.workers,
        memory_bytes=settings.worker_memory_mb * 1024 * 1024,
        max_calls_per_worker=settings.worker_max_calls,
        tenant_concurrency=settings.tenant_concurrency,
        queue_wait_ms=settings.queue_wait_ms,
        base_uid=settings.worker_uid_base,
        result_cap=settings.result_cap_bytes,
        restart_burst=settings.tenant_restart_burst,
        restarts_per_s=settings.tenant_restarts_per_s,
        spares=settings.worker_spares,
    )


def load_secret_box(settings: Settings) -> SecretBox:
    """The configured keys; on the embedded SQLite default, a key generated into the data dir."""
    if settings.secret_key is not None:
        return SecretBox.from_config(settings.secret_key.get_secret_value())
    if not settings.is_sqlite:
        raise SecretBoxError(
            "QUIVER_SECRET_KEY is required when the database is not the embedded SQLite"
        )
    path = settings.data_dir / "secret.key"
    if not path.exists():
        settings.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(generate_key() + "\n")
        log.warning(
            "QUIVER_SECRET_KEY is not set: generated %s; set it explicitly in production", path
        )
    return SecretBox.from_config(path.read_text().strip())


def load_disk(settings: Settings, limits: DefinitionLimits, generation: int = 0) -> DiskTools:
    folders: list[tuple[Path, str]] = [(settings.builtins_dir, "builtin")]
    if settings.tools_dir is not None:
        folders.append((settings.tools_dir, "global"))
    disk = load_disk_tools(folders, limits, generation)  # type: ignore[arg-type]
    for filename, errors in disk.errors.items():
        log.warning(
            "disk tool file %s was not loaded: %s", filename, "; ".join(e.message for e in errors)
        )
    return disk


async def ensure_admin_key(runtime: Runtime) -> str | None:
    """Create and return an admin key when none exists and none is configured."""
    if runtime.settings.admin_key is not None:
        return None
    async with runtime.sessions() as session, session.begin():
        store = runtime.store(session)
        if await store.keys.count_active_admins():
            return None
        _, key = await store.keys.create("admin", None, label="bootstrap")
        store.audit.record(None, None, "key.create", key.id, {"role": "admin", "bootstrap": True})
    return key.token


async def start(
    settings: Settings, clock: Clock | None = None, span_exporter: SpanExporter | None = None
) -> Runtime:
    """The node, built from ``settings``; ``clock``: a test's, to move time instead of sleeping;
    ``span_exporter``: where its traces go (a test's; else ``QUIVER_OTLP_ENDPOINT``, if set)."""
    clock = clock or Clock()
    if span_exporter is not None:
        tracing = Tracing(span_exporter, settings.otlp_service_name, batch=False, version=VERSION)
    elif settings.otlp_endpoint:
        tracing = Tracing.otlp(settings.otlp_endpoint, settings.otlp_service_name, VERSION)
    else:
        tracing = OFF
    database_file = local_file(settings.effective_database_url)
    node_lock = backup.hold_node_lock(database_file) if database_file is not None else None
    engine = create_engine(settings.effective_database_url)
    if settings.auto_migrate:
        await migrate.upgrade(engine)
    limits = definition_limits(settings)
    sessions = session_factory(engine)
    registry = Registry(
        load_disk(settings, limits), version_ttl_s=settings.registry_cache_ttl_ms / 1000
    )
    restricted = RestrictedEngine(pool_config(settings), load_timeout_ms=settings.load_timeout_ms)
    # WASI modules run in a sibling pool with the same hardening (its workers load wasmtime
    # before dropping privileges); it starts at the first WASM save or call.
    # RLIMIT_AS there is 1 GiB larger: wasmtime's thread stacks and per-store reservations are
    # address space, not memory; guest memory is capped per call by the store's limiter.
    # Its workers get their own uids (base + 1000 + i): RLIMIT_NPROC counts every process and
    # thread of a uid, and WASM workers need a few threads.
    # Python tools with "sandbox": "wasm" run there too, in the runner built at install or at
    # the first `quiver serve` (its instance slots add address space, not memory).
    config = pool_config(settings)
    runner = python_runner.runner_path(settings.cache_dir)
    runner_found = runner.exists()
    quickjs = await asyncio.to_thread(quickjs_build.ensure, settings.cache_dir)  # ~1.5 s, once
    extra_space = (1 << 30) + (runner_config.ADDRESS_SPACE if runner_found else 0)
    wasm = WasmEngine(
        WorkerPool(
            dataclasses.replace(
                config,
                wasm=True,
                memory_bytes=config.memory_bytes + extra_space,
                base_uid=None if config.base_uid is None else config.base_uid + WASM_UID_OFFSET,
                python_runner=str(runner) if runner_found else None,
                js_runner=str(quickjs),
            )
        )
    )
    javascript = JavaScriptEngine(wasm.pool, settings.load_timeout_ms)
    python_wasm = PythonWasmEngine(wasm.pool, settings.load_timeout_ms) if runner_found else None
    packages = StoredPackageFiles(sessions)  # what the engines load granted packages from
    for pooled in (restricted, javascript, python_wasm):
        if pooled is not None:
            pooled.packages = packages
    if not runner_found:
        log.warning(
            'the Python WASM runner is not built (%s): Python tools with sandbox "wasm" '
            "cannot run on this node until `quiver wasm-runner` builds it",
            runner,
        )
    # One pooled client per node; proxies from the environment are ignored (trust_env=False).
    http_client = httpx.AsyncClient(
        verify=tls.context("httpx"),
        trust_env=False,
        follow_redirects=False,
        limits=httpx.Limits(max_connections=200, max_keepalive_connections=64),
    )
    guard = EgressGuard(
        http_client,
        egress_allowlist(settings),
        per_tenant=settings.tenant_egress_concurrency,
        tracing=tracing,
    )
    call_log = build_call_log(settings, sessions, clock)
    await call_log.replay()  # rows a previous process answered but had not written
    call_log.start()
    redis = redis_client(settings)
    redis_health = Dependency("redis") if redis is not None else None
    events = EventHub()
    background: set[asyncio.Task[None]] = set()

    def breaker_moved(tenant: str) -> None:
        """A rolling breaker opened or closed: this node's streams now, other nodes by NOTIFY."""
        events.tenant_changed(tenant)
        task = asyncio.get_running_loop().create_task(announce_now(engine, f"t:{tenant}:breaker"))
        background.add(task)
        task.add_done_callback(background.discard)

    tracker = SessionTracker(
        FallbackBreakers(
            RedisBreakers(redis, clock=clock.time), MemoryBreakers(clock.time), redis_health
        )
        if redis is not None
        else MemoryBreakers(clock.time),
        BreakerPolicy(
            min_calls=settings.breaker_min_calls,
            failure_rate=settings.breaker_failure_rate,
            window_s=settings.breaker_window_s,
            cooldown_s=settings.breaker_cooldown_s,
        ),
        UsageRanking(settings.usage_refresh_s),
        on_tenant_change=breaker_moved,
        clock=clock.time,
    )
    engines = Engines(
        restricted, wasm, javascript, python_wasm, WebhookEngine(guard), mcp=McpEngine(guard)
    )
    pipeline = CallPipeline(
        registry,
        engines,
        HttpHost(guard),
        call_log,
        settings.default_timeout_ms,
        settings.max_timeout_ms,
        tracker,
        ResultCache(
            settings.result_cache_entries, redis, health=redis_health, clock=clock.monotonic
        ),
        OnceClaims(sessions),
    )
    pipeline.unavailable = is_unavailable
    pipeline.tracing = tracing
    pipeline.guardrails = Guardrails(guard)
    pipeline.partials = events.partial
    pipeline.admission = FairAdmission(
        settings.call_slots or max(8, 4 * settings.workers), settings.queue_wait_ms / 1000
    )
    pipeline.quotas = quotas = Quotas(
        TenantLimits(
            requests=settings.tenant_requests or None,
            key_requests=settings.key_requests or None,
            calls_per_day=settings.tenant_calls_per_day or None,
            cpu_ms_per_day=settings.tenant_cpu_ms_per_day or None,
            running_jobs=settings.tenant_running_jobs or None,
        ),
        settings.redis_url,
        redis_health,
        REDIS_OPTIONS,
    )
    pool = restricted.pool
    metrics.watch_pool(lambda: pool.busy, lambda: pool.stats.waiting, lambda: pool.stats.killed)
    pipeline.result_cap = settings.result_cap_bytes
    pipeline.wasm_max_fuel = settings.wasm_max_fuel
    pipeline.wasm_max_memory_mb = settings.wasm_max_memory_mb
    box = load_secret_box(settings)
    storage = DatabaseStorage(sessions, box)
    pipeline.connections = Connections(guard, settings.public_url, clock.time, storage)
    session_states = SessionStates(settings.session_cache_size, marks_from(settings.session_marks))
    indexes = Indexes(
        lambda tenant, name, version: _read(sessions, lambda s: s.items(tenant, name, version)),
        lambda tenant: _read(sessions, lambda s: s.versions(tenant)),
        ttl_s=settings.registry_cache_ttl_ms / 1000,
    )
    pipeline.skills = Skills(indexes)
    pipeline.job_timeout_s = settings.job_timeout_s
    pipeline.job_poll_s = settings.job_poll_s
    handoffs = Handoffs(storage, guard)
    messages = MessageLog(engine)
    jobs = Jobs(
        storage,
        registry,
        pipeline,
        messages,
        clock.time,
        lease_s=settings.job_lease_s,
        slots=settings.job_slots,
        poll_s=settings.job_poll_s,
    )
    services = Services(
        settings=settings,
        storage=storage,
        registry=registry,
        pipeline=pipeline,
        tracker=tracker,
        session_states=session_states,
        events=events,
        engines=engines,
        limits=limits,
        indexes=indexes,
        handoffs=handoffs,
        messages=messages,
        hooks_due=asyncio.Event(),
        jobs=jobs,
        egress=guard,
        quotas=quotas,
        tracing=tracing,
    )
    agent = AgentLoop(services)
    hooks = SessionEndHooks(services, clock.time)
    runtime = Runtime(
        settings=settings,
        agent=agent,
        hooks=hooks,
        jobs=jobs,
        sweeper=SessionSweeper(services, hooks, settings.session_sweep_s, clock.time),
        federation=FederationWatch(
            services,
            lease_s=settings.mcp_watch_lease_s,
            refresh_s=settings.mcp_refresh_s,
            clock=clock.time,
            most=settings.mcp_watch_max,
        ),
        clock=clock,
        session_states=session_states,
        storage=storage,
        services=services,
        indexes=indexes,
        handoffs=handoffs,
        engine=engine,
        sessions=sessions,
        registry=registry,
        limits=limits,
        keys=KeyCache(settings.auth_cache_ttl_s),
        key_touches=KeyTouches(touch_keys(sessions)),
        engines=engines,
        http_client=http_client,
        call_log=call_log,
        pipeline=pipeline,
        tracker=tracker,
        events=events,
        redis=redis,
        redis_health=redis_health,
        idempotency=IdempotencyKeys(sessions),
        quotas=quotas,
        egress=guard,
        tracing=tracing,
    )
    storage.committed = runtime.committed  # the node's caches follow each commit
    runtime.node_lock = node_lock
    runtime.sweeper.start()
    runtime.federation.start()
    if settings.job_slots:
        jobs.start()
    runtime.key_touches.start()
    pipeline.llm = ToolLlm(services, runtime.agent.clients).chat
    if registry.disk.pending:  # the folder's JavaScript files, loaded in QuickJS
        await runtime.load_javascript(registry.disk)
    if settings.watch_tools and settings.tools_dir is not None:
        runtime._watcher = asyncio.get_running_loop().create_task(runtime.watch_disk())
    if settings.is_sqlite:
        runtime.propagation = SqliteWatch(runtime, settings.poll_ms / 1000, clock.monotonic)
        await runtime.propagation.check()  # the first fingerprint, before any request
    else:
        runtime.propagation = Propagation(
            runtime, listen=settings.notify, poll_s=settings.poll_ms / 1000
        )
    runtime.propagation.start()
    registry.changes_pushed = runtime.keys.changes_pushed = runtime.propagation.pushing
    token = await ensure_admin_key(runtime)
    if token is not None:  # the server announces it; the CLI to stderr
        runtime.first_admin_key = first_key.keep(token, settings.data_dir)
    return runtime
