"""Replacing a data set with an NDJSON upload, streamed in: each line is checked as it arrives
and stored under the set's next version, which becomes current only once the last line is in,
all in the caller's unit of work. A bad line (its number and field named), a body over the
tenant's allowance or a dropped connection leaves the set as it was. The use case the routes
share."""

from __future__ import annotations

from collections.abc import AsyncIterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from server.errors import FieldError, PayloadTooLargeError, ValidationFailedError
from server.skills.datasets import KINDS, MAX_LINE_BYTES, Kind, LineError, LineReader


class Datasets(Protocol):
    @property
    def streams(self) -> bool: ...  # items may be written as they arrive
    async def find(self, tenant_id: str, name: str) -> Any | None: ...
    async def bytes_used(self, tenant_id: str, besides: str) -> int: ...
    async def add_items(
        self,
        tenant_id: str,
        name: str,
        version: int,
        first_seq: int,
        items: Sequence[tuple[str | None, dict[str, Any]]],
    ) -> None: ...
    async def replace(
        self, tenant_id: str, name: str, kind: str, version: int, items: int, size: int
    ) -> Any: ...


class Tenants(Protocol):
    async def get(self, tenant_id: str) -> Any: ...  # 404 if none


class DatasetStore(Protocol):
    @property
    def tenants(self) -> Tenants: ...
    @property
    def datasets(self) -> Datasets: ...
    async def datasets_changed(
        self, actor: str | None, tenant_id: str, action: str, name: str
    ) -> None: ...


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int  # all of a tenant's data sets together
    max_items: int  # one data set's
    batch: int = 1000  # items written at a time while the body streams in


@dataclass(frozen=True)
class Uploaded:
    row: Any  # the data set as stored
    created: bool


async def replace_dataset(
    store: DatasetStore,
    limits: UploadLimits,
    actor: str | None,
    tenant_id: str,
    name: str,
    kind: Kind | None,
    body: AsyncIterable[bytes],
) -> Uploaded:
    await store.tenants.get(tenant_id)
    current = await store.datasets.find(tenant_id, name)
    kind = kind or (current.kind if current is not None else None)
    if kind is None:
        message = f"a new data set needs one of: {', '.join(KINDS)}"
        raise ValidationFailedError([FieldError(message, field="kind")])
    allowance = limits.max_bytes - await store.datasets.bytes_used(tenant_id, besides=name)
    version = (current.version + 1) if current is not None else 1
    reader = LineReader(kind)
    batch_size = limits.batch if store.datasets.streams else limits.max_items + 1
    batch: list[tuple[str | None, dict[str, Any]]] = []
    stored = size = 0
    rest = b""

    async def flush() -> None:
        nonlocal stored
        await store.datasets.add_items(tenant_id, name, version, stored, batch)
        stored += len(batch)
        batch.clear()

    def too_many() -> PayloadTooLargeError:
        return PayloadTooLargeError(f"a data set holds at most {limits.max_items} items")

    try:
        async for chunk in body:
            size += len(chunk)
            if size > allowance:
                left = max(allowance, 0)
                raise PayloadTooLargeError(
                    f"this tenant's data sets may hold {limits.max_bytes} bytes; "
                    f"{left} are left for {name!r}"
                )
            rest += chunk
            *lines, rest = rest.split(b"\n")
            for line in lines:
                item = reader.read(line)
                if item is not None:
                    batch.append((item.id, item.data))
            if len(rest) > MAX_LINE_BYTES:  # a line that never ends is refused as it grows
                reader.read(rest)
            if stored + len(batch) > limits.max_items:
                raise too_many()
            if len(batch) >= batch_size:
                await flush()
        if rest:
            item = reader.read(rest)
            if item is not None:
                batch.append((item.id, item.data))
        if stored + len(batch) > limits.max_items:
            raise too_many()
        await flush()
    except LineError as exc:
        raise ValidationFailedError([exc.problem]) from None
    if stored == 0:
        message = "no items: send one JSON object per line"
        raise ValidationFailedError([FieldError(message, field="body")])
    row = await store.datasets.replace(tenant_id, name, kind, version, stored, size)
    await store.datasets_changed(actor, tenant_id, "dataset.put", name)
    return Uploaded(row, created=current is None)
