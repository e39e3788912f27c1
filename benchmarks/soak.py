"""Soak: three ``quiver serve`` nodes on one PostgreSQL and one Redis, a bounded loopback load of
mixed calls, one node SIGKILLed and one sandbox worker killed midway.

    python -m benchmarks.soak [--calls 10000] [--concurrency 64]

The mix: a Python code tool, a C tool in WASM (when clang can build it), a webhook to a
loopback upstream, a cacheable tool (tenant scope, shared through Redis), and browser-action
outcomes reported by the agent. Requests go round-robin over the nodes, as a load balancer
would; one that cannot reach its node (the killed one) goes to the next — it was never
answered. Reported: calls answered, call-log rows found for them (lost = answered − rows; the
goal is 0), p50/p99 per node, how long the killed node took to come back (its journal replayed
at start), and whether the nodes agree on the breakers (snapshots) and share cached results.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from benchmarks.databases import REDIS_URL, libpq, own_redis, postgres
from server.secretbox import generate_key
from tests.loopback import LoopbackServer

ADMIN = "qk_soak_admin_" + "d" * 32
ROOT = Path(__file__).resolve().parent.parent
CODE = """
def execute(params, context):
    return {"success": True, "echo": params.get("x")}


tool = {"name": "code", "description": "echo", "parameters": {"x": {"type": "string"}},
        "execute": execute}
"""
CACHED = CODE.replace('"code"', '"cached"').replace(
    '"execute": execute}',
    '"execute": execute, "metadata": {"cacheable": True, "cache_scope": "tenant"}}',
)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Node:
    def __init__(self, index: int, env: dict[str, str], data: Path) -> None:
        self.index, self.env, self.data = index, env, data
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> float:
        """Start and wait until ready; the seconds it took."""
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--port", str(self.port)],
            env={**self.env, "QUIVER_DATA_DIR": str(self.data)}, cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        while time.monotonic() - started < 60:
            try:
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    return time.monotonic() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"node {self.index} did not become ready")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def kill_a_worker(self) -> bool:
        """SIGKILL one of this node's sandbox workers (found by its command line)."""
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                stat = Path(f"/proc/{pid}/stat").read_text().split()
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if stat[3] == str(self.proc.pid) and b"-m sandbox." in cmdline.replace(b"\0", b" "):
                os.kill(int(pid), signal.SIGKILL)
                return True
        return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=15)


def wasm_module() -> bytes | None:
    clang = shutil.which("clang")
    if clang is None:
        return None
    out = Path(tempfile.mkdtemp()) / "wc.wasm"
    built = subprocess.run(
        [clang, "--target=wasm32-wasi", "-O2", f"-I{ROOT / 'sandbox' / 'wasm'}", "-o", str(out),
         str(ROOT / "tests" / "sandbox" / "wasm" / "word_count.c")],
        capture_output=True,
    )  # fmt: skip
    return out.read_bytes() if built.returncode == 0 else None


def setup(base: str, upstream: str, module: bytes | None, sessions: int) -> dict[str, Any]:
    admin = {"Authorization": f"Bearer {ADMIN}"}
    httpx.post(f"{base}/v1/tenants", json={"id": "soak"}, headers=admin).raise_for_status()
    dev_key, agent_key = (
        httpx.post(f"{base}/v1/tenants/soak/keys", json={"role": r}, headers=admin).json()["key"]
        for r in ("developer", "agent")
    )
    dev = {"Authorization": f"Bearer {dev_key}"}
    bodies = [
        {"kind": "python", "source": CODE},
        {"kind": "python", "source": CACHED},
        {"kind": "webhook", "name": "hook", "description": "upstream", "method": "GET",
         "webhook_url": upstream + "/echo/{x}", "parameters": {"x": {"type": "string"}}},
    ]  # fmt: skip
    if module is not None:
        bodies.append({
            "kind": "wasm", "name": "wc", "description": "word count", "module": base64.b64encode(module).decode(),
            "parameters": {"text": {"type": "string"}},
        })  # fmt: skip
    for body in bodies:
        httpx.post(f"{base}/v1/tools", json=body, headers=dev, timeout=60).raise_for_status()
    httpx.post(f"{base}/v1/bots", json={"name": "b", "tools": None}, headers=dev).raise_for_status()
    agent = {"Authorization": f"Bearer {agent_key}"}
    sids = []
    for _ in range(sessions):
        sid = httpx.post(f"{base}/v1/sessions", json={"bot": "b"}, headers=agent).json()["id"]
        action = {"name": "open_cart", "description": "Show the cart", "parameters": {}}
        httpx.put(f"{base}/v1/sessions/{sid}/actions", json={"actions": [action]}, headers=agent)
        sids.append(sid)
    return {"agent": agent_key, "sessions": sids, "wasm": module is not None}


