"""The MCP door beside the HTTP door, on the same tool, with the same load generator.

    python -m benchmarks.mcp_door [--seconds 6] [--rounds 3] [--databases sqlite,postgresql]

One ``quiver serve`` per database (2 sandbox workers), one tenant, one trivial code tool. In
alternating rounds, 8 keep-alive connections of one raw HTTP/1.1 client (it costs far less
CPU than any client library, so the server is what is measured) send:

* ``http``    ``POST /v1/sessions/{sid}/calls``
* ``modern``  MCP ``tools/call`` of the 2026-07-28 era (each request carries its envelope)
* ``legacy``  MCP ``tools/call`` in a handshake-era session (``Mcp-Session-Id``, 2025-11-25)

Printed per row: calls/s, the server's event-loop thread's CPU per call (read from ``/proc``, so
the load generator is not counted), p50, and its share of the HTTP door's calls/s (the median
of the rounds' ratios). Last, ``sdk``: the official SDK's client calling the same tool with 8
calls in flight — end to end, its own CPU included (it shares the machine with the server).

Target (issue: scale): each MCP row >= 70 % of the HTTP door's throughput.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from dataclasses import dataclass

import httpx
import orjson

from benchmarks.restricted import bench_mcp, free_port, one_tenant, quiver_server, wait_ready
from benchmarks.tenants import cpu_s

CONNECTIONS = 8
LEGACY = "2025-11-25"
MODERN = "2026-07-28"
ARGUMENTS = {"name": "echo", "arguments": {"x": "1"}}


@dataclass
class Row:
    rps: float
    loop_us: float
    p50_ms: float


def _request(path: str, body: bytes, headers: dict[str, str]) -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return (head + "\r\n").encode() + body


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict[bytes, bytes], bytes]:
    """One HTTP/1.1 response: its status, headers (lower-cased names) and body, whether sized by
    ``Content-Length``, sent in chunks (an SSE answer) or none (a 304)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if b":" in line:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
    if b"content-length" in headers:
        return status, headers, await reader.readexactly(int(headers[b"content-length"]))
    if headers.get(b"transfer-encoding", b"").lower() != b"chunked":
        return status, headers, b""  # a 304, a 204
    body = b""
    while True:
        size = int((await reader.readuntil(b"\r\n")).strip(), 16)
        chunk = await reader.readexactly(size + 2)
        if size == 0:
            return status, headers, body
        body += chunk[:-2]


def _answer(body: bytes) -> dict:
    """The JSON-RPC answer in a JSON or SSE body."""
    if body.startswith(b"{"):
        return orjson.loads(body)
    for line in body.split(b"\n"):
        if line.startswith(b"data:") and line[5:].strip():
            return orjson.loads(line[5:])
    raise RuntimeError(f"no JSON-RPC answer in {body[:200]!r}")


def requests_for(key: str, sid: str, session: str, count: int = 4096) -> dict[str, list[bytes]]:
    """Each door's requests, ``count`` of them with JSON-RPC ids of their own (a session's
    requests in flight must not share an id)."""
    auth = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    accept = {**auth, "Accept": "application/json, text/event-stream"}
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
    }
    modern = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {**ARGUMENTS, "_meta": meta},
    }
    legacy = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ARGUMENTS}
    modern_headers = {
        **accept,
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call",
        "Mcp-Name": "echo",
    }
    legacy_headers = {**accept, "MCP-Protocol-Version": LEGACY, "Mcp-Session-Id": session}
    call = orjson.dumps({"tool": "echo", "arguments": {"x": "1"}})
    return {
        "http": [_request(f"/v1/sessions/{sid}/calls", call, auth)],
        "modern": [_request("/mcp?bot=b", orjson.dumps({**modern, "id": n}), modern_headers) for n in range(count)],
        "legacy": [_request("/mcp?bot=b", orjson.dumps({**legacy, "id": n}), legacy_headers) for n in range(count)],
    }  # fmt: skip


def handshake(base: str, key: str) -> str:
    """A handshake-era MCP session of ``key``: initialize, then initialized."""
    headers = {
        "Authorization": f"Bearer {key}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": LEGACY,
    }
    hello = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    }
    reply = httpx.post(f"{base}/mcp?bot=b", json=hello, headers=headers)
    reply.raise_for_status()
    session = reply.headers["mcp-session-id"]
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    httpx.post(
        f"{base}/mcp?bot=b", json=done, headers={**headers, "Mcp-Session-Id": session}
    ).raise_for_status()
    return session


async def load(port: int, requests: list[bytes], seconds: float) -> list[float]:
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    sent = 0

    async def connection() -> None:
        nonlocal sent
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                writer.write(requests[sent % len(requests)])
                sent += 1
                status, _headers, body = await read_response(reader)
                if status != 200 or b'"isError":true' in body or b'"success":false' in body:
                    raise RuntimeError(f"a call answered {status}: {body[:300]!r}")
                latencies.append(time.perf_counter() - started)
        finally:
            writer.close()

    await asyncio.gather(*(connection() for _ in range(CONNECTIONS)))
    return latencies


def measure(port: int, pid: int, requests: list[bytes], seconds: float) -> Row:
    before = cpu_s(pid)[0]
    latencies = asyncio.run(load(port, requests, seconds))
    after = cpu_s(pid)[0]
    return Row(
        len(latencies) / seconds,
        (after - before) / len(latencies) * 1e6,
        statistics.median(latencies) * 1000,
    )


def run(database: str, seconds: float, rounds: int) -> None:
    port = free_port()
    proc, base = quiver_server(database, port, workers=2)
    try:
        wait_ready(base, "/readyz")
        agent, sid = one_tenant(base)
        requests = requests_for(agent, sid, handshake(base, agent))
        for door in requests.values():  # warm up, and every door answers
            asyncio.run(load(port, door, 1.0))
        each = seconds / rounds
        measured = [
            {door: measure(port, proc.pid, sent, each) for door, sent in requests.items()}
            for _ in range(rounds)
        ]
        sdk = asyncio.run(bench_mcp(base, agent, each))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(
        f"\n{database}: {rounds} alternating rounds, {each:.1f} s each, {CONNECTIONS} connections"
    )
    print(f"{'door':<34}{'calls/s':>9}{'loop µs/call':>14}{'p50 ms':>9}{'of http':>9}")
    labels = {
        "http": "POST /v1/sessions/{sid}/calls",
        "modern": "MCP tools/call, 2026-07-28",
        "legacy": "MCP tools/call, 2025-11-25 session",
    }
    for door, label in labels.items():
        rows = [r[door] for r in measured]
        share = statistics.median(r[door].rps / r["http"].rps for r in measured)
        rps = statistics.median(x.rps for x in rows)
        loop = statistics.median(x.loop_us for x in rows)
        p50 = statistics.median(x.p50_ms for x in rows)
        print(f"{label:<34}{rps:>9.0f}{loop:>14.0f}{p50:>9.2f}{share:>9.0%}")
    http = statistics.median(r["http"].rps for r in measured)
    print(f"{'the SDK client, end to end':<34}{sdk.rps:>9.0f}{'':>14}{sdk.p50_ms:>9.2f}{sdk.rps / http:>9.0%}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=6.0, help="per door, over all rounds")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--databases", default="sqlite,postgresql")
    args = parser.parse_args()
    for database in args.databases.split(","):
        run(database, args.seconds, args.rounds)


if __name__ == "__main__":
    main()
