"""The skills that keep or read records, through HTTP on SQLite and PostgreSQL: the classifier,
recommendations that follow a customer's reactions, leads (and the CRM webhook), forms,
appointments (no double booking), memory across sessions, and the knowledge base from code
tools in every sandbox — never another tenant's."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import UTC, datetime, timedelta

import pytest

from tests.api.test_calls import call, python, simple_tool
from tests.api.test_skills import PRODUCTS, SKILL_TOOLS, skilled, upload
from tests.conftest import Api, api_for
from tests.loopback import LoopbackServer

SAMPLES = [
    {"text": "I want to buy a gift for my mother", "label": "shopping", "lang": "en"},
    {"text": "Where can I buy a birthday gift", "label": "shopping", "lang": "en"},
    {"text": "gift ideas for a friend", "label": "shopping", "lang": "en"},
    {"text": "my parcel has not arrived", "label": "delivery", "lang": "en"},
    {"text": "where is my delivery", "label": "delivery", "lang": "en"},
    {"text": "Dieses Gift ist gefährlich", "label": "danger", "lang": "de"},
    {"text": "Vorsicht, Gift im Keller", "label": "danger", "lang": "de"},
    {"text": "Gift und Säure nicht trinken", "label": "danger", "lang": "de"},
    {"text": "Mein Paket ist nicht angekommen", "label": "delivery", "lang": "de"},
    {"text": "Wo ist meine Lieferung", "label": "delivery", "lang": "de"},
]


async def test_classify_text_keeps_languages_apart(api: Api) -> None:
    t, sid = await skilled(api, skills={"classify": {"dataset": "intents"}})
    await upload(t, "intents", "samples", SAMPLES)

    english = await call(t, sid, "classify_text", {"text": "a gift", "lang": "en"})
    german = await call(t, sid, "classify_text", {"text": "ein Gift", "lang": "de"})
    guessed = await call(t, sid, "classify_text", {"text": "wo ist mein Paket"})  # no lang given

    assert english["result"]["predictions"][0]["label"] == "shopping"  # "gift" in English samples
    assert german["result"]["predictions"][0]["label"] == "danger"  # "Gift" (poison) in German ones
    assert guessed["result"]["predictions"][0]["label"] == "delivery"
    scores = [p["score"] for p in english["result"]["predictions"]]
    assert scores == sorted(scores, reverse=True) and 0 < sum(scores) <= 1.0001


async def test_a_recorded_reaction_changes_the_next_recommendation(api: Api) -> None:
    t, first = await skilled(api, skills={"recommend": {"dataset": "products", "top_k": 3}}, customer="ann")  # fmt: skip
    await upload(t, "products", "catalog", PRODUCTS)

    cold = await call(t, first, "recommend_for_customer")
    liked = await call(t, first, "record_preference", {"productId": "p1", "response": "yes"})
    warm = await call(t, first, "recommend_for_customer")
    await call(t, first, "record_preference", {"productId": warm["result"]["products"][0]["id"], "response": "no"})  # fmt: skip
    # a later session of the same customer remembers both reactions
    later = (await t.agent.post("/v1/sessions", json={"bot": "shop", "customer": "ann"})).json()[
        "id"
    ]
    after_no = await call(t, later, "recommend_for_customer")
    similar = await call(t, later, "recommend_similar", {"productId": "p1"})
    unknown = await call(t, later, "recommend_similar", {"productId": "nope"})
    bad = await call(t, later, "record_preference", {"productId": "nope", "response": "yes"})

    assert cold["result"]["basis"] == "popular" and len(cold["result"]["products"]) == 3
    assert liked["result"] == {"recorded": True, "productId": "p1", "response": "yes"}
    warm_ids = [p["id"] for p in warm["result"]["products"]]
    assert warm["result"]["basis"] == "preferences" and "p1" not in warm_ids
    assert set(warm_ids) <= {"p2", "p3", "p6"}  # like the trail shoe: shoes, trail, Peak
    after_ids = [p["id"] for p in after_no["result"]["products"]]
    assert warm_ids[0] not in after_ids and "p1" not in after_ids and after_ids != warm_ids
    assert "p1" not in [p["id"] for p in similar["result"]["products"]]
    assert similar["result"]["products"][0]["id"] in ("p2", "p6", "p3")
    assert unknown["error"]["code"] == "not_found" and bad["error"]["code"] == "not_found"


@pytest.fixture
async def crm_api(settings, upstream_http: LoopbackServer):
    async with api_for(settings.model_copy(update={"egress_allow": "127.0.0.2"})) as api:
        yield api


async def test_a_lead_is_collected_once_listed_exported_and_sent_to_the_crm(crm_api: Api, upstream_http: LoopbackServer) -> None:  # fmt: skip
    url = upstream_http.base + "/crm/leads"
    earlier = len(upstream_http.seen)  # the server is shared: other tests' leads came before
    t, sid = await skilled(crm_api, skills={"leads": {"webhook_url": url}}, customer="bob")
    bad_email = await call(t, sid, "collect_lead", {"name": "Bob", "email": "bob@", "interest": "boots"})  # fmt: skip
    neither = await call(t, sid, "collect_lead", {"name": "Bob", "interest": "boots"})
    collected = await call(t, sid, "collect_lead", {"name": "=HYPERLINK(1)", "email": "bob@example.com", "phone": "+49 30 1234567", "interest": "boots"})  # fmt: skip
    again = await call(t, sid, "collect_lead", {"name": "Bob", "email": "bob@example.com", "interest": "boots"})  # fmt: skip
    for i in range(3):  # more leads from other sessions, for the pages
        other = (await t.agent.post("/v1/sessions", json={"bot": "shop"})).json()["id"]
        await call(t, other, "collect_lead", {"name": f"Lead {i}", "phone": "0301234567", "interest": "tents"})  # fmt: skip
    page1 = (await t.dev.get("/v1/leads?limit=2")).json()
    page2 = (await t.dev.get(f"/v1/leads?limit=2&cursor={page1['next_cursor']}")).json()
    exported = await t.dev.get("/v1/leads?format=csv")
    by_agent = await t.agent.get("/v1/leads")

    assert (
        bad_email["error"]["code"] == "invalid_input" and "email" in bad_email["error"]["message"]
    )
    assert neither["error"]["code"] == "invalid_input"
    assert collected["success"] and collected["result"]["forwarded"] == "sent"
    assert again["error"]["code"] == "tool_not_available"  # done once: gone from the session
    sent = [s for s in upstream_http.seen[earlier:] if s["path"] == "/crm/leads"]
    assert sent[0]["body"]["lead"]["email"] == "bob@example.com" and sent[0]["body"]["lead"]["customer"] == "bob"  # fmt: skip
    leads = page1["leads"] + page2["leads"]
    assert len(leads) == 4 and page2["next_cursor"] is None
    assert leads[0]["forwarded"] == "sent"
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert exported.headers["content-type"].startswith("text/csv") and len(rows) == 4
    assert rows[0]["name"] == "'=HYPERLINK(1)"  # a spreadsheet does not run it
    assert by_agent.status_code == 403


async def test_a_form_is_defined_submitted_checked_and_listed(api: Api) -> None:
    t, sid = await skilled(api, skills={"forms": {}})
    schema = {"type": "object", "properties": {"when": {"type": "string"}, "people": {"type": "integer", "minimum": 1}}, "required": ["when", "people"]}  # fmt: skip
    defined = await t.dev.put(
        "/v1/forms/booking", json={"description": "a table", "schema": schema}
    )
    not_object = await t.dev.put("/v1/forms/bad", json={"schema": {"type": "string"}})
    invalid_schema = await t.dev.put("/v1/forms/bad", json={"schema": {"type": "object", "properties": {"x": {"type": 12}}}})  # fmt: skip
    ok = await call(t, sid, "submit_form", {"form": "booking", "fields": {"when": "Friday 8pm", "people": 4}})  # fmt: skip
    wrong = await call(t, sid, "submit_form", {"form": "booking", "fields": {"when": "Friday", "people": 0}})  # fmt: skip
    unknown = await call(t, sid, "submit_form", {"form": "nope", "fields": {}})
    listed = (await t.dev.get("/v1/forms/booking/submissions")).json()

    assert defined.status_code == 201
    assert not_object.status_code == 422 and invalid_schema.status_code == 422
    assert ok["success"] and ok["result"]["form"] == "booking"
    assert wrong["error"]["code"] == "invalid_input" and "people" in wrong["error"]["message"]
    assert unknown["error"]["code"] == "not_found"
    assert [s["fields"] for s in listed["submissions"]] == [{"when": "Friday 8pm", "people": 4}]


def _slots(n: int) -> list[dict]:
    base = (datetime.now(UTC) + timedelta(days=2)).replace(minute=0, second=0, microsecond=0)
    return [{"start": (base + timedelta(hours=i)).isoformat(), "end": (base + timedelta(hours=i, minutes=30)).isoformat()} for i in range(n)]  # fmt: skip


async def test_appointments_are_booked_in_open_slots_only(api: Api) -> None:
    t, sid = await skilled(api, skills={"appointments": {"calendar": "visits"}})
    slots = _slots(3)
    past = {"start": "2020-01-01T09:00:00+00:00", "end": "2020-01-01T09:30:00+00:00"}
    put = await t.dev.put("/v1/calendars/visits", json={"slots": [*slots, past]})
    naive = await t.dev.put("/v1/calendars/bad", json={"slots": [{"start": "2030-01-01T09:00:00", "end": "2030-01-01T10:00:00"}]})  # fmt: skip
    backwards = await t.dev.put("/v1/calendars/bad", json={"slots": [{"start": "2030-01-01T10:00:00Z", "end": "2030-01-01T09:00:00Z"}]})  # fmt: skip
    open_ = await call(t, sid, "available_slots")
    booked = await call(t, sid, "book_appointment", {"start": slots[0]["start"], "name": "Ann", "contact": "ann@example.com"})  # fmt: skip
    twice = await call(t, sid, "book_appointment", {"start": slots[0]["start"], "name": "Bob"})
    in_the_past = await call(t, sid, "book_appointment", {"start": past["start"], "name": "Bob"})
    not_a_slot = await call(t, sid, "book_appointment", {"start": "2031-01-01T00:00:00Z", "name": "Bob"})  # fmt: skip
    no_offset = await call(t, sid, "book_appointment", {"start": "2031-01-01T00:00:00", "name": "Bob"})  # fmt: skip
    then = await call(t, sid, "available_slots")
    calendar = (await t.dev.get("/v1/calendars/visits")).json()

    assert put.status_code == 201 and naive.status_code == 422 and backwards.status_code == 422
    assert [s["start"] for s in open_["result"]["slots"]] == [s["start"] for s in slots]
    assert booked["success"] and booked["result"]["start"] == slots[0]["start"]
    assert twice["error"]["code"] == "slot_taken" and slots[1]["start"] in twice["error"]["message"]
    assert (
        in_the_past["error"]["code"] == "not_found" and not_a_slot["error"]["code"] == "not_found"
    )
    assert no_offset["error"]["code"] == "invalid_input"
    assert [s["start"] for s in then["result"]["slots"]] == [s["start"] for s in slots[1:]]
    assert [(a["name"], a["contact"]) for a in calendar["appointments"]] == [
        ("Ann", "ann@example.com")
    ]


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_concurrent_bookings_of_one_slot_book_it_once(api: Api) -> None:
    t, _ = await skilled(api, skills={"appointments": {}})
    slot = _slots(1)[0]
    await t.dev.put("/v1/calendars/visits", json={"slots": [slot]})
    sessions = [(await t.agent.post("/v1/sessions", json={"bot": "shop"})).json()["id"] for _ in range(8)]  # fmt: skip

    results = await asyncio.gather(*(call(t, sid, "book_appointment", {"start": slot["start"], "name": f"n{i}"}) for i, sid in enumerate(sessions)))  # fmt: skip
    calendar = (await t.dev.get("/v1/calendars/visits")).json()

    assert sum(r["success"] for r in results) == 1
    assert {r["error"]["code"] for r in results if not r["success"]} == {"slot_taken"}
    assert len(calendar["appointments"]) == 1


NOTE = simple_tool("note", 'context.update_context({"favourite_colour": "teal green"})\nreturn {"noted": True}')  # fmt: skip


async def test_recall_memory_finds_what_the_customer_left_in_earlier_sessions(api: Api) -> None:
    t, first = await skilled(api, skills={"memory": {}}, customer="cid-7")
    assert (await t.dev.post("/v1/tools", json=NOTE)).status_code == 201
    await t.dev.put("/v1/bots/shop", json={"name": "shop", "tools": ["note"], "skills": {"memory": {}}})  # fmt: skip
    await call(t, first, "note")
    later = (await t.agent.post("/v1/sessions", json={"bot": "shop", "customer": "cid-7"})).json()["id"]  # fmt: skip
    stranger = (await t.agent.post("/v1/sessions", json={"bot": "shop", "customer": "someone-else"})).json()["id"]  # fmt: skip
    anonymous = (await t.agent.post("/v1/sessions", json={"bot": "shop"})).json()["id"]

    recalled = await call(t, later, "recall_memory", {"query": "what colour do they like"})
    not_theirs = await call(t, stranger, "recall_memory", {"query": "colour"})
    nobody = await call(t, anonymous, "recall_memory", {"query": "colour"})

    memories = recalled["result"]["memories"]
    assert memories and "teal green" in memories[0]["text"] and memories[0]["session_id"] == first
    assert datetime.fromisoformat(memories[0]["date"]).tzinfo is not None
    assert not_theirs["result"]["memories"] == [] and nobody["result"]["memories"] == []


KB_TOOL = """
def execute(params, context):
    found = context.modules.knowledge_base.search(params["q"], collection=params.get("collection"), limit=3)
    return {"found": [[hit["collection"], hit["id"], hit["text"]] for hit in found]}


