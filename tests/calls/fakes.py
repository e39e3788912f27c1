"""In-memory fakes of the call path's ports (``server.calls.ports``, ``server.registry.ports``)
and a fake engine: the use cases composed as the server composes them, with no database, no
worker process and no network — for fast unit tests of their rules. The HTTP, PostgreSQL and
sandbox tests keep exercising the real adapters."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sandbox.engine import Capabilities, Run, RunResult
from server.calls.breakers import BreakerPolicy, MemoryBreakers
from server.calls.cache import ResultCache
from server.calls.calllog import CallLog
from server.calls.engines import Engines
from server.calls.jobs import Jobs as JobRunner
from server.calls.pipeline import CallPipeline
from server.calls.services import Services
from server.calls.session_state import SessionStates
from server.calls.sessions import SessionTracker, UsageRanking
from server.errors import ConflictError, NotFoundError
from server.events import EventHub
from server.guardrails import NONE, Policy
from server.registry.disk import DiskTools
from server.registry.model import BotDef, SessionRecord, ToolDef
from server.registry.ports import RegistryVersions, TenantRegistryData
from server.registry.service import Registry
from server.settings import Settings


@dataclass
class Version:
    """A stored tool version (``ports.StoredVersion``)."""

    id: int
    source: str | None = "# run by the fake engine"
    module: bytes | None = None
    webhook: dict[str, Any] | None = None


class Tools:
    def __init__(self) -> None:
        self.reads = 0

    async def stored_version(self, tool: ToolDef) -> Version:
        self.reads += 1
        return Version(tool.version_id)

    def decrypt_secret(self, tenant_id: str, name: str, version: Any) -> str | None:
        return None

    async def artefact(self, version_id: int, engine: str) -> bytes | None:
        return None

    async def keep_artefact(self, version_id: int, engine: str, artefact: bytes) -> None:
        return None


class Secrets:
    def __init__(self) -> None:
        self.stored: dict[tuple[str, str], str] = {}

    async def values(self, tenant_id: str, names: list[str]) -> dict[str, str]:
        return {n: self.stored[(tenant_id, n)] for n in names if (tenant_id, n) in self.stored}


class Limits:
    async def limits(self, tenant_id: str) -> dict[str, Any] | None:
        return None

    async def sandbox(self, tenant_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return (), ()

    async def allowlist(self, tenant_id: str) -> None:
        return None  # no allowlist of its own

    async def guardrails(self, tenant_id: str) -> Policy:
        return NONE


class Sessions:
    """Sessions and their variables; every write marks the session touched, as storage does."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.touched: set[str] = set()
        self.reads = 0
        self.created = 0

    async def create(self, tenant_id: str, bot: str, intent: str | None, created_by: str | None, customer: str | None = None) -> SessionRecord:  # fmt: skip
        self.created += 1
        record = SessionRecord(f"new-{len(self.db.sessions)}", tenant_id, bot, intent, customer=customer)  # fmt: skip
        self.db.sessions[record.id] = record
        return record

    async def get_with_variables(self, tenant_id: str, session_id: str) -> tuple[SessionRecord, dict[str, Any]]:  # fmt: skip
        from server.errors import NotFoundError

        self.reads += 1
        record = self.db.sessions.get(session_id)
        if record is None or record.tenant_id != tenant_id:
            raise NotFoundError(f"session {session_id!r} not found")
        return record, dict(self.db.variables.get(session_id, {}))

    async def variables(self, session_id: str) -> dict[str, Any]:
        return dict(self.db.variables.get(session_id, {}))

    async def set_variables(self, session_id: str, values: dict[str, Any]) -> None:
        self.db.variables.setdefault(session_id, {}).update(values)
        self.touched.add(session_id)

    async def bump(self, session_id: str) -> None:
        record = self.db.sessions[session_id]
        self.db.sessions[session_id] = replace(record, version=record.version + 1)
        self.touched.add(session_id)

    async def set_intent(self, session_id: str, intent: str | None) -> None:
        record = self.db.sessions[session_id]
        self.db.sessions[session_id] = replace(record, intent=intent, version=record.version + 1)
        self.touched.add(session_id)

    async def load_tools(self, session_id: str, names: Any, keep: int) -> None:
        record = self.db.sessions[session_id]
        loaded = [n for n in record.loaded if n not in names] + list(dict.fromkeys(names))
        self.db.sessions[session_id] = replace(record, loaded=tuple(loaded[-keep:]), version=record.version + 1)  # fmt: skip
        self.touched.add(session_id)

    async def set_actions(self, session_id: str, actions: list[dict[str, Any]]) -> None:
        record = self.db.sessions[session_id]
        self.db.sessions[session_id] = replace(record, actions=tuple(actions), version=record.version + 1)  # fmt: skip
        self.touched.add(session_id)

    async def count_failure(self, session_id: str, tool: str) -> int:
        key = (session_id, tool)
        self.db.failures[key] = self.db.failures.get(key, 0) + 1
        return self.db.failures[key]

    async def finish_claim(self, session_id: str, tool: str, done: bool) -> None:
        self.db.claims[(session_id, tool)] = done

    async def open_breaker(self, session_id: str, tool: str, until: float) -> None:
        record = self.db.sessions[session_id]
        breakers = (*record.open_breakers, {"tool": tool, "until": until})
        self.db.sessions[session_id] = replace(record, open_breakers=breakers, version=record.version + 1)  # fmt: skip
        self.db.failures.pop((session_id, tool), None)
        self.touched.add(session_id)


