"""Schemas as libraries write them (pydantic, LangChain, the Agents SDK) through save → snapshot
→ the official SDKs' own types → a call with the arguments a model would send; strict mode that
loses nothing; the Responses format; tool-result messages in each provider's shape."""

from __future__ import annotations

from typing import Literal

import jsonschema_rs
import orjson
import pytest
from anthropic.types import MessageParam, ToolParam
from google.genai import types as genai
from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionToolMessageParam
from openai.types.responses import FunctionTool
from openai.types.responses.response_input_param import FunctionCallOutput
from pydantic import BaseModel, Field, TypeAdapter

from tests.api.test_calls import call, python, session_for
from tests.conftest import Api, TenantKeys


class Address(BaseModel):
    street: str
    city: str = Field(description="the city")
    floor: int | None = None


class Order(BaseModel):
    order_id: str = Field(pattern=r"^[A-Z]{2}\d{4}$", description="like AB1234")
    note: str | None = None
    speed: Literal["standard", "express"] = "standard"
    gift: Literal[True] = True
    address: Address
    billing: Address | None = None
    quantities: dict[str, int] = {}
    lines: list[Address] = []
    reference: int | str = 0


def echo_tool(name: str, parameters: dict) -> dict:
    """A tool that answers with the arguments it received (the schema as a Python literal)."""
    return python(f"""
def execute(params, context):
    return {{"success": True, "received": params}}


tool = {{"name": "{name}", "description": "echo", "execute": execute, "parameters": {parameters!r}}}
""")


async def snapshot(t: TenantKeys, fmt: str, strict: bool = False) -> dict[str, dict]:
    query = f"format={fmt}" + ("&strict=true" if strict else "")
    response = await t.agent.get(f"/v1/bots/b/snapshot?{query}")
    assert response.status_code == 200, response.text
    tools = response.json()["tools"]

    def name(entry: dict) -> str:
        return entry.get("name") or entry["function"]["name"]

    return {name(entry): entry for entry in tools}


async def test_a_pydantic_schema_round_trips_through_every_format(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [echo_tool("order", Order.model_json_schema())])
    formats = {
        "openai": await snapshot(acme, "openai"),
        "strict": await snapshot(acme, "openai", strict=True),
        "responses": await snapshot(acme, "openai-responses"),
        "responses-strict": await snapshot(acme, "openai-responses", strict=True),
        "anthropic": await snapshot(acme, "anthropic"),
        "gemini": await snapshot(acme, "gemini"),
    }
    # what a strict-mode model sends: every property, null for the optional ones, at any depth
    strict_args = {
        "order_id": "AB1234", "note": None, "speed": "express", "gift": True,
        "address": {"street": "1 Main St", "city": "Oslo", "floor": None},
        "billing": None, "quantities": {"apples": 3}, "lines": [{"street": "2", "city": "X", "floor": 4}],
        "reference": "R-1",
    }  # fmt: skip
    answered = await call(acme, sid, "order", strict_args)

    ChatCompletionFunctionTool.model_validate(formats["openai"]["order"])
    ChatCompletionFunctionTool.model_validate(formats["strict"]["order"])
    FunctionTool.model_validate(formats["responses"]["order"])
    FunctionTool.model_validate(formats["responses-strict"]["order"])
    TypeAdapter(ToolParam).validate_python(formats["anthropic"]["order"])
    genai.FunctionDeclaration.model_validate(formats["gemini"]["order"])
    for entry in (formats["openai"]["order"]["function"], formats["responses"]["order"]):
        jsonschema_rs.meta.validate(entry["parameters"])
        assert "$defs" not in str(entry["parameters"]) and "$ref" not in str(entry["parameters"])
    # a map cannot be strict: the tool is served plain rather than narrowed
    assert "strict" not in formats["strict"]["order"]["function"]
    assert formats["responses-strict"]["order"]["strict"] is False
    assert answered["success"] is True, answered
    received = answered["result"]["received"]
    Order.model_validate(received)  # what the tool got is what the model meant
    assert received["note"] is None and received["address"]["floor"] is None  # Optional: null kept
    assert received["quantities"] == {"apples": 3} and received["lines"][0]["floor"] == 4


class Booking(BaseModel):
    """Everything strict mode can express: it must be served strict and take what it publishes."""

    when: str = Field(description="ISO date")
    party: int = Field(ge=1, le=12)
    seating: Literal["inside", "outside"] | None = None
    contact: Address | None = None
    options: list[Literal["quiet", "window"]] = []


