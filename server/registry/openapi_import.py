"""OpenAPI 3.x documents as webhook tools: one tool per operation (chosen by operationId or tag).

Path parameters become URL placeholders, query parameters the query string (GET) or URL
placeholders (other methods), a JSON request body's properties the JSON body; every parameter
and property keeps its schema (local ``$ref`` inlined, OpenAPI 3.0 ``nullable`` read). The
operation's security scheme and the credential the caller gives become the encrypted auth
header. Nothing outside the document is fetched: an external ``$ref`` is refused. Every
problem names its place in the document (``paths./pets/{id}.get.parameters[0]``).

A document is refused whole only for what concerns all of it (not OpenAPI 3, no paths, no server,
too many operations, an operationId asked for that it lacks). An operation that cannot become a
tool (a body that is not JSON, a reference outside the document, two operations making one name)
is left out and reported with its reasons (``ImportPlan.skipped``); when no operation is left,
those reasons are the refusal. Every format JSON Schema and OpenAPI define is kept on the type
it describes; another (a tool's own, such as ``datetime``) is moved into the description, where
the model still reads it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from server.errors import Problems
from server.registry.schema import FORMATS

METHODS = ("get", "post", "put", "patch", "delete")
MAX_OPERATIONS = 10_000  # in a document at all
MAX_SELECTED = 200  # turned into tools by one import
ANNOTATIONS = frozenset({
    "readOnly", "writeOnly", "example", "deprecated", "xml", "externalDocs", "discriminator",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "maxProperties",
    "minProperties", "nullable",
})  # fmt: skip
NAME = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass
class ImportPlan:
    tools: list[dict[str, Any]] = field(default_factory=list)  # webhook tool bodies
    operations: list[str] = field(default_factory=list)  # "GET /pets/{id}" per tool
    operation_ids: list[str | None] = field(default_factory=list)  # its operationId, per tool
    skipped: list[dict[str, Any]] = field(default_factory=list)  # operations left out, and why

    def skip(self, operation: str, operation_id: Any, problems: Problems) -> None:
        named = operation_id if isinstance(operation_id, str) else None
        errors = [{"field": e.field, "message": e.message} for e in problems.errors]
        self.skipped.append({"operation": operation, "operationId": named, "errors": errors})

    def refuse_if_nothing_left(self, problems: Problems) -> None:
        """No operation could be imported: the reasons are the refusal."""
        if self.tools or not self.skipped:
            return
        for skipped in self.skipped:
            for error in skipped["errors"]:
                problems.add(error["field"], error["message"])


def parse_document(text: str, problems: Problems) -> dict[str, Any] | None:
    """A JSON or YAML OpenAPI document (YAML's safe loader: no tags that build objects)."""
    try:
        document = json.loads(text)
    except ValueError:
        import yaml

        try:
            document = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark is not None else ""
            problems.add("source", f"is neither JSON nor YAML{where}: {exc}")
            return None
    if not isinstance(document, dict):
        problems.add("source", "must hold an OpenAPI document (an object)")
        return None
    return document


def plan_import(
    document: dict[str, Any],
    problems: Problems,
    *,
    operations: list[str] | None = None,
    tags: list[str] | None = None,
    server: str | None = None,
    credentials: dict[str, str] | None = None,
    prefix: str = "",
    timeout_ms: int = 5_000,
) -> ImportPlan:
    plan = ImportPlan()
    version = str(document.get("openapi", ""))
    if not version.startswith("3."):
        problems.add("document.openapi", "must be an OpenAPI 3.x document (openapi: 3.0 or 3.1)")
        return plan
    paths = document.get("paths")
    if not isinstance(paths, dict):
        problems.add("document.paths", "must be an object of paths")
        return plan
    found = [
        (path, method, op)
        for path, item in paths.items()
        if isinstance(item, dict)
        for method, op in item.items()
        if method in METHODS and isinstance(op, dict)
    ]
    if len(found) > MAX_OPERATIONS:
        problems.add("document.paths", f"has {len(found)} operations; at most {MAX_OPERATIONS}")
        return plan
    wanted_ops, wanted_tags = set(operations or ()), set(tags or ())
    selected = [
        (path, method, op)
        for path, method, op in found
        if (not wanted_ops and not wanted_tags)
        or op.get("operationId") in wanted_ops
        or wanted_tags & set(op.get("tags") or ())
    ]
    missing = wanted_ops - {op.get("operationId") for _, _, op in found}
    for name in sorted(missing):
        problems.add("operations", f"no operation has the operationId {name!r}")
    if not selected and not missing:
        problems.add("operations", "selects no operation of the document")
    if len(selected) > MAX_SELECTED:
        problems.add(
            "operations",
            f"{len(selected)} operations selected; at most {MAX_SELECTED} per import "
            "(choose them with `operations` or `tags`)",
        )
        return plan
    base = server or _server(document, problems)
    if base is None:
        return plan
    names: set[str] = set()
    for path, method, op in selected:
        where = f"paths.{path}.{method}"
        found_here = Problems()
        given = credentials or {}
        body = _tool(document, path, method, op, where, base, given, prefix, timeout_ms, found_here)
        if body is not None and not found_here and body["name"] in names:
            found_here.add(
                f"{where}.operationId", f"two operations make the tool name {body['name']!r}"
            )
        if body is None or found_here:
            plan.skip(f"{method.upper()} {path}", op.get("operationId"), found_here)
            continue
        names.add(body["name"])
        plan.tools.append(body)
        plan.operations.append(f"{method.upper()} {path}")
        operation_id = op.get("operationId")
        plan.operation_ids.append(operation_id if isinstance(operation_id, str) else None)
    plan.refuse_if_nothing_left(problems)
    return plan


def _server(document: dict[str, Any], problems: Problems) -> str | None:
    servers = document.get("servers") or []
    url = servers[0].get("url") if servers and isinstance(servers[0], dict) else None
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        problems.add("server", "the document names no absolute server URL: give one as `server`")
        return None
    for name, variable in (servers[0].get("variables") or {}).items():
        url = url.replace("{" + name + "}", str((variable or {}).get("default", "")))
    return url.rstrip("/")


def _tool(
    document: dict[str, Any],
    path: str,
    method: str,
    op: dict[str, Any],
    where: str,
    base: str,
    credentials: dict[str, str],
    prefix: str,
    timeout_ms: int,
    problems: Problems,
) -> dict[str, Any] | None:
    # only what becomes the tool is resolved (responses may hold recursive schemas)
    op = {
        **op,
        "parameters": resolve(
            document, op.get("parameters") or [], f"{where}.parameters", problems
        ),
        "requestBody": resolve(document, op.get("requestBody"), f"{where}.requestBody", problems),
    }
    shared = document["paths"][path].get("parameters") or []
    path_item = {"parameters": resolve(document, shared, f"paths.{path}.parameters", problems)}
    raw_name = op.get("operationId") or f"{method}_{path}"
    joined = f"{prefix.rstrip('_')}_" if prefix else ""
    name = (joined + NAME.sub("_", str(raw_name)).strip("_"))[:64]
    if not name or not name[0].isalpha():
        name = ("op_" + name)[:64]
    properties: dict[str, Any] = {}
    required: list[str] = []
    url = base + path
    query_in_url: list[str] = []
    params = [*(path_item.get("parameters") or []), *(op.get("parameters") or [])]
    for i, param in enumerate(params):
        at = f"{where}.parameters[{i}]"
        if not isinstance(param, dict) or "name" not in param or "in" not in param:
            problems.add(at, "must be a parameter object with `name` and `in`")
            continue
        located = param["in"]
        if located in ("header", "cookie"):
            continue  # set by the webhook's own headers, not by the model
        if located not in ("path", "query"):
            problems.add(f"{at}.in", f"parameters in {located!r} are not supported")
            continue
        schema = dict(param.get("schema") or {"type": "string"})
        if param.get("description") and "description" not in schema:
            schema["description"] = param["description"]
        properties[param["name"]] = _schema(schema)
        if param.get("required") or located == "path":
            required.append(param["name"])
        if located == "query" and method != "get":
            query_in_url.append(param["name"])
    body = op.get("requestBody")
    if isinstance(body, dict):
        content = body.get("content") or {}
        media = content.get("application/json")
        if media is None:
            problems.add(
                f"{where}.requestBody", "only application/json request bodies are supported"
            )
            return None
        schema = _schema((media or {}).get("schema") or {})
        if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
            problems.add(f"{where}.requestBody", "the body must be a JSON object with properties")
            return None
        for prop, prop_schema in schema["properties"].items():
            if prop in properties:
                problems.add(f"{where}.requestBody.{prop}", f"{prop!r} is also a parameter")
                continue
            properties[prop] = prop_schema
        if body.get("required"):
            required += [r for r in schema.get("required") or () if r in schema["properties"]]
    if query_in_url:
        url += "?" + "&".join(f"{q}={{{q}}}" for q in query_in_url)
    tool: dict[str, Any] = {
        "kind": "webhook",
        "name": name,
        "description": str(
            op.get("summary") or op.get("description") or f"{method.upper()} {path}"
        )[:1000],
        "webhook_url": url,
        "method": method.upper(),
        "parameters": {
            "type": "object",
            "properties": properties,
            **({"required": required} if required else {}),
        },
        "timeout_ms": timeout_ms,
    }
    auth = _auth(document, op, credentials, where, problems)
    if auth:
        tool["auth_header"] = auth
    return tool


def _auth(
    document: dict[str, Any],
    op: dict[str, Any],
    credentials: dict[str, str],
    where: str,
    problems: Problems,
) -> str | None:
    requirements = op.get("security", document.get("security")) or []
    schemes = (document.get("components") or {}).get("securitySchemes") or {}
    for requirement in requirements:
        for scheme_name in requirement or {}:
            if scheme_name not in credentials:
                continue
            scheme = schemes.get(scheme_name) or {}
            value = credentials[scheme_name]
            kind = scheme.get("type")
            if kind == "http" and str(scheme.get("scheme", "")).lower() == "bearer":
                return f"Bearer {value}"
            if kind == "http" and str(scheme.get("scheme", "")).lower() == "basic":
                return f"Basic {value}"
            if kind == "apiKey" and scheme.get("in") == "header":
                return f"{scheme.get('name')}: {value}"
            if kind == "oauth2" or kind == "openIdConnect":
                return f"Bearer {value}"
            problems.add(
                f"{where}.security",
                f"scheme {scheme_name!r} ({kind}, in {scheme.get('in')}) cannot be sent as a "
                "header; only header credentials are kept secret",
            )
            return None
    return None


def _schema(schema: Any) -> dict[str, Any]:
    """An OpenAPI schema as the tool schema subset: 3.0's ``nullable`` becomes a null type,
    annotations the subset does not carry are left out, a format the schema's type has no such
    name for goes into the description."""
    if not isinstance(schema, dict):
        return {}
    schema = _merged_all_of(schema)
    # vendor extensions (x-…) are annotations for other tools
    out = {k: v for k, v in schema.items() if k not in ANNOTATIONS and not k.startswith("x-")}
    if "format" in out:
        types = out.get("type")
        types = [types] if isinstance(types, str) else types if isinstance(types, list) else []
        if out["format"] not in {
            f for t in types if isinstance(t, str) for f in FORMATS.get(t, ())
        }:
            described = str(out.pop("format"))
            note = f"(format: {described})"
            out["description"] = f"{out['description']} {note}" if out.get("description") else note
    if schema.get("nullable") is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
    for key in ("items", "additionalProperties"):
        if isinstance(out.get(key), dict):
            out[key] = _schema(out[key])
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: _schema(v) for k, v in out["properties"].items()}
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(out.get(key), list):
            out[key] = [_schema(v) for v in out[key]]
    return out