class Calls:
    def __init__(self, db: Database) -> None:
        self.db = db

    def breaker_opened(self, tenant: str, tool: str, scope: str, session_id: str | None) -> None:
        self.db.openings.append((tenant, tool, scope, session_id))

    async def most_used(self, tenant: str, since_s: float, limit: int = 200) -> list[str]:
        return []

    async def reported(self, session_id: str, call_id: str) -> bool:
        return any(r["session_id"] == session_id and r["call_id"] == call_id for r in self.db.reported)  # fmt: skip

    async def record(self, **row: Any) -> None:
        self.db.reported.append(row)


class Lifecycle:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def hand_off(self, tenant_id: str, sid: str, now: datetime) -> bool:
        record = self.db.sessions[sid]
        if record.status != "active":
            return False
        self.db.sessions[sid] = replace(record, status="handed_off")
        return True


@dataclass
class Job:
    """A job as the fakes keep it (``records.StoredJob``)."""

    id: str
    tenant_id: str
    session_id: str | None
    bot: str | None
    tool: str
    version: int
    kind: str
    arguments_ct: str
    timeout_s: int
    created_at: datetime
    message_id: str | None = None
    location: str | None = None
    status: str = "queued"
    progress: float | None = None
    message: str | None = None
    result: Any = None
    attempts: int = 0
    lease_until: datetime | None = None
    cancel_requested: bool = False
    deliver: bool = False
    started_at: datetime | None = None
    finished_at: datetime | None = None
    cpu_ms: float = 0.0


