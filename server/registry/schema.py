"""Parameter schemas: the JSON Schema subset a tool may declare, checked at save time.

Every problem is reported with the dotted path of the field it concerns, for example
``parameters.properties.order_id.pattern``. The flat shorthand
``{"order_id": {"type": "string", "required": true}}`` is normalised to an object schema.

Schemas as libraries write them are accepted: pydantic's ``model_json_schema()``, LangChain's and
the Agents SDK's — ``anyOf``/``oneOf`` (``Optional[X]`` is ``anyOf [X, null]``), ``$defs`` with
local ``$ref`` (inlined here, so every provider format and the validator see one plain schema;
a cycle is refused with its path, an external ``$ref`` is never fetched), ``allOf`` of one
schema (merged), ``additionalProperties`` as a schema (maps), ``const`` and ``default``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from server.errors import Problems
from server.registry.formats import provider_notes

TYPES = ("string", "number", "integer", "boolean", "array", "object")
# the formats JSON Schema 2020-12 and OpenAPI 3.0/3.1 define, by the type they describe: the
# argument validator checks those it can (dates, times, addresses, e-mails, URIs, ...); the rest
# (password, byte, binary, ...) are carried to the providers, which keep the ones they know
WHEN = ("date", "date-time", "time", "duration")
WHERE = ("email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6")
WHICH = ("uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid")
POINTERS = ("json-pointer", "relative-json-pointer", "regex")
OPENAPI_STRINGS = ("byte", "binary", "password")
FORMATS: dict[str, tuple[str, ...]] = {
    "string": WHEN + WHERE + WHICH + POINTERS + OPENAPI_STRINGS,
    "integer": ("int32", "int64"),
    "number": ("float", "double", "int32", "int64"),
}
KEYWORDS = frozenset({
    "type", "description", "enum", "const", "pattern", "format", "minLength", "maxLength",
    "minimum", "maximum", "items", "minItems", "maxItems", "default", "properties", "required",
    "additionalProperties", "title", "examples", "anyOf", "oneOf",
})  # fmt: skip
TOP_LEVEL_ONLY = frozenset({"$schema"})
PROPERTY_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$")
MAX_DEPTH = 12
MAX_BRANCHES = 16
MAX_INLINED_BYTES = 256 * 1024  # what $ref inlining may grow a schema to before it is refused
MAX_PROPERTIES = 256
MAX_ENUM = 500
MAX_SCHEMA_BYTES = 64 * 1024  # one tool's parameters, serialised: what each snapshot repeats

_KEYWORD_TYPES: dict[str, tuple[str, ...]] = {
    "pattern": ("string",), "format": ("string", "integer", "number"),
    "minLength": ("string",), "maxLength": ("string",),
    "minimum": ("number", "integer"), "maximum": ("number", "integer"),
    "items": ("array",), "minItems": ("array",), "maxItems": ("array",),
    "properties": ("object",), "required": ("object",), "additionalProperties": ("object",),
}  # fmt: skip


def value_has_type(value: Any, type_name: str) -> bool:
    """Whether a JSON value is of a JSON Schema type (booleans are not numbers)."""
    match type_name:
        case "string":
            return isinstance(value, str)
        case "boolean":
            return isinstance(value, bool)
        case "integer":
            return (
                isinstance(value, int)
                and not isinstance(value, bool)
                or (isinstance(value, float) and value.is_integer())
            )
        case "number":
            return isinstance(value, int | float) and not isinstance(value, bool)
        case "array":
            return isinstance(value, list)
        case "object":
            return isinstance(value, dict)
        case "null":
            return value is None
    return False


def is_shorthand(raw: dict[str, Any]) -> bool:
    """A flat ``{name: property-schema}`` map rather than an object schema."""
    if not raw:
        return False
    if isinstance(raw.get("type"), str) or "properties" in raw or "$schema" in raw:
        return False
    return all(isinstance(v, dict) for v in raw.values())


def normalise_parameters(raw: Any, problems: Problems, field: str = "parameters") -> dict[str, Any]:
    """Check ``raw`` against the rules and return it as an object schema."""
    if raw is None:
        return {"type": "object", "properties": {}}
    if not isinstance(raw, dict):
        problems.add(field, "must be a JSON object (an object schema or the flat shorthand)")
        return {"type": "object", "properties": {}}
    if is_shorthand(raw):
        properties: dict[str, Any] = {}
        required: list[str] = []
        for name, prop in raw.items():
            prop = dict(prop)
            flag = prop.get("required", False)
            if isinstance(flag, bool):
                prop.pop("required", None)
                if flag:
                    required.append(name)
            elif not (isinstance(flag, list) and prop.get("type") == "object"):
                prop.pop("required")
                problems.add(
                    f"{field}.{name}.required", "in the shorthand, `required` must be true or false"
                )
            properties[name] = prop
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
    else:
        inlined = inline_refs(raw, field, problems)
        if inlined is None:
            return {"type": "object", "properties": {}}
        schema = inlined
        schema.setdefault("type", "object")
        schema.setdefault("properties", {})
        if schema.get("type") != "object":
            problems.add(
                f"{field}.type", 'the top level must be an object schema ("type": "object")'
            )
            return schema
        if "$schema" in schema and not isinstance(schema["$schema"], str):
            problems.add(f"{field}.$schema", "must be a string")
    before = len(problems.errors)
    _check(schema, field, problems, depth=0, top=True)
    size = len(json.dumps(schema, default=str))
    if size > MAX_SCHEMA_BYTES:
        problems.add(field, f"is {size} bytes serialised; at most {MAX_SCHEMA_BYTES}")
    if len(problems.errors) == before:
        for fmt, note in provider_notes(schema):  # served anyway; the developer should know
            problems.warn(field, f"{fmt}: {note}")
    return schema


def inline_refs(raw: dict[str, Any], field: str, problems: Problems) -> dict[str, Any] | None:
    """``raw`` with every local ``$ref`` replaced by its definition and one-schema ``allOf``
    merged; None (and the problems said) when a reference cannot be resolved."""
    defs: dict[str, Any] = {}
    for key in ("$defs", "definitions"):
        found = raw.get(key)
        if found is not None and not isinstance(found, dict):
            problems.add(f"{field}.{key}", "must be an object mapping names to schemas")
            return None
        for name, definition in (found or {}).items():
            defs[f"#/{key}/{name}"] = definition
    before = len(problems.errors)
    body = {k: v for k, v in raw.items() if k not in ("$defs", "definitions")}
    inlined = _inline(body, defs, field, problems, stack=(), depth=0)
    if len(problems.errors) > before or not isinstance(inlined, dict):
        return None
    size = len(json.dumps(inlined, default=str))
    if size > MAX_INLINED_BYTES:
        problems.add(
            field, f"is {size} bytes once its $refs are inlined; at most {MAX_INLINED_BYTES}"
        )
        return None
    return inlined


def _inline(
    node: Any,
    defs: dict[str, Any],
    field: str,
    problems: Problems,
    stack: tuple[str, ...],
    depth: int,
) -> Any:
    if depth > 4 * MAX_DEPTH:
        problems.add(field, f"schemas may nest at most {MAX_DEPTH} levels")
        return node
    if isinstance(node, list):
        return [
            _inline(v, defs, f"{field}[{i}]", problems, stack, depth + 1)
            for i, v in enumerate(node)
        ]
    if not isinstance(node, dict):
        return node
    node = dict(node)
    if "$ref" in node:
        ref = node.pop("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            problems.add(
                f"{field}.$ref", f"only local references (#/$defs/...) are resolved, not {ref!r}"
            )
            return node
        if ref in stack:
            cycle = " -> ".join((*stack[stack.index(ref) :], ref))
            problems.add(f"{field}.$ref", f"a cycle of references: {cycle}")
            return node
        if ref not in defs:
            problems.add(f"{field}.$ref", f"{ref!r} is not defined in $defs")
            return node
        target = _inline(defs[ref], defs, field, problems, (*stack, ref), depth + 1)
        if isinstance(target, dict):
            node = {
                **target,
                **{
                    k: _inline(v, defs, f"{field}.{k}", problems, stack, depth + 1)
                    for k, v in node.items()
                },
            }
        return node
    all_of = node.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
        del node["allOf"]  # pydantic's way to attach a description to a $ref
        merged = _inline(all_of[0], defs, f"{field}.allOf[0]", problems, stack, depth + 1)
        node = {**merged, **node} if isinstance(merged, dict) else node
    elif "allOf" in node:
        problems.add(
            f"{field}.allOf", "only an allOf of one schema is supported (merge the others)"
        )
        return node
    return {
        key: _inline(value, defs, f"{field}.{key}", problems, stack, depth + 1)
        if key not in ("enum", "const", "default", "examples")
        else value
        for key, value in node.items()
    }


def _check(
    schema: Any,
    field: str,
    problems: Problems,
    depth: int,
    top: bool = False,
    branch: bool = False,
) -> None:
    if depth > MAX_DEPTH:
        problems.add(field, f"schemas may nest at most {MAX_DEPTH} levels")
        return
    if not isinstance(schema, dict):
        problems.add(field, "must be a schema object")
        return
    allowed = KEYWORDS | TOP_LEVEL_ONLY if top else KEYWORDS
    for key in schema:
        if key not in allowed:
            problems.add(
                f"{field}.{key}", f"unknown keyword {key!r}; allowed: {', '.join(sorted(KEYWORDS))}"
            )
    _check_annotations(schema, field, problems)
    combined = [k for k in ("anyOf", "oneOf") if k in schema]
    for key in combined:
        branches = schema[key]
        if not isinstance(branches, list) or not branches or len(branches) > MAX_BRANCHES:
            problems.add(f"{field}.{key}", f"must be a list of 1 to {MAX_BRANCHES} schemas")
            continue
        for i, sub in enumerate(branches):
            _check(sub, f"{field}.{key}[{i}]", problems, depth + 1, branch=True)
    if "type" not in schema:
        if combined or "const" in schema or "enum" in schema:
            return  # the branches (or the values) say what is allowed
        if not top:
            problems.warn(
                field, "a schema without `type` accepts any value; some providers refuse it"
            )
            return
    if branch and schema.get("type") == "null":
        return  # Optional[X]: anyOf [X, {"type": "null"}]
    types = _check_type(schema, field, problems)
    if types is None:
        return
    for keyword, applies_to in _KEYWORD_TYPES.items():
        if keyword in schema and not set(types) & set(applies_to):
            problems.add(
                f"{field}.{keyword}",
                f"{keyword!r} applies to {' or '.join(applies_to)} schemas, not {'/'.join(types)}",
            )
    _check_values(schema, types, field, problems)
    _check_string(schema, field, problems)
    _check_bounds(schema, field, problems)
    if "items" in schema:
        _check(schema["items"], f"{field}.items", problems, depth + 1)
    elif "array" in types:
        problems.warn(
            f"{field}.items", "arrays without `items` are rejected by some model providers"
        )
    if "object" in types:
        _check_object(schema, field, problems, depth)


def _check_type(schema: dict[str, Any], field: str, problems: Problems) -> list[str] | None:
    if "type" not in schema:
        problems.add(f"{field}.type", f"is required; one of {', '.join(TYPES)}")
        return None
    raw = schema["type"]
    types = raw if isinstance(raw, list) else [raw]
    if not types or not all(isinstance(t, str) for t in types) or len(set(types)) != len(types):
        problems.add(
            f"{field}.type", f'must be one of {", ".join(TYPES)} (or a list of them with "null")'
        )
        return None
    bad = [t for t in types if t not in TYPES and not (t == "null" and isinstance(raw, list))]
    if bad or types == ["null"]:
        problems.add(
            f"{field}.type",
            f"unknown type {bad[0] if bad else 'null'!r}; use one of {', '.join(TYPES)}",
        )
        return None
    return types


def _check_annotations(schema: dict[str, Any], field: str, problems: Problems) -> None:
    for key in ("description", "title"):
        if key in schema and not isinstance(schema[key], str):
            problems.add(f"{field}.{key}", "must be a string")
    if "examples" in schema and not isinstance(schema["examples"], list):
        problems.add(f"{field}.examples", "must be a list")


def _matches(value: Any, types: list[str]) -> bool:
    return any(value_has_type(value, t) for t in types)


def _check_values(schema: dict[str, Any], types: list[str], field: str, problems: Problems) -> None:
    enum = schema.get("enum")
    if "enum" in schema:
        if not isinstance(enum, list) or not enum:
            problems.add(f"{field}.enum", "must be a non-empty list")
            enum = None
        elif len(enum) > MAX_ENUM:  # every snapshot carries them: keep them small
            problems.add(f"{field}.enum", f"at most {MAX_ENUM} values")
            enum = None
        else:
            for i, value in enumerate(enum):
                if not _matches(value, types):
                    problems.add(
                        f"{field}.enum[{i}]", f"{value!r} is not of type {'/'.join(types)}"
                    )
            if len({repr(v) for v in enum}) != len(enum):
                problems.add(f"{field}.enum", "values must be unique")
    if "const" in schema and not _matches(schema["const"], types):
        problems.add(f"{field}.const", f"{schema['const']!r} is not of type {'/'.join(types)}")
    if "default" in schema:
        default = schema["default"]
        if not _matches(default, types):
            problems.add(f"{field}.default", f"{default!r} is not of type {'/'.join(types)}")
        elif enum and default not in enum:
            problems.add(f"{field}.default", f"{default!r} is not one of the enum values")


def _check_string(schema: dict[str, Any], field: str, problems: Problems) -> None:
    if "pattern" in schema:
        pattern = schema["pattern"]
        if not isinstance(pattern, str):
            problems.add(f"{field}.pattern", "must be a string")
        else:
            try:
                re.compile(pattern)
            except re.error as exc:
                problems.add(f"{field}.pattern", f"does not compile: {exc}")
    if "format" in schema:
        types = schema.get("type")
        types = [types] if isinstance(types, str) else types if isinstance(types, list) else []
        known = [f for t in types for f in FORMATS.get(t, ())]
        if schema["format"] not in known:
            problems.add(
                f"{field}.format",
                f"unknown format {schema['format']!r} for {'/'.join(map(str, types))}; known: "
                f"{', '.join(dict.fromkeys(known))}",
            )


def _check_bounds(schema: dict[str, Any], field: str, problems: Problems) -> None:
    for low, high, kind in (
        ("minLength", "maxLength", "count"),
        ("minItems", "maxItems", "count"),
        ("minimum", "maximum", "number"),
    ):
        values = {}
        for key in (low, high):
            if key not in schema:
                continue
            value = schema[key]
            valid = (
                isinstance(value, int) and not isinstance(value, bool) and value >= 0
                if kind == "count"
                else isinstance(value, int | float) and not isinstance(value, bool)
            )
            if valid:
                values[key] = value
            else:
                problems.add(
                    f"{field}.{key}",
                    "must be a non-negative integer" if kind == "count" else "must be a number",
                )
        if low in values and high in values and values[low] > values[high]:
            problems.add(
                f"{field}.{low}", f"{low} ({values[low]}) is greater than {high} ({values[high]})"
            )


def _check_object(schema: dict[str, Any], field: str, problems: Problems, depth: int) -> None:
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        problems.add(f"{field}.properties", "must be an object mapping names to schemas")
        properties = {}
    if len(properties) > MAX_PROPERTIES:
        problems.add(f"{field}.properties", f"at most {MAX_PROPERTIES} properties")
    for name, prop in properties.items():
        if not PROPERTY_NAME.match(name):
            problems.add(
                f"{field}.properties.{name}",
                "property names must match ^[A-Za-z_][A-Za-z0-9_.-]{0,63}$",
            )
        _check(prop, f"{field}.properties.{name}", problems, depth + 1)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):  # a map: the schema of every value
        _check(extra, f"{field}.additionalProperties", problems, depth + 1)
    elif "additionalProperties" in schema and not isinstance(extra, bool):
        problems.add(f"{field}.additionalProperties", "must be true, false or a schema")
    if "required" in schema:
        required = schema["required"]
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            problems.add(f"{field}.required", "must be a list of property names")
            return
        if len(set(required)) != len(required):
            problems.add(f"{field}.required", "names must be unique")
        for i, name in enumerate(required):
            if name not in properties:
                problems.add(
                    f"{field}.required[{i}]", f"{name!r} is required but not declared in properties"
                )
