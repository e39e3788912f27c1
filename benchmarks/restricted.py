"""RestrictedPython tier benchmark.

    python -m benchmarks.restricted [--calls 2000] [--seconds 5]

Per-call latency of one trivial tool, measured in one run:
  (a) in-process   the worker's own code path called directly (compile cached, guards on)
  (b) pool         through the hardened pre-started worker pool (what the server uses)
  (c) subprocess   a fresh hardened worker process started for every call
and HTTP throughput of ``POST /v1/sessions/{sid}/calls`` on that tool (real uvicorn, SQLite)
against a bare FastAPI endpoint returning the same JSON, with the same load generator.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from sandbox import channel
from sandbox.engine import Limits, ToolSource
from sandbox.restricted.engine import RestrictedEngine
from sandbox.restricted.pool import PoolConfig
from sandbox.restricted.worker import Worker

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
            await engine.run(source, "echo", {"x": "1"}, {"tenant_id": "b"}, Limits())
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            result = await engine.run(source, "echo", {"x": "1"}, {"tenant_id": "b"}, Limits())
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


async def load(
    port: int, path: str, body: bytes, auth: str | None, seconds: float, concurrency: int = 8
) -> float:
    """Requests per second over keep-alive connections, ``concurrency`` in flight.

    A raw HTTP/1.1 client on asyncio streams: it costs far less CPU than a full client
    library, so on a small machine the servers, not the load generator, are measured."""
    head = f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    if auth:
        head += f"Authorization: Bearer {auth}\r\n"
    request = (head + "\r\n").encode() + body
    done = 0
    deadline = time.perf_counter() + seconds

    async def connection() -> None:
        nonlocal done
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.perf_counter() < deadline:
                writer.write(request)
                headers = await reader.readuntil(b"\r\n\r\n")
                length = int(headers.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                reply = await reader.readexactly(length)
                assert headers.startswith(b"HTTP/1.1 200") and b'"success":true' in reply, reply
                done += 1
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(connection() for _ in range(concurrency)))
    return done / (time.perf_counter() - started)


def bench_http(seconds: float) -> tuple[float, float]:
    tmp = Path(tempfile.mkdtemp())
    quiver_port, bare_port = free_port(), free_port()
    env = {
        **os.environ,
        "QUIVER_DATA_DIR": str(tmp),
        "QUIVER_ADMIN_KEY": ADMIN,
        "QUIVER_LOG_LEVEL": "warning",
        "QUIVER_WORKERS": "2",
    }
    quiver = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(quiver_port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    bare = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "benchmarks.bare_app:app",
            "--port",
            str(bare_port),
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{quiver_port}"
        wait_ready(base, "/readyz")
        wait_ready(f"http://127.0.0.1:{bare_port}", "/docs")
        admin = {"Authorization": f"Bearer {ADMIN}"}
        httpx.post(f"{base}/v1/tenants", json={"id": "bench"}, headers=admin).raise_for_status()
        dev = httpx.post(
            f"{base}/v1/tenants/bench/keys", json={"role": "developer"}, headers=admin
        ).json()["key"]
        agent = httpx.post(
            f"{base}/v1/tenants/bench/keys", json={"role": "agent"}, headers=admin
        ).json()["key"]
        httpx.post(
            f"{base}/v1/tools",
            json={"kind": "python", "source": TOOL},
            headers={"Authorization": f"Bearer {dev}"},
        ).raise_for_status()
        httpx.post(
            f"{base}/v1/bots",
            json={"name": "b", "tools": None},
            headers={"Authorization": f"Bearer {dev}"},
        ).raise_for_status()
        sid = httpx.post(
            f"{base}/v1/sessions", json={"bot": "b"}, headers={"Authorization": f"Bearer {agent}"}
        ).json()["id"]
        body = b'{"tool": "echo", "arguments": {"x": "1"}}'
        path = f"/v1/sessions/{sid}/calls"
        asyncio.run(load(quiver_port, path, body, agent, 1.0))  # warm up
        quiver_rps = asyncio.run(load(quiver_port, path, body, agent, seconds))
        bare_rps = asyncio.run(load(bare_port, "/v1/sessions/x/calls", body, None, seconds))
        return quiver_rps, bare_rps
    finally:
        for proc in (quiver, bare):
            proc.terminate()
            proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=5.0)
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
    quiver_rps, bare_rps = bench_http(args.seconds)
    print(
        f"HTTP POST .../calls: {quiver_rps:.0f} req/s; bare FastAPI endpoint: {bare_rps:.0f} req/s; ratio {quiver_rps / bare_rps:.0%}"
    )


if __name__ == "__main__":
    main()
