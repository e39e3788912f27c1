"""The skills' use cases: what each built-in skill tool does with the tenant's data.

A skill runs inside a tool call (``builtins/*.py`` → the call pipeline's host call ``skills``),
in the call's unit of work: a lead, a preference or a booking commits with the call's log row
or not at all. Failures are ``SkillError``s with an envelope code: ``not_configured`` (the bot
names no data set and the tenant has none or several of that kind), ``not_found`` (an unknown
product, form, calendar or slot), ``invalid_input`` (an empty query, a malformed e-mail,
fields a form refuses), ``slot_taken``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import httpx
import jsonschema_rs

from sandbox.engine import ToolFailure
from server.skills.indexes import Catalog, Documents, Faq, Indexes, NoDataset
from server.skills.records import Origin, SlotTaken
from server.skills.search import EmptyQuery, TextIndex

if TYPE_CHECKING:
    from server.egress import Allowlist, EgressGuard
    from server.skills.classifier import NaiveBayes
    from server.storage.repositories import Store

EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s.]{2,}$")
PHONE_CHARS = re.compile(r"^\+?[0-9 ().\-]{7,24}$")
RESPONSES = ("yes", "no", "dismiss")
CRM_TIMEOUT_S = 5.0
MAX_LIMIT = 50
DEFAULT_QA_THRESHOLD = 0.5  # qa_lookup: the confidence from which the top entry is an answer


class SkillError(ToolFailure):
    pass


@dataclass(frozen=True)
class SkillCall:
    """Who calls a skill: the tenant, the session's bot and customer, the bot's settings."""

    tenant_id: str
    session_id: str | None = None
    customer: str | None = None
    bot: str | None = None
    settings: dict[str, Any] | None = None
    test: bool = False
    egress: tuple[EgressGuard, Allowlist | None] | None = None

    def setting(self, name: str, default: Any = None) -> Any:
        value = (self.settings or {}).get(name)
        return default if value is None else value

    @property
    def origin(self) -> Origin:
        return Origin(self.session_id, self.customer, self.bot)


class Skills:
    def __init__(self, indexes: Indexes, clock: Callable[[], datetime] | None = None) -> None:
        self.indexes = indexes
        self.now = clock or (lambda: datetime.now(UTC))
        self._tools: dict[str, Callable[[Store, SkillCall, dict[str, Any]], Awaitable[Any]]] = {
            "qa_lookup": self.qa_lookup,
            "search_catalog": self.search_catalog,
            "classify_text": self.classify_text,
            "recommend_for_customer": self.recommend_for_customer,
            "recommend_similar": self.recommend_similar,
            "record_preference": self.record_preference,
            "collect_lead": self.collect_lead,
            "submit_form": self.submit_form,
            "book_appointment": self.book_appointment,
            "available_slots": self.available_slots,
            "recall_memory": self.recall_memory,
        }

    async def run(self, store: Any, tool: str, call: SkillCall, args: dict[str, Any]) -> Any:
        handler = self._tools.get(tool)
        if handler is None:
            raise SkillError("not_found", f"no skill {tool!r}")
        try:
            return await handler(store, call, args)
        except EmptyQuery as exc:
            raise SkillError("invalid_input", str(exc)) from None
        except NoDataset as exc:
            raise SkillError("not_configured", str(exc)) from None

    # data sets ------------------------------------------------------------------------------
    async def _dataset(self, call: SkillCall, kind: str) -> Any:
        name = call.setting("dataset")
        if name is None:
            names = await self.indexes.named(call.tenant_id, kind)
            if len(names) != 1:
                which = "no" if not names else f"{len(names)}"
                raise SkillError(
                    "not_configured",
                    f"the bot names no {kind} data set (skills.*.dataset) and this tenant has "
                    f"{which} of that kind",
                )
            name = names[0]
        return name, await self.indexes.get(call.tenant_id, name, kind)

    def _top_k(self, call: SkillCall, args: dict[str, Any], default: int) -> int:
        """Results per call: the bot's ``top_k`` for the skill, else the skill's default."""
        return max(1, min(int(call.setting("top_k", default)), MAX_LIMIT))

    # FAQ, catalog, classifier ----------------------------------------------------------------
    async def qa_lookup(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        _, faq = await self._dataset(call, "faq")
        assert isinstance(faq, Faq)
        threshold = float(call.setting("threshold", DEFAULT_QA_THRESHOLD))
        found, answered = faq.answer(_text(args, "question"), self._top_k(call, args, 3), threshold)
        return {
            "answered": answered,
            "answers": [
                {
                    "id": e["id"],
                    "question": e["question"],
                    "answer": e["answer"],
                    "category": e.get("category"),
                    "score": round(score, 4),
                    "confidence": round(confidence, 4),
                }
                for e, score, confidence in found
            ],
        }

    async def search_catalog(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        _, catalog = await self._dataset(call, "catalog")
        assert isinstance(catalog, Catalog)
        weights = call.setting("field_weights")
        hits = catalog.search(
            _text(args, "query"), _weights(catalog, weights), self._top_k(call, args, 5)
        )
        return {"hits": [_product(catalog, h.position, h.score) for h in hits]}

    async def classify_text(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        _, model = await self._dataset(call, "samples")
        model_: NaiveBayes = model
        text = _text(args, "text")
        top = self._top_k(call, args, 3)
        predictions = model_.predict(text, args.get("lang") or call.setting("lang"), top=top)
        return {"predictions": [{"label": label, "score": round(p, 4)} for label, p in predictions]}

    # recommendations --------------------------------------------------------------------------
    def _customer(self, call: SkillCall) -> str:
        """Whose preferences: the session's customer, else the session itself (kept for the
        conversation only)."""
        who = call.customer or (f"session:{call.session_id}" if call.session_id else None)
        if who is None:
            raise SkillError(
                "invalid_input",
                "recommendations need a session (and a customer to remember across sessions)",
            )
        return who

    async def record_preference(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        name, catalog = await self._dataset(call, "catalog")
        product, response = str(args.get("productId", "")), args.get("response")
        if product not in catalog.positions:
            raise SkillError("not_found", f"no product {product!r} in the catalog")
        if response not in RESPONSES:
            raise SkillError("invalid_input", "response: one of yes, no, dismiss")
        customer = self._customer(call)
        await store.preferences.record(call.tenant_id, customer, name, product, response)
        return {"recorded": True, "productId": product, "response": response}

    async def recommend_similar(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        _, catalog = await self._dataset(call, "catalog")
        assert isinstance(catalog, Catalog)
        product = str(args.get("productId", ""))
        position = catalog.positions.get(product)
        if position is None:
            raise SkillError("not_found", f"no product {product!r} in the catalog")
        weights = _weights(catalog, call.setting("field_weights"))
        hits = catalog.index.search_terms(
            catalog.terms_of(position), weights, self._top_k(call, args, 5), frozenset({position})
        )
        return {"products": [_product(catalog, h.position, h.score) for h in hits]}

    async def recommend_for_customer(
        self, store: Store, call: SkillCall, args: dict[str, Any]
    ) -> Any:
        """Items like the ones the customer said yes to and unlike the ones they said no to;
        never one they already reacted to. With no likes yet: what other customers liked most,
        then the catalog's order."""
        name, catalog = await self._dataset(call, "catalog")
        assert isinstance(catalog, Catalog)
        limit = self._top_k(call, args, 5)
        reactions = await store.preferences.of(call.tenant_id, self._customer(call), name)
        seen = frozenset(catalog.positions[p] for p in reactions if p in catalog.positions)
        liked = [
            catalog.positions[p]
            for p, r in reactions.items()
            if r == "yes" and p in catalog.positions
        ]
        disliked = [
            catalog.positions[p]
            for p, r in reactions.items()
            if r == "no" and p in catalog.positions
        ]
        weights = _weights(catalog, call.setting("field_weights"))
        if liked:
            terms = _profile(catalog, liked)
            hits = catalog.index.search_terms(terms, weights, limit * 4, seen)
            penalty: dict[int, float] = {}
            if disliked:
                for h in catalog.index.search_terms(
                    _profile(catalog, disliked), weights, 200, seen
                ):
                    penalty[h.position] = h.score
            ranked = sorted(
                ((h.score - 0.5 * penalty.get(h.position, 0.0), h.position) for h in hits),
                key=lambda x: (-x[0], x[1]),
            )
            products = [_product(catalog, p, s) for s, p in ranked[:limit]]
            return {"products": products, "basis": "preferences"}
        popular = await store.preferences.most_liked(call.tenant_id, name, limit + len(seen))
        order = [catalog.positions[p] for p in popular if p in catalog.positions]
        order += [
            i
            for i in range(min(len(catalog.items), limit + len(seen) + len(order)))
            if i not in order
        ]
        picked = [i for i in order if i not in seen][:limit]
        return {"products": [_product(catalog, i, 0.0) for i in picked], "basis": "popular"}

    # leads, forms, appointments ---------------------------------------------------------------
    async def collect_lead(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        name = _text(args, "name", 200)
        interest = _text(args, "interest", 1000)
        email = (args.get("email") or "").strip() or None
        phone = (args.get("phone") or "").strip() or None
        if email is None and phone is None:
            raise SkillError("invalid_input", "give a phone number or an e-mail address")
        if email is not None and not EMAIL.match(email):
            raise SkillError("invalid_input", f"email: {email!r} is not an e-mail address")
        if phone is not None and not (
            PHONE_CHARS.match(phone) and 7 <= sum(c.isdigit() for c in phone) <= 15
        ):
            raise SkillError(
                "invalid_input", f"phone: {phone!r} is not a phone number (7 to 15 digits)"
            )
        row = await store.leads.add(call.tenant_id, call.origin, name, email, phone, interest)
        forwarded = None
        url = call.setting("webhook_url")
        if url and call.egress is not None and not call.test:
            forwarded = await _forward(call, url, lead_public(row))
            await store.leads.set_forwarded(row.id, forwarded)
        return {"collected": True, "id": row.id, "forwarded": forwarded}

    async def submit_form(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        form_name = str(args.get("form", ""))
        allowed = call.setting("forms")
        form = await store.forms.find(call.tenant_id, form_name)
        if form is None or (allowed is not None and form_name not in allowed):
            raise SkillError("not_found", f"no form {form_name!r}")
        fields = args.get("fields")
        if not isinstance(fields, dict):
            raise SkillError("invalid_input", "fields: an object of the form's fields")
        problems = list(jsonschema_rs.validator_for(form.schema).iter_errors(fields))
        if problems:
            first = problems[0]
            where = ".".join(str(p) for p in first.instance_path) or "fields"
            raise SkillError("invalid_input", f"{where}: {first.message}")
        row = await store.forms.submit(call.tenant_id, form_name, call.origin, fields)
        return {"submitted": True, "id": row.id, "form": form_name}

    async def _calendar(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        name = args.get("calendar") or call.setting("calendar")
        if name is None:
            calendars = await store.calendars.list(call.tenant_id)
            if len(calendars) != 1:
                raise SkillError("not_configured", "name a calendar (skills.appointments.calendar)")
            return calendars[0]
        row = await store.calendars.find(call.tenant_id, str(name))
        if row is None:
            raise SkillError("not_found", f"no calendar {name!r}")
        return row

    async def _free(
        self, store: Store, call: SkillCall, calendar: Any
    ) -> list[tuple[datetime, datetime]]:
        taken = {a.start for a in await store.calendars.booked(call.tenant_id, calendar.name)}
        now = self.now()
        slots = sorted(
            (datetime.fromisoformat(s["start"]), datetime.fromisoformat(s["end"]))
            for s in calendar.slots
        )
        return [(start, end) for start, end in slots if start > now and start not in taken]

    async def available_slots(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        calendar = await self._calendar(store, call, args)
        free = await self._free(store, call, calendar)
        limit = self._top_k(call, args, 10)
        return {
            "calendar": calendar.name,
            "slots": [{"start": s.isoformat(), "end": e.isoformat()} for s, e in free[:limit]],
        }

    async def book_appointment(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        calendar = await self._calendar(store, call, args)
        try:
            start = datetime.fromisoformat(str(args.get("start", "")))
        except ValueError:
            raise SkillError(
                "invalid_input", "start: an ISO 8601 time with an offset, as available_slots gives"
            ) from None
        if start.tzinfo is None:
            raise SkillError("invalid_input", "start: give the time's offset (e.g. +02:00 or Z)")
        slot = next(
            (
                (s, e)
                for s, e in (
                    (datetime.fromisoformat(x["start"]), datetime.fromisoformat(x["end"]))
                    for x in calendar.slots
                )
                if s == start
            ),
            None,
        )
        if slot is None or slot[0] <= self.now():
            raise SkillError(
                "not_found", f"no open slot starts at {start.isoformat()} in {calendar.name!r}"
            )
        name = _text(args, "name", 200)
        contact = str(args.get("contact") or "").strip() or None
        try:
            row = await store.calendars.book(
                call.tenant_id,
                calendar.name,
                slot[0],
                slot[1],
                call.origin,
                name,
                contact,
                (str(args.get("note") or "").strip() or None),
            )
        except SlotTaken:
            free = await self._free(store, call, calendar)
            options = ", ".join(s.isoformat() for s, _ in free[:3]) or "none left"
            raise SkillError(
                "slot_taken", f"that slot was just booked; open slots: {options}"
            ) from None
        return {
            "booked": True,
            "id": row.id,
            "calendar": calendar.name,
            "start": slot[0].isoformat(),
            "end": slot[1].isoformat(),
        }

    # memory and the knowledge base ----------------------------------------------------------
    async def recall_memory(self, store: Store, call: SkillCall, args: dict[str, Any]) -> Any:
        query = _text(args, "query")
        if call.customer is None:
            return {"memories": [], "note": "this session has no customer: nothing to remember"}
        found = await store.memory.of_customer(
            call.tenant_id,
            call.customer,
            call.session_id,
            sessions=int(call.setting("sessions", 50)),
        )
        if not found:
            return {"memories": []}
        index = TextIndex.build(["text"], ([m.text] for m in found))
        hits = index.search(query, None, self._top_k(call, args, 5))
        return {
            "memories": [
                {
                    "text": found[h.position].text,
                    "source": found[h.position].source,
                    "session_id": found[h.position].session_id,
                    "date": found[h.position].at.isoformat(),
                    "score": round(h.score, 4),
                }
                for h in hits
            ]
        }

    async def knowledge_search(self, tenant_id: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        """``context.modules.knowledge_base.search``: the calling tenant's ``documents`` sets
        (one of them with ``collection``), best chunks first."""
        query = args.get("query")
        if not isinstance(query, str) or not query.strip():
            raise SkillError(
                "invalid_input", "knowledge_base.search: query must be a non-empty string"
            )
        limit = args.get("limit") or 5
        if not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise SkillError(
                "invalid_input", f"knowledge_base.search: limit must be 1 to {MAX_LIMIT}"
            )
        collection = args.get("collection")
        names = await self.indexes.named(tenant_id, "documents")
        if collection is not None:
            if collection not in names:
                raise SkillError(
                    "not_found", f"knowledge_base.search: no collection {collection!r}"
                )
            names = [collection]
        results: list[dict[str, Any]] = []
        for name in names:
            documents = await self.indexes.get(tenant_id, name, "documents")
            assert isinstance(documents, Documents)
            try:
                hits = documents.index.search(query, {"title": 2.0, "text": 1.0}, limit)
            except EmptyQuery as exc:
                raise SkillError("invalid_input", f"knowledge_base.search: {exc}") from None
            for h in hits:
                doc_at, text = documents.pieces[h.position]
                doc = documents.documents[doc_at]
                results.append(
                    {
                        "collection": name,
                        "id": doc["id"],
                        "title": doc.get("title"),
                        "text": text,
                        "metadata": doc.get("metadata") or {},
                        "score": round(h.score, 4),
                    }
                )
        results.sort(key=lambda r: -r["score"])
        return results[:limit]


def _text(args: dict[str, Any], name: str, limit: int = 2000) -> str:
    value = args.get(name)
    if not isinstance(value, str) or not value.strip():
        raise SkillError("invalid_input", f"{name}: must be a non-empty string")
    if len(value) > limit:
        raise SkillError("invalid_input", f"{name}: longer than {limit} characters")
    return value.strip()


def _weights(catalog: Catalog, configured: dict[str, float] | None) -> dict[str, float] | None:
    if not configured:
        return None
    return {f: float(configured.get(f, 0.0)) for f in catalog.index.fields}


def _profile(catalog: Catalog, positions: list[int]) -> list[str]:
    terms: dict[str, None] = {}
    for position in positions[-10:]:  # the latest ten reactions
        terms.update(dict.fromkeys(catalog.terms_of(position, 16)))
    return list(terms)[:64]


def _product(catalog: Catalog, position: int, score: float) -> dict[str, Any]:
    item = catalog.items[position]
    return {
        "id": item["id"],
        "fields": item["fields"],
        "meta": item.get("meta") or {},
        "score": round(score, 4),
    }


def lead_public(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "email": row.email,
        "phone": row.phone,
        "interest": row.interest,
        "session_id": row.session_id,
        "customer": row.customer,
        "bot": row.bot,
        "forwarded": row.forwarded,
        "created_at": row.created_at.isoformat(),
    }


async def _forward(call: SkillCall, url: str, lead: dict[str, Any]) -> str:
    """Send the lead to the tenant's CRM webhook through the egress guard: ``sent``, or why
    not (the lead is kept either way)."""
    from server.egress import EgressDenied, NameNotResolved, ResponseTooLarge, TooManyRedirects

    assert call.egress is not None
    guard, extra = call.egress
    try:
        response, _ = await guard.request(
            "POST",
            url,
            tenant=call.tenant_id,
            headers={},
            params=None,
            json={"lead": lead},
            content=None,
            timeout_s=CRM_TIMEOUT_S,
            max_bytes=64 * 1024,
            extra=extra,
        )
    except (EgressDenied, NameNotResolved):
        return "refused"
    except (TimeoutError, httpx.TimeoutException):
        return "timeout"
    except (ResponseTooLarge, TooManyRedirects, httpx.HTTPError, OSError):
        return "failed"
    return "sent" if 200 <= response.status_code < 300 else f"http {response.status_code}"
