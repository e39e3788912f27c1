"""Text the databases cannot hold, stored losslessly and the same on both.

PostgreSQL refuses a NUL character in ``text`` and in ``jsonb`` (``\\u0000``), and no UTF-8
database can hold a lone UTF-16 surrogate half (``"\\ud800"``); SQLite took the first and
failed on the second. A value a tool or a model produced after it ran — a session variable, a
result, a message of a transcript — can hold either, and must neither be lost nor fail the call.

So stored text spells them with a private-use character, ``MARK`` (U+E000): ``MARK MARK`` is
the mark itself, ``MARK "0"`` is NUL and ``MARK "s" XXXX`` a surrogate half. Text without any
of the three — nearly all text — is stored as it is, and read back as it is after one scan. The
columns' types (``server.storage.tables``) and the JSON codec of the engine apply it on every
write and read, so no write path can forget it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

MARK = "\ue000"
UNSAFE = re.compile("[\x00\ue000\ud800-\udfff]")
SPELLED = re.compile("\ue000(?:(\ue000)|(0)|s([0-9a-f]{4}))")
MARK_BYTES = MARK.encode()
MAX_DEPTH = 1_000  # deeper values are refused at the edge long before this


def to_stored(text: str) -> str:
    """``text`` as a database can hold it."""
    if text.isascii() and "\x00" not in text:
        return text
    if UNSAFE.search(text) is None:
        return text
    return UNSAFE.sub(_spell, text)


def _spell(match: re.Match[str]) -> str:
    char = match.group()
    if char == MARK:
        return MARK + MARK
    if char == "\x00":
        return MARK + "0"
    return f"{MARK}s{ord(char):04x}"


def from_stored(text: str) -> str:
    """What ``to_stored`` was given."""
    if MARK not in text:
        return text
    return SPELLED.sub(_read, text)


def _read(match: re.Match[str]) -> str:
    mark, nul, surrogate = match.groups()
    if mark:
        return MARK
    if nul:
        return "\x00"
    return chr(int(surrogate, 16))


def stored(value: Any, depth: int = 0) -> Any:
    """``value`` with every string (keys too) as a database can hold it."""
    if isinstance(value, str):
        return to_stored(value)
    if depth > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        return {to_stored(str(k)): stored(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [stored(v, depth + 1) for v in value]
    return value


def restored(value: Any) -> Any:
    """What ``stored`` was given."""
    if isinstance(value, str):
        return from_stored(value)
    if isinstance(value, dict):
        return {from_stored(k): restored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [restored(v) for v in value]
    return value


def json_dumps(value: Any) -> str:
    """The engine's JSON serialiser: compact, and only text a database can hold."""
    try:
        text = orjson.dumps(value)
    except TypeError:  # a lone surrogate, an integer past 64 bits, or 255+ levels: the slow way
        return json.dumps(stored(value), separators=(",", ":"), ensure_ascii=False)
    if b"\\u0000" in text or MARK_BYTES in text:
        return orjson.dumps(stored(value)).decode()
    return text.decode()


def json_loads(text: str | bytes) -> Any:
    """The engine's JSON deserialiser: what ``json_dumps`` was given."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:  # what only the stdlib reads (integers past 64 bits)
        value = json.loads(text)
    marked = MARK_BYTES in text if isinstance(text, bytes) else MARK in text
    return restored(value) if marked else value
