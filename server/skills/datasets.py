"""Data sets: what each kind's items look like, read line by line from NDJSON.

``faq`` {id, question, answer, category?} · ``catalog`` {id, fields, meta?} · ``samples`` {text,
label, lang?, id?} · ``documents`` {id, title?, text, metadata?}. Each line is checked on its
own and a problem names its line and field; ids are unique within a set.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from server import inputs
from server.errors import FieldError

Kind = Literal["faq", "catalog", "samples", "documents"]
KINDS: tuple[Kind, ...] = ("faq", "catalog", "samples", "documents")
MAX_LINE_BYTES = 1024 * 1024
MAX_CATALOG_FIELDS = 32
ItemId = Field(min_length=1, max_length=128)


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class FaqItem(_Item):
    id: StrictStr = ItemId
    question: StrictStr = Field(min_length=1, max_length=2000)
    answer: StrictStr = Field(min_length=1, max_length=20_000)
    category: StrictStr | None = Field(default=None, max_length=128)


FieldValue = StrictStr | int | float | bool | list[StrictStr] | None


class CatalogItem(_Item):
    id: StrictStr = ItemId
    fields: dict[StrictStr, FieldValue] = Field(min_length=1, max_length=MAX_CATALOG_FIELDS)
    meta: dict[StrictStr, Any] | None = None


class SampleItem(_Item):
    text: StrictStr = Field(min_length=1, max_length=5000)
    label: StrictStr = Field(min_length=1, max_length=128)
    lang: StrictStr | None = Field(default=None, min_length=1, max_length=16)
    id: StrictStr | None = Field(default=None, min_length=1, max_length=128)


class DocumentItem(_Item):
    id: StrictStr = ItemId
    title: StrictStr | None = Field(default=None, max_length=1000)
    text: StrictStr = Field(min_length=1, max_length=MAX_LINE_BYTES)
    metadata: dict[StrictStr, Any] | None = None


MODELS: dict[str, type[_Item]] = {
    "faq": FaqItem, "catalog": CatalogItem, "samples": SampleItem, "documents": DocumentItem,
}  # fmt: skip


class LineError(ValueError):
    def __init__(self, problem: FieldError) -> None:
        super().__init__(problem.message)
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Item:
    id: str | None
    data: dict[str, Any]
    size: int


class LineReader:
    """Checks one data set's lines in order (numbering from 1, blank lines skipped)."""

    def __init__(self, kind: Kind) -> None:
        self.model = MODELS[kind]
        self.kind = kind
        self.line = 0
        self._ids: set[str] = set()

    def read(self, raw: bytes) -> Item | None:
        self.line += 1
        line = self.line
        if not raw.strip():
            return None
        if len(raw) > MAX_LINE_BYTES:
            raise LineError(FieldError(f"longer than {MAX_LINE_BYTES} bytes", line=line))
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise LineError(FieldError(f"not JSON: {exc}", line=line)) from None
        if not isinstance(value, dict):
            raise LineError(FieldError("each line is one JSON object", line=line))
        problem = inputs.problem_in(value)
        if problem is not None:
            raise LineError(FieldError(problem[1], field=problem[0], line=line))
        try:
            item = self.model.model_validate(value)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or None
            raise LineError(FieldError(first["msg"], field=where, line=line)) from None
        data = item.model_dump(exclude_none=True)
        item_id = data.get("id")
        if item_id is not None:
            if item_id in self._ids:
                raise LineError(FieldError(f"id {item_id!r} appears twice", field="id", line=line))
            self._ids.add(item_id)
        return Item(item_id, data, len(raw))


def split_lines(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """NDJSON lines from byte chunks (a line may span chunks)."""
    rest = b""
    for chunk in chunks:
        rest += chunk
        *lines, rest = rest.split(b"\n")
        yield from lines
    if rest:
        yield rest


def catalog_text(value: Any) -> str:
    """What a catalog field contributes to search: strings, lists of strings; not numbers."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(v for v in value if isinstance(v, str))
    return ""


def chunks(text: str, size: int = 1200, overlap: int = 200) -> list[str]:
    """A document cut for search: paragraphs packed to about ``size`` characters; a longer
    paragraph is cut on a space with ``overlap`` characters repeated."""
    pieces: list[str] = []
    current = ""
    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph:
            continue
        while len(paragraph) > size:
            cut = paragraph.rfind(" ", size - overlap, size)
            cut = size if cut <= 0 else cut
            if current:
                pieces.append(current)
                current = ""
            pieces.append(paragraph[:cut].strip())
            paragraph = paragraph[max(cut - overlap, 1) :].strip()
        if current and len(current) + len(paragraph) + 2 > size:
            pieces.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        pieces.append(current)
    return pieces
