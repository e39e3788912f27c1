"""The OpenAPI import on real documents, as PyPI packages ship them (``tests/data/openapi``):
none is refused whole; every operation becomes a tool or is reported with its reasons; formats
JSON Schema and OpenAPI define are kept, others carried in the description; ``prefix`` joins
with ``_``; an integer format is checked as the range it names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.api.test_webhooks import hooks  # noqa: F401 (the app that may reach 127.0.0.2)
from tests.conftest import Api
from tests.loopback import LoopbackServer

DOCUMENTS = Path(__file__).resolve().parents[1] / "data" / "openapi"
METHODS = ("get", "post", "put", "patch", "delete")
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")


def operations_of(text: str) -> set[str]:
    document = yaml.safe_load(text)
    return {
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    }


@pytest.mark.parametrize(
    ("name", "imported_count", "reason"),
    [
        ("jupyterlab_server-2.28.1-rest-api.yml", 12, None),  # no operationIds: named by path
        # the document's TensorData is oneOf array or "bytes", which is no JSON Schema type
        ("mlserver-1.7.1-dataplane.json", 7, "unknown type 'bytes'"),
        ("mlserver-1.7.1-model_repository.json", 3, None),
        # bodies that repeat a path parameter (PATCH /dags/{dag_id} with a dag_id field)
        ("apache_airflow-2.10.5-v1.yaml", 84, "is also a parameter"),
    ],
)
async def test_a_real_document_is_imported_operation_by_operation(
    hooks: Api,  # noqa: F811
    name: str,
    imported_count: int,
    reason: str | None,
) -> None:
    acme = await hooks.tenant("acme")
    text = (DOCUMENTS / name).read_text()

    dry = await acme.dev.post(
        "/v1/tools/import/openapi",
        json={"source": text, "server": "https://service.example/api", "dry_run": True},
    )

    assert dry.status_code == 200, dry.text
    answer = dry.json()
    imported = set(answer["operations"])
    skipped = {s["operation"]: s for s in answer["skipped"]}
    assert imported | set(skipped) == operations_of(text)  # every operation is accounted for
    assert not imported & set(skipped)
    assert len(imported) == imported_count, answer["skipped"]
    messages = [e["message"] for s in skipped.values() for e in s["errors"]]
    assert all(s["errors"] for s in skipped.values())
    assert all(reason in m for m in messages) if reason else messages == []
    names = [t["name"] for t in answer["tools"]]
    assert len(set(names)) == len(names) and all(NAME.match(n) for n in names)
    assert all(t["webhook_url"].startswith("https://service.example/api/") for t in answer["tools"])


async def test_formats_are_kept_or_carried_and_the_prefix_joins_with_an_underscore(
    hooks: Api,  # noqa: F811
) -> None:
    acme = await hooks.tenant("acme")
    text = (DOCUMENTS / "apache_airflow-2.10.5-v1.yaml").read_text()

    imported = await acme.dev.post(
        "/v1/tools/import/openapi",
        json={
            "source": text,
            "server": "https://airflow.example/api/v1",
            "operations": ["get_dag_runs", "get_connection"],
            "prefix": "airflow",
        },
    )

    assert imported.status_code == 201, imported.text
    tools = {t["name"]: t for t in imported.json()["tools"]}
    assert set(tools) == {"airflow_get_dag_runs", "airflow_get_connection"}
    runs = tools["airflow_get_dag_runs"]["parameters"]["properties"]
    assert runs["execution_date_gte"]["format"] == "date-time"  # a format JSON Schema defines
    assert runs["limit"]["type"] == "integer"


async def test_an_integer_format_is_checked_as_its_range(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    acme = await hooks.tenant("acme")
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Counters", "version": "1"},
        "servers": [{"url": upstream_http.base}],
        "paths": {
            "/count": {
                "get": {
                    "operationId": "count",
                    "parameters": [
                        {"name": "n", "in": "query", "required": True,
                         "schema": {"type": "integer", "format": "int32"}},
                        {"name": "since", "in": "query",
                         "schema": {"type": "string", "format": "datetime"}},
                        {"name": "secret", "in": "query",
                         "schema": {"type": "string", "format": "password"}},
                    ],
                    "responses": {"200": {"description": "ok"}},
                }
            },
            "/upload": {
                "post": {
                    "operationId": "upload",
                    "requestBody": {"content": {"multipart/form-data": {"schema": {}}}},
                    "responses": {"200": {"description": "ok"}},
                }
            },
        },
    }  # fmt: skip
    imported = await acme.dev.post("/v1/tools/import/openapi", json={"document": document})
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    async def call(arguments: dict) -> dict:
        path = f"/v1/sessions/{sid}/calls"
        return (await acme.agent.post(path, json={"tool": "count", "arguments": arguments})).json()

    fits, too_big = await call({"n": 2**31 - 1}), await call({"n": 2**31})

    assert imported.status_code == 201, imported.text
    answer = imported.json()
    assert [s["operation"] for s in answer["skipped"]] == ["POST /upload"]
    assert "application/json" in answer["skipped"][0]["errors"][0]["message"]
    properties = answer["tools"][0]["parameters"]["properties"]
    assert properties["n"]["format"] == "int32"
    assert "format" not in properties["since"] and "(format: datetime)" in properties["since"]["description"]  # fmt: skip
    assert properties["secret"]["format"] == "password"
    assert fits["success"] is True, fits
    assert too_big["success"] is False and too_big["error"]["code"] == "invalid_arguments"
