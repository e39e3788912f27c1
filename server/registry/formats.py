"""Provider formats of a snapshot: native, OpenAI Chat Completions and Responses, Anthropic
(each plain or strict), Gemini.

Each tool's converted form is memoised by (content hash, version, format), so a warm snapshot
of many tools only assembles dicts that already exist.

Transformations (also listed in docs/formats.md):

* OpenAI: ``{"type": "function", "function": {name, description, parameters}}``.
* OpenAI Responses: ``{"type": "function", name, description, parameters, strict}``.
* Strict (``strict=true`` with ``openai``, ``openai-responses``, ``anthropic``): every object
  gets ``additionalProperties: false``; every property is listed in ``required`` and the ones
  that were optional become nullable (``"null"`` added to ``type``, ``None`` to ``enum``, or an
  ``anyOf`` with null); annotations strict mode rejects (``default``, ``examples``, ``title``,
  ``$schema``) are dropped. It is lossless: a tool strict mode cannot express exactly (``oneOf``,
  ``minLength``/``maxLength``, a format outside its list, an open object or map) is served in
  the plain form, and ``validate`` says why; a null sent for an optional property is read as
  "not given" at every depth.
* Anthropic: ``{name, description, input_schema}``.
* Gemini: ``anyOf``/``oneOf`` with a null branch become ``nullable``; ``$schema``,
  ``additionalProperties``, ``examples``, ``title`` and ``default`` are dropped; ``const`` becomes a
  one-value ``enum``; an ``enum`` with non-string values becomes a string enum of their JSON texts
  (the canonical schema still coerces them back at call time); a type list ``["x", "null"]`` becomes
  ``"type": "x", "nullable": true``; formats other than ``date-time`` and ``enum`` are dropped;
  objects with no properties lose ``properties`` and a tool with no parameters has no ``parameters``
  key (Gemini rejects empty object schemas).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from server.registry.model import Snapshot, SnapshotEntry
from server.registry.snapshot import SEARCH_TOOL

Format = Literal[
    "native", "openai", "openai-strict", "openai-responses", "openai-responses-strict",
    "anthropic", "anthropic-strict", "gemini",
]  # fmt: skip
FORMATS: tuple[str, ...] = ("native", "openai", "openai-responses", "anthropic", "gemini")
STRICT_FORMATS = {
    "openai": "openai-strict",
    "openai-responses": "openai-responses-strict",
    "anthropic": "anthropic-strict",
}

OPENAI_STRICT_DROP = frozenset(
    {"default", "examples", "title", "minLength", "maxLength", "$schema"}
)
OPENAI_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
# the formats of providers that load deferred tools on demand (a searching bot's)
DEFERRING = frozenset(
    {"anthropic", "anthropic-strict", "openai-responses", "openai-responses-strict"}
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
    """Strict where strict mode expresses the tool exactly; otherwise the plain form (``validate``
    says why), never a narrowed schema the tool's own validation would contradict."""
    if strict_problem(entry.parameters) is not None:
        return openai(entry)
    fn = {
        "name": entry.name,
        "description": entry.description,
        "parameters": strict_schema(entry.parameters),
        "strict": True,
    }
    return {"type": "function", "function": fn}


def openai_responses(entry: SnapshotEntry) -> dict[str, Any]:
    """The Responses API's function tool (flat, ``strict`` always present)."""
    return {
        "type": "function",
        "name": entry.name,
        "description": entry.description,
        "parameters": entry.parameters,
        "strict": False,
    }


def openai_responses_strict(entry: SnapshotEntry) -> dict[str, Any]:
    if strict_problem(entry.parameters) is not None:
        return openai_responses(entry)
    return {
        **openai_responses(entry),
        "parameters": strict_schema(entry.parameters),
        "strict": True,
    }


def anthropic(entry: SnapshotEntry) -> dict[str, Any]:
    return {"name": entry.name, "description": entry.description, "input_schema": entry.parameters}


def anthropic_strict(entry: SnapshotEntry) -> dict[str, Any]:
    if strict_problem(entry.parameters) is not None:
        return anthropic(entry)
    return {**anthropic(entry), "input_schema": strict_schema(entry.parameters), "strict": True}


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
    "openai-responses": openai_responses,
    "openai-responses-strict": openai_responses_strict,
    "anthropic": anthropic,
    "anthropic-strict": anthropic_strict,
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
    """The snapshot's tools in one provider format. A searching bot's deferred tools follow in
    the formats whose provider loads tools on demand, marked ``defer_loading``: Anthropic's
    (``search_tools`` answers with the names to send back as ``tool_reference`` blocks) and
    OpenAI Responses' (``search_tools`` becomes a client-executed ``tool_search``)."""
    tools = [convert(entry, fmt) for entry in snapshot.entries]
    if not snapshot.deferred or fmt not in DEFERRING or snapshot.entry(SEARCH_TOOL) is None:
        return tools
    if fmt.startswith("openai-responses"):
        tools = [
            client_tool_search(entry) if entry.name == SEARCH_TOOL else tool
            for entry, tool in zip(snapshot.entries, tools, strict=True)
        ]
    return tools + [{**convert(entry, fmt), "defer_loading": True} for entry in snapshot.deferred]