async def test_strict_mode_is_lossless(api: Api) -> None:
    acme = await api.tenant("acme")
    open_object = {"type": "object", "properties": {"o": {"type": "object"}}}
    bounded = {"type": "object", "properties": {"code": {"type": "string", "maxLength": 4}}}
    nested_optional = {
        "type": "object",
        "properties": {"o": {"type": "object", "properties": {"x": {"type": "string"}}}},
    }
    sid = await session_for(
        acme,
        [
            echo_tool("booking", Booking.model_json_schema()),
            echo_tool("open", open_object),
            echo_tool("bounded", bounded),
            echo_tool("nested", nested_optional),
            echo_tool("bare", {}),
        ],
    )
    strict = await snapshot(acme, "openai", strict=True)
    anthropic_strict = await snapshot(acme, "anthropic", strict=True)
    booking = strict["booking"]["function"]
    validated = await acme.dev.post("/v1/tools/validate", json=echo_tool("open", open_object))

    by_model = {
        "when": "2026-12-24", "party": 4, "seating": None,
        "contact": {"street": "1", "city": "Oslo", "floor": None}, "options": ["quiet"],
    }  # fmt: skip
    jsonschema_rs.validate(booking["parameters"], by_model)  # the model's arguments are valid…
    answered = await call(acme, sid, "booking", by_model)  # …and so accepted
    nested = await call(acme, sid, "nested", {"o": {"x": None}})

    assert booking["strict"] is True and booking["parameters"]["additionalProperties"] is False
    TypeAdapter(ToolParam).validate_python(anthropic_strict["booking"])
    assert anthropic_strict["booking"]["strict"] is True
    assert anthropic_strict["booking"]["input_schema"] == booking["parameters"]
    assert "strict" not in anthropic_strict["open"]  # served plain, as for OpenAI
    assert set(booking["parameters"]["required"]) == set(Booking.model_fields)
    assert answered["success"] is True, answered
    assert answered["result"]["received"]["contact"]["city"] == "Oslo"
    Booking.model_validate(answered["result"]["received"])
    assert nested["success"] is True and nested["result"]["received"] == {"o": {}}
    for name in ("open", "bounded"):  # never narrowed: served non-strict, as declared
        assert "strict" not in strict[name]["function"]
    assert strict["open"]["function"]["parameters"]["properties"]["o"] == {"type": "object"}
    assert strict["bare"]["function"]["parameters"] == {
        "type": "object", "properties": {}, "required": [], "additionalProperties": False,
    }  # fmt: skip
    warnings = validated.json()["warnings"]
    assert any("strict" in w["message"] and "properties.o" in w["message"] for w in warnings)


async def test_langchain_and_agents_sdk_schemas_are_accepted(api: Api) -> None:
    from agents import function_tool
    from langchain_core.tools import tool as langchain_tool
    from langchain_core.utils.function_calling import convert_to_openai_tool

    @langchain_tool
    def lookup(order_id: str, include_lines: bool = False, tags: list[str] | None = None) -> str:
        """Look up an order."""
        return ""

    @function_tool
    def weather(city: str, days: int | None = None, unit: Literal["c", "f"] = "c") -> str:
        """The weather for a city."""
        return ""

    acme = await api.tenant("acme")
    lc_schema = convert_to_openai_tool(lookup)["function"]["parameters"]
    sid = await session_for(
        acme, [echo_tool("lookup", lc_schema), echo_tool("weather", weather.params_json_schema)]
    )
    strict = await snapshot(acme, "openai", strict=True)

    looked_up = await call(acme, sid, "lookup", {"order_id": "A1", "tags": None})
    weathered = await call(acme, sid, "weather", {"city": "Oslo", "days": None, "unit": "f"})

    assert looked_up["success"] and looked_up["result"]["received"] == {
        "order_id": "A1",
        "tags": None,
    }
    assert weathered["success"] and weathered["result"]["received"] == {
        "city": "Oslo",
        "days": None,
        "unit": "f",
    }  # fmt: skip  (days allows null: it is passed, not dropped)
    assert strict["weather"]["function"]["strict"] is True


@pytest.mark.parametrize("fmt", ["openai", "openai-responses", "anthropic", "gemini"])
async def test_a_call_answers_the_message_to_append(api: Api, fmt: str) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [echo_tool("echo", {"x": {"type": "integer"}})])

    ok = await acme.agent.post(
        f"/v1/sessions/{sid}/calls?format={fmt}",
        json={"tool": "echo", "arguments": {"x": 1}, "call_id": "call_1"},
    )
    failed = await acme.agent.post(
        f"/v1/sessions/{sid}/calls?format={fmt}",
        json={"tool": "echo", "arguments": {"x": "nope"}, "call_id": "call_2"},
    )
    bad = await acme.agent.post(f"/v1/sessions/{sid}/calls?format=cohere", json={"tool": "echo"})

    message, failure = ok.json()["message"], failed.json()["message"]
    if fmt == "openai":
        TypeAdapter(ChatCompletionToolMessageParam).validate_python(message)
        assert message["tool_call_id"] == "call_1" and '"x":1' in message["content"]
    elif fmt == "openai-responses":
        TypeAdapter(FunctionCallOutput).validate_python(message)
        assert message["call_id"] == "call_1"
    elif fmt == "anthropic":
        TypeAdapter(MessageParam).validate_python(message)
        assert message["content"][0]["tool_use_id"] == "call_1"
        assert failure["content"][0]["is_error"] is True
    else:
        content = genai.Content.model_validate(message)
        assert content.parts[0].function_response.response == {
            "success": True,
            "received": {"x": 1},
        }
    assert ok.json()["success"] is True and failed.json()["success"] is False
    assert failed.json()["modelMessage"] in orjson.dumps(failure).decode().replace('\\"', '"')
    assert bad.status_code == 422


async def test_validate_says_each_warning_once_with_its_line(api: Api) -> None:
    """A tool file's declaration is checked as written and again as it loaded: one warning."""
    acme = await api.tenant("acme")
    source = 'def execute(params, context):\n    return {"ok": True}\n\n\ntool = {"name": "w", "description": "d", "execute": execute,\n        "metadata": {"colour": "blue"}}\n'  # fmt: skip

    warnings = (await acme.dev.post("/v1/tools/validate", json={"kind": "python", "source": source})).json()["warnings"]  # fmt: skip

    assert warnings == [{"message": "not a key Quiver knows; kept as is", "field": "tool.metadata.colour", "line": 6}]  # fmt: skip
