"""The demo endpoint the demo tenant's webhook tool calls, so the demo works offline."""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi import APIRouter

router = APIRouter(prefix="/demo", tags=["demo"], include_in_schema=False)
STATUSES = ("processing", "shipped", "in transit", "delivered")


@router.get("/orders/{order_id}")
async def demo_order(order_id: str) -> dict[str, Any]:
    digest = hashlib.sha256(order_id.encode()).digest()
    return {
        "order_id": order_id,
        "status": STATUSES[digest[0] % len(STATUSES)],
        "eta_days": digest[1] % 7,
    }
