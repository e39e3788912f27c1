"""Every error code is documented, and unknown routes answer problem+json too."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from sandbox.engine import FailureCode
from server.calls.envelope import CODES
from server.errors import ERROR_CODES
from tests.conftest import Api

DOC = Path(__file__).resolve().parent.parent / "docs" / "errors.md"


def test_every_error_code_is_documented() -> None:
    text = DOC.read_text()

    assert [code for code in ERROR_CODES if f"`{code}`" not in text] == []


def test_every_envelope_failure_code_is_in_the_one_table_and_documented() -> None:
    text = DOC.read_text()

    assert [code for code in get_args(FailureCode) if code not in CODES] == []
    assert [code for code in CODES if f"`{code}`" not in text] == []


async def test_unknown_route_and_wrong_method_are_problems(api: Api) -> None:
    missing = await api.admin.get("/v1/nothing-here")
    wrong_method = await api.admin.patch("/v1/tenants")

    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert wrong_method.status_code == 405 and wrong_method.json()["code"] == "method_not_allowed"
    assert missing.headers["content-type"] == "application/problem+json"
