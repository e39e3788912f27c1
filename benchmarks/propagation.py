"""Propagation benchmark: how long from saving a tool to the event at an attached agent.

    python -m benchmarks.propagation [--saves 50]

Real processes on one PostgreSQL: nodes 1, 2 and 3 are each ``quiver serve``. Three agents
attach, one to a session on each node, and read its event stream at the same time: on node 1,
where the save happens (one node), and on nodes 2 and 3 (across nodes, by LISTEN/NOTIFY). Each
save is ``POST /v1/tools`` on node 1; the time is from sending it to the ``snapshot`` event that
adds the tool, at each node. Printed: every node's p50 and p99 (goal: p99 < 50 ms on each). The
baseline is LiteBot's documented 15 s polling interval (an agent sees a change on average 7.5 s
later, at worst 15 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson

from benchmarks.databases import libpq, postgres
from server.secretbox import generate_key

PG_SERVER = libpq()
ADMIN = "bench-admin-key-" + "e" * 40
POLLING_S = 15.0
TOOL = """
def execute(params, context):
    return {"success": True}


tool = {"name": "NAME", "description": "a tool", "execute": execute}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def fresh_database(name: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(PG_SERVER)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return postgres(name)


@contextlib.contextmanager
def node(env: dict[str, str]):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


async def events(client: httpx.AsyncClient, sid: str, queue: asyncio.Queue) -> None:
    async with client.stream("GET", f"/v1/sessions/{sid}/events", timeout=None) as response:
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                data = orjson.loads(line[6:])
                await queue.put((time.perf_counter(), data.get("added", [])))


async def measure(
    node1: str, watched: list[str], dev_key: str, agent_key: str, saves: int
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Per watched node, (p50, p99) ms from each save's request on node 1 to its event there,
    and (p50, p99) from the save's answer (its commit) to the event; last, the save's own."""
    dev = httpx.AsyncClient(base_url=node1, headers={"Authorization": f"Bearer {dev_key}"})
    agents = [
        httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {agent_key}"})
        for base in watched
    ]
    queues: list[asyncio.Queue] = [asyncio.Queue() for _ in watched]
    readers = []
    for agent, queue in zip(agents, queues, strict=True):
        sid = (await agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        readers.append(asyncio.create_task(events(agent, sid, queue)))
        await queue.get()  # the initial snapshot
    samples: list[list[float]] = [[] for _ in watched]
    after: list[list[float]] = [[] for _ in watched]
    saving: list[float] = []
    for i in range(saves):
        name = f"tool_{i}"
        started = time.perf_counter()
        response = await dev.post(
            "/v1/tools",
            json={"kind": "python", "sandbox": "restricted", "source": TOOL.replace("NAME", name)},
        )
        answered = time.perf_counter()
        assert response.status_code == 201, response.text
        saving.append(answered - started)
        for queue, seen, since in zip(queues, samples, after, strict=True):
            while True:
                at, added = await asyncio.wait_for(queue.get(), 10)
                if name in added:
                    seen.append(at - started)
                    since.append(max(0.0, at - answered))
                    break
    for reader in readers:
        reader.cancel()
    for client in (dev, *agents):
        await client.aclose()
    figures = [
        (_p50_p99(seen), _p50_p99(since)) for seen, since in zip(samples, after, strict=True)
    ]
    return [*figures, (_p50_p99(saving), _p50_p99(saving))]


def _p50_p99(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.99 * (len(ordered) - 1))] * 1000


async def seed(node1: str) -> dict[str, str]:
    """A tenant, its developer and agent keys, and a bot offering every tool."""
    async with httpx.AsyncClient(
        base_url=node1, headers={"Authorization": f"Bearer {ADMIN}"}
    ) as admin:
        await admin.post("/v1/tenants", json={"id": "acme", "name": "Acme"})
        keys = {
            role: (await admin.post("/v1/tenants/acme/keys", json={"role": role})).json()["key"]
            for role in ("developer", "agent")
        }
        await admin.post("/v1/bots?tenant=acme", json={"name": "b", "tools": None})
    return keys


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--saves", type=int, default=50)
    args = parser.parse_args()
    url = await fresh_database("quiver_bench_propagation")
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
        env.update(
            QUIVER_DATABASE_URL=url, QUIVER_ADMIN_KEY=ADMIN, QUIVER_SECRET_KEY=generate_key(),
            QUIVER_DATA_DIR=str(Path(tmp) / "data"), QUIVER_WORKERS="1", QUIVER_LOG_LEVEL="warning",
        )  # fmt: skip
        with node(env) as node1, node(env) as node2, node(env) as node3:
            keys = await seed(node1)
            nodes = [node1, node2, node3]
            figures = await measure(node1, nodes, keys["developer"], keys["agent"], args.saves)
    print(
        f"save on node 1 → event at an agent on each node, {args.saves} saves (PostgreSQL, 3 nodes)"
    )
    print(
        f"{'where':>22} | {'p50':>8} | {'p99':>8} | {'after the save answered':>27} | vs 15 s polling"
    )
    print("-" * 94)
    labels = ("node 1 (one node)", "node 2 (across nodes)", "node 3 (across nodes)")
    *nodes, (saving, _same) = figures
    for label, ((p50, p99), (a50, a99)) in zip(labels, nodes, strict=True):
        print(
            f"{label:>22} | {p50:5.1f} ms | {p99:5.1f} ms | p50 {a50:5.1f} ms, p99 {a99:5.1f} ms | {POLLING_S * 500 / p50:6.0f}x sooner"
        )
    print(f"{'the save itself':>22} | {saving[0]:5.1f} ms | {saving[1]:5.1f} ms |")
    worst = max(p99 for (_p50, p99), _after in nodes)
    print(f"worst node's p99: {worst:.1f} ms (goal < 50 ms: {'met' if worst < 50 else 'not met'})")
    print("the time includes saving the tool (its file is loaded in a sandbox worker at save)")


if __name__ == "__main__":
    asyncio.run(main())
