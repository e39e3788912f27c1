"""A pool of pre-started, hardened worker processes, driven from asyncio.

Shared by the engines that run tools in worker processes (RestrictedPython, and the WASM
engines whose runners live in workers). Every worker is a fresh interpreter with an empty
environment and an empty, read-only working directory: nothing of the server's memory, files,
keys or connections is inherited. The pool enforces the wall-clock deadline of every request
(a worker past it is killed and replaced), a per-tenant cap on busy workers, and a bounded wait
for a free worker (``busy`` past it).

Restarting a worker costs a fresh interpreter (~75 ms of a core): each tenant has a budget of
restarts (a token bucket: ``restart_burst``, refilled at ``restarts_per_s``). A tenant whose
tools keep killing their workers — memory bombs, timeouts, crashes — gets ``busy`` for its own
calls once the budget is spent, so it cannot starve the other tenants of CPU.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from sandbox import channel
from sandbox.deadlines import Deadlines
from sandbox.engine import HostHandler

# what a worker is sent when it has not loaded a request's file: its source, or the fields
Source = str | Mapping[str, Any] | None

log = logging.getLogger("quiver.sandbox")
READY_TIMEOUT_S = 30.0
SPIN_S = 0.0002  # how long a quiet node polls for a worker's reply before parking
QUIET_S = 0.002  # quiet: no call running, and none started for this long
MAX_AFFINITIES = 100_000  # tenants whose last worker is remembered
BUFFER_CAP = 1 << 20  # bytes of a worker's output buffered before a request asks for them


@dataclass(frozen=True)
class PoolConfig:
    size: int = max(1, os.cpu_count() or 1)
    memory_bytes: int = 512 * 1024 * 1024
    tenant_concurrency: int | None = None  # default: size - 1 (at least 1)
    queue_wait_ms: int = 2_000
    max_calls_per_worker: int = 100_000  # a fresh worker: ~90 ms of CPU, and no tool loaded
    base_uid: int | None = 61_000
    network_namespace: bool = True
    seccomp: bool = True
    max_host_calls: int = 20
    host_frame_bytes: int = 1024 * 1024
    result_cap: int = 64 * 1024
    restricted: bool = True  # False only in tests proving the OS layers on their own
    wasm: bool = False  # a pool of WASI-module workers (wasmtime loaded before hardening)
    python_runner: str | None = None  # WASM workers: the built Python runner they load
    js_runner: str | None = None  # WASM workers: the compiled QuickJS module they load
    restart_burst: int | None = None  # worker restarts a tenant may cause at once (None: any) …
    restarts_per_s: float = 1.0  # … and how fast that budget refills
    spares: int = 0  # started, hardened workers that take a dead worker's place at once

    @property
    def per_tenant(self) -> int:
        return self.tenant_concurrency or max(1, self.size - 1)

    @property
    def module(self) -> str:
        """The worker process this pool starts: each kind of pool has its own."""
        return "sandbox.wasm.worker" if self.wasm else "sandbox.restricted.worker"


# Set while a worker's host call is answered. A sandbox call made then — a code-mode program's
# call of a session tool — runs in the slot of the call that waits for it: it does not queue for
# the tenant's share (which that call holds: with one slot, both would wait for each other until
# the queue gave up), and takes a free worker at once or answers ``busy``.
NESTED: ContextVar[bool] = ContextVar("quiver_nested_sandbox_call", default=False)


class WorkerDied(Exception):
    def __init__(self, returncode: int | None) -> None:
        super().__init__(f"worker exited with {returncode}")
        self.returncode = returncode


class WorkerProcess:
    """One worker, driven over raw non-blocking pipe fds. Its reply pipe has a reader callback
    on the event loop for the worker's whole life, which drains what arrives into a bounded
    buffer and wakes the request waiting for it: a round trip costs one wake-up, with no
    reader added and removed per call (and, on a quiet node, not even that: ``_spin``)."""

    def __init__(self, index: int, proc: subprocess.Popen[bytes], layers: dict[str, str]) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        self.index = index
        self.failed = False  # replaced because of what its last call did
        self.proc = proc
        self.layers = layers
        self.calls = 0
        self._rfd = proc.stdout.fileno()
        self._wfd = proc.stdin.fileno()
        os.set_blocking(self._rfd, False)
        os.set_blocking(self._wfd, False)
        self._buffer = bytearray()
        self._cap = BUFFER_CAP  # past this, the worker is not read until a request wants more
        self._eof = False
        self._waiter: asyncio.Future[None] | None = None
        self._loop = asyncio.get_running_loop()
        self._reading = False
        self.spin = False  # poll briefly for a reply before parking (the pool says when)
        self._read_on()

    def _read_on(self) -> None:
        if not self._reading and not self._eof and self._rfd >= 0:
            self._loop.add_reader(self._rfd, self._readable)
            self._reading = True

    def _read_off(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._rfd)
            self._reading = False

    def _readable(self) -> None:
        """The event loop's callback: the worker wrote (or closed its end)."""
        try:
            chunk = os.read(self._rfd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            self._buffer += chunk
            if len(self._buffer) > self._cap:  # a worker writing unasked is not read further
                self._read_off()
        else:
            self._eof = True
            self._read_off()
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def _read(self, max_bytes: int) -> Any:
        header = channel.HEADER.size
        while True:
            if len(self._buffer) >= header:
                (size,) = channel.HEADER.unpack_from(self._buffer)
                if size > max_bytes:
                    raise channel.ChannelError(f"worker sent a {size}-byte frame")
                if len(self._buffer) >= header + size:
                    frame = bytes(self._buffer[header : header + size])
                    del self._buffer[: header + size]
                    self._cap = BUFFER_CAP
                    return channel.loads(frame)
                self._cap = max(BUFFER_CAP, header + size)  # the frame's bytes may come in
            if self._eof:
                raise WorkerDied(await self._exit_code())
            if self.spin and self._spin():
                continue
            self._read_on()
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None

    def _spin(self) -> bool:
        """Poll the pipe for up to SPIN_S before parking on the event loop: most replies come
        within tens of microseconds, and an idle process woken by the loop takes longer than
        that to run again. Only while the pool says the node is quiet (``spin``): under load
        the loop has other requests to serve meanwhile, and polling would hold them up."""
        if not self._reading:  # at its end, or over its buffer's cap
            return False
        before = len(self._buffer)
        deadline = time.perf_counter() + SPIN_S
        while time.perf_counter() < deadline:
            self._readable()  # what the loop's callback would do, now
            if self._eof or len(self._buffer) != before:
                return True
        return False

    async def _wait_writable(self) -> None:
        future = self._loop.create_future()

        def ready() -> None:
            if not future.done():
                future.set_result(None)

        self._loop.add_writer(self._wfd, ready)
        try:
            await future
        finally:
            self._loop.remove_writer(self._wfd)

    async def _exit_code(self) -> int | None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            return await asyncio.to_thread(self.proc.wait, 1.0)
        return None

    async def _send(self, obj: Any) -> None:
        view = memoryview(channel.encode(obj))
        while view:
            try:
                view = view[os.write(self._wfd, view) :]
            except BlockingIOError:
                await self._wait_writable()
            except (BrokenPipeError, OSError):
                raise WorkerDied(await self._exit_code()) from None

    async def request(
        self, payload: dict[str, Any], host: HostHandler | None, config: PoolConfig
    ) -> dict[str, Any]:
        self.calls += 1
        await self._send(payload)
        host_calls = 0
        limit = max(config.result_cap * 2 + 512 * 1024, config.host_frame_bytes)
        while True:
            frame: dict[str, Any] = await self._read(limit)
            if frame.get("op") == "result":
                return frame
            host_calls += 1
            if host is None or host_calls > config.max_host_calls:
                await self._send(
                    {
                        "ok": False,
                        "error": f"host calls are limited to {config.max_host_calls} per call"
                        if host
                        else "no host calls here",
                    }
                )
                continue
            nested = NESTED.set(True)
            try:
                value = await host(
                    str(frame.get("module")), str(frame.get("method")), frame.get("args") or {}
                )
                reply = {"ok": True, "value": value}
                if len(channel.dumps(reply)) > config.host_frame_bytes:
                    reply = {
                        "ok": False,
                        "error": f"host reply over {config.host_frame_bytes} bytes",
                    }
            except Exception as exc:  # a refused or failed host call is the tool's problem
                reply = {"ok": False, "error": str(exc)[:1000] or type(exc).__name__}
            finally:
                NESTED.reset(nested)
            await self._send(reply)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    async def stop(self) -> None:
        self.kill()
        await self._exit_code()
        self.close_pipes()

    def close_pipes(self) -> None:
        self._read_off()  # before its fd is closed (and its number reused)
        self._rfd = -1
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]