def request_for(rng: random.Random, sid: str, wasm: bool) -> tuple[str, str, dict[str, Any]]:
    """(kind, path, body) of one random request of the mix."""
    roll = rng.random()
    if roll < 0.10:
        call_id = uuid.uuid4().hex
        body = {"tool": "open_cart", "success": rng.random() < 0.9}
        return "browser", f"/v1/sessions/{sid}/calls/{call_id}/result", body
    kinds = ["code", "code", "cached", "hook"] + (["wc"] if wasm else [])
    tool = rng.choice(kinds)
    args = {"text": "one two three"} if tool == "wc" else {"x": str(rng.randrange(20))}
    return tool, f"/v1/sessions/{sid}/calls", {"tool": tool, "arguments": args}


async def load(
    nodes: list[Node], plan: dict[str, Any], calls: int, concurrency: int, midway
) -> dict[str, Any]:
    rng = random.Random(7)
    latencies: dict[int, list[float]] = defaultdict(list)
    answered: dict[str, int] = defaultdict(int)
    statuses: dict[int, int] = defaultdict(int)
    issued = 0
    done = 0
    fired = False
    headers = {"Authorization": f"Bearer {plan['agent']}"}
    clients = [httpx.AsyncClient(base_url=n.base, headers=headers, timeout=30) for n in nodes]

    async def one(worker: int) -> None:
        nonlocal issued, done, fired
        while issued < calls:
            issued += 1
            sid = plan["sessions"][issued % len(plan["sessions"])]
            kind, path, body = request_for(rng, sid, plan["wasm"])
            start_node = issued % len(nodes)
            for attempt in range(len(nodes)):  # the load balancer moves on from a dead node
                index = (start_node + attempt) % len(nodes)
                started = time.perf_counter()
                try:
                    response = await clients[index].post(path, json=body)
                except httpx.TransportError:
                    continue
                latencies[index].append(time.perf_counter() - started)
                statuses[response.status_code] += 1
                if response.status_code in (200, 201):
                    answered[sid] += 1
                break
            done += 1
            if not fired and done >= calls // 2:
                fired = True
                await midway()

    try:
        await asyncio.gather(*(one(i) for i in range(concurrency)))
    finally:
        for client in clients:
            await client.aclose()
    return {"latencies": latencies, "answered": answered, "statuses": dict(statuses)}


async def logged(dsn: str) -> int:
    conn = await asyncpg.connect(dsn)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM tool_calls WHERE tenant_id = 'soak'"))
    finally:
        await conn.close()


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[int(q * (len(ordered) - 1))] * 1000 if ordered else float("nan")