def client_tool_search(entry: SnapshotEntry) -> dict[str, Any]:
    """OpenAI Responses' tool search, run by the client (which calls ``search_tools``)."""
    return {
        "type": "tool_search",
        "execution": "client",
        "description": entry.description,
        "parameters": entry.parameters,
    }


def _with_null(type_: Any) -> list[str]:
    types = list(type_) if isinstance(type_, list) else [type_]
    return types if "null" in types else [*types, "null"]


def _types(schema: dict[str, Any]) -> list[str]:
    t = schema.get("type")
    return t if isinstance(t, list) else [t] if isinstance(t, str) else []


def _allows_null(schema: dict[str, Any]) -> bool:
    if "null" in _types(schema) or None in (schema.get("enum") or ()):
        return True
    return any(_allows_null(b) for k in ("anyOf", "oneOf") for b in schema.get(k) or ())


def strict_problem(
    schema: dict[str, Any], path: str = "parameters", top: bool = True
) -> str | None:
    """Why strict mode (OpenAI's, Anthropic's) cannot express ``schema`` exactly — a published
    schema looser or narrower than the one arguments are checked against — or None."""
    if "oneOf" in schema:
        return f"{path}.oneOf: strict mode has anyOf only"
    for key in ("minLength", "maxLength"):
        if key in schema:
            return f"{path}.{key}: strict mode has no {key}"
    if "format" in schema and schema["format"] not in OPENAI_STRICT_FORMATS:
        return f"{path}.format: strict mode has no format {schema['format']!r}"
    if "object" in _types(schema):
        extra = schema.get("additionalProperties")
        if extra is True or isinstance(extra, dict):
            return f"{path}.additionalProperties: strict mode has closed objects only"
        if not top and not schema.get("properties") and extra is not False:
            return (
                f"{path}: an object without properties takes any keys; strict mode would allow none"
            )
    children = [(f"{path}.properties.{k}", v) for k, v in (schema.get("properties") or {}).items()]
    if isinstance(schema.get("items"), dict):
        children.append((f"{path}.items", schema["items"]))
    children += [(f"{path}.anyOf[{i}]", b) for i, b in enumerate(schema.get("anyOf") or ())]
    for child_path, child in children:
        found = strict_problem(child, child_path, top=False) if isinstance(child, dict) else None
        if found:
            return found
    return None


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Strict mode's form of an expressible schema: closed objects, every property required,
    the optional ones nullable (a null is read back as "not given", at every depth)."""
    out = {k: v for k, v in schema.items() if k not in OPENAI_STRICT_DROP}
    if "anyOf" in out:
        out["anyOf"] = [strict_schema(b) for b in out["anyOf"]]
    if "items" in out:
        out["items"] = strict_schema(out["items"])
    if "object" in _types(out):
        required = set(schema.get("required", ()))
        new_props = {}
        for name, prop in (out.get("properties") or {}).items():
            prop = strict_schema(prop)
            if name not in required and not _allows_null(prop):
                if "anyOf" in prop or "const" in prop or "type" not in prop:
                    prop = {"anyOf": [prop, {"type": "null"}]}
                else:
                    prop["type"] = _with_null(prop["type"])
                    if "enum" in prop:
                        prop["enum"] = [*prop["enum"], None]
            new_props[name] = prop
        out["properties"] = new_props
        out["required"] = list(new_props)
        out["additionalProperties"] = False
    return out


def gemini_problem(schema: dict[str, Any], path: str = "parameters") -> str | None:
    """What Gemini's schema loses of ``schema`` (it is still served), or None."""
    if "oneOf" in schema:
        return f"{path}.oneOf: Gemini has anyOf only (served as anyOf)"
    if isinstance(schema.get("additionalProperties"), dict):
        return f"{path}.additionalProperties: Gemini does not check a map's values"
    children = [(f"{path}.properties.{k}", v) for k, v in (schema.get("properties") or {}).items()]
    if isinstance(schema.get("items"), dict):
        children.append((f"{path}.items", schema["items"]))
    for key in ("anyOf", "oneOf"):
        children += [(f"{path}.{key}[{i}]", b) for i, b in enumerate(schema.get(key) or ())]
    for child_path, child in children:
        found = gemini_problem(child, child_path) if isinstance(child, dict) else None
        if found:
            return found
    return None


def provider_notes(schema: dict[str, Any]) -> list[tuple[str, str]]:
    """(format, what it loses) for ``validate``: a tool every format carries exactly has none."""
    notes = []
    strict = strict_problem(schema)
    if strict:
        notes.append(("strict", f"served without strict mode (OpenAI, Anthropic): {strict}"))
    gemini_ = gemini_problem(schema)
    if gemini_:
        notes.append(("gemini", gemini_))
    return notes


def gemini_schema(schema: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in schema.items() if k not in GEMINI_DROP}
    branches = out.pop("anyOf", None) or out.pop("oneOf", None)
    if branches:
        concrete = [b for b in branches if b.get("type") != "null"]
        if len(concrete) < len(branches):  # Optional[X]
            out["nullable"] = True
        if len(concrete) == 1:
            out = {**gemini_schema(concrete[0]), **out}
        else:
            out["anyOf"] = [gemini_schema(b) for b in concrete]
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
