"""Nodes side by side: the same call, in alternating rounds, each node against the first.

    python -m benchmarks.paired [--database sqlite] [--rounds 12] [--seconds 2] NAME=CHECKOUT[:SETTING=VALUE,...] ...

Each ``NAME=CHECKOUT`` is a node (``quiver serve``) run from ``CHECKOUT``, a folder holding the
project (this one, or a ``git worktree`` of another commit), with the settings given after the
colon. For example, a change against the commit before it, and against itself unsynced:

    git worktree add /tmp/before HEAD~1
    python -m benchmarks.paired before=/tmp/before after=. unsynced=.:QUIVER_CALL_LOG_FSYNC=false

The machines are noisy (the same code's rate moves by a third between minutes), so the nodes
and the bare FastAPI endpoint take ``benchmarks.restricted``'s load (8 keep-alive connections,
one trivial code tool) in turn, ``--seconds`` each, for ``--rounds`` rounds. Printed for each:
its median calls a second and share of the bare endpoint, its event loop's CPU a call (the
kernel's part beside it), the whole machine's CPU a call (``/proc/stat``: the server, its
workers, the database and the load generator) and its p50; then each node's calls a second
against the first node's, the median of the rounds' ratios and each round's.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path

from benchmarks.restricted import (
    Load,
    Target,
    _uvicorn,
    alternating,
    free_port,
    median_load,
    one_tenant,
    quiver_server,
    share,
    wait_ready,
)

BODY = b'{"tool": "echo", "arguments": {"x": "1"}}'


@dataclass
class Node:
    name: str
    checkout: Path
    settings: dict[str, str]


def parse_node(spec: str) -> Node:
    """``NAME=CHECKOUT[:SETTING=VALUE,...]``."""
    name, _, rest = spec.partition("=")
    checkout, _, settings = rest.partition(":")
    if not name or not checkout:
        raise argparse.ArgumentTypeError(f"{spec!r}: expected NAME=CHECKOUT[:SETTING=VALUE,...]")
    pairs = [setting.split("=", 1) for setting in settings.split(",") if setting]
    if any(len(pair) != 2 for pair in pairs):
        raise argparse.ArgumentTypeError(f"{spec!r}: a setting is SETTING=VALUE")
    return Node(name, Path(checkout).resolve(), dict(pairs))


def run(nodes: list[Node], database: str, workers: int, rounds: int, seconds: float) -> None:
    servers: list[subprocess.Popen[bytes]] = []
    targets: dict[str, Target] = {}
    try:
        bare_port = free_port()
        bare = _uvicorn("benchmarks.bare_app:app", bare_port)
        servers.append(bare)
        wait_ready(f"http://127.0.0.1:{bare_port}", "/docs")
        targets["bare FastAPI"] = (bare.pid, bare_port, "/v1/sessions/x/calls", None)
        for index, node in enumerate(nodes):
            port = free_port()
            server, base = quiver_server(
                database, port, workers, node.settings, f"quiver_paired_{index}", node.checkout
            )
            servers.append(server)
            wait_ready(base, "/readyz")
            agent, session = one_tenant(base)
            targets[node.name] = (server.pid, port, f"/v1/sessions/{session}/calls", agent)
        loads = alternating(targets, BODY, rounds, seconds)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
    report(loads, database, rounds, seconds)


def report(loads: dict[str, list[Load]], database: str, rounds: int, seconds: float) -> None:
    print(f"{database}: {rounds} alternating rounds of {seconds:g} s, 8 connections (medians)")
    head = f"{'':16}{'calls/s':>9}{'of bare':>9}{'loop us':>9}{'kernel':>8}{'machine us':>12}{'p50 ms':>8}"
    print(head)
    for name, got in loads.items():
        m, of_bare = median_load(got), share(got, loads["bare FastAPI"])
        print(
            f"{name:16}{m.rps:>9.0f}{of_bare:>9.1%}{m.loop_us:>9.0f}"
            f"{m.kernel_us:>8.0f}{m.machine_us:>12.0f}{m.p50_ms:>8.2f}"
        )
    first, *others = [name for name in loads if name != "bare FastAPI"]
    for name in others:
        ratios = [r.rps / f.rps for r, f in zip(loads[name], loads[first], strict=True)]
        each = " ".join(f"{x:.2f}" for x in ratios)
        print(f"{name} / {first}: {statistics.median(ratios):.3f}  (rounds: {each})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("nodes", nargs="+", type=parse_node, metavar="NAME=CHECKOUT[:S=V,...]")
    parser.add_argument("--database", default="sqlite", choices=["sqlite", "postgresql"])
    parser.add_argument("--workers", type=int, default=4, help="sandbox workers of each node")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=2.0, help="each server's load a round")
    args = parser.parse_args()
    if len({node.name for node in args.nodes}) != len(args.nodes):
        parser.error("each node needs a name of its own")
    run(args.nodes, args.database, args.workers, args.rounds, args.seconds)


if __name__ == "__main__":
    main()
