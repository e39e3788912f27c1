"""schemathesis over the whole API against a real uvicorn, on SQLite and PostgreSQL, bounded:
no 5xx, and every status code and content type the OpenAPI description declares (problem+json
errors included). Run as an admin and as a tenant's developer key."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import ADMIN_KEY, Api
from tests.servers import served

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance"
EXAMPLES = int(os.environ.get("QUIVER_FUZZ_EXAMPLES", "6"))  # per operation; a soak run sets more


async def schemathesis(base: str, key: str, examples: int) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        str(SCHEMATHESIS), "run", f"{base}/openapi.json", "--checks", CHECKS,
        "--max-examples", str(examples), "--phases", "examples,fuzzing",
        "--header", f"Authorization: Bearer {key}", "--no-color",
        # an endless event stream (tested on its own); /mcp is in: its refusals are declared
        "--exclude-path", "/v1/calls/stream",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(), 300)
    return proc.returncode or 0, out.decode(errors="replace")


@pytest.mark.skipif(not SCHEMATHESIS.exists(), reason="schemathesis is a test dependency")
async def test_the_api_conforms_to_its_openapi_description(api: Api) -> None:
    acme = await api.tenant("acme")
    async with served(api.app) as base:
        as_admin = await schemathesis(base, ADMIN_KEY, examples=EXAMPLES)
        as_developer = await schemathesis(base, acme.dev_key, examples=EXAMPLES)

    assert as_admin[0] == 0, as_admin[1][-6000:]
    assert as_developer[0] == 0, as_developer[1][-6000:]
