"""Bad input gets a clear problem naming the field, and nothing is stored."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from tests.conftest import Api
from tests.factories import python_source, python_tool, wasm_tool, webhook_tool

SCHEMA_CASES: list[tuple[str, Any, str]] = [
    ("top level not an object", {"type": "array", "items": {"type": "string"}}, "parameters.type"),
    (
        "required not declared",
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]},
        "parameters.required[0]",
    ),
    ("unknown type", {"a": {"type": "date"}}, "parameters.properties.a.type"),
    ("empty anyOf", {"a": {"anyOf": []}}, "parameters.properties.a.anyOf"),
    (
        "external $ref",
        {"type": "object", "properties": {"a": {"$ref": "https://x.example/s.json"}}},
        "parameters.properties.a.$ref",
    ),
    (
        "$ref cycle",
        {
            "type": "object",
            "$defs": {"N": {"type": "object", "properties": {"c": {"$ref": "#/$defs/N"}}}},
            "properties": {"a": {"$ref": "#/$defs/N"}},
        },
        "parameters.properties.a.properties.c.$ref",
    ),
    (
        "undefined $ref",
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Nope"}}},
        "parameters.properties.a.$ref",
    ),
    (
        "allOf of two",
        {"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"minLength": 1}]}}},
        "parameters.properties.a.allOf",
    ),
    (
        "map of a bad schema",
        {
            "type": "object",
            "properties": {"m": {"type": "object", "additionalProperties": {"type": "nope"}}},
        },
        "parameters.properties.m.additionalProperties.type",
    ),
    (
        "pattern does not compile",
        {"a": {"type": "string", "pattern": "([a-z"}},
        "parameters.properties.a.pattern",
    ),
    (
        "unknown format",
        {"a": {"type": "string", "format": "telepathy"}},
        "parameters.properties.a.format",
    ),
    (
        "enum value of wrong type",
        {"a": {"type": "integer", "enum": [1, "two"]}},
        "parameters.properties.a.enum[1]",
    ),
    ("empty enum", {"a": {"type": "string", "enum": []}}, "parameters.properties.a.enum"),
    (
        "minLength over maxLength",
        {"a": {"type": "string", "minLength": 5, "maxLength": 2}},
        "parameters.properties.a.minLength",
    ),
    (
        "negative maxLength",
        {"a": {"type": "string", "maxLength": -1}},
        "parameters.properties.a.maxLength",
    ),
    (
        "minimum over maximum",
        {"a": {"type": "number", "minimum": 10, "maximum": 1}},
        "parameters.properties.a.minimum",
    ),
    (
        "minimum not a number",
        {"a": {"type": "integer", "minimum": "1"}},
        "parameters.properties.a.minimum",
    ),
    (
        "pattern on a number",
        {"a": {"type": "number", "pattern": "x"}},
        "parameters.properties.a.pattern",
    ),
    (
        "items not a schema",
        {"a": {"type": "array", "items": "string"}},
        "parameters.properties.a.items",
    ),
    (
        "nested items bad type",
        {"a": {"type": "array", "items": {"type": "strin"}}},
        "parameters.properties.a.items.type",
    ),
    (
        "default of wrong type",
        {"a": {"type": "boolean", "default": "yes"}},
        "parameters.properties.a.default",
    ),
    (
        "default outside enum",
        {"a": {"type": "string", "enum": ["x"], "default": "y"}},
        "parameters.properties.a.default",
    ),
    ("unknown keyword", {"a": {"type": "string", "oneOf": []}}, "parameters.properties.a.oneOf"),
    (
        "description not a string",
        {"a": {"type": "string", "description": 3}},
        "parameters.properties.a.description",
    ),
    (
        "bad property name",
        {"type": "object", "properties": {"has space": {"type": "string"}}},
        "parameters.properties.has space",
    ),
    (
        "shorthand required not bool",
        {"a": {"type": "string", "required": "yes"}},
        "parameters.a.required",
    ),
    (
        "nested required undeclared",
        {"a": {"type": "object", "properties": {}, "required": ["z"]}},
        "parameters.properties.a.required[0]",
    ),
    ("not an object at all", ["a", "b"], "parameters"),
]


@pytest.mark.parametrize(
    ("case", "parameters", "field"), SCHEMA_CASES, ids=[c[0] for c in SCHEMA_CASES]
)
async def test_each_schema_rule_names_the_field(
    api: Api, case: str, parameters: Any, field: str
) -> None:
    acme = await api.tenant("acme")

    response = await acme.dev.post(
        "/v1/tools", json=webhook_tool(parameters=parameters, webhook_url="https://x.example/y")
    )
    dry_run = await acme.dev.post(
        "/v1/tools/validate",
        json=webhook_tool(parameters=parameters, webhook_url="https://x.example/y"),
    )

    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert field in [e.get("field") for e in response.json()["errors"]], response.json()
    assert dry_run.status_code == 200 and dry_run.json()["valid"] is False
    assert (await acme.dev.get("/v1/tools")).json()["tools"] == []


async def test_flat_shorthand_is_normalised(api: Api) -> None:
    acme = await api.tenant("acme")
    shorthand = {"order_id": {"type": "string", "required": True}, "verbose": {"type": "boolean"}}

    response = await acme.dev.post(
        "/v1/tools",
        json=webhook_tool(parameters=shorthand, webhook_url="https://x.example/{order_id}"),
    )

    assert response.json()["parameters"] == {
        "type": "object",
        "properties": {"order_id": {"type": "string"}, "verbose": {"type": "boolean"}},
        "required": ["order_id"],
    }


async def test_valid_dry_run_reports_warnings_and_stores_nothing(api: Api) -> None:
    acme = await api.tenant("acme")
    body = webhook_tool(
        parameters={"tags": {"type": "array"}},
        metadata={"owner": "team-a"},
        webhook_url="https://x.example/",
    )

    response = await acme.dev.post("/v1/tools/validate", json=body)

    assert response.json()["valid"] is True and response.json()["errors"] == []
    assert {w["field"] for w in response.json()["warnings"]} == {
        "parameters.properties.tags.items",
        "metadata.owner",
    }
    assert (await acme.dev.get("/v1/tools")).json()["tools"] == []


async def test_tool_file_with_an_extra_key_is_refused_with_key_and_line(api: Api) -> None:
    acme = await api.tenant("acme")
    source = python_source(extra='\n    "handler": execute,')

    response = await acme.dev.post("/v1/tools", json={"kind": "python", "source": source})

    errors = response.json()["errors"]
    assert response.status_code == 422
    assert errors == [
        {
            "field": "tool.handler",
            "line": source.splitlines().index('    "handler": execute,') + 1,
            "message": errors[0]["message"],
        }
    ]
    assert "'handler'" in errors[0]["message"]


async def test_all_problems_of_a_tool_file_are_reported_together(api: Api) -> None:
    acme = await api.tenant("acme")
    source = 'def run(p):\n    return {}\n\ntool = {"name": "bad name", "description": "", "execute": run, "extra": 1, "metadata": {"timeout": -5}}\n'

    response = await acme.dev.post("/v1/tools/validate", json={"kind": "python", "source": source})

    fields = {e["field"] for e in response.json()["errors"]}
    assert {"tool.extra", "tool.execute"} <= fields
    assert all(e["line"] for e in response.json()["errors"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "shell", "name": "x"}, "kind"),
        ({**python_tool(), "sandbox": "docker"}, "sandbox"),
        ({**python_tool(), "name": "x"}, "name"),
        ({"kind": "python", "source": ""}, "source"),
        ({"kind": "python", "source": "tool = {"}, "source"),
        ({"kind": "python", "source": "x = 1\n"}, "source"),
        (webhook_tool(webhook_url="ftp://files.example/x"), "webhook_url"),
        (webhook_tool(webhook_url="https://{city}.example.com/"), "webhook_url"),
        (webhook_tool(webhook_url="https://api.example.com/{country}"), "webhook_url"),
        (webhook_tool(webhook_url="https://user:pw@api.example.com/"), "webhook_url"),
        (webhook_tool(method="TRACE"), "method"),
        (webhook_tool(timeout_ms=0), "timeout_ms"),
        (webhook_tool(headers={"Host": "evil"}), "headers.Host"),
        (webhook_tool(headers={"X-A": "a\r\nX-B: b"}), "headers.X-A"),
        (webhook_tool(auth_header="Bearer a\nInjected: 1"), "auth_header"),
        (webhook_tool(metadata={"cacheable": "yes"}), "metadata.cacheable"),
        (webhook_tool(metadata={"timeout": 10**9}), "metadata.timeout"),
        ({**wasm_tool(), "name": "9starts_with_digit"}, "name"),
        ({**wasm_tool(), "description": ""}, "description"),
        ({**wasm_tool(), "module": ""}, "module"),
    ],
)
async def test_bad_tool_bodies_name_the_field(api: Api, body: dict, field: str) -> None:
    acme = await api.tenant("acme")

    response = await acme.dev.post("/v1/tools", json=body)

    assert response.status_code == 422, response.text
    assert field in [e.get("field") for e in response.json()["errors"]], response.json()
    assert (await acme.dev.get("/v1/tools")).json()["tools"] == []


async def test_malformed_json_is_a_400_problem(api: Api) -> None:
    acme = await api.tenant("acme")

    response = await acme.dev.post(
        "/v1/tools",
        content=b'{"kind": "python", "source": ',
        headers={"content-type": "application/json"},
    )

    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "malformed_json"


async def test_oversize_source_is_refused(api: Api) -> None:
    acme = await api.tenant("acme")
    source = python_source() + "#" * (256 * 1024)

    response = await acme.dev.post("/v1/tools", json={"kind": "python", "source": source})

    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "source"


async def test_oversize_module_is_refused(api: Api) -> None:
    acme = await api.tenant("acme")
    module = b"\x00asm\x01\x00\x00\x00" + b"\x00" * (10 * 1024 * 1024)

    response = await acme.dev.post(
        "/v1/tools", json={**wasm_tool(), "module": base64.b64encode(module).decode()}
    )

    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "module"


async def test_body_over_the_request_cap_is_413(api: Api) -> None:
    acme = await api.tenant("acme")

    response = await acme.dev.post(
        "/v1/tools", content=b"x" * (17 * 1024 * 1024), headers={"content-type": "application/json"}
    )

    assert response.status_code == 413
    assert response.json()["code"] == "payload_too_large"


async def test_non_object_body_is_refused(api: Api) -> None:
    acme = await api.tenant("acme")

    response = await acme.dev.post("/v1/tools", json=["kind", "python"])

    assert response.status_code == 422 and response.json()["code"] == "validation_error"
