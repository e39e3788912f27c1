"""What a call costs as the tenants it is spread over grow.

    python -m benchmarks.tenants [--tenants 1,100,1000,10000] [--seconds 5]
                                 [--databases sqlite,postgresql] [--spread uniform,zipf]

One ``quiver serve`` per database (2 sandbox workers), with as many tenants as the largest count
asks, each with one trivial code tool, a bot and a session. For each count, 8 keep-alive
connections call ``POST /v1/sessions/{sid}/calls`` spread over that many tenants: in turn
(uniform) or drawn with Zipf's law (s = 1.1: a few tenants hot, most rarely called). Printed per
row: calls per second, the event-loop thread's and the sandbox workers' CPU per call (read from
``/proc``, so the load generator's own CPU is not counted), p50 and p99, and the loop's CPU per
call beside the 1-tenant rows measured just before and after it in the same run.

Targets (issue: scale): the loop's CPU per call at 1,000 tenants <= 1.2x the 1-tenant one, and
<= 1.5x at 10,000.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from benchmarks.restricted import (
    ADMIN,
    CLOCK_TICKS,
    TOOL,
    free_port,
    loop_cpu_s,
    proc_stat,
    quiver_server,
    used_s,
    wait_ready,
)

CONNECTIONS = 8


@dataclass
class Row:
    tenants: int
    spread: str
    rps: float
    loop_us: float
    workers_us: float
    p50_ms: float
    p99_ms: float
    baseline_us: float = 0.0  # the 1-tenant rows' loop CPU just before and just after this one


def cpu_s(pid: int) -> tuple[float, float]:
    """(the process's main thread, its children) CPU seconds: the children alive now plus
    those that ended (a worker is replaced after its calls or a crash)."""
    fields = proc_stat(f"/proc/{pid}/stat")
    ended = (int(fields[13]) + int(fields[14])) / CLOCK_TICKS  # cutime, cstime
    alive = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = proc_stat(entry / "stat")
        except OSError:
            continue
        if int(stat[1]) == pid:  # ppid
            alive += used_s(stat)
    return loop_cpu_s(pid), ended + alive


async def create_tenants(base: str, count: int) -> list[tuple[str, str]]:
    """(agent key, session id) of ``count`` new tenants, 16 made at a time."""
    made: list[tuple[str, str]] = []
    gate = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:

        async def one(index: int) -> None:
            async with gate:
                made.append(await one_tenant(client, f"t{index:05d}"))

        await asyncio.gather(*(one(i) for i in range(count)))
    made.sort(key=lambda pair: pair[1])
    return made


async def one_tenant(client: httpx.AsyncClient, name: str) -> tuple[str, str]:
    """A tenant ``name`` with the trivial tool and a bot offering it: (agent key, session id)."""
    admin = {"Authorization": f"Bearer {ADMIN}"}
    (await client.post("/v1/tenants", json={"id": name}, headers=admin)).raise_for_status()
    keys = f"/v1/tenants/{name}/keys"
    dev = (await client.post(keys, json={"role": "developer"}, headers=admin)).json()["key"]
    agent = (await client.post(keys, json={"role": "agent"}, headers=admin)).json()["key"]
    as_dev = {"Authorization": f"Bearer {dev}"}
    tool = {"kind": "python", "source": TOOL}
    (await client.post("/v1/tools", json=tool, headers=as_dev)).raise_for_status()
    bot = {"name": "b", "tools": None}
    (await client.post("/v1/bots", json=bot, headers=as_dev)).raise_for_status()
    as_agent = {"Authorization": f"Bearer {agent}"}
    session = await client.post("/v1/sessions", json={"bot": "b"}, headers=as_agent)
    session.raise_for_status()
    return agent, str(session.json()["id"])


def request(agent: str, sid: str) -> bytes:
    body = b'{"tool": "echo", "arguments": {"x": "1"}}'
    head = (
        f"POST /v1/sessions/{sid}/calls HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json"
        f"\r\nContent-Length: {len(body)}\r\nAuthorization: Bearer {agent}\r\n\r\n"
    )
    return head.encode() + body


def order(count: int, spread: str, calls: int, seed: int = 7) -> list[int]:
    """Which tenant each call goes to: in turn, or drawn by Zipf's law (s = 1.1)."""
    if spread == "uniform":
        return [i % count for i in range(calls)]
    weights = [1 / (rank + 1) ** 1.1 for rank in range(count)]
    return random.Random(seed).choices(range(count), weights, k=calls)


async def load(
    port: int, requests: list[bytes], seconds: float, calls: int = 0
) -> tuple[int, list[float]]:
    """Keep ``CONNECTIONS`` connections calling ``requests`` in turn for ``seconds``, and on
    until ``calls`` were sent."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    sent = 0

    async def connection() -> None:
        nonlocal sent
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.perf_counter() < deadline or sent < calls:
                data = requests[sent % len(requests)]
                sent += 1
                started = time.perf_counter()
                writer.write(data)
                headers = await reader.readuntil(b"\r\n\r\n")
                length = int(headers.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                if headers[9:12] != b"200":
                    raise RuntimeError(f"a call answered {headers[:40]!r}")
                latencies.append(time.perf_counter() - started)
        finally:
            writer.close()

    await asyncio.gather(*(connection() for _ in range(CONNECTIONS)))
    return len(latencies), latencies


def measure(
    port: int, pid: int, tenants: list[tuple[str, str]], count: int, spread: str, seconds: float
) -> Row:
    built = [request(*tenants[i]) for i in range(count)]
    requests = [built[i] for i in order(count, spread, 200_000)]
    # every tenant called once first (and for 2 s at least): what is measured is a node that
    # serves them all, not the first loads of tenants it has never served
    asyncio.run(load(port, built, 2.0, calls=count))
    loop_before, workers_before = cpu_s(pid)
    calls, latencies = asyncio.run(load(port, requests, seconds))
    loop_after, workers_after = cpu_s(pid)
    ordered = sorted(latencies)
    return Row(
        count,
        spread,
        calls / seconds,
        (loop_after - loop_before) / calls * 1e6,
        (workers_after - workers_before) / calls * 1e6,
        statistics.median(ordered) * 1000,
        ordered[int(0.99 * (len(ordered) - 1))] * 1000,
    )


def run(database: str, counts: list[int], spreads: list[str], seconds: float) -> list[Row]:
    port = free_port()
    proc, base = quiver_server(database, port, workers=2)
    try:
        wait_ready(base, "/readyz")
        started = time.perf_counter()
        tenants = asyncio.run(create_tenants(base, max(counts)))
        print(f"{database}: {len(tenants)} tenants made in {time.perf_counter() - started:.0f} s")
        # a 1-tenant row between every two rows: the machine's speed drifts within a run, and
        # each row is compared with the baselines measured just before and just after it
        before = measure(port, proc.pid, tenants, 1, "uniform", seconds)
        rows = [before]
        for count in counts:
            for spread in spreads:
                if count > 1:
                    row = measure(port, proc.pid, tenants, count, spread, seconds)
                    after = measure(port, proc.pid, tenants, 1, "uniform", seconds)
                    row.baseline_us = (before.loop_us + after.loop_us) / 2
                    rows += [row, after]
                    before = after
        return rows
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tenants", default="1,100,1000,10000")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--spread", default="uniform,zipf")
    args = parser.parse_args()
    counts = [int(n) for n in args.tenants.split(",")]
    spreads = args.spread.split(",")
    for database in args.databases.split(","):
        rows = run(database, counts, spreads, args.seconds)
        baseline = statistics.mean(r.loop_us for r in rows if r.tenants == 1)
        print(
            f"\n{database}: {CONNECTIONS} connections, {args.seconds:g} s a row; a 1-tenant row before"
            " and after each row, which is compared with their mean (1-tenant rows: with all of them)"
        )
        print(
            f"{'tenants':>8} {'spread':>8} {'calls/s':>8} {'loop us':>8} {'workers us':>10} {'p50 ms':>7} {'p99 ms':>7} {'loop x':>7}"
        )
        for r in rows:
            print(
                f"{r.tenants:8d} {r.spread:>8} {r.rps:8.0f} {r.loop_us:8.0f} {r.workers_us:10.0f} "
                f"{r.p50_ms:7.2f} {r.p99_ms:7.2f} {r.loop_us / (r.baseline_us or baseline):7.2f}"
            )


if __name__ == "__main__":
    main()
