"""Fairness: one tenant's calls while another floods the node or forces worker restarts.

    python -m benchmarks.fairness [--seconds 8] [--victim-rate 500] [--victims 8]
                                  [--flooders 64] [--bombers 1] [--env QUIVER_X=Y]

A real ``quiver serve`` (SQLite, 2 sandbox workers and a warm spare, the defaults otherwise),
on half of this machine's cores; the load generators run on the other half (on a small machine
a client's own CPU would otherwise read as the node's latency). Tenant *victim* calls a trivial
tool at a steady ``--victim-rate`` over ``--victims`` keep-alive connections (open loop: each
call is due at its time whatever the last one did, and its latency counts from when it was due,
so a victim held back cannot look fast by sending less); its own limits are raised, so nothing
but the other tenant can slow it. Each row measures the victim alone and beside one other tenant
in the same run, on a fresh node; the other tenant's client is a process of its own, at the
lowest priority, so that it never delays the victim's client:

  flood            tenant *flood* on ``--flooders`` connections (two agent keys, so it reaches its
                   default 2,000 requests/s), as fast as the node answers it
  restart storm    tenant *bomber* on ``--bombers`` connections calling a tool that is a memory
                   bomb every other call (each bomb costs a worker restart), moving to a fresh
                   session every four calls — the mix that evades the default breakers

Targets (issue: nothing lost, nothing hangs): beside either, the victim keeps >= 80 % of its
calm throughput and its p99 stays within 1.5x.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
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


# The node on its own cores, the load generators on the others: on a small machine a client's
# own CPU would otherwise be counted as the node's latency.
CPUS = sorted(os.sched_getaffinity(0))
NODE_CPUS = set(CPUS[len(CPUS) // 2 :]) if len(CPUS) > 1 else set(CPUS)
CLIENT_CPUS = set(CPUS[: len(CPUS) // 2]) if len(CPUS) > 1 else set(CPUS)


def http_request(path: str, body: bytes, auth: str) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nAuthorization: Bearer {auth}\r\n\r\n"
    )
    return head.encode() + body


async def run_load(
    port: int,
    requests: list[bytes],
    seconds: float,
    concurrency: int,
    rate: float | None = None,
) -> tuple[int, list[float], dict[int, int]]:
    """(completed, latencies of 200s in seconds, status counts) over keep-alive connections,
    each connection cycling through ``requests``: as fast as answers come, or at ``rate`` calls
    a second in all, each due at its time (a latency counts from when its call was due)."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    start = time.perf_counter()
    deadline = start + seconds

    async def connection(index: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        sent = index * 97
        due = start + (index / rate if rate else 0.0)
        try:
            while (now := time.perf_counter()) < deadline:
                if rate:
                    if due > now:
                        await asyncio.sleep(due - now)
                    if due >= deadline:
                        break
                started = due if rate else time.perf_counter()
                writer.write(requests[sent % len(requests)])
                sent += 1
                headers = await reader.readuntil(b"\r\n\r\n")
                length = int(headers.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                status = int(headers[9:12])
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    latencies.append(time.perf_counter() - started)
                due += concurrency / rate if rate else 0.0
        finally:
            writer.close()

    await asyncio.gather(*(connection(i) for i in range(concurrency)))
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
        preexec_fn=lambda: os.sched_setaffinity(0, NODE_CPUS),
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    wait_ready(base, "/readyz")
    return proc, base


def tenant(
    base: str, name: str, source: str, sessions: int = 1, agents: int = 1
) -> tuple[list[str], list[str]]:
    """(agent keys, session ids) of a new tenant offering ``source``."""
    admin = {"Authorization": f"Bearer {ADMIN}"}
    httpx.post(f"{base}/v1/tenants", json={"id": name}, headers=admin).raise_for_status()
    keys = [
        httpx.post(f"{base}/v1/tenants/{name}/keys", json={"role": r}, headers=admin).json()["key"]
        for r in ["developer"] + ["agent"] * agents
    ]
    dev = {"Authorization": f"Bearer {keys[0]}"}
    httpx.post(f"{base}/v1/tools", json={"kind": "python", "source": source}, headers=dev)
    httpx.post(f"{base}/v1/bots", json={"name": "b", "tools": None}, headers=dev)
    agent = {"Authorization": f"Bearer {keys[1]}"}
    sids = [
        httpx.post(f"{base}/v1/sessions", json={"bot": "b"}, headers=agent).json()["id"]
        for _ in range(sessions)
    ]
    return keys[1:], sids


def _load_in_process(
    port: int, requests: list[bytes], seconds: float, concurrency: int
) -> tuple[int, list[float], dict[int, int]]:
    os.nice(19)  # the victim's client first: what slows the victim must be the node's doing
    return asyncio.run(run_load(port, requests, seconds, concurrency))


def echo_calls(keys: list[str], sids: list[str]) -> list[bytes]:
    body = b'{"tool": "echo", "arguments": {"x": "1"}}'
    return [http_request(f"/v1/sessions/{sid}/calls", body, key) for key in keys for sid in sids]


def measure(args: argparse.Namespace, other: str, extra: dict[str, str]) -> dict[str, float]:
    """The victim alone, then beside ``other`` ("flood" or "storm"), on a fresh node."""
    port = free_port()
    proc, base = server(port, extra)
    try:
        victim_keys, victim_sids = tenant(base, "victim", TOOL)
        unlimited = {"requests": "100000/second", "key_requests": "100000/second"}
        httpx.put(  # the victim's own limits must not be what holds it back
            f"{base}/v1/tenants/victim/limits",
            json=unlimited,
            headers={"Authorization": f"Bearer {ADMIN}"},
        ).raise_for_status()
        victim = echo_calls(victim_keys, victim_sids)
        if other == "flood":
            keys, sids = tenant(base, "flood", TOOL, sessions=4, agents=2)
            load, connections = echo_calls(keys, sids), args.flooders
        else:
            keys, sids = tenant(base, "bomber", BOMB, sessions=300)
            load = [
                http_request(
                    f"/v1/sessions/{sid}/calls",
                    b'{"tool": "bomb", "arguments": {"bomb": %s}}'
                    % (b"true" if i % 2 else b"false"),
                    keys[0],
                )
                for sid in sids
                for i in range(4)
            ]
            connections = args.bombers
        rate, seconds, conns = args.victim_rate or None, args.seconds, args.victims
        asyncio.run(run_load(port, victim, 1.0, conns, rate))  # warm up
        alone = asyncio.run(run_load(port, victim, seconds, conns, rate))

        # the other tenant's load from a process of its own: in this one, its answers would
        # hold up the victim's own client, and that would be measured as the node's doing
        with multiprocessing.get_context("spawn").Pool(1) as other_client:
            theirs_later = other_client.apply_async(
                _load_in_process, (port, load, seconds, connections)
            )
            shared = asyncio.run(run_load(port, victim, seconds, conns, rate))
            theirs = theirs_later.get(seconds + 60)
        return {
            "alone_rps": alone[0] / seconds, "alone_p99_ms": p99(alone[1]),
            "shared_rps": shared[0] / seconds, "shared_p99_ms": p99(shared[1]),
            "other_rps": theirs[0] / seconds, "other_answers": sum(theirs[2].values()) / seconds,
        }  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument(
        "--victim-rate", type=float, default=500.0,
        help="victim calls a second, due at their times (0: as fast as its answers come)",
    )  # fmt: skip
    parser.add_argument("--victims", type=int, default=8, help="the victim's connections")
    parser.add_argument("--flooders", type=int, default=64, help="the flood's connections")
    parser.add_argument("--bombers", type=int, default=1, help="the storm's connections")
    parser.add_argument("--only", choices=["flood", "storm"], help="one row only")
    parser.add_argument(
        "--env", action="append", default=[], metavar="NAME=VALUE",
        help="a server setting for every row (e.g. QUIVER_FAIR_ADMISSION=false)",
    )  # fmt: skip
    args = parser.parse_args()
    os.sched_setaffinity(0, CLIENT_CPUS)  # and the other tenant's client, started from here
    extra = dict(item.split("=", 1) for item in args.env)
    rows = [
        (name, measure(args, other, extra))
        for name, other in (("flood", "flood"), ("restart storm", "storm"))
        if args.only in (None, other)
    ]
    print(
        f"victim at {args.victim_rate:g} calls/s on {args.victims} connections, alone and beside "
        "another tenant "
        f"({args.seconds:g} s each; flood: {args.flooders} connections, storm: {args.bombers})"
    )
    print(
        f"{'':14} {'alone rps':>10} {'beside rps':>10} {'kept':>6} {'p99 alone':>10} "
        f"{'p99 beside':>11} {'x':>5} {'other 200/s':>12} {'other all/s':>12}"
    )
    for name, r in rows:
        kept = r["shared_rps"] / r["alone_rps"]
        worse = r["shared_p99_ms"] / r["alone_p99_ms"]
        print(
            f"{name:14} {r['alone_rps']:10.0f} {r['shared_rps']:10.0f} {kept:6.0%} "
            f"{r['alone_p99_ms']:8.1f}ms {r['shared_p99_ms']:9.1f}ms {worse:5.2f} "
            f"{r['other_rps']:12.0f} {r['other_answers']:12.0f}"
        )


if __name__ == "__main__":
    main()
