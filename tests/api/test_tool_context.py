"""The whole ``context`` reads the same both ways — attributes and items — in every Python
sandbox (``context["modules"]`` used to raise while ``context["update_context"]`` worked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.api.test_calls import call, python, session_for
from tests.conftest import Api

BOTH_WAYS = """
def execute(params, context):
    context["modules"]["logger"]["info"]("item style")
    context.modules.logger.info("attribute style")
    context["update_context"]({"a": 1})
    context.update_context({"b": 2})
    has_http = "http" in context["modules"] and context.modules.http.get is context["modules"]["http"]["get"]
    return {"success": True, "tenant": context["tenant_id"],
            "same": context.tenant_id == context["tenant_id"] and context.session_id == context["session_id"],
            "test": context.test_mode, "a": context["variables"]["a"], "b": context.variables["b"],
            "http": has_http, "secrets": len(context["secrets"]) == len(context.secrets) == 0}


tool = {"name": "ctx", "description": "context both ways", "execute": execute}
"""


async def test_context_reads_both_ways_in_restricted_python(api: Api) -> None:
    await context_both_ways(api, "restricted")


@pytest.mark.usefixtures("python_runner")  # built before the app looks for it
async def test_context_reads_both_ways_in_python_in_wasm(api: Api) -> None:
    await context_both_ways(api, "wasm")


async def context_both_ways(api: Api, sandbox: str) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [python(BOTH_WAYS, sandbox)])

    result = await call(acme, sid, "ctx")
    tested = (await acme.dev.post("/v1/tools/ctx/test", json={})).json()

    assert result["success"] is True, result
    assert result["result"] == {
        "success": True, "tenant": "acme", "same": True, "test": False,
        "a": 1, "b": 2, "http": True, "secrets": True,
    }  # fmt: skip
    assert tested["logs"] == ["info: item style", "info: attribute style"]


def test_the_authors_guide_documents_every_context_key() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "tools.md").read_text()
    for key in ("session_id", "tenant_id", "bot_id", "test_mode", "variables", "secrets",
                "update_context", "modules.http", "modules.logger"):  # fmt: skip
        assert f"`{key}`" in guide or f"context.{key}" in guide, key
