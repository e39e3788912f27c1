"""One serving process against two, beside the bare endpoint at one and two.

    python -m benchmarks.processes [--seconds 6] [--rounds 3] [--connections 16]

PostgreSQL. ``quiver serve --workers 1`` and ``--workers 2`` (2 sandbox workers per process),
and a bare FastAPI endpoint under ``uvicorn --workers 1`` and ``2``, each loaded in alternating
rounds by the same raw HTTP/1.1 client (``connections`` keep-alive connections, each opened
anew per round, so the kernel spreads them over the processes) calling ``POST …/calls`` of one
trivial tool, one session per connection. Printed: calls/s of each, and what the second process
adds (``2 / 1``) for Quiver and for the bare endpoint — on a machine with few cores the bare
endpoint's ratio is the ceiling for Quiver's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile

from benchmarks.databases import fresh_postgres
from benchmarks.restricted import ADMIN, free_port, load, one_tenant, wait_ready
from server.secretbox import generate_key


def quiver(workers: int, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "QUIVER_DATA_DIR": tempfile.mkdtemp(),
        "QUIVER_ADMIN_KEY": ADMIN,
        "QUIVER_LOG_LEVEL": "warning",
        "QUIVER_WORKERS": "2",
        "QUIVER_KEY_REQUESTS": "100000/second",
        "QUIVER_TENANT_REQUESTS": "100000/second",
        "QUIVER_DATABASE_URL": fresh_postgres(f"quiver_bench_{workers}"),
        "QUIVER_SECRET_KEY": generate_key(),
    }
    command = [sys.executable, "-m", "server.cli", "serve", "--port", str(port)]
    return subprocess.Popen(
        [*command, "--workers", str(workers)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def bare(workers: int, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "benchmarks.bare_app:app", "--port", str(port),
         "--workers", str(workers), "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=6.0, help="per server, over all rounds")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    body = b'{"tool": "echo", "arguments": {"x": "1"}}'
    ports = {name: free_port() for name in ("quiver 1", "quiver 2", "bare 1", "bare 2")}
    procs = {
        "quiver 1": quiver(1, ports["quiver 1"]),
        "quiver 2": quiver(2, ports["quiver 2"]),
        "bare 1": bare(1, ports["bare 1"]),
        "bare 2": bare(2, ports["bare 2"]),
    }
    try:
        targets = {}
        for name, port in ports.items():
            base = f"http://127.0.0.1:{port}"
            if name.startswith("quiver"):
                wait_ready(base, "/readyz")
                agent, sid = one_tenant(base)
                targets[name] = (port, f"/v1/sessions/{sid}/calls", agent)
            else:
                wait_ready(base, "/docs")
                targets[name] = (port, "/v1/sessions/x/calls", None)
        for port, path, key in targets.values():  # warm up every process
            asyncio.run(load(port, path, body, key, 2.0, args.connections))
        each = args.seconds / args.rounds
        rounds = [
            {
                name: asyncio.run(load(port, path, body, key, each, args.connections)).rps
                for name, (port, path, key) in targets.items()
            }
            for _ in range(args.rounds)
        ]
    finally:
        for proc in procs.values():
            proc.terminate()
            proc.wait(timeout=30)
    print(f"{args.rounds} alternating rounds, {each:.1f} s each, {args.connections} connections")
    print(f"{'server':<34}{'calls/s':>10}")
    labels = {
        "quiver 1": "quiver serve --workers 1",
        "quiver 2": "quiver serve --workers 2",
        "bare 1": "bare endpoint, 1 process",
        "bare 2": "bare endpoint, 2 processes",
    }
    for name, label in labels.items():
        print(f"{label:<34}{statistics.median(r[name] for r in rounds):>10.0f}")
    for kind in ("quiver", "bare"):
        ratio = statistics.median(r[f"{kind} 2"] / r[f"{kind} 1"] for r in rounds)
        print(f"{kind}: 2 processes / 1 = {ratio:.2f}x")


if __name__ == "__main__":
    main()
