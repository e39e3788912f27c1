"""Evals: does the agent call the bot's tools as its developers expect? Each case's messages
run through the agent loop in a session of its own, with the tools in test mode (code tools see
``test_mode``; webhooks are not sent); the case passes when the expected tools were called with
at least the expected arguments, the forbidden ones were not, and no turn took more rounds than
allowed. A run's report — per case pass/fail with the transcript, per expected tool its pass
rate — is stored."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from server.calls.services import Services
from server.calls.session_calls import attach
from server.errors import FieldError, ValidationFailedError

if TYPE_CHECKING:
    from server.agent.loop import AgentLoop


def check_cases(cases: list[dict[str, Any]], known_tools: set[str]) -> None:
    """Expectations may only name tools the bot offers."""
    problems = []
    for i, case in enumerate(cases):
        for j, tool in enumerate(case["expect"].get("tools") or ()):
            if tool["name"] not in known_tools:
                problems.append(
                    FieldError(
                        f"the bot offers no tool {tool['name']!r}",
                        field=f"[{i}].expect.tools[{j}].name",
                    )
                )
        for j, name in enumerate(case["expect"].get("not_tools") or ()):
            if name not in known_tools:
                problems.append(
                    FieldError(
                        f"the bot offers no tool {name!r}", field=f"[{i}].expect.not_tools[{j}]"
                    )
                )
    if problems:
        raise ValidationFailedError(problems)


def _subset(expected: dict[str, Any], given: dict[str, Any]) -> bool:
    return all(
        k in given
        and (
            given[k] == v
            or (isinstance(v, dict) and isinstance(given[k], dict) and _subset(v, given[k]))
        )
        for k, v in expected.items()
    )


async def run_evals(
    services: Services, loop: AgentLoop, tenant_id: str, bot: str
) -> dict[str, Any]:
    async with services.storage.transaction() as store:
        cases = (await store.bots.get(tenant_id, bot)).evals or []
    results: list[dict[str, Any]] = []
    per_tool: dict[str, list[bool]] = {}
    for case in cases:
        async with services.storage.transaction() as store:
            attached = await attach(services, store, tenant_id, bot, None, "eval")
        sid = attached.session.id
        loop.test_sessions.add(sid)
        calls: list[dict[str, Any]] = []
        rounds: list[int] = []
        try:
            for message in case["messages"]:
                turn = await loop.turn(tenant_id, sid, message)
                while turn.status in ("requires_action", "requires_approval"):  # no page in an eval
                    answers = [
                        {"call_id": a["call_id"], "success": False, "error": "not run in an eval"}
                        if a["kind"] != "approval"
                        else {"call_id": a["call_id"], "approved": True}
                        for a in turn.actions
                    ]
                    for a in turn.actions:
                        calls.append({"name": a["name"], "arguments": a["arguments"]})
                    turn = await loop.resume(tenant_id, sid, turn.message_id, answers)
                rounds.append(len(turn.rounds))
                calls += [
                    {"name": c["name"], "arguments": c["arguments"]}
                    for r in turn.rounds
                    for c in r["tool_calls"]
                ]
        finally:
            loop.test_sessions.discard(sid)
        expect = case["expect"]
        failures = []
        for tool in expect.get("tools") or ():
            ok = any(
                c["name"] == tool["name"]
                and _subset(tool.get("arguments_subset") or {}, c["arguments"])
                for c in calls
            )
            per_tool.setdefault(tool["name"], []).append(ok)
            if not ok:
                failures.append(
                    f"{tool['name']} was not called with {tool.get('arguments_subset') or {}}"
                )
        for name in expect.get("not_tools") or ():
            if any(c["name"] == name for c in calls):
                failures.append(f"{name} was called")
        if expect.get("max_rounds") is not None and rounds and max(rounds) > expect["max_rounds"]:
            failures.append(f"a turn took {max(rounds)} rounds (at most {expect['max_rounds']})")
        async with services.storage.transaction() as store:
            transcript = [
                {"role": m.role, "content": m.content, "tool_calls": m.tool_calls, "name": m.name}
                for m in await store.messages.history(sid)
            ]
            await store.lifecycle.end(tenant_id, sid, "eval", datetime.now(UTC))
        results.append(
            {
                "name": case["name"],
                "passed": not failures,
                "failures": failures,
                "calls": calls,
                "session": sid,
                "transcript": transcript,
            }
        )
    passed = sum(1 for r in results if r["passed"])
    report = {
        "bot": bot,
        "cases": results,
        "passed": passed,
        "total": len(results),
        "pass_rate": round(passed / len(results), 4) if results else 0.0,
        "tools": {name: round(sum(oks) / len(oks), 4) for name, oks in sorted(per_tool.items())},
    }
    async with services.storage.transaction() as store:
        run = store.eval_runs.add(tenant_id, bot, report)
    return {"id": run.id, "created_at": run.created_at.isoformat(), **report}
