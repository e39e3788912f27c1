"""Code mode against the plain loop on a multi-step task: compare N orders, refund the late one.

    python -m benchmarks.code_mode [--turns 20]

Through the real agent loop (``POST …/messages``) against the fake model server, the same task
for a plain bot and a code-mode bot (Python programs), each with the two tools the task needs
among 20 of a shop's. The model plays each mode at its best: the plain bot's model asks for the
N checks in one round (parallel calls), then the refund, then answers; the code-mode bot's
model sends one program doing all of it, then answers. Measured: model requests per turn, the
bytes the loop sent the model per turn (tokens estimated as bytes / 4: no provider tokenizer is
available offline), the tool calls that ran (from the call log), and the answer being right
(the late order refunded). Two workers, as code mode with Python tools needs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics

from benchmarks.loop_tenant import loop_tenant

SHOP = [
    "list_products", "get_product", "check_stock", "apply_coupon", "cancel_order", "track_parcel",
    "update_address", "reset_password", "list_invoices", "send_receipt", "book_repair",
    "open_ticket", "close_ticket", "rate_order", "gift_wrap", "change_delivery_date",
    "subscribe_newsletter", "unsubscribe_newsletter",
]  # fmt: skip


def tool(name: str, description: str, body: str, params: dict) -> dict:
    source = (
        f"def execute(params, context):\n    {body}\n\n\n"
        f"tool = {{'name': {name!r}, 'description': {description!r}, "
        f"'parameters': {params!r}, 'execute': execute}}\n"
    )
    return {"kind": "python", "source": source}


TOOLS = [
    tool(
        "check_order",
        "Check an order: its status and how many days late it is",
        "return {'success': True, 'order': params['order_id'], "
        "'days_late': sum(map(ord, params['order_id'])) % 7}",
        {"order_id": {"type": "string", "required": True}},
    ),
    tool(
        "refund",
        "Refund an order's payment to the customer",
        "return {'success': True, 'refunded': params['order_id']}",
        {"order_id": {"type": "string", "required": True}, "reason": {"type": "string"}},
    ),
    *[
        tool(
            n,
            f"{n.replace('_', ' ').capitalize()} for a customer",
            "return {'success': True}",
            {"id": {"type": "string", "required": True}},
        )  # fmt: skip
        for n in SHOP
    ],
]


def late(order: str) -> int:
    return sum(map(ord, order)) % 7


def program(orders: list[str]) -> str:
    return (
        "late = []\n"
        f"for order in {orders!r}:\n"
        "    checked = tools.check_order(order_id=order)\n"
        "    late.append((checked['result']['days_late'], order))\n"
        "worst = max(late)\n"
        "refunded = tools.refund(order_id=worst[1], reason='late')\n"
        "return {'late': worst[1], 'days': worst[0], 'refunded': refunded['success']}\n"
    )


async def main(turns: int) -> None:
    async with loop_tenant(workers=2) as node:
        app, fake, dev, agent = node.app, node.fake, node.dev, node.agent
        for body in TOOLS:
            assert (await dev.post("/v1/tools", json=body)).status_code == 201
        for name, mode in (("plain", None), ("code", "python")):
            bot = {"name": name, "tools": None, "model": "fake/m", "code_mode": mode}
            assert (await dev.post("/v1/bots", json=bot)).status_code == 201

        print(f"{'orders':>6} {'bot':<6} {'requests':>9} {'KiB sent':>9} {'≈ tokens':>9} {'calls run':>10} {'right':>6}")  # fmt: skip
        for count in (3, 10):
            for bot in ("plain", "code"):
                requests, sizes, ran, right = [], [], [], 0
                for turn in range(turns):
                    orders = [f"O{turn:03d}{i}" for i in range(count)]
                    worst = max((late(o), o) for o in orders)[1]
                    if bot == "plain":
                        fake.reply(
                            {
                                "tool_calls": [
                                    {"name": "check_order", "arguments": {"order_id": o}}
                                    for o in orders
                                ]
                            },  # fmt: skip
                            {
                                "tool_calls": [
                                    {
                                        "name": "refund",
                                        "arguments": {"order_id": worst, "reason": "late"},
                                    }
                                ]
                            },  # fmt: skip
                            {"text": f"{worst} was the latest; I refunded it."},
                        )
                    else:
                        fake.reply(
                            {
                                "tool_calls": [
                                    {"name": "run_code", "arguments": {"code": program(orders)}}
                                ]
                            },  # fmt: skip
                            {"text": f"{worst} was the latest; I refunded it."},
                        )
                    sid = (await agent.post("/v1/sessions", json={"bot": bot})).json()["id"]
                    seen = len(fake.requests)
                    answered = await agent.post(f"/v1/sessions/{sid}/messages", json={"content": f"Compare orders {', '.join(orders)} and refund the late one."})  # fmt: skip
                    assert answered.status_code == 200, answered.text
                    sent = fake.requests[seen:]
                    requests.append(len(sent))
                    sizes.append(sum(len(json.dumps(r["body"])) for r in sent))
                    await app.state.runtime.call_log.flush()
                    calls = (await agent.get(f"/v1/sessions/{sid}/calls?limit=100")).json()["calls"]  # fmt: skip
                    ran.append(len(calls))
                    right += any(c["tool"] == "refund" and c["arguments"]["order_id"] == worst and c["success"] for c in calls)  # fmt: skip
                size = statistics.mean(sizes)
                print(
                    f"{count:>6} {bot:<6} {statistics.mean(requests):>9.1f} {size / 1024:>9.1f} "
                    f"{size / 4:>9.0f} {statistics.mean(ran):>10.1f} {right:>3}/{turns}"
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("QUIVER_LOG_LEVEL", "warning")
    asyncio.run(main(args.turns))