@dataclass
class PoolStats:
    spawned: int = 0
    killed: int = 0
    waiting: int = 0  # calls queued for a tenant slot or a free worker right now
    layers: dict[str, str] = field(default_factory=dict)


class RestartBudget:
    """Per tenant: how many more worker restarts it may cause now (a token bucket)."""

    def __init__(
        self, burst: int, per_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.per_s = per_s
        self.clock = clock
        self._tokens: dict[str, tuple[float, float]] = {}  # tenant -> (tokens, at)

    def _now_tokens(self, tenant: str) -> float:
        tokens, at = self._tokens.get(tenant, (float(self.burst), self.clock()))
        return min(float(self.burst), tokens + (self.clock() - at) * self.per_s)

    def allows(self, tenant: str) -> bool:
        return self.burst <= 0 or self._now_tokens(tenant) >= 1.0

    def wait_s(self, tenant: str) -> float:
        """How long until ``tenant`` may cause a restart again (0: now)."""
        if self.allows(tenant):
            return 0.0
        return (1.0 - self._now_tokens(tenant)) / self.per_s if self.per_s > 0 else float("inf")

    def charge(self, tenant: str) -> None:
        if self.burst <= 0:
            return
        self._tokens[tenant] = (self._now_tokens(tenant) - 1.0, self.clock())
        if len(self._tokens) > 100_000:  # tenants long refilled are forgotten
            now = self.clock()
            self._tokens = {
                t: (v, a)
                for t, (v, a) in self._tokens.items()
                if v + (now - a) * self.per_s < self.burst
            }


class IdleWorkers:
    """The pool's idle workers, handed out with affinity: a request names the worker that last
    ran its tenant's calls (where that tenant's tools are loaded already) and gets it when it is
    idle — or, when every worker is busy, when that one frees, ahead of the waiters before it
    among the next ``LOOKAHEAD``. Otherwise it gets any worker, first come first served: no
    request waits while a worker is idle. Spread over thousands of tenants, each worker then
    keeps its own tenants' tools loaded instead of every worker loading every tenant's."""

    LOOKAHEAD = 8  # waiters a freed worker looks through for one that prefers it

    def __init__(self) -> None:
        self._idle: dict[WorkerProcess, None] = {}  # insertion-ordered: longest idle first
        self._waiters: deque[tuple[WorkerProcess | None, asyncio.Future[WorkerProcess]]] = deque()

    def qsize(self) -> int:
        return len(self._idle)

    def empty(self) -> bool:
        return not self._idle

    @property
    def workers(self) -> list[WorkerProcess]:
        return list(self._idle)

    def put_nowait(self, worker: WorkerProcess) -> None:
        while self._waiters and self._waiters[0][1].done():
            self._waiters.popleft()  # gave up waiting (its deadline passed)
        chosen = None
        for i, (prefer, future) in enumerate(self._waiters):
            if i >= self.LOOKAHEAD:
                break
            if prefer is worker and not future.done():
                chosen = i
                break
        if chosen is None:
            chosen = next((i for i, (_, f) in enumerate(self._waiters) if not f.done()), None)
        if chosen is None:
            self._idle[worker] = None
            return
        _, future = self._waiters[chosen]
        del self._waiters[chosen]
        future.set_result(worker)

    def get_nowait(self, prefer: WorkerProcess | None = None) -> WorkerProcess:
        if prefer is not None and prefer in self._idle:
            del self._idle[prefer]
            return prefer
        if not self._idle:
            raise asyncio.QueueEmpty
        worker = next(iter(self._idle))
        del self._idle[worker]
        return worker

    async def get(self, prefer: WorkerProcess | None = None) -> WorkerProcess:
        if self._idle:
            return self.get_nowait(prefer)
        future: asyncio.Future[WorkerProcess] = asyncio.get_running_loop().create_future()
        self._waiters.append((prefer, future))
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.put_nowait(future.result())  # handed over as the wait ended: pass it on
            raise


class WorkerPool:
    def __init__(self, config: PoolConfig | None = None) -> None:
        self.config = config or PoolConfig()
        self.restarts = RestartBudget(self.config.restart_burst or 0, self.config.restarts_per_s)
        self.stats = PoolStats()
        self._idle = IdleWorkers()
        # the worker that last ran each tenant's call: where its tools are loaded
        self._last: dict[str, WorkerProcess] = {}
        self._tenants: dict[str, asyncio.Semaphore] = defaultdict(
            lambda: asyncio.Semaphore(self.config.per_tenant)
        )
        self._workdir = tempfile.mkdtemp(prefix="quiver-worker-")
        os.chmod(self._workdir, 0o555)
        self._all: set[WorkerProcess] = set()
        # warm spares: a worker that dies is replaced by one of these at once, so a tenant that
        # kills workers never leaves the others waiting for a process to start
        self._spares: list[WorkerProcess] = []
        self._short = 0  # serving places waiting for a respawned worker (no spare was left)
        self._spares_changed = asyncio.Event()
        self.running: set[WorkerProcess] = set()  # workers serving a request now
        self._running_changed = asyncio.Event()
        self._last_start = 0.0  # when the last request went to a worker (perf_counter)
        self._started = False
        self._start_lock = asyncio.Lock()
        self._spawning: set[asyncio.Task[None]] = set()
        self._closed = False
        self._deadlines: Deadlines | None = None  # every wait's, on one timer (from ``start``)

    async def start(self) -> None:
        if self._started:  # every request calls this: no lock once the workers run
            return
        async with self._start_lock:
            if self._started:
                return
            self._deadlines = Deadlines()
            total = self.config.size + self.config.spares
            workers = await asyncio.gather(*(self._spawn(i) for i in range(total)))
            for worker in workers[: self.config.size]:
                self._idle.put_nowait(worker)
            self._spares.extend(workers[self.config.size :])
            self._started = True
            inactive = {k: v for k, v in self.stats.layers.items() if not v.startswith("active")}
            if inactive:
                log.warning("sandbox workers started without some isolation layers: %s", inactive)
            else:
                log.info(
                    "sandbox workers started with every isolation layer: %s", self.stats.layers
                )

    async def _spawn(self, index: int) -> WorkerProcess:
        uid = (
            self.config.base_uid + index
            if self.config.base_uid is not None and os.geteuid() == 0
            else None
        )
        # fork+exec returns at once; the worker reports ready below
        proc = subprocess.Popen(  # noqa: ASYNC220
            [sys.executable, "-I", "-m", self.config.module],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={},
            cwd=self._workdir,
            start_new_session=True,
            close_fds=True,
        )
        worker = WorkerProcess(index, proc, {})
        config = self.config
        await worker._send(
            {
                "uid": uid,
                "memory_bytes": config.memory_bytes,
                "restricted": config.restricted,
                "network_namespace": config.network_namespace,
                "seccomp": config.seccomp,
                "python_runner": config.python_runner,
                "js_runner": config.js_runner,
                "result_cap": config.result_cap,
            }
        )
        try:
            ready = await asyncio.wait_for(worker._read(1 << 20), READY_TIMEOUT_S)
        except (TimeoutError, WorkerDied):
            await worker.stop()
            raise RuntimeError("a sandbox worker failed to start") from None
        worker.layers = ready["layers"]
        self.stats.layers = worker.layers
        self.stats.spawned += 1
        self._all.add(worker)
        return worker

    def _replace(self, worker: WorkerProcess, routine: bool = False) -> None:
        """Kill a worker and start its successor in the background. Unless ``routine`` (its
        call budget is spent), the call it ran is charged to its tenant's restart budget."""
        worker.failed = not routine
        self.stats.killed += 1
        self._all.discard(worker)
        worker.kill()
        if self._spares:
            self._idle.put_nowait(self._spares.pop())  # its place is served again at once
        else:
            self._short += 1

        async def respawn() -> None:
            await worker._exit_code()
            worker.close_pipes()
            if self._closed:
                return
            try:
                fresh = await self._spawn(worker.index)
            except RuntimeError:
                log.exception("could not replace sandbox worker %s", worker.index)
                return
            if self._short:
                self._short -= 1
                self._idle.put_nowait(fresh)
            else:
                self._spares.append(fresh)
                self._spares_changed.set()

        task = asyncio.get_running_loop().create_task(respawn())
        self._spawning.add(task)
        task.add_done_callback(self._spawning.discard)

    async def a_running_worker(self) -> WorkerProcess:
        """A worker serving a request, as soon as there is one (bound the wait by the caller)."""
        while not self.running:
            self._running_changed.clear()
            await self._running_changed.wait()
        return next(iter(self.running))

    @property
    def busy(self) -> int:
        """Workers running a call now (started workers not idle)."""
        return max(0, len(self._all) - self._idle.qsize() - len(self._spares))

    async def spares_full(self) -> None:
        """Wait until every spare is started again (bound the wait by the caller)."""
        while len(self._spares) < self.config.spares:
            self._spares_changed.clear()
            await self._spares_changed.wait()

    @property
    def spare_pids(self) -> list[int]:
        return [w.proc.pid for w in self._spares]

    @property
    def idle_pids(self) -> list[int]:
        return [w.proc.pid for w in self._idle.workers]

    async def request(
        self,
        tenant: str,
        payload: dict[str, Any],
        timeout_ms: int,
        host: HostHandler | None = None,
        source: Source = None,
    ) -> dict[str, Any]:
        """Run one request on a free worker; failures come back as ``{"ok": False, "code"}``.

        ``source`` is sent only if the worker answers that it has not loaded ``payload["hash"]``
        (a mapping: the fields sent then, the source and what loading it needs).
        """
        await self.start()
        wait_s = self.config.queue_wait_ms / 1000
        if not self.restarts.allows(tenant):
            # the tenant waits for its budget, like a call waiting for a worker: this holds its
            # callers back (their requests cost the node too) instead of answering them at once
            await asyncio.sleep(min(self.restarts.wait_s(tenant), wait_s))
        if not self.restarts.allows(tenant):
            return {
                "ok": False,
                "code": "busy",
                "message": "this tenant's tools restarted sandbox workers too often just now; "
                "try again in a few seconds",
            }
        deadlines = self._deadlines
        assert deadlines is not None  # started
        if NESTED.get():  # the waiting call's slot is this one's: a free worker now, or none
            if self._idle.empty():
                return {
                    "ok": False,
                    "code": "busy",
                    "message": "a call made while another waits for it found no free sandbox "
                    "worker (QUIVER_WORKERS)",
                }
            worker = self._idle.get_nowait(self._last.get(tenant))
            return await self._run_on(worker, payload, timeout_ms, host, source, tenant)
        semaphore = self._tenants[tenant]
        try:
            if semaphore.locked():
                self.stats.waiting += 1
                try:  # a deadline on this task, not a task per wait (as wait_for makes)
                    with deadlines.within(wait_s):
                        await semaphore.acquire()
                finally:
                    self.stats.waiting -= 1
            else:
                await semaphore.acquire()  # free now: no timer task needed
        except TimeoutError:
            return {
                "ok": False,
                "code": "busy",
                "message": "too many concurrent calls for this tenant; try again shortly",
            }
        try:
            try:
                if self._idle.empty():
                    self.stats.waiting += 1
                    try:
                        with deadlines.within(wait_s):
                            worker = await self._idle.get(self._last.get(tenant))
                    finally:
                        self.stats.waiting -= 1
                else:
                    worker = self._idle.get_nowait(self._last.get(tenant))
            except TimeoutError:
                return {
                    "ok": False,
                    "code": "busy",
                    "message": "every sandbox worker is busy; try again shortly",
                }
            return await self._run_on(worker, payload, timeout_ms, host, source, tenant)
        finally:
            semaphore.release()

    async def _run_on(
        self,
        worker: WorkerProcess,
        payload: dict[str, Any],
        timeout_ms: int,
        host: HostHandler | None,
        source: Source = None,
        tenant: str = "",
    ) -> dict[str, Any]:
        payload = {**payload, "timeout_ms": timeout_ms, "result_cap": self.config.result_cap}
        if tenant:
            if len(self._last) >= MAX_AFFINITIES and tenant not in self._last:
                self._last.clear()  # a node of very many tenants: start the map afresh
            self._last[tenant] = worker
        now = time.perf_counter()
        worker.spin = not self.running and now - self._last_start > QUIET_S
        self._last_start = now
        self.running.add(worker)
        self._running_changed.set()
        try:
            return await self._exchange(worker, payload, timeout_ms, host, source)
        finally:
            self.running.discard(worker)
            if worker.failed:
                self.restarts.charge(tenant)  # this call cost a worker

    async def _exchange(
        self,
        worker: WorkerProcess,
        payload: dict[str, Any],
        timeout_ms: int,
        host: HostHandler | None,
        source: Source,
    ) -> dict[str, Any]:
        async def exchange() -> dict[str, Any]:
            reply = await worker.request(payload, host, self.config)
            if reply.get("code") == "need_source" and source is not None:
                fields = source if isinstance(source, Mapping) else {"source": source}
                reply = await worker.request({**payload, **fields}, host, self.config)
            return reply

        assert self._deadlines is not None  # started
        try:
            with self._deadlines.within(timeout_ms / 1000):
                reply = await exchange()
        except TimeoutError:
            self._replace(worker)
            return {
                "ok": False,
                "code": "timeout",
                "message": f"the tool did not finish within {timeout_ms} ms",
            }
        except WorkerDied as died:
            self._replace(worker)
            return _classify_death(died.returncode)
        except channel.ChannelError as exc:
            self._replace(worker)
            return {"ok": False, "code": "malformed_output", "message": str(exc)}
        except BaseException:
            self._replace(worker)  # cancelled mid-request: the worker's state is unknown
            raise
        if reply.get("recycle"):
            self._replace(worker)
        elif worker.calls >= self.config.max_calls_per_worker:
            self._replace(worker, routine=True)
        else:
            self._idle.put_nowait(worker)
        return reply

    async def close(self) -> None:
        self._closed = True
        for task in list(self._spawning):
            task.cancel()
        await asyncio.gather(*(w.stop() for w in list(self._all)), return_exceptions=True)
        self._all.clear()
        self._spares.clear()
        with contextlib.suppress(OSError):
            os.chmod(self._workdir, 0o755)
            os.rmdir(self._workdir)


def _classify_death(returncode: int | None) -> dict[str, Any]:
    if returncode == -signal.SIGXCPU:
        return {"ok": False, "code": "timeout", "message": "the tool used up its CPU time"}
    if returncode == -signal.SIGKILL:  # the pool's own kills are timeouts, reported above
        return {
            "ok": False,
            "code": "worker_crashed",
            "message": "the tool's worker was killed from outside (by the system or an operator)",
        }
    return {
        "ok": False,
        "code": "worker_crashed",
        "message": f"the tool's worker died (exit {returncode})",
    }
