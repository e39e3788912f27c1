"""A pool of pre-started, hardened worker processes, driven from asyncio.

Every worker is a fresh interpreter (``python -I -m sandbox.restricted.worker``) with an empty
environment and an empty, read-only working directory: nothing of the server's memory, files,
keys or connections is inherited. The pool enforces the wall-clock deadline of every request
(a worker past it is killed and replaced), a per-tenant cap on busy workers, and a bounded wait
for a free worker (``busy`` past it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sandbox import channel
from sandbox.engine import HostHandler

log = logging.getLogger("quiver.sandbox")
READY_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class PoolConfig:
    size: int = max(1, os.cpu_count() or 1)
    memory_bytes: int = 512 * 1024 * 1024
    tenant_concurrency: int | None = None  # default: size - 1 (at least 1)
    queue_wait_ms: int = 2_000
    max_calls_per_worker: int = 1_000
    base_uid: int | None = 61_000
    network_namespace: bool = True
    seccomp: bool = True
    max_host_calls: int = 20
    host_frame_bytes: int = 1024 * 1024
    result_cap: int = 64 * 1024
    restricted: bool = True  # False only in tests proving the OS layers on their own

    @property
    def per_tenant(self) -> int:
        return self.tenant_concurrency or max(1, self.size - 1)


class WorkerDied(Exception):
    def __init__(self, returncode: int | None) -> None:
        super().__init__(f"worker exited with {returncode}")
        self.returncode = returncode


class WorkerProcess:
    def __init__(
        self, index: int, proc: asyncio.subprocess.Process, layers: dict[str, str]
    ) -> None:
        self.index = index
        self.proc = proc
        self.layers = layers
        self.calls = 0

    async def _read(self, max_bytes: int) -> Any:
        assert self.proc.stdout is not None
        try:
            header = await self.proc.stdout.readexactly(channel.HEADER.size)
            (size,) = channel.HEADER.unpack(header)
            if size > max_bytes:
                raise channel.ChannelError(f"worker sent {size} bytes")
            return channel.loads(await self.proc.stdout.readexactly(size))
        except (asyncio.IncompleteReadError, ConnectionError):
            raise WorkerDied(await self._exit_code()) from None

    async def _exit_code(self) -> int | None:
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(self.proc.wait(), 1.0)
        return None

    def _write(self, obj: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(channel.encode(obj))

    async def request(
        self, payload: dict[str, Any], host: HostHandler | None, config: PoolConfig
    ) -> dict[str, Any]:
        self.calls += 1
        self._write(payload)
        host_calls = 0
        limit = max(config.result_cap * 2 + 512 * 1024, config.host_frame_bytes)
        while True:
            frame = await self._read(limit)
            if frame.get("op") == "result":
                return frame
            host_calls += 1
            if host is None or host_calls > config.max_host_calls:
                self._write(
                    {
                        "ok": False,
                        "error": f"host calls are limited to {config.max_host_calls} per call"
                        if host
                        else "no host calls here",
                    }
                )
                continue
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
            self._write(reply)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    async def stop(self) -> None:
        self.kill()
        await self._exit_code()


@dataclass
class PoolStats:
    spawned: int = 0
    killed: int = 0
    layers: dict[str, str] = field(default_factory=dict)


class WorkerPool:
    def __init__(self, config: PoolConfig | None = None) -> None:
        self.config = config or PoolConfig()
        self.stats = PoolStats()
        self._idle: asyncio.Queue[WorkerProcess] = asyncio.Queue()
        self._tenants: dict[str, asyncio.Semaphore] = defaultdict(
            lambda: asyncio.Semaphore(self.config.per_tenant)
        )
        self._workdir = tempfile.mkdtemp(prefix="quiver-worker-")
        os.chmod(self._workdir, 0o555)
        self._all: set[WorkerProcess] = set()
        self._started = False
        self._start_lock = asyncio.Lock()
        self._spawning: set[asyncio.Task[None]] = set()
        self._closed = False

    async def start(self) -> None:
        async with self._start_lock:
            if self._started:
                return
            workers = await asyncio.gather(*(self._spawn(i) for i in range(self.config.size)))
            for worker in workers:
                self._idle.put_nowait(worker)
            self._started = True

    async def _spawn(self, index: int) -> WorkerProcess:
        uid = (
            self.config.base_uid + index
            if self.config.base_uid is not None and os.geteuid() == 0
            else None
        )
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-m", "sandbox.restricted.worker",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            env={}, cwd=self._workdir, start_new_session=True, limit=2**16,
        )  # fmt: skip
        worker = WorkerProcess(index, proc, {})
        worker._write({
            "uid": uid, "memory_bytes": self.config.memory_bytes, "restricted": self.config.restricted,
            "network_namespace": self.config.network_namespace, "seccomp": self.config.seccomp,
        })  # fmt: skip
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

    def _replace(self, worker: WorkerProcess) -> None:
        """Kill a worker and start its successor in the background."""
        self.stats.killed += 1
        self._all.discard(worker)
        worker.kill()

        async def respawn() -> None:
            with contextlib.suppress(ProcessLookupError, ChildProcessError):
                await worker.proc.wait()
            if self._closed:
                return
            try:
                self._idle.put_nowait(await self._spawn(worker.index))
            except RuntimeError:
                log.exception("could not replace sandbox worker %s", worker.index)

        task = asyncio.get_running_loop().create_task(respawn())
        self._spawning.add(task)
        task.add_done_callback(self._spawning.discard)

    async def request(
        self, tenant: str, payload: dict[str, Any], timeout_ms: int, host: HostHandler | None = None
    ) -> dict[str, Any]:
        """Run one request on a free worker; failures come back as ``{"ok": False, "code"}``."""
        await self.start()
        wait_s = self.config.queue_wait_ms / 1000
        semaphore = self._tenants[tenant]
        try:
            await asyncio.wait_for(semaphore.acquire(), wait_s)
        except TimeoutError:
            return {
                "ok": False,
                "code": "busy",
                "message": "too many concurrent calls for this tenant; try again shortly",
            }
        try:
            try:
                worker = await asyncio.wait_for(self._idle.get(), wait_s)
            except TimeoutError:
                return {
                    "ok": False,
                    "code": "busy",
                    "message": "every sandbox worker is busy; try again shortly",
                }
            return await self._run_on(worker, payload, timeout_ms, host)
        finally:
            semaphore.release()

    async def _run_on(
        self,
        worker: WorkerProcess,
        payload: dict[str, Any],
        timeout_ms: int,
        host: HostHandler | None,
    ) -> dict[str, Any]:
        payload = {**payload, "timeout_ms": timeout_ms, "result_cap": self.config.result_cap}
        try:
            reply = await asyncio.wait_for(
                worker.request(payload, host, self.config), timeout_ms / 1000
            )
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
        if reply.get("recycle") or worker.calls >= self.config.max_calls_per_worker:
            self._replace(worker)
        else:
            self._idle.put_nowait(worker)
        return reply

    async def close(self) -> None:
        self._closed = True
        for task in list(self._spawning):
            task.cancel()
        await asyncio.gather(*(w.stop() for w in list(self._all)), return_exceptions=True)
        self._all.clear()
        with contextlib.suppress(OSError):
            os.chmod(self._workdir, 0o755)
            os.rmdir(self._workdir)


def _classify_death(returncode: int | None) -> dict[str, Any]:
    if returncode == -signal.SIGXCPU:
        return {"ok": False, "code": "timeout", "message": "the tool used up its CPU time"}
    if returncode == -signal.SIGKILL:
        return {
            "ok": False,
            "code": "memory_limit",
            "message": "the tool's worker was killed (out of memory)",
        }
    return {
        "ok": False,
        "code": "worker_crashed",
        "message": f"the tool's worker died (exit {returncode})",
    }
