"""What input Quiver can store and pass on, checked once at the edge.

Some strings cannot be stored or encoded everywhere: a NUL character (PostgreSQL text and JSONB
refuse it, SQLite keeps it) and a lone UTF-16 surrogate half (``"\\ud800"``: not encodable as UTF-8,
so no worker channel, database or log can take it); nor can an integer beyond 64 bits (the JSON
encoder of the worker channel and the cache refuses it, and so do BIGINT columns). Values nested
deeper than ``MAX_DEPTH`` would overflow the worker channel's encoder (255 levels) or a parser's
recursion. Everything here is refused with the field named — the same on both databases — before it
reaches storage or a worker. NUL is allowed only where a value is passed through to a tool (its
arguments), and stored as it is (``server.storage.text_codec``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from server.errors import field_path

MAX_DEPTH = 64
MAX_CONTAINERS = 200_000  # objects and arrays in one body: beyond, refused unread
STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
BRACKETS = re.compile(rb"[\[\]{}]")
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
LONG_NUMBER = re.compile(rb"\d{19,}")  # may not fit 64 bits (JSON encoders, BIGINT columns)
INT64 = range(-(2**63), 2**63)


def json_depth(body: bytes, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of a JSON text (strings skipped), counted only up to ``limit + 1``."""
    structure = STRINGS.sub(b"", body)
    depth = deepest = 0
    for bracket in BRACKETS.finditer(structure):
        if bracket.group() in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


def may_need_a_look(body: bytes) -> bool:
    """A cheap test (C-speed scans) of whether a body can hold anything refused here."""
    return (
        b"\\u0000" in body
        or SURROGATE_ESCAPE.search(body) is not None
        or LONG_NUMBER.search(body) is not None
        or body.count(b"{") + body.count(b"[") > MAX_DEPTH
    )


def problem_in(
    value: Any,
    path: tuple[str | int, ...] = (),
    nul_ok: frozenset[str] = frozenset(),
    depth: int = 0,
) -> tuple[str, str] | None:
    """``(field, message)`` for the first string that cannot be stored, or the first value
    nested too deep; ``None`` when all is well. NUL is allowed under a top-level key in
    ``nul_ok``."""
    if depth > MAX_DEPTH:
        return _field(path), f"nested deeper than {MAX_DEPTH} levels"
    if isinstance(value, str):
        return _string_problem(value, path, nul_ok)
    if isinstance(value, int) and not isinstance(value, bool) and value not in INT64:
        return _field(path), "is an integer beyond the 64-bit range"
    if isinstance(value, dict):
        for key, item in value.items():
            here = (*path, str(key))
            found = _string_problem(str(key), here, nul_ok) or problem_in(
                item, here, nul_ok, depth + 1
            )
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = problem_in(item, (*path, index), nul_ok, depth + 1)
            if found:
                return found
    return None


def _string_problem(
    text: str, path: tuple[str | int, ...], nul_ok: frozenset[str]
) -> tuple[str, str] | None:
    if "\x00" in text and not (path and path[0] in nul_ok):
        return _field(path), "contains a NUL character, which cannot be stored"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _field(path), "contains a lone UTF-16 surrogate, which is not valid Unicode"
    return None


def storable(value: Any, depth: int = 0) -> Any:
    """``value`` with lone surrogates escaped as text (``\\ud800``), for the call log: its
    journal is JSON, which cannot carry them, and a row is kept whatever its strings held. (NUL
    is kept as it is: the databases' columns spell it out, ``server.storage.text_codec``.)"""
    if depth > MAX_DEPTH:
        return "…"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            value = value.encode("utf-8", "backslashreplace").decode("utf-8")
        return value
    if isinstance(value, dict):
        return {storable(str(k)): storable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [storable(v, depth + 1) for v in value]
    return value


def _field(path: tuple[str | int, ...]) -> str:
    return field_path(path) or "body"


def json_text(value: Any) -> str:
    """``value`` as compact JSON (anything JSON has no type for as its ``str``)."""
    try:
        return orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson will not write (an integer past 64 bits): the slower encoder
        return json.dumps(value, default=str, separators=(",", ":"))
