"""The hot call route has two doors: the direct one (a plain JSON request, past FastAPI's
routing) and the route itself (which any other request takes — one with an ``Idempotency-Key``,
say). They are one implementation: for the same request, the same status and the same body."""

from __future__ import annotations

import uuid

import pytest

from tests.api.test_calls import ORDER_TOOL, python
from tests.conftest import Api

CALL = {"tool": "check_order", "arguments": {"order_id": "AB1234"}}
CASES = {
    "a call": ("calls", "", CALL, None),
    "an unknown format": ("calls", "?format=bogus", CALL, None),
    "no tool": ("calls", "", {"arguments": {}}, None),
    "a field too many": ("calls", "", {**CALL, "zzz": 1}, None),
    "wrong types": ("calls", "", {"tool": 5, "arguments": []}, None),
    "no such session": ("calls", "", CALL, "nope"),
    "broken JSON": ("calls", "", b"{", None),
    "an empty message": ("messages", "", {"content": ""}, None),
    "a message to no session": ("messages", "", {"content": "hi"}, "nope"),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_both_doors_answer_alike(api: Api, case: str) -> None:
    acme = await api.tenant("acme")
    assert (await acme.dev.post("/v1/tools", json=python(ORDER_TOOL))).status_code == 201
    assert (await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})).status_code == 201
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    kind, query, body, other_sid = CASES[case]
    path = f"/v1/sessions/{other_sid or sid}/{kind}{query}"
    content = body if isinstance(body, bytes) else None
    sent = (
        {"content": content, "headers": {"Content-Type": "application/json"}}
        if content
        else {"json": body}
    )

    direct = await acme.agent.post(path, **sent)
    routed = await acme.agent.post(
        path,
        **{**sent, "headers": {**sent.get("headers", {}), "Idempotency-Key": str(uuid.uuid4())}},
    )

    assert direct.status_code == routed.status_code, (direct.text, routed.text)
    assert comparable(direct.json()) == comparable(routed.json())
    assert direct.headers["content-type"] == routed.headers["content-type"]


def comparable(body: dict) -> dict:
    """A body without what differs by request: its id, timing and where it was served."""
    return {k: v for k, v in body.items() if k not in ("instance", "executionTime", "request_id")}
