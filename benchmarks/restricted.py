"""RestrictedPython tier benchmark.

    python -m benchmarks.restricted [--calls 2000] [--seconds 5] [--rounds 5] [--databases sqlite,postgresql]

Per-call latency of one trivial tool, measured in one run:
  (a) in-process   the worker's own code path called directly (compile cached, guards on)
  (b) pool         through the hardened pre-started worker pool (what the server uses)
  (c) subprocess   a fresh hardened worker process started for every call
and HTTP throughput and median latency of ``POST /v1/sessions/{sid}/calls`` on that tool (real
uvicorn, on SQLite and on PostgreSQL; also on a node whose call log is not synced before a call
answers, ``QUIVER_CALL_LOG_FSYNC=false``) against a bare FastAPI endpoint returning the same
JSON, a bare ASGI endpoint (no framework) and the floor — the FastAPI endpoint plus the
sandbox's round trip alone (``sandbox_app``) — with the same load generator in the same run,
each server's event-loop CPU a request beside it; and MCP ``tools/call`` through the SDK's
client.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from benchmarks.databases import fresh_postgres
from sandbox import channel
from sandbox.engine import Limits, Run, ToolSource
from sandbox.pool import PoolConfig
from sandbox.restricted.engine import RestrictedEngine
from sandbox.restricted.worker import Worker
from server.secretbox import generate_key

TOOL = """
def execute(params, context):
    return {"success": True, "message": "hi " + params["x"]}


tool = {"name": "echo", "description": "echo", "parameters": {"x": {"type": "string"}}, "execute": execute}
"""
ADMIN = "bench-admin-key-" + "c" * 40


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[int(0.99 * (len(ordered) - 1))] * 1e6


def bench_in_process(calls: int) -> list[float]:
    """The worker's code path in this process. Each call caps this process's CPU time as a
    worker's is capped; the cap is lifted again when done (the rest of the run needs CPU)."""
    cap = resource.getrlimit(resource.RLIMIT_CPU)
    try:
        return _in_process(calls)
    finally:
        resource.setrlimit(resource.RLIMIT_CPU, cap)


def _in_process(calls: int) -> list[float]:
    worker = Worker(restricted=True)
    request = {
        "op": "call",
        "tenant": "b",
        "hash": "h",
        "source": TOOL,
        "tool": "echo",
        "params": {"x": "1"},
        "context": {"tenant_id": "b"},
        "error": {},
        "modules": [],
        "timeout_ms": 5000,
        "result_cap": 65536,
    }
    worker.call(request)
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        worker.call(request)
        samples.append(time.perf_counter() - started)
    return samples


async def bench_pool(calls: int) -> list[float]:
    engine = RestrictedEngine(PoolConfig(size=2))
    source = ToolSource("python", "restricted", TOOL)
    try:
        for _ in range(100):
            await engine.run(source, Run("b", "echo", {"x": "1"}, {"tenant_id": "b"}, Limits()))
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            result = await engine.run(
                source, Run("b", "echo", {"x": "1"}, {"tenant_id": "b"}, Limits())
            )
            samples.append(time.perf_counter() - started)
            assert result.ok
    finally:
        await engine.close()
    return samples


def bench_subprocess(calls: int) -> list[float]:
    workdir = tempfile.mkdtemp()
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-I", "-m", "sandbox.restricted.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={},
            cwd=workdir,
        )
        fds = (proc.stdin.fileno(), proc.stdout.fileno())
        channel.write_frame(fds[0], {"uid": 61000 if os.geteuid() == 0 else None})
        channel.read_frame(fds[1])
        channel.write_frame(
            fds[0],
            {
                "op": "call",
                "tenant": "b",
                "hash": "h",
                "source": TOOL,
                "tool": "echo",
                "params": {"x": "1"},
                "context": {},
                "error": {},
                "modules": [],
                "timeout_ms": 5000,
                "result_cap": 65536,
            },
        )
        reply = channel.read_frame(fds[1])
        proc.stdin.close()
        proc.wait()
        proc.stdout.close()
        samples.append(time.perf_counter() - started)
        assert reply["ok"]
    return samples


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(base: str, path: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + path).status_code < 500:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError(f"{base} did not start")


@dataclass
class Load:
    rps: float
    p50_ms: float
    reconnects: int  # connections the server closed under load (each is reopened)
    loop_us: float = 0.0  # the server's event-loop thread's CPU a request (0: not read)
    kernel_us: float = 0.0  # of which in the kernel (system time)
    machine_us: float = 0.0  # every process's CPU a request: the server's, the load's, the rest


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def proc_stat(path: str | Path) -> list[str]:
    """The fields of a process's or thread's ``/proc/…/stat`` after its command's name (so
    ``[0]`` is its state, ``[1]`` its parent, ``[11]`` and ``[12]`` its user and system ticks)."""
    return Path(path).read_text().rsplit(")", 1)[1].split()


