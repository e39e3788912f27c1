"""Provider formats of a snapshot: native, OpenAI (plain and strict), Anthropic, Gemini.

Each tool's converted form is memoised by (content hash, version, format), so a warm snapshot
of many tools only assembles dicts that already exist.

Transformations (also listed in docs/formats.md):

* OpenAI: ``{"type": "function", "function": {name, description, parameters}}``.
* OpenAI strict (``format=openai&strict=true``): every object gets ``additionalProperties:
  false``; every property is listed in ``required`` and the ones that were optional become
  nullable (``"null"`` added to ``type``, ``None`` to ``enum``); keywords strict mode rejects
  (``default``, ``examples``, ``title``, ``minLength``, ``maxLength``, ``$schema``, formats other
  than its own list) are dropped.
* Anthropic: ``{name, description, input_schema}``.
* Gemini: ``$schema``, ``additionalProperties``, ``examples``, ``title`` and ``default`` are
  dropped; ``const`` becomes a one-value ``enum``; an ``enum`` with non-string values becomes a
  string enum of their JSON texts (the canonical schema still coerces them back at call time);
  a type list ``["x", "null"]`` becomes ``"type": "x", "nullable": true``; formats other than
  ``date-time`` and ``enum`` are dropped; objects with no properties lose ``properties`` and a
  tool with no parameters has no ``parameters`` key (Gemini rejects empty object schemas).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from server.registry.model import Snapshot, SnapshotEntry

Format = Literal["native", "openai", "openai-strict", "anthropic", "gemini"]
FORMATS: tuple[str, ...] = ("native", "openai", "anthropic", "gemini")

OPENAI_STRICT_DROP = frozenset(
    {"default", "examples", "title", "minLength", "maxLength", "$schema"}
)
OPENAI_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
GEMINI_DROP = frozenset({"$schema", "additionalProperties", "examples", "title", "default"})
GEMINI_FORMATS = frozenset({"date-time", "enum"})

_MEMO: dict[tuple[str, str, int, str], dict[str, Any]] = {}
_MEMO_LIMIT = 100_000


def native(entry: SnapshotEntry) -> dict[str, Any]:
    return {
        "name": entry.name,
        "description": entry.description,
        "parameters": entry.parameters,
        "executor": entry.executor,
        "kind": entry.kind,
        "origin": entry.origin,
        "version": entry.version,
    }


def openai(entry: SnapshotEntry) -> dict[str, Any]:
    fn = {"name": entry.name, "description": entry.description, "parameters": entry.parameters}
    return {"type": "function", "function": fn}


def openai_strict(entry: SnapshotEntry) -> dict[str, Any]:
    fn = {
        "name": entry.name,
        "description": entry.description,
        "parameters": strict_schema(entry.parameters),
        "strict": True,
    }
    return {"type": "function", "function": fn}


def anthropic(entry: SnapshotEntry) -> dict[str, Any]:
    return {"name": entry.name, "description": entry.description, "input_schema": entry.parameters}


def gemini(entry: SnapshotEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"name": entry.name, "description": entry.description}
    schema = gemini_schema(entry.parameters)
    if schema.get("properties"):
        out["parameters"] = schema
    return out


CONVERTERS: dict[str, Callable[[SnapshotEntry], dict[str, Any]]] = {
    "native": native,
    "openai": openai,
    "openai-strict": openai_strict,
    "anthropic": anthropic,
    "gemini": gemini,
}


def convert(entry: SnapshotEntry, fmt: Format) -> dict[str, Any]:
    if not entry.content_hash:  # browser actions: per session, not worth memoising
        return CONVERTERS[fmt](entry)
    key = (fmt, entry.content_hash, entry.version, entry.origin)
    hit = _MEMO.get(key)
    if hit is None:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        hit = _MEMO[key] = CONVERTERS[fmt](entry)
    return hit


def render(snapshot: Snapshot, fmt: Format) -> list[dict[str, Any]]:
    """The snapshot's tools in one provider format."""
    return [convert(entry, fmt) for entry in snapshot.entries]


def _with_null(type_: Any) -> list[str]:
    types = list(type_) if isinstance(type_, list) else [type_]
    return types if "null" in types else [*types, "null"]


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in schema.items() if k not in OPENAI_STRICT_DROP}
    if "format" in out and out["format"] not in OPENAI_STRICT_FORMATS:
        del out["format"]
    if "items" in out:
        out["items"] = strict_schema(out["items"])
    types = out.get("type")
    if types == "object" or (isinstance(types, list) and "object" in types):
        props = out.get("properties", {})
        required = set(schema.get("required", ()))
        new_props = {}
        for name, prop in props.items():
            prop = strict_schema(prop)
            if name not in required:
                prop["type"] = _with_null(prop.get("type"))
                if "enum" in prop and None not in prop["enum"]:
                    prop["enum"] = [*prop["enum"], None]
            new_props[name] = prop
        out["properties"] = new_props
        out["required"] = list(new_props)
        out["additionalProperties"] = False
    return out


def gemini_schema(schema: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in schema.items() if k not in GEMINI_DROP}
    if "const" in out:
        out["enum"] = [out.pop("const")]
    types = out.get("type")
    if isinstance(types, list):
        concrete = [t for t in types if t != "null"]
        out["type"] = concrete[0] if concrete else "string"
        if "null" in types:
            out["nullable"] = True
    if "enum" in out:
        values = [v for v in out["enum"] if v is not None]
        if not all(isinstance(v, str) for v in values):
            out["type"] = "string"
            out["enum"] = [v if isinstance(v, str) else json.dumps(v) for v in values]
        else:
            out["enum"] = values
    if "format" in out and out["format"] not in GEMINI_FORMATS:
        del out["format"]
    if "items" in out:
        out["items"] = gemini_schema(out["items"])
    if "properties" in out:
        if out["properties"]:
            out["properties"] = {k: gemini_schema(v) for k, v in out["properties"].items()}
        else:
            del out["properties"]
            out.pop("required", None)
    return out