tool = {"name": "kb", "description": "Searches the knowledge base", "execute": execute,
        "parameters": {"q": {"type": "string", "required": True}, "collection": {"type": "string"}}}
"""
DOCUMENTS = [
    {
        "id": "refunds",
        "title": "Refund policy",
        "text": "Refunds are paid within 14 days.\\n\\nKeep the receipt.",
    },
    {"id": "secret", "title": "Internal pricing", "text": "The wholesale margin is 42 percent."},
]


@pytest.mark.usefixtures("python_runner")
@pytest.mark.parametrize("sandbox", ["restricted", "wasm"])
async def test_code_tools_search_their_own_tenants_knowledge_base_only(api: Api, sandbox: str) -> None:  # fmt: skip
    acme = await api.tenant("acme")
    rival = await api.tenant("rival")
    await upload(acme, "handbook", "documents", [{**d, "text": d["text"].replace("\\n", "\n")} for d in DOCUMENTS])  # fmt: skip
    for t in (acme, rival):
        assert (await t.dev.post("/v1/tools", json=python(KB_TOOL, sandbox))).status_code == 201
        await t.dev.post("/v1/bots", json={"name": "b", "tools": ["kb"]})
    acme_sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    rival_sid = (await rival.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    own = await call(acme, acme_sid, "kb", {"q": "refund receipt"})
    named = await call(acme, acme_sid, "kb", {"q": "margin", "collection": "handbook"})
    theirs = await call(rival, rival_sid, "kb", {"q": "wholesale margin"})
    theirs_by_name = await call(rival, rival_sid, "kb", {"q": "margin", "collection": "handbook"})
    empty = await call(acme, acme_sid, "kb", {"q": "  "})

    assert own["result"]["found"][0][:2] == ["handbook", "refunds"]
    assert "14 days" in own["result"]["found"][0][2]
    assert named["result"]["found"][0][1] == "secret"
    assert theirs["result"]["found"] == []
    assert not theirs_by_name["success"] and "handbook" in theirs_by_name["error"]["message"]
    assert "42 percent" not in str(theirs) + str(theirs_by_name)
    assert not empty["success"]


async def test_only_built_in_tools_reach_the_skills(api: Api) -> None:
    """A tenant's tool has no ``skills`` module, and the host refuses ``skills`` calls from any
    tool that is not a built-in — and a built-in may run only its own skill."""
    from server.calls.host import HostCallRefused

    acme = await api.tenant("acme", shared=SKILL_TOOLS)
    sneaky = simple_tool("sneaky", 'return context.modules.skills.collect_lead({"name": "x", "email": "a@b.cd", "interest": "y"})')  # fmt: skip
    assert (await acme.dev.post("/v1/tools", json=sneaky)).status_code == 201
    tested = (await acme.dev.post("/v1/tools/sneaky/test", json={"arguments": {}})).json()
    pipeline = api.runtime.pipeline
    tenant_host = pipeline._host(1000, acme.id, None)
    qa_lookup = next(t for t in api.runtime.registry.disk.defs() if t.name == "qa_lookup")
    builtin_host = pipeline._host(1000, acme.id, None, skill=(None, qa_lookup))

    with pytest.raises(HostCallRefused):
        await tenant_host(
            "skills", "collect_lead", {"name": "x", "email": "a@b.cd", "interest": "y"}
        )
    with pytest.raises(HostCallRefused, match="its own skill"):
        await builtin_host(
            "skills", "collect_lead", {"name": "x", "email": "a@b.cd", "interest": "y"}
        )
    assert not tested["success"] and tested["error"]["code"] == "tool_error"
    assert (await acme.dev.get("/v1/leads")).json()["leads"] == []


async def test_a_bots_classifier_detects_each_messages_intent(api: Api) -> None:
    """Intent detection by the tenant's samples (issue: conversations, part 4)."""
    t = await api.tenant("acme")
    await upload(t, "intents", "samples", SAMPLES)
    detection = {"mode": "classifier", "dataset": "intents", "threshold": 0.6}
    bot = {"name": "b", "tools": None, "intents": {"shopping": [], "delivery": []}, "intent_detection": detection}  # fmt: skip
    assert (await t.dev.post("/v1/bots", json=bot)).status_code == 201
    bad = await t.dev.put("/v1/bots/b", json={**bot, "intent_detection": {"mode": "classifier", "dataset": "x", "threshold": 2}})  # fmt: skip
    sid = (await t.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    parcel = (await t.agent.post(f"/v1/sessions/{sid}/intent/detect", json={"text": "my parcel has not arrived yet"})).json()  # fmt: skip
    gift = (await t.agent.post(f"/v1/sessions/{sid}/intent/detect", json={"text": "a birthday gift please"})).json()  # fmt: skip
    danger = (await t.agent.post(f"/v1/sessions/{sid}/intent/detect", json={"text": "Vorsicht, Gift im Keller"})).json()  # fmt: skip
    session = (await t.dev.get(f"/v1/sessions/{sid}")).json()
    await upload(t, "intents", None, [{"text": "x", "label": "other"}])
    await t.dev.delete("/v1/datasets/intents")
    gone = (await t.agent.post(f"/v1/sessions/{sid}/intent/detect", json={"text": "my parcel"})).json()  # fmt: skip

    assert (
        bad.status_code == 422 and bad.json()["errors"][0]["field"] == "intent_detection.threshold"
    )
    assert (parcel["detected"], parcel["changed"], parcel["mode"]) == (
        "delivery",
        True,
        "classifier",
    )
    assert parcel["score"] >= 0.6
    assert (gift["detected"], gift["intent"]) == ("shopping", "shopping")
    assert danger["detected"] is None and danger["intent"] == "shopping"  # not a bot intent: kept
    assert session["intent"] == "shopping"
    assert gone["detected"] is None and "intents" in gone["error"]


KB_JS = """
module.exports = {
  name: 'kbJs', description: 'Searches the knowledge base the LiteBot way',
  parameters: { q: { type: 'string', required: true } },
  execute: async (params, context) => {
    const found = await context.modules.knowledgeBase.searchDocuments(params.q, { collection: 'handbook', limit: 2 });
    return { found: found.map((hit) => [hit.collection, hit.id]) };
  },
};
"""


async def test_a_javascript_tool_searches_documents_by_litebots_name(api: Api) -> None:
    acme = await api.tenant("acme")
    await upload(acme, "handbook", "documents", [{**d, "text": d["text"].replace("\\n", "\n")} for d in DOCUMENTS])  # fmt: skip
    assert (await acme.dev.post("/v1/tools", json={"kind": "javascript", "source": KB_JS})).status_code == 201  # fmt: skip
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": ["kbJs"]})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    found = await call(acme, sid, "kbJs", {"q": "refund receipt"})

    assert found["success"], found
    assert found["result"]["found"][0] == ["handbook", "refunds"]