def used_s(fields: list[str]) -> float:
    """The CPU seconds (user and system) that ``proc_stat`` fields count."""
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def loop_cpu_s(pid: int) -> float:
    """The CPU time (user and system) of process ``pid``'s main thread, where a server's event
    loop runs (uvicorn's, and ``quiver serve``'s)."""
    return loop_and_kernel_s(pid)[0]


def loop_and_kernel_s(pid: int) -> tuple[float, float]:
    """``loop_cpu_s``, and of it the time in the kernel (system time), from one reading."""
    fields = proc_stat(f"/proc/{pid}/task/{pid}/stat")
    return used_s(fields), int(fields[12]) / CLOCK_TICKS


def machine_cpu_s() -> float:
    """CPU seconds the machine's cores have been busy (neither idle nor waiting for I/O)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / CLOCK_TICKS


def measured(pid: int, port: int, path: str, body: bytes, auth: str | None, seconds: float) -> Load:
    """``load``, with the CPU the server's event loop (and the kernel for it) and the whole
    machine spent on each request meanwhile."""
    (loop, kernel), machine = loop_and_kernel_s(pid), machine_cpu_s()
    started = time.perf_counter()
    got = asyncio.run(load(port, path, body, auth, seconds))
    per_request = 1e6 / max(1.0, got.rps * (time.perf_counter() - started))
    (loop_after, kernel_after), machine_after = loop_and_kernel_s(pid), machine_cpu_s()
    got.loop_us = (loop_after - loop) * per_request
    got.kernel_us = (kernel_after - kernel) * per_request
    got.machine_us = (machine_after - machine) * per_request
    return got


Target = tuple[int, int, str, str | None]  # a server's pid, port, call path and key


def alternating(
    targets: dict[str, Target], body: bytes, rounds: int, each: float
) -> dict[str, list[Load]]:
    """Each target warmed up, then ``rounds`` rounds in which each takes the load in turn for
    ``each`` seconds (``measured``). The machines are noisy — the same code's CPU time per call
    drifts by a third between minutes — so the servers compared are measured back to back and
    compared round by round (``share``)."""
    for _, port, path, key in targets.values():  # warm up
        asyncio.run(load(port, path, body, key, 1.0))
    loads: dict[str, list[Load]] = {name: [] for name in targets}
    for _ in range(rounds):
        for name, (pid, port, path, key) in targets.items():
            loads[name].append(measured(pid, port, path, body, key, each))
    return loads


def share(loads: list[Load], against: list[Load]) -> float:
    """The median of the rounds' ratios of calls a second."""
    return statistics.median(x.rps / y.rps for x, y in zip(loads, against, strict=True))


async def load(
    port: int, path: str, body: bytes, auth: str | None, seconds: float, concurrency: int = 8
) -> Load:
    """Requests per second and median latency over keep-alive connections, ``concurrency`` in
    flight.

    A raw HTTP/1.1 client on asyncio streams: it costs far less CPU than a full client
    library, so on a small machine the servers, not the load generator, are measured. A
    connection the server closes is counted and reopened (never a crash)."""
    head = f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    if auth:
        head += f"Authorization: Bearer {auth}\r\n"
    request = (head + "\r\n").encode() + body
    latencies: list[float] = []
    reconnects = 0
    deadline = time.perf_counter() + seconds

    async def connection() -> None:
        nonlocal reconnects
        while time.perf_counter() < deadline:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            try:
                while time.perf_counter() < deadline:
                    started = time.perf_counter()
                    writer.write(request)
                    headers = await reader.readuntil(b"\r\n\r\n")
                    length = int(headers.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                    reply = await reader.readexactly(length)
                    latencies.append(time.perf_counter() - started)
                    ok = headers.startswith(b"HTTP/1.1 200") and b'"success":true' in reply
                    assert ok, headers + reply
                    if b"connection: close" in headers.lower():
                        break
            except (asyncio.IncompleteReadError, ConnectionError):
                reconnects += 1
            finally:
                writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(connection() for _ in range(concurrency)))
    took = time.perf_counter() - started
    return Load(len(latencies) / took, statistics.median(latencies) * 1000, reconnects)


