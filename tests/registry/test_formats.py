"""Provider formats: each transformation documented in server/registry/formats.py."""

from __future__ import annotations

from server.registry.formats import gemini_schema, strict_schema


def test_strict_openai_makes_optional_fields_nullable_and_required() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "q": {"type": "string", "minLength": 1, "default": "x"},
            "n": {"type": "integer"},
            "tags": {
                "type": "array",
                "items": {"type": "object", "properties": {"k": {"type": "string"}}},
            },
        },
        "required": ["q"],
    }

    out = strict_schema(schema)

    assert out["additionalProperties"] is False
    assert out["required"] == ["q", "n", "tags"]
    assert out["properties"]["q"] == {"type": "string"}
    assert out["properties"]["n"] == {"type": ["integer", "null"]}
    assert out["properties"]["tags"]["items"]["additionalProperties"] is False
    assert out["properties"]["tags"]["items"]["properties"]["k"]["type"] == ["string", "null"]
    assert "$schema" not in out


def test_gemini_schema_is_cleaned_of_what_gemini_rejects() -> None:
    schema = {
        "$schema": "x",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "mode": {"const": "fast", "type": "string"},
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "note": {"type": ["string", "null"], "format": "email", "examples": ["a@b.c"]},
            "when": {"type": "string", "format": "date-time"},
            "empty": {"type": "object", "properties": {}},
        },
    }

    out = gemini_schema(schema)

    assert "$schema" not in out and "additionalProperties" not in out
    assert out["properties"]["mode"] == {"type": "string", "enum": ["fast"]}
    assert out["properties"]["level"] == {"type": "string", "enum": ["1", "2", "3"]}
    assert out["properties"]["note"] == {"type": "string", "nullable": True}
    assert out["properties"]["when"]["format"] == "date-time"
    assert out["properties"]["empty"] == {"type": "object"}
