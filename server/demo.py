"""``quiver serve --demo``: a demo tenant with keys, a bot and example tools of each kind."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from sqlalchemy import select

from server.bootstrap import Runtime
from server.keys import matches, parse_token
from server.registry.definitions import check_tool_body
from server.storage.repositories import Store
from server.storage.tables import ApiKeyRow, TenantRow, utcnow

DEMO_TENANT = "demo"
CHECK_ORDER = """ORDER_PATTERN = "^[A-Z]{2}[0-9]{4,8}$"


def execute(params, context):
    order_id = params["order_id"].upper()
    if context["test_mode"]:
        return {"success": True, "message": "test mode: order " + order_id + " looks fine"}
    message = "Order " + order_id + " is being packed"
    return {"success": True, "message": message, "order_id": order_id}


tool = {
    "name": "check_order",
    "description": (
        "Check the status of an order. Use when the customer gives an order id like AB12345."
    ),
    "parameters": {
        "order_id": {
            "type": "string", "pattern": ORDER_PATTERN, "required": True,
            "description": "the order id",
        }
    },
    "execute": execute,
    "metadata": {"timeout": 2000, "category": "orders", "intents": ["orders"]},
}
"""


# the demo FAQ the support bot's `qa_lookup` skill answers from (a data set, as tenants upload)
DEMO_FAQ = [
    {
        "id": "hours",
        "question": "What are your opening hours?",
        "answer": "9:00 to 17:00, Monday to Friday.",
        "category": "store",
    },
    {
        "id": "returns",
        "question": "How do I return an item?",
        "answer": "Send it back within 30 days with the receipt; returns are free.",
        "category": "orders",
    },
    {
        "id": "shipping",
        "question": "How long does shipping take?",
        "answer": "Two to four working days.",
        "category": "orders",
    },
    {
        "id": "payment",
        "question": "Which payment methods do you accept?",
        "answer": "Cards, PayPal and bank transfer.",
        "category": "payments",
    },
]


def demo_tools(base_url: str) -> list[dict[str, Any]]:
    return [
        {"kind": "python", "sandbox": "restricted", "source": CHECK_ORDER},
        {
            "kind": "webhook",
            "name": "order_status",
            "description": "Where is an order? Returns its shipping status and ETA in days.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string", "description": "the order id"}},
                "required": ["order_id"],
            },
            "webhook_url": f"{base_url}/demo/orders/{{order_id}}",
            "method": "GET",
            "headers": {"Accept": "application/json"},
            "auth_header": "Bearer demo-not-a-real-secret",
            "timeout_ms": 3000,
            "metadata": {"cacheable": True, "cache_ttl": 60, "category": "orders"},
        },
    ]


async def _kept_keys(store: Store, path: Path) -> dict[str, str] | None:
    """The demo keys of an earlier start, if they are still valid: MCP client configs and
    scripts written against them keep working across restarts of the demo."""
    try:
        kept = json.loads(path.read_text())  # noqa: ASYNC240 - a small file, once at start
    except (OSError, ValueError):
        return None
    for role in ("developer", "agent"):
        parsed = parse_token(str(kept.get(role, "")))
        row = await store.keys.get(parsed[0]) if parsed else None
        if (
            parsed is None
            or row is None
            or row.revoked_at is not None
            or row.role != role
            or row.tenant_id != DEMO_TENANT
            or not matches(row.secret_hash, parsed[0], parsed[1])
        ):
            return None
    return {"developer": kept["developer"], "agent": kept["agent"]}


def own_endpoint(host: str, port: int) -> tuple[str, str]:
    """Where the demo's webhook reaches this server, and the one allowlist entry that admits
    it: this address and port, nothing else internal (a wildcard listen address is reached on
    loopback)."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}", f"{shown}:{port}"


async def seed_demo(runtime: Runtime) -> dict[str, str]:
    """Create (or refresh) the demo tenant; reuse the demo keys of the last start (kept in the
    data directory, 0600) or mint them; print them."""
    settings = runtime.settings
    base_url = f"http://{settings.host}:{settings.port}"
    own_url, own_entry = own_endpoint(settings.host, settings.port)
    async with runtime.sessions() as session, session.begin():
        store = runtime.store(session)
        tenant = await session.get(TenantRow, DEMO_TENANT)
        if tenant is None:
            await store.tenants.create(DEMO_TENANT, "Demo tenant")
            tenant = await session.get(TenantRow, DEMO_TENANT)
            assert tenant is not None
        # the demo's order-status webhook calls this server: admitted for the demo tenant only
        tenant.egress_allow = [own_entry]
        await store.tenants.set_shared_tools(DEMO_TENANT, ["escalate_to_human", "qa_lookup"])
        faq = await store.datasets.find(DEMO_TENANT, "faq")
        if faq is None:
            await store.datasets.add_items(
                DEMO_TENANT, "faq", 1, 0, [(e["id"], e) for e in DEMO_FAQ]
            )
            size = sum(len(json.dumps(e)) + 1 for e in DEMO_FAQ)
            await store.datasets.replace(DEMO_TENANT, "faq", "faq", 1, len(DEMO_FAQ), size)
        for body in demo_tools(own_url):
            draft, problems = check_tool_body(body, runtime.limits, update=True)
            problems.raise_if_any()
            assert draft is not None
            existing = await store.tools.find(DEMO_TENANT, draft.name)
            if (
                existing is None
                or (await store.tools.version(existing, existing.current_version)).content_hash
                != draft.content_hash
            ):
                await store.tools.save(DEMO_TENANT, draft, "demo", expect_new=None)
        bot = await store.bots.find(DEMO_TENANT, "support")
        tools = ["check_order", "order_status", "escalate_to_human"]
        intents = {
            "orders": ["check_order", "order_status"],
            "*": ["escalate_to_human", "qa_lookup"],
        }
        skills = {"qa": {"dataset": "faq", "top_k": 3}}
        if bot is None:
            await store.bots.create(DEMO_TENANT, "support", tools, intents, skills=skills)
        else:
            await store.bots.replace(DEMO_TENANT, "support", tools, intents, skills=skills)
        kept_path = settings.data_dir / "demo-keys.json"
        keys = await _kept_keys(store, kept_path)
        if keys is None:
            old = await session.scalars(
                select(ApiKeyRow).where(
                    ApiKeyRow.tenant_id == DEMO_TENANT,
                    ApiKeyRow.label == "demo",
                    ApiKeyRow.revoked_at.is_(None),
                )
            )
            for row in old:
                row.revoked_at = utcnow()
            _, developer = await store.keys.create("developer", DEMO_TENANT, "demo")
            _, agent = await store.keys.create("agent", DEMO_TENANT, "demo")
            keys = {"developer": developer.token, "agent": agent.token}
            kept_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(kept_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump(keys, f)
        await store.changed("demo", DEMO_TENANT, "demo.seed", DEMO_TENANT)
    print(
        f"\nQuiver demo is up at {base_url}  (console: {base_url}/, API docs: {base_url}/docs)\n"
        f"  tenant:          {DEMO_TENANT}\n"
        f"  egress:          the demo tenant may reach {own_entry} (its order webhook) and "
        f"no other internal address; other tenants none\n"
        f"  developer key:   {keys['developer']}\n"
        f"  agent key:       {keys['agent']}\n"
        f"  try:  curl -H 'Authorization: Bearer {keys['agent']}' "
        f"'{base_url}/v1/bots/support/snapshot?format=openai'\n",
        flush=True,
    )
    return keys
