"""Call-time arguments: drop what is undeclared, coerce what the schema asks for, validate.

Validators are compiled once per tool content hash (jsonschema-rs: a fraction of a microsecond
per check once compiled). A violation comes back as one message the model can act on: which
argument is wrong and how.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any

import jsonschema_rs

from server import inputs

TRUE = frozenset({"true", "1", "yes", "on"})
FALSE = frozenset({"false", "0", "no", "off"})
MAX_VALIDATORS = 16_384  # as many as the node keeps tools' sources
# OpenAPI's integer formats, checked as the ranges they name (the validator checks formats of
# strings only)
INTEGER_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}


class ArgumentError(Exception):
    def __init__(self, argument: str | None, message: str) -> None:
        super().__init__(message)
        self.argument = argument


def _types(schema: dict[str, Any]) -> list[str]:
    t = schema.get("type")
    return t if isinstance(t, list) else [t] if isinstance(t, str) else []


def allows_null(schema: Any) -> bool:
    """Whether ``null`` is a value the schema itself accepts (not merely "not given")."""
    if not isinstance(schema, dict):
        return False
    if "null" in _types(schema) or None in (schema.get("enum") or ()):
        return True
    return any(allows_null(s) for key in ("anyOf", "oneOf") for s in schema.get(key) or ())


def absent_nulls(value: Any, schema: Any) -> Any:
    """``value`` without the nulls that stand for "not given" at any depth: strict-mode models
    must send every property, and send null for an optional one they leave out."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict):
        for key in ("anyOf", "oneOf"):
            for branch in schema.get(key) or ():
                if isinstance(branch, dict) and "object" in _types(branch):
                    return absent_nulls(value, branch)
        properties = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        required = set(schema.get("required") or ())
        out = {}
        for name, item in value.items():
            sub = properties.get(name, extra if isinstance(extra, dict) else None)
            if (
                item is None
                and name in properties
                and name not in required
                and not allows_null(sub)
            ):
                continue
            out[name] = absent_nulls(item, sub)
        return out
    if isinstance(value, list):
        items = schema.get("items")
        if not isinstance(items, dict):
            for key in ("anyOf", "oneOf"):
                items = next(
                    (
                        b.get("items")
                        for b in schema.get(key) or ()
                        if isinstance(b, dict) and "items" in b
                    ),
                    items,
                )
        return [absent_nulls(v, items) for v in value] if isinstance(items, dict) else value
    return value


def _coerce(value: Any, schema: Any) -> Any:
    """``value`` with the numeric and boolean strings the schema asks numbers or booleans for
    turned into them, at any depth (inside maps and arrays as at the top level)."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        rest = extra if isinstance(extra, dict) else None
        if not properties and rest is None:
            return value
        return {k: _coerce(v, properties.get(k, rest)) for k, v in value.items()}
    if isinstance(value, list):
        items = schema.get("items")
        return [_coerce(v, items) for v in value] if isinstance(items, dict) else value
    if not isinstance(value, str):
        return value
    types = _types(schema)
    if "string" in types:
        return value
    text = value.strip()
    if "integer" in types:
        try:
            return int(text)
        except ValueError:
            try:
                number = float(text)
                if number.is_integer():
                    return int(number)
            except ValueError:
                pass
    if "number" in types:
        try:
            number = float(text)
            return (
                int(number)
                if number.is_integer() and "." not in text and "e" not in text.lower()
                else number
            )
        except ValueError:
            pass
    if "boolean" in types:
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
    return value


class ArgumentChecker:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.properties: dict[str, Any] = schema.get("properties", {})
        self.required = set(schema.get("required", ()))
        extra = schema.get("additionalProperties")
        self.open = extra is True or isinstance(extra, dict)  # a map: its keys are the arguments
        self.validator = jsonschema_rs.validator_for(with_ranges(schema), validate_formats=True)

    def prepare(self, arguments: Any) -> dict[str, Any]:
        """The arguments the tool will see, or ``ArgumentError``."""
        if not isinstance(arguments, dict):
            raise ArgumentError(None, "arguments must be a JSON object")
        # what no worker channel can carry (MCP and in-process callers pass no HTTP edge)
        unusable = inputs.problem_in(arguments, nul_ok=frozenset(map(str, arguments)))
        if unusable is not None:
            field, message = unusable
            raise ArgumentError(re.split(r"[.\[]", field)[0], f"argument {field!r} {message}")
        clean: dict[str, Any] = {}
        skip_validation: set[str] = set()
        names = list(self.properties)
        if self.open:
            names += [name for name in arguments if name not in self.properties]
        extra = self.schema.get("additionalProperties")
        for name in names:
            if name not in arguments:
                continue
            prop = self.properties.get(name, extra if isinstance(extra, dict) else {})
            value = arguments[name]
            optional = name not in self.required
            if value is None and optional and name in self.properties and not allows_null(prop):
                continue  # strict-mode models send null for "not given"
            value = absent_nulls(_coerce(value, prop), prop)
            if value == "" and optional and isinstance(prop, dict) and "enum" in prop:
                if "" not in prop["enum"]:
                    continue  # an untouched choice in a form: absent, never a value outside it
            elif value == "" and optional and "string" in _types(prop):
                skip_validation.add(name)
            clean[name] = value
        checked = {k: v for k, v in clean.items() if k not in skip_validation}
        if self.validator.is_valid(checked):  # the common case: no errors to walk
            return clean
        for error in self.validator.iter_errors(checked):
            path = [str(p) for p in error.instance_path]
            argument = path[0] if path else None
            if argument is None and "required" in str(error.schema_path):
                missing = [r for r in self.required if r not in checked]
                argument = missing[0] if missing else None
                raise ArgumentError(argument, f"the required argument {argument!r} is missing")
            where = f"argument {'.'.join(path)!r}" if path else "the arguments"
            raise ArgumentError(argument, f"{where}: {error.message}")
        return clean


class ArgumentCheckers:
    """Compiled checkers, keyed by the tool's content hash."""

    def __init__(self) -> None:
        self._cache: OrderedDict[str, ArgumentChecker] = OrderedDict()

    def get(self, key: str, schema: dict[str, Any]) -> ArgumentChecker:
        checker = self._cache.get(key)
        if checker is None:
            checker = self._cache[key] = ArgumentChecker(schema)
            if len(self._cache) > MAX_VALIDATORS:
                self._cache.popitem(last=False)
        return checker


def with_ranges(schema: Any) -> Any:
    """``schema`` with each ``int32``/``int64`` format also given as bounds it does not have
    (subschemas only: values such as ``default`` or ``enum`` are data, left as they are)."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    fmt = schema.get("format")
    bounds = INTEGER_RANGES.get(fmt) if isinstance(fmt, str) else None
    if bounds is not None:
        out.setdefault("minimum", bounds[0])
        out.setdefault("maximum", bounds[1])
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            out[key] = with_ranges(schema[key])
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: with_ranges(v) for k, v in schema["properties"].items()}
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list):
            out[key] = [with_ranges(v) for v in schema[key]]
    return out
