"""The event loop's own CPU per call, without sockets or another process's noise.

    python -m benchmarks.call_cpu [--calls 4000] [--rounds 5] [--database-url URL]

Two rows, each the CPU time of the event loop's thread (``time.thread_time``) per call, on
uvloop as ``quiver serve`` runs, with the CPU time of the journal's syncs per call beside it
(its sync process's, or its sync thread's where the process cannot run: the ``fdatasync``
calls, in the kernel mostly):
  (a) ``POST /v1/sessions/{sid}/calls`` of one trivial code tool, the real app driven over ASGI
      in this process (its middleware, the direct door, the call path, the sandbox's worker
      pool, the call log and its journal), 8 calls in flight: uvicorn's HTTP and the sockets
      are left out, so what the platform's own code costs is read with less noise than over
      HTTP (the machine's speed still moves it: compare checkouts in alternating runs);
  (b) a call-log row recorded and made durable (journalled and synced), 8 in flight, with a
      database writer that does nothing: the journal's part of (a).
Run it in two checkouts, taking turns, to compare them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop

from benchmarks.restricted import ADMIN, proc_stat, used_s
from benchmarks.tenants import one_tenant
from server.api.app import create_app
from server.calls.calllog import CallLog
from server.calls.journal import Journal
from server.secretbox import generate_key
from server.settings import Settings

IN_FLIGHT = 8


async def calls_through_the_app(
    calls: int, rounds: int, database_url: str | None
) -> tuple[list[float], list[float]]:
    settings = Settings(
        _env_file=None, data_dir=Path(tempfile.mkdtemp(prefix="quiver-bench-")), admin_key=ADMIN,
        secret_key=generate_key(), workers=4, require_isolation=False, log_level="warning",
        tenant_requests="100000/second", key_requests="100000/second", database_url=database_url,
    )  # fmt: skip
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        agent, sid = await _one_tenant(app)
        body = b'{"tool": "echo", "arguments": {"x": "1"}}'
        path = f"/v1/sessions/{sid}/calls"
        headers = [
            (b"host", b"bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"authorization", f"Bearer {agent}".encode()),
        ]

        async def one() -> None:
            scope = {
                "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
                "query_string": b"", "root_path": "", "headers": list(headers),
                "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "state": {},
            }  # fmt: skip
            given = False

            async def receive() -> dict[str, Any]:
                nonlocal given
                if not given:
                    given = True
                    return {"type": "http.request", "body": body, "more_body": False}
                await asyncio.Event().wait()  # the client stays: the app is not told it left
                raise AssertionError("unreachable")

            sent: list[dict[str, Any]] = []

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            await app(scope, receive, send)
            assert sent[0]["status"] == 200, sent

        return await _rounds(one, calls, rounds)


async def durable_rows(calls: int, rounds: int) -> tuple[list[float], list[float]]:
    async def nowhere(rows: list[dict[str, Any]]) -> None:
        return None

    log = CallLog(nowhere, journal=Journal(Path(tempfile.mkdtemp(prefix="quiver-bench-")) / "j"))

    async def one() -> None:
        log.record(tenant_id="t", tool="x", arguments={"x": "1"}, result="ok", success=True,
                   latency_ms=1.0)  # fmt: skip
        await log.durable()
        log._pending.clear()  # the writer does nothing: nothing is kept for it

    try:
        return await _rounds(one, calls, rounds)
    finally:
        assert log.journal is not None
        log.journal.close()


def sync_cpu() -> float:
    """The CPU time the journal's sync processes (this process's children running the sync
    program) and sync threads have used, in seconds."""
    threads = sum(
        time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        for thread in threading.enumerate()
        if thread.name == "journal-sync" and thread.ident is not None
    )
    processes = 0.0
    for task in Path("/proc/self/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(OSError):  # it ended meanwhile
                if b"recv_fds" in Path(f"/proc/{child}/cmdline").read_bytes():
                    processes += used_s(proc_stat(f"/proc/{child}/stat"))
    return threads + processes


async def _rounds(one: Any, calls: int, rounds: int) -> tuple[list[float], list[float]]:
    """``rounds`` measurements of the loop thread's and the journal's syncs' CPU per call,
    ``IN_FLIGHT`` at a time."""

    async def caller(count: int) -> None:
        for _ in range(count):
            await one()

    await asyncio.gather(*(caller(200) for _ in range(IN_FLIGHT)))  # warm
    gc.collect()
    gc.freeze()  # as `quiver serve` does after its start
    each = calls // IN_FLIGHT
    loop, syncs = [], []
    for _ in range(rounds):
        started, synced = time.thread_time(), sync_cpu()
        await asyncio.gather(*(caller(each) for _ in range(IN_FLIGHT)))
        loop.append((time.thread_time() - started) / (each * IN_FLIGHT) * 1e6)
        syncs.append((sync_cpu() - synced) / (each * IN_FLIGHT) * 1e6)
    return loop, syncs


async def _one_tenant(app: Any) -> tuple[str, str]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        return await one_tenant(client, "bench")


async def main(calls: int, rounds: int, database_url: str | None) -> None:
    through_app = await calls_through_the_app(calls, rounds, database_url)
    journal = await durable_rows(calls, rounds)
    print(f"CPU per call, us ({rounds} rounds of {calls}, {IN_FLIGHT} in flight)")
    print("                                              the event loop's      the journal's syncs")
    print(
        "                                              median    min    max  median    min    max"
    )
    for name, (loop, syncs) in (("(a) POST .../calls through the app (ASGI)", through_app),
                                ("(b) a call-log row made durable", journal)):  # fmt: skip
        print(f"{name:44s} {_spread(loop)}  {_spread(syncs)}")


def _spread(rows: list[float]) -> str:
    return f"{statistics.median(rows):7.1f} {min(rows):7.1f} {max(rows):7.1f}"


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--database-url", default=None, help="default: the embedded SQLite")
    args = parser.parse_args()
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main(args.calls, args.rounds, args.database_url))