class Jobs:
    """``ports.JobRecords`` in memory: the same conditional writes as the database's."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.writes: list[tuple[str, str]] = []  # (what, job): progress writes, for the tests

    async def create(self, *, tenant_id: str, session_id: str | None, bot: str | None, tool: str, version: int, kind: str, arguments: Any, timeout_s: int, now: datetime, message_id: str | None = None, location: str | None = None) -> Job:  # fmt: skip
        job = Job(f"{len(self.db.jobs) + 1:032x}", tenant_id, session_id, bot, tool, version, kind, json.dumps(arguments), timeout_s, now, message_id, location)  # fmt: skip
        self.db.jobs[job.id] = job
        return job

    def arguments(self, row: Any) -> Any:
        return json.loads(row.arguments_ct)

    async def unfinished(self, tenant_id: str) -> int:
        return sum(j.tenant_id == tenant_id and j.status in ("queued", "running") for j in self.db.jobs.values())  # fmt: skip

    async def get(self, tenant_id: str, job_id: str) -> Job:
        job = self.db.jobs.get(job_id)
        if job is None or job.tenant_id != tenant_id:
            raise NotFoundError(f"job {job_id!r} not found")
        return replace(job)

    async def find(self, job_id: str) -> Job | None:
        job = self.db.jobs.get(job_id)
        return replace(job) if job else None

    async def claim(self, now: datetime, lease_s: float, limit: int) -> list[Job]:
        due = [j for j in self.db.jobs.values() if j.status == "queued" or (j.status == "running" and j.lease_until is not None and j.lease_until < now)][:limit]  # fmt: skip
        for job in due:
            job.status, job.attempts = "running", job.attempts + 1
            job.lease_until, job.started_at = (
                now + timedelta(seconds=lease_s),
                job.started_at or now,
            )
        return [replace(j) for j in due]

    def _held(self, job_id: str, attempt: int) -> Job | None:
        job = self.db.jobs.get(job_id)
        return job if job and job.status == "running" and job.attempts == attempt else None

    async def extend(self, job_id: str, attempt: int, until: datetime) -> tuple[bool, bool]:
        job = self._held(job_id, attempt)
        if job is None:
            return False, False
        job.lease_until = until
        return True, job.cancel_requested

    async def report(self, job_id: str, attempt: int, session_id: str | None, progress: float | None, message: str | None) -> bool:  # fmt: skip
        job = self._held(job_id, attempt)
        if job is None:
            return False
        job.progress, job.message = progress, message
        self.writes.append(("progress", job_id))
        return True

    async def locate(self, job_id: str, attempt: int, location: str) -> bool:
        job = self._held(job_id, attempt)
        if job is not None:
            job.location = location
        return job is not None

    async def finish(self, job_id: str, attempt: int | None, session_id: str | None, status: str, result: dict[str, Any], now: datetime, cpu_ms: float = 0.0) -> Job | None:  # fmt: skip
        job = self.db.jobs.get(job_id)
        if job is None or (job.status != "queued" if attempt is None else self._held(job_id, attempt) is None):  # fmt: skip
            return None
        job.status, job.result, job.finished_at, job.cpu_ms, job.lease_until = status, result, now, cpu_ms, None  # fmt: skip
        return replace(job)

    async def cancel(self, tenant_id: str, job_id: str) -> Job:
        job = await self.get(tenant_id, job_id)
        if job.status not in ("queued", "running"):
            raise ConflictError(f"job {job_id!r} has already {job.status}")
        self.db.jobs[job_id].cancel_requested = True
        return await self.get(tenant_id, job_id)

    async def defer(self, job_id: str) -> bool:
        job = self.db.jobs[job_id]
        if job.status in ("queued", "running"):
            job.deliver = True
            return True
        return False

    async def page(self, tenant_id: str, *, session_id: str | None, status: str | None, limit: int, after: Any) -> list[Job]:  # fmt: skip
        return [j for j in self.db.jobs.values() if j.tenant_id == tenant_id][:limit]


@dataclass
class Database:
    """What the fakes keep: the committed state every unit of work shares."""

    tools: dict[str, list[ToolDef]] = field(default_factory=dict)  # by tenant
    bots: dict[str, dict[str, BotDef]] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)
    sessions: dict[str, SessionRecord] = field(default_factory=dict)
    variables: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: dict[tuple[str, str], int] = field(default_factory=dict)
    claims: dict[tuple[str, str], bool] = field(default_factory=dict)
    openings: list[tuple[str, str, str, str | None]] = field(default_factory=list)
    logged: list[dict[str, Any]] = field(default_factory=list)
    reported: list[dict[str, Any]] = field(default_factory=list)  # browser outcomes
    jobs: dict[str, Job] = field(default_factory=dict)


class Store:
    """One unit of work (``ports.CallStore``) over the shared ``Database``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.answered = False
        self.tools = Tools()
        self.secrets = Secrets()
        self.tenants = Limits()
        self.sessions = Sessions(db)
        self.calls = Calls(db)
        self.lifecycle = Lifecycle(db)
        self.jobs = Jobs(db)

    async def checkpoint(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def registry_versions(self, tenant_id: str) -> RegistryVersions | None:
        if tenant_id not in self.db.versions:
            return None
        return RegistryVersions(self.db.versions[tenant_id], 0)

    async def load_registry(self, tenant_id: str) -> TenantRegistryData:
        return TenantRegistryData(
            allowlist=(), tenant_tools=tuple(self.db.tools.get(tenant_id, ())), global_tools=(),
            bots=dict(self.db.bots.get(tenant_id, {})),
        )  # fmt: skip


Behaviour = Callable[[dict[str, Any], dict[str, Any]], RunResult]


class Engine:
    """Runs a tool as the test scripted it: ``behaviours[name](params, context)``."""

    def __init__(self) -> None:
        self.behaviours: dict[str, Behaviour] = {}
        self.runs: list[tuple[str, dict[str, Any]]] = []

    name = "fake"
    capabilities = Capabilities(imports=True)

    async def run(self, source: Any, run: Run) -> RunResult:
        self.runs.append((run.tool, dict(run.params)))
        behaviour = self.behaviours[run.tool]
        if inspect.iscoroutinefunction(behaviour):  # one that makes host calls: given the run
            return await behaviour(run)  # type: ignore[no-any-return]
        return behaviour(run.params, run.context)


class Claims:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim(self, session_id: str, tool: str, lease_s: float, store: Any = None) -> bool:
        if (session_id, tool) in self.db.claims:
            return False
        self.db.claims[(session_id, tool)] = False
        return True


class Handoffs:
    def __init__(self) -> None:
        self.announced: list[tuple[str, str, str, str, str]] = []

    def announce(self, tenant_id: str, sid: str, bot: str, tool: str, reason: str) -> None:
        self.announced.append((tenant_id, sid, bot, tool, reason))


class Messages:
    """A transcript that only keeps what is appended (a job's end delivered to a conversation)."""

    def __init__(self) -> None:
        self.appended: list[tuple[str, dict[str, Any]]] = []

    async def append(self, session_id: str, tenant_id: str, bot: str, messages: list[dict[str, Any]], seq: int | None = None) -> list[Any]:  # fmt: skip
        self.appended.extend((session_id, m) for m in messages)
        return []

    async def close(self) -> None:
        return None


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Storage:
    """``services.Storage`` over the shared ``Database``: a unit of work is a fake ``Store``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Store]:
        yield Store(self.db)

    def reader(self) -> Store:
        return Store(self.db)


def composed(db: Database) -> tuple[Services, Engine, CallLog, Clock]:
    """The use cases' services as ``server.bootstrap`` composes them, over the fakes (the parts
    the call path does not use — the engines that load files, the skills' indexes, the
    transcript — are left out)."""
    engine, clock = Engine(), Clock()
    registry = Registry(DiskTools(), version_ttl_s=0)

    async def write(rows: list[dict[str, Any]]) -> None:
        db.logged.extend(rows)

    log = CallLog(write, flush_interval_s=3600)
    tracker = SessionTracker(MemoryBreakers(), BreakerPolicy(), UsageRanking(), clock=clock)

    engines = Engines(engine, None, None, None, None)  # type: ignore[arg-type]
    pipeline = CallPipeline(
        registry, engines, None, log, 2000, 30_000,  # type: ignore[arg-type]
        tracker, ResultCache(100), Claims(db),
    )  # fmt: skip
    messages = Messages()
    jobs = JobRunner(Storage(db), registry, pipeline, messages, clock)  # type: ignore[arg-type]
    services = Services(
        settings=Settings(), storage=Storage(db), registry=registry, pipeline=pipeline,
        tracker=tracker, session_states=SessionStates(), events=EventHub(),
        engines=engines, limits=None, indexes=None, handoffs=Handoffs(), messages=messages,  # type: ignore[arg-type]
        hooks_due=asyncio.Event(), jobs=jobs,
    )  # fmt: skip
    return services, engine, log, clock


def python_tool(tenant: str, name: str, version_id: int, **metadata: Any) -> ToolDef:
    return ToolDef(
        name=name, description=f"{name} (fake)", metadata=metadata, kind="python",
        origin="tenant", version=1, content_hash=f"h-{name}", tenant_id=tenant,
        sandbox="restricted", version_id=version_id, on_error=False,
        parameters={"type": "object", "properties": {"order_id": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{4}$"}}},
    )  # fmt: skip
