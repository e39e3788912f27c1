"""Fairness under a restart storm: one tenant's throughput while another forces worker restarts.

    python -m benchmarks.fairness [--seconds 8] [--bombers 1]

A real ``quiver serve`` (SQLite, 2 sandbox workers). Tenant *victim* calls a trivial tool over 8
keep-alive connections; tenant *bomber*, over ``--bombers`` connections, calls a tool that is a
one-line memory bomb every other call (each bomb costs a worker restart), moving
to a fresh session every four calls — the mix that evades the default breakers. Measured in one
run, each against the victim alone:

  with the restart budget     (the default: 10 restarts at once, 1/s per tenant)
  without it                  (QUIVER_TENANT_RESTART_BURST=0: every bomb restarts a worker)

Targets (issue: fairness): with the budget the victim keeps >= 70 % of its throughput and its
p99 stays within 2x.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time

import httpx

from benchmarks.restricted import ADMIN, TOOL, free_port, wait_ready

BOMB = """
def execute(params, context):
    if params.get("bomb"):  # fills the worker's memory, page by page, until it dies
        hoard = []
        while True:
            hoard.append(" " * 10**7)
    return {"success": True}


tool = {"name": "bomb", "description": "a memory bomb, every other call",
        "parameters": {"bomb": {"type": "boolean"}}, "execute": execute}
"""


def http_request(path: str, body: bytes, auth: str) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nAuthorization: Bearer {auth}\r\n\r\n"
    )
    return head.encode() + body


async def run_load(
    port: int, requests: list[bytes], seconds: float, concurrency: int
) -> tuple[int, list[float], dict[int, int]]:
    """(completed, latencies of 200s in seconds, status counts) over keep-alive connections,
    each connection cycling through ``requests``."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    deadline = time.perf_counter() + seconds

    async def connection(offset: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        sent = offset
        try:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                writer.write(requests[sent % len(requests)])
                sent += 1
                headers = await reader.readuntil(b"\r\n\r\n")
                length = int(headers.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                status = int(headers[9:12])
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    latencies.append(time.perf_counter() - started)
        finally:
            writer.close()

    await asyncio.gather(*(connection(i * 97) for i in range(concurrency)))
    return len(latencies), latencies, statuses


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[int(0.99 * (len(ordered) - 1))] * 1000 if ordered else float("nan")


def server(port: int, extra: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    env = {
        **os.environ, "QUIVER_DATA_DIR": tempfile.mkdtemp(), "QUIVER_ADMIN_KEY": ADMIN,
        "QUIVER_LOG_LEVEL": "error", "QUIVER_WORKERS": "2", **extra,
    }  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    wait_ready(base, "/readyz")
    return proc, base


def tenant(base: str, name: str, source: str, sessions: int = 1) -> tuple[str, list[str]]:
    """(agent key, session ids) of a new tenant offering ``source``."""
    admin = {"Authorization": f"Bearer {ADMIN}"}
    httpx.post(f"{base}/v1/tenants", json={"id": name}, headers=admin).raise_for_status()
    keys = [
        httpx.post(f"{base}/v1/tenants/{name}/keys", json={"role": r}, headers=admin).json()["key"]
        for r in ("developer", "agent")
    ]
    dev = {"Authorization": f"Bearer {keys[0]}"}
    httpx.post(f"{base}/v1/tools", json={"kind": "python", "source": source}, headers=dev)
    httpx.post(f"{base}/v1/bots", json={"name": "b", "tools": None}, headers=dev)
    agent = {"Authorization": f"Bearer {keys[1]}"}
    sids = [
        httpx.post(f"{base}/v1/sessions", json={"bot": "b"}, headers=agent).json()["id"]
        for _ in range(sessions)
    ]
    return keys[1], sids


def measure(extra: dict[str, str], seconds: float, bombers: int) -> dict[str, float]:
    port = free_port()
    proc, base = server(port, extra)
    try:
        victim_key, (victim_sid,) = tenant(base, "victim", TOOL)
        bomber_key, bomber_sids = tenant(base, "bomber", BOMB, sessions=300)
        echo = [
            http_request(f"/v1/sessions/{victim_sid}/calls",
                         b'{"tool": "echo", "arguments": {"x": "1"}}', victim_key)
        ]  # fmt: skip
        mixed = [
            http_request(
                f"/v1/sessions/{sid}/calls",
                b'{"tool": "bomb", "arguments": {"bomb": %s}}' % (b"true" if i % 2 else b"false"),
                bomber_key,
            )
            for sid in bomber_sids
            for i in range(4)
        ]
        asyncio.run(run_load(port, echo, 1.0, 8))  # warm up
        alone = asyncio.run(run_load(port, echo, seconds, 8))

        async def storm():
            return await asyncio.gather(
                run_load(port, echo, seconds, 8), run_load(port, mixed, seconds, bombers)
            )

        shared, bombs = asyncio.run(storm())
        return {
            "alone_rps": alone[0] / seconds, "alone_p99_ms": p99(alone[1]),
            "storm_rps": shared[0] / seconds, "storm_p99_ms": p99(shared[1]),
            "bombs_answered": sum(bombs[2].values()),
        }  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument(
        "--bombers", type=int, default=1, help="the bomber's connections (1: a restart storm; "
        "more: a request flood as well, which only per-tenant admission can share fairly)",
    )  # fmt: skip
    args = parser.parse_args()
    off = {"QUIVER_TENANT_RESTART_BURST": "0"}
    rows = [
        ("with the restart budget", measure({}, args.seconds, args.bombers)),
        ("without it", measure(off, args.seconds, args.bombers)),
    ]
    print(
        f"victim throughput and p99 while a bomber on {args.bombers} connection(s) forces "
        f"worker restarts ({args.seconds:g} s each)"
    )
    print(
        f"{'':26} {'alone rps':>10} {'storm rps':>10} {'kept':>6} {'p99 alone':>10} {'p99 storm':>10} {'x':>5}"
    )
    for name, r in rows:
        kept = r["storm_rps"] / r["alone_rps"]
        worse = r["storm_p99_ms"] / r["alone_p99_ms"]
        print(
            f"{name:26} {r['alone_rps']:10.0f} {r['storm_rps']:10.0f} {kept:6.0%} "
            f"{r['alone_p99_ms']:8.1f}ms {r['storm_p99_ms']:8.1f}ms {worse:5.2f}"
        )
    print("bomber calls answered (with / without the budget):",
          rows[0][1]["bombs_answered"], "/", rows[1][1]["bombs_answered"])  # fmt: skip


if __name__ == "__main__":
    main()
