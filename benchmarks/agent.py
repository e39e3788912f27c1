"""Agent loop benchmark.

    python -m benchmarks.agent [--turns 200] [--conversations 1000] [--database sqlite|postgresql]

(a) Per-round overhead of the loop — everything but the model's and the tool's own time — in one
run against a fake model server on loopback: the same SDK calling the same fake model directly
is the baseline; a one-round turn (the model answers in text) through ``POST …/messages`` costs
the baseline plus the loop's overhead — a conversation's first turn, and its later ones (against
the same one-message baseline: their longer requests count as overhead); a two-round turn (a
trivial tool call, then text) costs two model calls, one tool call and two rounds of overhead.
Every kind of request is made once an iteration, taking turns, so the machine's drift meets them
alike. The turns are asked with the HTTP client the SDK is built on (httpx2), so the load
generator is the same on both sides. For reference, the SDK's ``post`` of the same body without
its parameter transform (what the loop's providers send) is timed too.
The node runs as `quiver serve` runs it: on uvloop, with what its start built frozen out of the
collector's sight; the SDK's calls run on the same loop.
(b) N concurrent streaming conversations on one node, the fake model answering each in 1 s:
errors, wall time, and the node's RSS growth per conversation.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import httpx2
import openai
import uvloop
from openai.types.chat import ChatCompletion

from benchmarks.databases import fresh_postgres
from server.api.app import create_app
from server.secretbox import generate_key
from server.settings import Settings
from tests.fake_models import fake_model_server
from tests.servers import served

ADMIN = "bench-admin-key-" + "a" * 40
TOOL = {
    "kind": "python",
    "source": (
        "def execute(params, context):\n    return {'success': True, 'ok': 1}\n\n\n"
        "tool = {'name': 'ping', 'description': 'ping', 'execute': execute}\n"
    ),
}


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def p50(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def database_url(database: str) -> str | None:
    """None: the embedded SQLite default; else a fresh PostgreSQL database on this machine."""
    if database == "sqlite":
        return None
    return fresh_postgres("quiver_bench_agent")


async def bench_tenant(base: str, admin_key: str, model: str, model_host: str) -> str:
    """A tenant ``bench`` whose bot ``b`` talks to the fake model at ``model`` (its host let
    through the egress guard) and offers the ``ping`` tool; its agent key."""
    admin = {"Authorization": f"Bearer {admin_key}"}
    async with httpx.AsyncClient(base_url=base, headers=admin, timeout=120) as client:
        (await client.post("/v1/tenants", json={"id": "bench"})).raise_for_status()
        allow = {"allow": [model_host]}
        (await client.put("/v1/tenants/bench/egress", json=allow)).raise_for_status()
        keys = "/v1/tenants/bench/keys"
        dev = (await client.post(keys, json={"role": "developer"})).json()["key"]
        agent = (await client.post(keys, json={"role": "agent"})).json()["key"]
        as_dev = {"Authorization": f"Bearer {dev}"}
        provider = {"kind": "openai", "base_url": f"{model}/v1", "api_key": "sk-bench"}
        for method, path, body in (
            ("PUT", "/v1/providers/fake", provider),
            ("POST", "/v1/tools", TOOL),
            ("POST", "/v1/bots", {"name": "b", "tools": None, "model": "fake/m"}),
        ):
            (await client.request(method, path, json=body, headers=as_dev)).raise_for_status()
    return str(agent)


async def main(turns: int, conversations: int, database: str = "sqlite") -> None:
    data = Path(tempfile.mkdtemp(prefix="quiver-bench-agent-"))
    settings = Settings(
        _env_file=None, data_dir=data, admin_key=ADMIN, secret_key=generate_key(), workers=1,
        require_isolation=False, log_level="warning", tenant_requests=None, key_requests=None,
        database_url=database_url(database),
    )  # fmt: skip
    app = create_app(settings)
    async with app.router.lifespan_context(app), fake_model_server() as fake, served(app) as base:
        fake.record = False
        agent_key = await bench_tenant(base, ADMIN, fake.base, fake.host)
        limits = httpx2.Limits(max_connections=conversations + 10, max_keepalive_connections=conversations + 10)  # fmt: skip
        agent = httpx2.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {agent_key}"}, timeout=300, limits=limits)  # fmt: skip

        sdk = openai.AsyncOpenAI(base_url=fake.base + "/v1", api_key="sk-bench", max_retries=0)
        fake.default = {"text": "hello"}
        direct, posted, one_round, later, two_rounds, tool_calls = [], [], [], [], [], []
        sid = (await agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}

        async def timed(samples: list[float], request: Any) -> Any:
            started = time.perf_counter()
            answer = await request
            samples.append(time.perf_counter() - started)
            return answer

        async def session() -> str:
            return str((await agent.post("/v1/sessions", json={"bot": "b"})).json()["id"])

        talk, said = "", 11
        gc.collect()  # what is built so far lives on, out of the collector's sight, as in
        gc.freeze()  # `quiver serve` after its start
        # every kind of request once an iteration, taking turns: a machine that speeds up or
        # slows down meets them alike, and each turn's overhead is read against the direct
        # calls made beside it
        for _ in range(turns):
            await timed(direct, sdk.chat.completions.create(**body))
            await timed(posted, sdk.post("/chat/completions", body=body, cast_to=ChatCompletion))
            fresh = await session()
            answered = await timed(one_round, agent.post(f"/v1/sessions/{fresh}/messages", json={"content": "hi"}))  # fmt: skip
            assert answered.status_code == 200, answered.text
            if said == 11:  # conversations of eleven turns: the first is not a later one
                talk, said = await session(), 1
                await agent.post(f"/v1/sessions/{talk}/messages", json={"content": "hi"})
            answered = await timed(later, agent.post(f"/v1/sessions/{talk}/messages", json={"content": "hi"}))  # fmt: skip
            assert answered.status_code == 200, answered.text
            said += 1
            await timed(tool_calls, agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "ping"}))
            fresh = await session()
            fake.reply({"tool_calls": [{"name": "ping", "arguments": {}}]}, {"text": "done"})
            answered = await timed(two_rounds, agent.post(f"/v1/sessions/{fresh}/messages", json={"content": "ping it"}))  # fmt: skip
            assert answered.json()["message"]["content"] == "done", answered.text
        await sdk.close()

        model, one, tool, two = p50(direct), p50(one_round), p50(tool_calls), p50(two_rounds)
        print(f"per-round overhead ({turns} turns each, p50 ms, {database})")
        print(f"  the SDK calling the fake model directly      {model:8.2f}")
        print(f"  one-round turn through the loop               {one:8.2f}   overhead {one - model:6.2f} ms/round ({one / model:.2f}x)")  # fmt: skip
        print(f"  a later one (turns 2-11 of a conversation)    {p50(later):8.2f}   overhead {p50(later) - model:6.2f} ms/round")  # fmt: skip
        print(f"  a trivial tool call through POST …/calls      {tool:8.2f}")
        print(f"  (the SDK's post, no parameter transform       {p50(posted):8.2f}   one-round overhead against it {one - p50(posted):6.2f})")  # fmt: skip
        print(f"  two-round turn (tool call, then text)         {two:8.2f}   overhead {(two - 2 * model - tool) / 2:6.2f} ms/round")  # fmt: skip

        fake.default = {"text": "a slow answer", "delay_s": 1.0}
        sessions = [(await agent.post("/v1/sessions", json={"bot": "b"})).json()["id"] for _ in range(conversations)]  # fmt: skip
        before = rss_kb()

        async def converse(session_id: str) -> bool:
            async with agent.stream("POST", f"/v1/sessions/{session_id}/messages", json={"content": "hi", "stream": True}) as r:  # fmt: skip
                body = "".join([line async for line in r.aiter_lines()])
            if r.status_code == 200 and "event: done" in body:
                return True
            return f"{r.status_code} {body[-200:]}"

        started = time.perf_counter()
        outcomes = await asyncio.gather(*(converse(s) for s in sessions), return_exceptions=True)
        took = time.perf_counter() - started
        after = rss_kb()
        errors = sum(1 for o in outcomes if o is not True)
        print(f"\n{conversations} concurrent streaming conversations, the model answering in 1 s")
        print(f"  errors {errors}, wall {took:.1f} s, RSS {before / 1024:.0f} -> {after / 1024:.0f} MB "
              f"({(after - before) / max(1, conversations):.1f} KB per conversation)")  # fmt: skip
        kinds = collections.Counter(repr(o)[:160] for o in outcomes if o is not True)
        for kind, count in kinds.most_common(5):
            print(f"  {count:5d} x {kind}")
        await agent.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    os.environ.setdefault("QUIVER_LOG_LEVEL", "warning")
    # the event loop `quiver serve` runs on (uvicorn's choice when uvloop is installed, as it is)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main(args.turns, args.conversations, args.database))
