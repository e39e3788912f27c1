"""An eval set for tool search: a bot of 500 tools (50 business objects × 10 operations, named
and described as tool authors write them) and 100 requests in a customer's or an operator's
words, each with the one tool that serves it.

Requests are drawn (seeded) from phrasings per operation; most say the operation with other
words than the tool's name (``call off`` for cancel, ``sign off`` for approve, ``spreadsheet``
for export), and a third name the object by a synonym (``purchase`` for an order), as users do
— which the descriptions give, or (``tools(synonyms=False)``) do not. Neighbours are hard on purpose: ``cancel_order`` beside
``cancel_subscription`` and ``get_order``; ``list_invoices`` beside ``export_invoices``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

# object: (plural, a phrase saying what it is, a synonym users say, its key parameter)
OBJECTS: dict[str, tuple[str, str, str, str]] = {
    "order": ("orders", "a customer's purchase in the shop", "purchase", "order_id"),
    "invoice": ("invoices", "a bill sent to a customer", "bill", "invoice_id"),
    "shipment": ("shipments", "a parcel on its way to a customer", "parcel", "shipment_id"),
    "customer": ("customers", "a person or company that buys from us", "client", "customer_id"),
    "ticket": ("tickets", "a support request from a customer", "case", "ticket_id"),
    "subscription": ("subscriptions", "a recurring paid plan", "plan", "subscription_id"),
    "product": ("products", "an item of the catalogue", "article", "sku"),
    "coupon": ("coupons", "a discount code", "voucher", "code"),
    "payment": ("payments", "money received from a customer", "transaction", "payment_id"),
    "appointment": ("appointments", "a booked visit or call", "booking", "appointment_id"),
    "employee": ("employees", "a member of staff", "staff member", "employee_id"),
    "payslip": ("payslips", "a monthly salary statement", "salary statement", "payslip_id"),
    "leave_request": ("leave requests", "a request for days off", "holiday", "request_id"),
    "expense_report": (
        "expense reports",
        "receipts an employee claims back",
        "receipts",
        "report_id",
    ),  # fmt: skip
    "purchase_order": (
        "purchase orders",
        "an order we place with a supplier",
        "PO",
        "po_number",
    ),  # fmt: skip
    "supplier": ("suppliers", "a company we buy from", "vendor", "supplier_id"),
    "warehouse": ("warehouses", "a site where stock is kept", "depot", "warehouse_id"),
    "stock_item": ("stock items", "goods held in inventory", "inventory", "item_id"),
    "vehicle": ("vehicles", "a van or truck of the fleet", "truck", "plate"),
    "driver": ("drivers", "a person who drives for the fleet", "courier", "driver_id"),
    "route": ("routes", "the stops of a delivery run", "delivery run", "route_id"),
    "patient": ("patients", "a person the clinic treats", "patient record", "patient_id"),
    "prescription": (
        "prescriptions",
        "medicine a doctor ordered",
        "medication",
        "prescription_id",
    ),  # fmt: skip
    "lab_result": (
        "lab results",
        "the outcome of a blood or other test",
        "test result",
        "result_id",
    ),  # fmt: skip
    "insurance_claim": (
        "insurance claims",
        "a request to an insurer for cover",
        "claim",
        "claim_id",
    ),  # fmt: skip
    "policy": ("policies", "an insurance contract", "cover", "policy_number"),
    "loan": ("loans", "money lent to a customer", "credit", "loan_id"),
    "card": ("cards", "a debit or credit card", "bank card", "card_id"),
    "bank_transfer": ("bank transfers", "money sent between accounts", "wire", "transfer_id"),
    "device": ("devices", "a phone, laptop or sensor we manage", "laptop", "device_id"),
    "user_account": ("user accounts", "a login to our systems", "login", "username"),
    "domain": ("domains", "a registered internet domain name", "website address", "domain"),
    "dns_record": ("DNS records", "an entry of a domain's zone", "zone entry", "record_id"),
    "certificate": ("certificates", "a TLS certificate of a site", "SSL cert", "certificate_id"),
    "server": ("servers", "a machine that runs our services", "host", "hostname"),
    "backup": ("backups", "a saved copy of data", "snapshot", "backup_id"),
    "database": ("databases", "a store of application data", "DB", "database"),
    "repository": ("repositories", "a git repository of code", "repo", "repository"),
    "pull_request": ("pull requests", "a proposed change to code", "PR", "pr_number"),
    "deployment": ("deployments", "a release put into production", "release", "deployment_id"),
    "incident": ("incidents", "an outage or service problem", "outage", "incident_id"),
    "meeting": ("meetings", "a scheduled meeting of people", "call", "meeting_id"),
    "document": ("documents", "a file in the document store", "file", "document_id"),
    "contract": ("contracts", "a signed agreement", "agreement", "contract_id"),
    "lead": ("leads", "a prospect who may buy", "prospect", "lead_id"),
    "campaign": ("campaigns", "a marketing e-mail campaign", "mailing", "campaign_id"),
    "review": ("reviews", "a customer's rating of a product", "rating", "review_id"),
    "gift_card": (
        "gift cards",
        "a prepaid card to spend in the shop",
        "gift voucher",
        "gift_card_id",
    ),  # fmt: skip
    "return": ("returns", "goods a customer sends back", "RMA", "return_id"),
    "course": ("courses", "a training course people enrol in", "training", "course_id"),
}

# operation: (how a tool author describes it, extra parameters, how users ask for it)
OPERATIONS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "get": ("Look up one {what} ({desc}) by its {key} and return its details and status",
            (), ("show me {the} {x} {ref}", "what is the status of {the} {x} {ref}",
                 "look up {the} {x} {ref}", "details of {the} {x} {ref}")),
    "list": ("List {plural} ({desc}), filtered by status and date, newest first",
             ("status", "since"), ("which {xs} do we have since monday",
                                  "list all open {xs}", "show every {x} from this week")),
    "create": ("Create a new {what} ({desc}) from the fields given",
               ("fields",), ("add a new {x}", "register a new {x} for me",
                             "open a new {x}", "create another {x}")),
    "update": ("Update the fields of an existing {what} ({desc})",
               ("fields",), ("change the details of {the} {x} {ref}",
                             "edit {the} {x} {ref}", "fix a mistake in {the} {x} {ref}")),
    "delete": ("Delete a {what} ({desc}) permanently",
               (), ("remove {the} {x} {ref} for good", "delete {the} {x} {ref}",
                    "erase {the} {x} {ref} completely")),
    "cancel": ("Cancel a {what} ({desc}) that is still pending, with a reason",
               ("reason",), ("call off {the} {x} {ref}", "cancel {the} {x} {ref} please",
                             "stop {the} pending {x} {ref}")),
    "approve": ("Approve a {what} ({desc}) waiting for a manager's approval",
                ("comment",), ("sign off {the} {x} {ref}", "approve {the} {x} {ref}",
                               "give the OK for {the} {x} {ref}")),
    "export": ("Export {plural} ({desc}) as a CSV or Excel spreadsheet file",
               ("format", "since"), ("download all {xs} as a spreadsheet",
                                     "export the {xs} to excel", "I need a CSV of the {xs}")),
    "assign": ("Assign a {what} ({desc}) to a person or team who takes care of it",
               ("assignee",), ("hand {the} {x} {ref} over to Maria",
                               "make Tom responsible for {the} {x} {ref}",
                               "assign {the} {x} {ref} to the night team")),
    "history": ("Show the history of changes of a {what} ({desc}): who changed what and when",
                ("since",), ("who changed {the} {x} {ref} and when",
                             "audit trail of {the} {x} {ref}",
                             "what happened to {the} {x} {ref} over time")),
}  # fmt: skip


@dataclass(frozen=True)
class Request:
    text: str
    tool: str


def tool_name(operation: str, obj: str) -> str:
    return f"{operation}_{OBJECTS[obj][0].replace(' ', '_').lower()}" if operation in ("list", "export") else f"{operation}_{obj}"  # fmt: skip


def tools(synonyms: bool = True) -> list[dict[str, Any]]:
    """The 500 tools: name, description and parameters (a JSON Schema), as saved. With
    ``synonyms`` each description gives the other name users have for its object ("also called
    a depot"); without, a request that says only that other name has no word in common with its
    tool but the verb."""
    out = []
    for obj, (plural, what_it_is, synonym, key) in OBJECTS.items():
        what = obj.replace("_", " ")
        desc = f"{what_it_is}, also called {synonym}" if synonyms else what_it_is
        for operation, (template, extra, _asks) in OPERATIONS.items():
            params = () if operation in ("list", "export", "create") else (key,)
            properties = {p: {"type": "string"} for p in (*params, *extra)}
            out.append(
                {
                    "name": tool_name(operation, obj),
                    "description": template.format(
                        what=what, plural=plural, desc=desc, key=key.replace("_", " ")
                    ),  # fmt: skip
                    "parameters": {
                        "type": "object",
                        "properties": properties,
                        "required": list(params),
                    },
                }
            )
    return out


def requests(count: int = 100, seed: int = 7) -> list[Request]:
    """``count`` requests, each for a different tool, phrased as users ask."""
    rng = random.Random(seed)
    pairs = [(op, obj) for obj in OBJECTS for op in OPERATIONS]
    rng.shuffle(pairs)
    out = []
    for i, (operation, obj) in enumerate(pairs[:count]):
        plural, _desc, synonym, _key = OBJECTS[obj]
        say_synonym = i % 3 == 0
        x = synonym if say_synonym else obj.replace("_", " ")
        xs = synonym + "s" if say_synonym else plural
        ask = rng.choice(OPERATIONS[operation][2])
        text = ask.format(the="the", x=x, xs=xs, ref=f"#{rng.randint(100, 9999)}")
        out.append(Request(text, tool_name(operation, obj)))
    return out


def recall_at(k: int, ranked: dict[str, list[str]], asked: list[Request]) -> float:
    """The share of requests whose tool is among the first ``k`` found."""
    return sum(r.tool in ranked[r.text][:k] for r in asked) / len(asked)