async def bench_mcp(base: str, key: str, seconds: float, concurrency: int = 8) -> Load:
    """MCP ``tools/call`` of the same tool through the official SDK's client, ``concurrency``
    calls in flight on one MCP session."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30)
    latencies: list[float] = []
    async with Client(
        streamable_http_client(f"{base}/mcp?bot=b", http_client=http), cache=None
    ) as client:
        deadline = time.perf_counter() + seconds

        async def caller() -> None:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                result = await client.call_tool("echo", {"x": "1"})
                assert not result.is_error, result
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        await asyncio.gather(*(caller() for _ in range(concurrency)))
        took = time.perf_counter() - started
    await http.aclose()
    return Load(len(latencies) / took, statistics.median(latencies) * 1000, 0)


def one_tenant(base: str) -> tuple[str, str]:
    """A tenant ``bench`` with the trivial tool and a bot ``b`` offering it: an agent key and a
    session of that bot."""
    admin = {"Authorization": f"Bearer {ADMIN}"}
    httpx.post(f"{base}/v1/tenants", json={"id": "bench"}, headers=admin).raise_for_status()
    keys = f"{base}/v1/tenants/bench/keys"
    dev = httpx.post(keys, json={"role": "developer"}, headers=admin).json()["key"]
    agent = httpx.post(keys, json={"role": "agent"}, headers=admin).json()["key"]
    as_dev = {"Authorization": f"Bearer {dev}"}
    tool = {"kind": "python", "source": TOOL}
    httpx.post(f"{base}/v1/tools", json=tool, headers=as_dev).raise_for_status()
    bot = {"name": "b", "tools": None}
    httpx.post(f"{base}/v1/bots", json=bot, headers=as_dev).raise_for_status()
    session = httpx.post(
        f"{base}/v1/sessions", json={"bot": "b"}, headers={"Authorization": f"Bearer {agent}"}
    )
    session.raise_for_status()
    return agent, session.json()["id"]


def quiver_server(
    database: str,
    port: int,
    workers: int,
    extra: dict[str, str] | None = None,
    name: str = "quiver_bench",
    checkout: Path | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """A node (``quiver serve``) on ``port`` with ``extra`` settings, run from ``checkout`` (a
    folder holding the project; this one by default); on PostgreSQL its database ``name`` is
    made afresh."""
    tmp = Path(tempfile.mkdtemp())
    env = {
        **os.environ,
        **({"PYTHONPATH": str(checkout)} if checkout is not None else {}),
        "QUIVER_DATA_DIR": str(tmp),
        "QUIVER_ADMIN_KEY": ADMIN,
        "QUIVER_LOG_LEVEL": "warning",
        "QUIVER_WORKERS": str(workers),
        # the load is one key's: lift its rate so the benchmark measures the call path
        "QUIVER_KEY_REQUESTS": "100000/second",
        "QUIVER_TENANT_REQUESTS": "100000/second",
        **(extra or {}),
    }
    if database == "postgresql":
        env["QUIVER_DATABASE_URL"] = fresh_postgres(name)
        env["QUIVER_SECRET_KEY"] = generate_key()
    log = os.environ.get("QUIVER_BENCH_SERVER_LOG")  # the server's log lines, to look into a run
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        cwd=checkout, env=env, stdout=subprocess.DEVNULL,
        stderr=open(log, "ab") if log else subprocess.DEVNULL,  # noqa: SIM115 - the child keeps it
    )  # fmt: skip
    return proc, f"http://127.0.0.1:{port}"


def bench_http(
    seconds: float, database: str, workers: int, rounds: int
) -> tuple[dict[str, Load], dict[str, float]]:
    """A bare ASGI endpoint (no framework: uvicorn's HTTP alone), the bare FastAPI endpoint, the
    floor (the bare endpoint plus the sandbox's round trip alone: ``sandbox_app``), the call
    route, and the call route of a node whose call log is not synced before a call answers
    (``QUIVER_CALL_LOG_FSYNC=false``: a row survives a killed process, not a lost machine) in
    ``rounds`` alternating rounds (``seconds`` each in all), then MCP tools/call, in one run; a
    row's share of the bare endpoint is the median of the rounds' ratios."""
    quiver_port, unsynced_port, bare_port = free_port(), free_port(), free_port()
    quiver, base = quiver_server(database, quiver_port, workers)
    unsynced, unsynced_base = quiver_server(
        database, unsynced_port, workers, {"QUIVER_CALL_LOG_FSYNC": "false"}, "quiver_bench_2"
    )
    asgi_port, floor_port = free_port(), free_port()
    asgi = _uvicorn("benchmarks.asgi_app:app", asgi_port)
    bare = _uvicorn("benchmarks.bare_app:app", bare_port)
    floor = _uvicorn("benchmarks.sandbox_app:app", floor_port, {"QUIVER_WORKERS": str(workers)})
    try:
        wait_ready(base, "/readyz")
        wait_ready(unsynced_base, "/readyz")
        for port in (asgi_port, bare_port, floor_port):
            wait_ready(f"http://127.0.0.1:{port}", "/docs")
        body = b'{"tool": "echo", "arguments": {"x": "1"}}'
        bare_path = "/v1/sessions/x/calls"
        targets: dict[str, Target] = {
            "asgi": (asgi.pid, asgi_port, bare_path, None),
            "bare": (bare.pid, bare_port, bare_path, None),
            "floor": (floor.pid, floor_port, bare_path, None),
        }
        for name, proc, port, url in (("call", quiver, quiver_port, base), ("unsynced", unsynced, unsynced_port, unsynced_base)):  # fmt: skip
            agent, sid = one_tenant(url)
            targets[name] = (proc.pid, port, f"/v1/sessions/{sid}/calls", agent)
        loads = alternating(targets, body, rounds, seconds / rounds)
        rows = {name: median_load(got) for name, got in loads.items()}
        rows["mcp"] = asyncio.run(bench_mcp(base, targets["call"][3], seconds / 2))
        shares = {name: share(got, loads["bare"]) for name, got in loads.items()}
        return rows, shares
    finally:
        for proc in (quiver, unsynced, asgi, bare, floor):
            proc.terminate()
            proc.wait(timeout=10)


def _uvicorn(app: str, port: int, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--port", str(port), "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})},
    )  # fmt: skip


def median_load(loads: list[Load]) -> Load:
    """Each figure's median over the rounds (the reconnects summed)."""
    return Load(
        statistics.median(x.rps for x in loads),
        statistics.median(x.p50_ms for x in loads),
        sum(x.reconnects for x in loads),
        statistics.median(x.loop_us for x in loads),
        statistics.median(x.kernel_us for x in loads),
        statistics.median(x.machine_us for x in loads),
    )


LABELS = {
    "asgi": "bare ASGI endpoint",
    "bare": "bare FastAPI endpoint",
    "floor": "bare + sandbox round trip",
    "call": "POST .../calls",
    "unsynced": "  its log not synced",
    "mcp": "MCP tools/call (SDK)",
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--databases", default="sqlite,postgresql", help="sqlite,postgresql")
    parser.add_argument("--workers", type=int, default=4, help="sandbox workers of the server")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds, bare and call")
    args = parser.parse_args()
    in_process = stats(bench_in_process(args.calls))
    pool = stats(asyncio.run(bench_pool(args.calls)))
    fresh = stats(bench_subprocess(max(20, args.calls // 100)))
    print(f"{'per call':<28}{'p50 (us)':>12}{'p99 (us)':>12}")
    for name, (p50, p99) in (
        ("(a) in-process", in_process),
        ("(b) pool", pool),
        ("(c) fresh subprocess", fresh),
    ):
        print(f"{name:<28}{p50:>12.1f}{p99:>12.1f}")
    print(
        f"pool / in-process: {pool[0] / in_process[0]:.1f}x slower; subprocess / pool: {fresh[0] / pool[0]:.0f}x slower"
    )
    pool_ms = pool[0] / 1000
    for database in args.databases.split(","):
        rows, shares = bench_http(args.seconds, database, args.workers, args.rounds)
        bare = rows["bare"]
        print(
            f"\nHTTP on {database} ({args.workers} workers), 8 connections: {args.rounds} "
            f"alternating rounds of the bare endpoints, the floor and the calls, {args.seconds:.0f} s each in all "
            "(medians over the rounds)"
        )
        print(f"{'':28}{'req/s':>10}{'p50 ms':>10}{'of bare':>10}{'loop us':>10}{'reconnects':>12}")  # fmt: skip
        for name, row in rows.items():
            label = LABELS[name]
            ratio = shares.get(name, row.rps / bare.rps)
            loop = f"{row.loop_us:.0f}" if row.loop_us else "-"
            print(f"{label:<28}{row.rps:>10.0f}{row.p50_ms:>10.2f}{ratio:>10.0%}{loop:>10}{row.reconnects:>12}")  # fmt: skip
        print("  loop us: the server's event-loop thread's CPU a request (user and system, /proc)")
        bound = 2 * bare.p50_ms + pool_ms
        print(f"POST .../calls p50 {rows['call'].p50_ms:.2f} ms; target 2 x bare p50 + pool round trip = {bound:.2f} ms")  # fmt: skip
        # With 8 requests always in flight, latency goes as the inverse of throughput (Little's
        # law): the throughput that would bring this run's p50 down to the bound.
        call = rows["call"]
        needed = call.rps * call.p50_ms / bound
        print(f"  a p50 within the bound needs ~{needed:.0f} calls/s at 8 in flight ({needed / bare.rps:.0%} of bare)")  # fmt: skip


if __name__ == "__main__":
    main()
