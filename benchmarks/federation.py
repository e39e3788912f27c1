"""A federated MCP server's tool (docs/federation.md) through the call pipeline, against the same
tool called straight with the official SDK's client, in the same run and in alternating rounds.

The remote is a real MCP server written with the SDK (``MCPServer``, streamable HTTP, uvicorn in
its own process), in the 2026-07-28 era and in the handshake era. The baselines:

* ``sdk, one open client`` — a caller that keeps one client open and calls through it: the least
  a call can cost;
* ``sdk, a client per call`` — connect, (discover or initialize), call, close: what a caller
  that keeps nothing pays.

Run: ``python -m benchmarks.federation [--calls 300] [--concurrency 1,8]``
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from benchmarks.webhook import measure
from server.api.app import create_app
from server.calls.pipeline import CallRequest
from server.secretbox import generate_key
from server.settings import Settings
from server.storage.repositories import tool_def
from tests.servers import free_port

ADMIN = "qk_bench_admin_" + "b" * 32
REMOTE = '''
import json
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

server = MCPServer("remote")


@server.tool()
def lookup(order_id: str) -> dict:
    """Looks an order up"""
    return {"order": order_id, "status": "shipped"}


inner = server.streamable_http_app(
    transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False)
)
LEGACY = False


async def app(scope, receive, send):
    if LEGACY and scope["type"] == "http" and scope["method"] == "POST":
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        if b'"server/discover"' in body:  # a server from before 2026-07-28 knows no discover
            error = {"jsonrpc": "2.0", "id": json.loads(body).get("id"),
                     "error": {"code": -32000, "message": "Bad Request: Missing session ID"}}
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": json.dumps(error).encode()})
            return
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await inner(scope, replay, send)
    return await inner(scope, receive, send)
'''


async def run(url: str, era: str, calls: int, concurrency: int, rounds: int, fsync: bool) -> None:
    settings = Settings(
        _env_file=None,
        data_dir=Path(tempfile.mkdtemp()),
        admin_key=ADMIN,
        secret_key=generate_key(),
        egress_allow="127.0.0.1",
        workers=1,
        tenant_egress_concurrency=max(16, concurrency),
        call_log_fsync=fsync,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://q",
            headers={"Authorization": f"Bearer {ADMIN}"},
        ) as admin:
            await admin.post("/v1/tenants", json={"id": "bench"})
            declared = await admin.put(
                "/v1/mcp-servers/crm?tenant=bench", json={"url": url, "tools": ["lookup"]}
            )
            assert declared.status_code == 201, declared.text
        async with runtime.sessions() as session:
            tool = tool_def(*await runtime.store(session).tools.get("bench", "crm__lookup"))
        store = runtime.store(runtime.sessions())  # one unit of work, as inside a request

        async def through_quiver() -> None:
            request = CallRequest(
                tenant_id="bench",
                tool="crm__lookup",
                arguments={"order_id": "AB1"},
                modules=(),
                egress_allow=(),
            )
            result = await runtime.pipeline.call(store, request, tool)
            assert result["success"], result

        mode = "auto" if era == "2026-07-28" else "legacy"
        http = httpx2.AsyncClient(timeout=30)
        async with Client(
            streamable_http_client(url, http_client=http), mode=mode, cache=None
        ) as open_client:

            async def sdk_open() -> None:
                result = await open_client.call_tool("lookup", {"order_id": "AB1"})
                assert not result.is_error

            async def sdk_per_call() -> None:
                async with (
                    httpx2.AsyncClient(timeout=30) as own,
                    Client(
                        streamable_http_client(url, http_client=own), mode=mode, cache=None
                    ) as client,
                ):
                    result = await client.call_tool("lookup", {"order_id": "AB1"})
                    assert not result.is_error

            runs = {"sdk, one open client": sdk_open, "sdk, a client per call": sdk_per_call,
                    "quiver pipeline": through_quiver}  # fmt: skip
            for call in runs.values():  # warm
                await measure(call, 50, concurrency)
            results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in runs}
            for _ in range(rounds):  # alternating: the machine's noise falls on all alike
                for name, call in runs.items():
                    results[name].append(await measure(call, calls, concurrency))
        await http.aclose()
        await store.session.close()
    synced = "call log rows synced" if fsync else "call log rows written, not synced"
    print(f"\n{era} era, {concurrency} in flight, {calls} calls x {rounds} rounds, {synced}")
    print(f"{'':<26}{'p50 ms':>10}{'p99 ms':>10}{'calls/s':>10}")
    best = {name: max(rows, key=lambda r: r[2]) for name, rows in results.items()}
    for name, (p50, p99, rate) in best.items():
        print(f"{name:<26}{p50:>10.2f}{p99:>10.2f}{rate:>10.0f}")
    base, ours = best["sdk, one open client"], best["quiver pipeline"]
    print(
        f"quiver / sdk open client: p50 {ours[0] / base[0]:.2f}x, throughput {ours[2] / base[2]:.0%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", default="1,8", help="calls in flight, e.g. 1,8")
    parser.add_argument(
        "--no-fsync", action="store_true", help="the call log's rows not synced to disk"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for era, legacy in (("2026-07-28", False), ("handshake", True)):
            (Path(tmp) / "remote.py").write_text(
                REMOTE.replace("LEGACY = False", f"LEGACY = {legacy}")
            )
            port = free_port()
            server = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "remote:app", "--port", str(port),
                 "--log-level", "warning", "--app-dir", tmp],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            try:
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    try:
                        httpx.get(f"http://127.0.0.1:{port}/")
                        break
                    except httpx.TransportError:
                        time.sleep(0.1)
                for concurrency in (int(c) for c in args.concurrency.split(",")):
                    url = f"http://127.0.0.1:{port}/mcp"
                    fsync = not args.no_fsync
                    asyncio.run(run(url, era, args.calls, concurrency, args.rounds, fsync))
            finally:
                server.terminate()
                server.wait(timeout=10)


if __name__ == "__main__":
    main()
