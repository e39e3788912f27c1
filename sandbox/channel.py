"""Framing for the pipe between the server and a worker: 4-byte big-endian length + JSON.

Both directions are bounded: a frame larger than ``max_bytes`` is a protocol error, never an
allocation the peer decides.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

try:
    import orjson

    def dumps(obj: Any) -> bytes:
        return orjson.dumps(obj)

    loads = orjson.loads
except ImportError:  # pragma: no cover - orjson is a dependency of the server

    def dumps(obj: Any) -> bytes:
        return json.dumps(obj, separators=(",", ":")).encode()

    def loads(data: bytes | bytearray | memoryview | str) -> Any:
        return json.loads(bytes(data) if isinstance(data, memoryview) else data)


HEADER = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024


class ChannelError(Exception):
    pass


def encode(obj: Any) -> bytes:
    body = dumps(obj)
    return HEADER.pack(len(body)) + body


def _read_exact(fd: int, n: int) -> bytes:
    chunks = []
    while n:
        chunk = os.read(fd, n)
        if not chunk:
            raise EOFError("channel closed")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, max_bytes: int = MAX_FRAME) -> Any:
    """Blocking read of one frame (the worker side)."""
    (size,) = HEADER.unpack(_read_exact(fd, HEADER.size))
    if size > max_bytes:
        raise ChannelError(f"frame of {size} bytes is over the {max_bytes} limit")
    return loads(_read_exact(fd, size))


def write_frame(fd: int, obj: Any) -> None:
    data = encode(obj)
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