def _merged_all_of(schema: dict[str, Any]) -> dict[str, Any]:
    """``allOf`` of object schemas (a common way to extend a model) as the one object it
    describes: their properties and required names together. Anything else is left as it is."""
    parts = schema.get("allOf")
    if not isinstance(parts, list) or not all(isinstance(part, dict) for part in parts):
        return schema
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    properties = dict(merged.get("properties") or {})
    required = list(merged.get("required") or [])
    for part in map(_merged_all_of, parts):
        if part.get("type", "object") != "object" or "allOf" in part:
            return schema
        properties.update(part.get("properties") or {})
        required += [name for name in part.get("required") or () if name not in required]
        for key in ("title", "description"):
            if key in part:
                merged.setdefault(key, part[key])
    merged.update(type="object", properties=properties)
    if required:
        merged["required"] = required
    return merged


def resolve(
    document: dict[str, Any], node: Any, where: str, problems: Problems, stack: tuple[str, ...] = ()
) -> Any:
    """``node`` with every local ``$ref`` replaced by what it points at (JSON Pointer)."""
    if isinstance(node, list):
        return [resolve(document, v, f"{where}[{i}]", problems, stack) for i, v in enumerate(node)]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        ref = node["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#/"):
            problems.add(f"{where}.$ref", f"{ref!r} is outside the document: it is not fetched")
            return {}
        if ref in stack:
            problems.add(f"{where}.$ref", f"a cycle of references: {' -> '.join((*stack, ref))}")
            return {}
        target: Any = document
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, dict) or part not in target:
                problems.add(f"{where}.$ref", f"{ref!r} points at nothing in the document")
                return {}
            target = target[part]
        resolved = resolve(document, target, where, problems, (*stack, ref))
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        return {**resolved, **siblings} if isinstance(resolved, dict) else resolved
    return {k: resolve(document, v, f"{where}.{k}", problems, stack) for k, v in node.items()}
