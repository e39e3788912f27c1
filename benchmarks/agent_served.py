"""The agent loop's overhead a round, with the node, the model and the caller each a process.

    python -m benchmarks.agent_served [--turns 300] [--database sqlite|postgresql]

As a user meets it: the caller (this process: the SDK's baseline calls and the turns' client),
the node (`quiver serve`, its own process, one sandbox worker) and the model (the fake model
server, a process of its own, scripted over a control route) each run on their own event loop,
as in a deployment. `benchmarks.agent` runs all three on one event loop: there the node's work
shares the thread, and the processor's caches, with the caller's and the model's, and every
step of each is paid one after the other.

The rows are `benchmarks.agent`'s: the SDK calling the model directly is the baseline; a
one-round turn (the model answers in text) through ``POST …/messages`` costs the baseline plus
the loop's overhead — a conversation's first turn and its later ones; a two-round turn (a
trivial tool call, then text) costs two model calls, one tool call (``POST …/calls`` beside it)
and two rounds of overhead. Every kind of request is made once an iteration, taking turns.
A turn makes one hop more than the direct call (the caller to the node), as in a deployment:
the time of a trivial request to the node (``GET /healthz``) is printed beside the rows, and the
one-round overhead past it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from typing import Any

import httpx2
import openai
import uvloop
from openai.types.chat import ChatCompletion
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

from benchmarks.agent import bench_tenant, p50
from benchmarks.restricted import ADMIN, free_port, quiver_server, wait_ready

MODEL_HOST = "127.0.0.4"


def model_app() -> Starlette:
    """The fake model server, with ``POST /_script`` to set what it answers next."""
    from tests.fake_models import FakeModel

    fake = FakeModel(MODEL_HOST)
    fake.record = False
    fake.default = {"text": "hello"}

    async def script(request: Request) -> Response:
        fake.reply(*(await request.json()))
        return Response(status_code=204)

    return Starlette(routes=[Route("/_script", script, methods=["POST"]), Mount("/", fake.app)])


async def serve_model(port: int) -> None:
    from tests.servers import served

    async with served(model_app(), MODEL_HOST, port):
        await asyncio.Event().wait()  # until the benchmark ends this process


def model_server(port: int) -> subprocess.Popen[bytes]:
    code = f"import benchmarks.agent_served as b; b.run(b.serve_model({port}))"
    return subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.DEVNULL)


def run(main: Any) -> None:
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main)


async def main(turns: int, database: str) -> None:
    node_port, model_port = free_port(), free_port()
    model = f"http://{MODEL_HOST}:{model_port}"
    model_process = model_server(model_port)
    node, base = quiver_server(database, node_port, 1)
    try:
        wait_ready(base, "/readyz")
        wait_ready(model, "/v1/nope")
        agent_key = await bench_tenant(base, ADMIN, model, MODEL_HOST)
        await measure(base, model, agent_key, turns, database)
    finally:
        for process in (node, model_process):
            process.terminate()
            process.wait(timeout=10)


async def measure(base: str, model: str, key: str, turns: int, database: str) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    agent = httpx2.AsyncClient(base_url=base, headers=headers, timeout=60)
    control = httpx2.AsyncClient(base_url=model, timeout=60)
    sdk = openai.AsyncOpenAI(base_url=f"{model}/v1", api_key="sk-bench", max_retries=0)
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    samples: dict[str, list[float]] = {}

    async def timed(kind: str, request: Any) -> Any:
        started = time.perf_counter()
        answer = await request
        samples.setdefault(kind, []).append(time.perf_counter() - started)
        return answer

    async def session() -> str:
        return str((await agent.post("/v1/sessions", json={"bot": "b"})).json()["id"])

    async def say(kind: str, to: str, content: str) -> Any:
        answer = await timed(kind, agent.post(f"/v1/sessions/{to}/messages", json={"content": content}))  # fmt: skip
        assert answer.status_code == 200, answer.text
        return answer.json()

    sid = await session()  # the tool calls'
    talk, said = "", 11
    for i in range(turns + 30):  # the first 30 iterations warm both sides up, and are dropped
        if i == 30:
            samples.clear()
        await timed("hop", agent.get("/healthz"))
        await timed("direct", sdk.chat.completions.create(**body))
        await timed("posted", sdk.post("/chat/completions", body=body, cast_to=ChatCompletion))
        await say("one_round", await session(), "hi")
        if said == 11:  # conversations of eleven turns: the first is not a later one
            talk, said = await session(), 1
            await say("first", talk, "hi")
        await say("later", talk, "hi")
        said += 1
        await timed("tool", agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "ping"}))
        fresh = await session()
        steps = [{"tool_calls": [{"name": "ping", "arguments": {}}]}, {"text": "done"}]
        (await control.post("/_script", json=steps)).raise_for_status()
        answer = await say("two_rounds", fresh, "ping it")
        assert answer["message"]["content"] == "done", answer
    await sdk.close()
    await agent.aclose()
    await control.aclose()

    direct, one, later = p50(samples["direct"]), p50(samples["one_round"]), p50(samples["later"])
    tool, two, hop = p50(samples["tool"]), p50(samples["two_rounds"]), p50(samples["hop"])
    print(f"per-round overhead, each a process of its own ({turns} turns each, p50 ms, {database})")
    print(f"  the SDK calling the fake model directly      {direct:8.2f}")
    print(f"  one-round turn through the loop               {one:8.2f}   overhead {one - direct:6.2f} ms/round")  # fmt: skip
    print(f"  a later one (turns 2-11 of a conversation)    {later:8.2f}   overhead {later - direct:6.2f} ms/round")  # fmt: skip
    print(f"  a trivial tool call through POST …/calls      {tool:8.2f}")
    print(f"  (the SDK's post, no parameter transform       {p50(samples['posted']):8.2f})")
    print(f"  (the hop a turn adds: GET /healthz            {hop:8.2f}   one-round overhead past it {one - direct - hop:6.2f})")  # fmt: skip
    print(f"  two-round turn (tool call, then text)         {two:8.2f}   overhead {(two - 2 * direct - tool) / 2:6.2f} ms/round")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    os.environ.setdefault("QUIVER_LOG_LEVEL", "warning")
    run(main(args.turns, args.database))
