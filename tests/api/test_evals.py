"""Evals through HTTP and the CLI against the scripted fake model server: cases run through the
agent loop with the tools in test mode (webhooks not sent), pass/fail per case with the
transcript, per-tool pass rates, runs stored, and `quiver eval --fail-under` for a tenant's CI."""

from __future__ import annotations

import asyncio
import os
import sys

from tests.api.test_agent_loop import setup
from tests.conftest import Api
from tests.fake_models import FakeModel
from tests.loopback import LoopbackServer
from tests.servers import served

CASES = [
    {
        "name": "finds an order",
        "messages": ["Where is AB1234?"],
        "expect": {
            "tools": [{"name": "check_order", "arguments_subset": {"order_id": "AB1234"}}],
            "not_tools": ["crm"],
            "max_rounds": 3,
        },
    },  # fmt: skip
    {"name": "leaves the CRM alone", "messages": ["hi"], "expect": {"not_tools": ["crm"]}},
    {"name": "notifies", "messages": ["tell the team"], "expect": {"tools": [{"name": "notify"}]}},
]
SCRIPT = [
    {"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]},
    {"text": "Shipped."},  # fmt: skip
    {"tool_calls": [{"name": "crm", "arguments": {}}]},
    {"text": "Hello."},
    {"tool_calls": [{"name": "notify", "arguments": {"text": "hi team"}}]},
    {"text": "Done."},
]


async def with_notify(agents: Api, acme, upstream_http: LoopbackServer) -> None:
    hook = {"kind": "webhook", "name": "notify", "description": "Tell the team", "webhook_url": upstream_http.base + "/notify", "method": "POST",  # fmt: skip
            "parameters": {"text": {"type": "string"}}}  # fmt: skip
    assert (await acme.dev.post("/v1/tools", json=hook)).status_code == 201


async def test_evals_run_cases_through_the_loop_in_test_mode(
    agents: Api,
    fake: FakeModel,
    upstream_http: LoopbackServer,
) -> None:
    acme, _ = await setup(agents, fake)
    await agents.admin.put(
        "/v1/tenants/acme/egress", json={"allow": [fake.host, upstream_http.host]}
    )
    await with_notify(agents, acme, upstream_http)
    unknown = await acme.dev.put("/v1/bots/b/evals", json=[{"name": "x", "messages": ["hi"], "expect": {"tools": [{"name": "nope"}]}}])  # fmt: skip
    # the request's own shape errors, in the same notation as the checks' (one notation)
    shaped = await acme.dev.put("/v1/bots/b/evals", json=[{"name": "x", "messages": ["hi", 7]}])  # fmt: skip
    stored = await acme.dev.put("/v1/bots/b/evals", json=CASES)
    fake.reply(*SCRIPT)

    report = (await acme.dev.post("/v1/bots/b/evals/run")).json()
    runs = (await acme.dev.get("/v1/bots/b/evals/runs")).json()["runs"]

    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "[0].expect.tools[0].name"  # fmt: skip
    assert shaped.status_code == 422 and shaped.json()["errors"][0]["field"] == "[0].messages[1]"  # fmt: skip
    assert stored.status_code == 200
    assert [(c["name"], c["passed"]) for c in report["cases"]] == [
        ("finds an order", True), ("leaves the CRM alone", False), ("notifies", True),
    ]  # fmt: skip
    assert report["cases"][1]["failures"] == ["crm was called"]
    assert [m["role"] for m in report["cases"][0]["transcript"]] == ["user", "assistant", "tool", "assistant"]  # fmt: skip
    assert report["tools"] == {"check_order": 1.0, "notify": 1.0}
    assert report["pass_rate"] == round(2 / 3, 4)
    assert not [r for r in upstream_http.seen if r["path"] == "/notify"]  # not sent: test mode
    assert runs[0]["id"] == report["id"] and runs[0]["passed"] == 2


async def test_quiver_eval_fails_a_ci_job_below_the_threshold(
    agents: Api,
    fake: FakeModel,
    upstream_http: LoopbackServer,
) -> None:
    acme, _ = await setup(agents, fake)
    await agents.admin.put(
        "/v1/tenants/acme/egress", json={"allow": [fake.host, upstream_http.host]}
    )
    await with_notify(agents, acme, upstream_http)
    await acme.dev.put("/v1/bots/b/evals", json=CASES)
    async with served(agents.app) as base:
        outcomes = []
        for threshold in ("0.9", "0.5"):
            fake.reply(*SCRIPT)
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "server.cli", "eval", "b", "--fail-under", threshold,
                env={**os.environ, "QUIVER_URL": base, "QUIVER_KEY": acme.dev_key},
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, err = await asyncio.wait_for(proc.communicate(), 120)
            outcomes.append((proc.returncode, out.decode(), err.decode()))

    (strict_code, strict_out, _), (lenient_code, _, _) = outcomes
    assert strict_code == 1 and lenient_code == 0, outcomes
    line = next(line for line in strict_out.splitlines() if line.startswith("leaves the CRM alone"))
    assert "FAIL" in line and "crm was called" in line
    assert "2/3 cases passed" in strict_out