def run(
    calls: int = 10_000,
    concurrency: int = 64,
    sessions: int = 64,
    redis_url: str = REDIS_URL,
    flush_redis: bool = False,
) -> dict[str, Any]:
    """``redis_url``: a database of the benchmark's own (emptied only if it was empty, or with
    ``flush_redis``)."""
    database = "quiver_soak_" + uuid.uuid4().hex[:8]
    own_redis(redis_url, flush_redis)
    asyncio.run(_admin_sql(f'CREATE DATABASE "{database}"'))
    upstream = LoopbackServer("127.0.0.2")
    work = Path(tempfile.mkdtemp(prefix="quiver-soak-"))
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")},
        "QUIVER_DATABASE_URL": postgres(database),
        "QUIVER_REDIS_URL": redis_url, "QUIVER_SECRET_KEY": generate_key(), "QUIVER_ADMIN_KEY": ADMIN,
        "QUIVER_EGRESS_ALLOW": "127.0.0.2", "QUIVER_WORKERS": "2", "QUIVER_LOG_LEVEL": "error",
        "QUIVER_REQUIRE_ISOLATION": "true" if os.geteuid() == 0 else "false",
    }  # fmt: skip
    nodes = [Node(i, env, work / f"node{i}") for i in range(3)]
    events: dict[str, Any] = {}
    try:
        nodes[0].start()  # migrates
        for node in nodes[1:]:
            node.start()
        plan = setup(nodes[0].base, upstream.base, wasm_module(), sessions)

        async def midway() -> None:
            events["killed_at"] = time.monotonic()
            nodes[2].kill()
            events["worker_killed"] = nodes[0].kill_a_worker()

        started = time.monotonic()
        result = asyncio.run(load(nodes, plan, calls, concurrency, midway))
        elapsed = time.monotonic() - started
        events["restart_s"] = nodes[2].start()  # replays its journal
        answered = sum(result["answered"].values())
        dsn = libpq(database)
        rows, deadline = 0, time.monotonic() + 30
        while time.monotonic() < deadline:  # the nodes' next flushes
            rows = asyncio.run(logged(dsn))
            if rows >= answered:
                break
            time.sleep(0.2)
        agree = _nodes_agree(nodes, plan)
    finally:
        for node in nodes:
            node.stop()
        upstream.close()
        asyncio.run(_admin_sql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
        shutil.rmtree(work, ignore_errors=True)
    return {
        "calls": calls, "concurrency": concurrency, "seconds": elapsed, "answered": answered,
        # rows beyond the answered calls: calls the killed node ran but never answered (its
        # journal replayed them at its restart) — logged, as they ran
        "rows": rows, "lost": max(0, answered - rows), "extra": max(0, rows - answered),
        "statuses": result["statuses"],
        "per_node": {
            i: (len(s), percentile(s, 0.5), percentile(s, 0.99))
            for i, s in sorted(result["latencies"].items())
        },
        "restart_s": events["restart_s"], "worker_killed": events.get("worker_killed"),
        "wasm": plan["wasm"], **agree,
    }  # fmt: skip


def _nodes_agree(nodes: list[Node], plan: dict[str, Any]) -> dict[str, bool]:
    """Every node shows the same snapshot of one session, and a result cached through one node
    is a hit on every other (Redis)."""
    headers = {"Authorization": f"Bearer {plan['agent']}"}
    sid = plan["sessions"][0]
    snapshots = {
        tuple(t["name"] for t in httpx.get(f"{n.base}/v1/sessions/{sid}/snapshot", headers=headers).json()["tools"])
        for n in nodes
    }  # fmt: skip
    body = {"tool": "cached", "arguments": {"x": "agree"}}
    first = httpx.post(f"{nodes[0].base}/v1/sessions/{sid}/calls", json=body, headers=headers)
    hits = [
        httpx.post(f"{n.base}/v1/sessions/{sid}/calls", json=body, headers=headers).json()
        for n in nodes[1:]
    ]
    return {
        "snapshots_agree": len(snapshots) == 1,
        "cache_shared": first.status_code == 200 and all(h.get("cached") for h in hits),
    }


async def _admin_sql(statement: str) -> None:
    conn = await asyncpg.connect(libpq())
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument(
        "--flush-redis", action="store_true", help="empty QUIVER_BENCH_REDIS_URL's keys first"
    )
    args = parser.parse_args()
    report = run(args.calls, args.concurrency, flush_redis=args.flush_redis)
    print(f"{report['calls']} requests, {report['concurrency']} concurrent, 3 nodes, "
          f"{report['seconds']:.1f} s (WASM in the mix: {report['wasm']})")  # fmt: skip
    print(
        f"answered {report['answered']}, call-log rows {report['rows']}, lost {report['lost']}"
        f" (+{report['extra']} rows of calls the killed node ran but could not answer)"
    )
    print(f"statuses {report['statuses']}")
    for node, (n, p50, p99) in report["per_node"].items():
        print(f"node {node}: {n} answers, p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"node 2 killed midway, back (journal replayed) in {report['restart_s']:.2f} s; "
          f"a worker of node 0 killed: {report['worker_killed']}")  # fmt: skip
    print(f"snapshots agree: {report['snapshots_agree']}, cache shared: {report['cache_shared']}")


if __name__ == "__main__":
    main()
