"""Tool search on a bot of 500 tools: how often the right tool is found, and what a turn costs.

    python -m benchmarks.tool_search [--turns 100]

(a) Recall@1 and recall@5 of ``search_tools``' ranking on the eval set of
``tests/calls/tool_search_eval.py`` (500 tools, 100 requests whose right tool is known), with
each aid on and off in one run — plain BM25 over names, descriptions and parameter names; with
plurals folded; with the words users say for a name's verbs; both (what Quiver does) — over
descriptions that give each object's other name ("also called a depot") and ones that do not.

Also: what building a bot's index and one search take.

(b) A turn through the real agent loop (``POST …/messages``) against the fake model server, the
same requests asked of a bot offering all 500 tools and of a searching bot: the model asks for
the right tool (the searching bot's model first calls ``search_tools`` with the request and then
the best tool found), then answers. Measured: the bytes of every request the loop sent to the
model in the turn (Chat Completions format), and rounds per turn. Tokens are estimated as bytes
/ 4 — no tokenizer of a provider's model is available offline; the ratio between the two bots
does not depend on that estimate much (both are JSON of the same tools).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time

from benchmarks.loop_tenant import loop_tenant
from server.calls.tool_search import ToolIndex
from server.registry.model import ToolDef
from tests.calls.tool_search_eval import recall_at, requests, tools


def definitions(synonyms: bool) -> list[ToolDef]:
    return [
        ToolDef(t["name"], t["description"], t["parameters"], {}, "python", "tenant", 1, t["name"])
        for t in tools(synonyms)
    ]


def recall_table() -> None:
    asked = requests()
    print("(a) recall on 100 requests over 500 tools        @1      @5")
    for synonyms in (True, False):
        defs = definitions(synonyms)
        names = frozenset(d.name for d in defs)
        label = "descriptions give the other names" if synonyms else "descriptions do not"
        print(f"  {label}")
        for title, folded, verbs in (
            ("BM25 (names, descriptions, parameters)", False, False),
            ("+ plurals folded", True, False),
            ("+ words for a name's verbs", False, True),
            ("+ both (Quiver)", True, True),
        ):
            index = ToolIndex.of(defs, folded=folded, verbs=verbs)
            ranked = {r.text: index.search(r.text, names, (), 5) for r in asked}
            one, five = recall_at(1, ranked, asked), recall_at(5, ranked, asked)
            print(f"    {title:<42} {one:6.2f}  {five:6.2f}")
    defs, names = definitions(True), frozenset(t["name"] for t in tools())
    builds, searches = [], []
    for _ in range(20):
        started = time.perf_counter()
        index = ToolIndex.of(defs)
        builds.append(time.perf_counter() - started)
    for request in asked * 5:
        started = time.perf_counter()
        index.search(request.text, names, (), 5)
        searches.append(time.perf_counter() - started)
    print(
        f"  an index of 500 tools: built in {statistics.median(builds) * 1000:.1f} ms (once per "
        f"bot and registry version), a search p50 {statistics.median(searches) * 1000:.2f} ms"
    )


def tool_file(tool: dict) -> dict:
    source = (
        "def execute(params, context):\n"
        f"    return {{'success': True, 'tool': {tool['name']!r}}}\n\n\n"
        f"tool = {{'name': {tool['name']!r}, 'description': {tool['description']!r}, "
        f"'parameters': {tool['parameters']!r}, 'execute': execute}}\n"
    )
    return {"kind": "python", "source": source}


async def turns(count: int) -> None:
    asked = requests()[:count]
    async with loop_tenant() as node:
        fake, dev, agent = node.fake, node.dev, node.agent
        for tool in tools():
            saved = await dev.post("/v1/tools", json=tool_file(tool))
            assert saved.status_code == 201, saved.text
        for name, loading in (("all", "all"), ("search", "search")):
            bot = {"name": name, "tools": None, "model": "fake/m", "tool_loading": loading}
            assert (await dev.post("/v1/bots", json=bot)).status_code == 201

        required = {t["name"]: t["parameters"]["required"] for t in tools()}
        results: dict[str, dict[str, list[float]]] = {}
        for bot in ("all", "search"):
            sizes, rounds, tools_offered, right = [], [], [], 0
            for request in asked:
                sid = (await agent.post("/v1/sessions", json={"bot": bot})).json()["id"]
                seen = len(fake.requests)
                if bot == "search":
                    fake.reply({"tool_calls": [{"name": "search_tools", "arguments": {"query": request.text}}]})  # fmt: skip
                # the right tool: it runs if it is offered (always, or once found)
                arguments = dict.fromkeys(required[request.tool], "1")
                fake.reply({"tool_calls": [{"name": request.tool, "arguments": arguments}]}, {"text": "Done."})  # fmt: skip
                answered = await agent.post(f"/v1/sessions/{sid}/messages", json={"content": request.text})  # fmt: skip
                assert answered.status_code == 200, answered.text
                sent = fake.requests[seen:]
                sizes.append(sum(len(json.dumps(r["body"])) for r in sent))
                rounds.append(len(sent))
                tools_offered.append(statistics.mean(len(r["body"].get("tools") or []) for r in sent))  # fmt: skip
                calls = [c for r in answered.json()["rounds"] for c in r["tool_calls"]]
                right += any(c["name"] == request.tool and c["envelope"]["success"] for c in calls)  # fmt: skip
            results[bot] = {"bytes": sizes, "rounds": rounds, "tools": tools_offered}
            print(
                f"  {bot:<7} bot: {statistics.mean(sizes) / 1024:8.1f} KiB sent per turn "
                f"(≈ {statistics.mean(sizes) / 4:8.0f} tokens), {statistics.mean(rounds):.1f} model "
                f"requests per turn, {statistics.mean(tools_offered):6.1f} tools offered per request, "
                f"right tool run in {right}/{len(asked)} turns"
            )
        ratio = statistics.mean(results["all"]["bytes"]) / statistics.mean(results["search"]["bytes"])  # fmt: skip
        print(f"  input per turn, all / search: {ratio:.1f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=100)
    args = parser.parse_args()
    os.environ.setdefault("QUIVER_LOG_LEVEL", "warning")
    recall_table()
    print(f"\n(b) {args.turns} turns through the agent loop, 500 tools")
    asyncio.run(turns(args.turns))
