"""The built-in skills through HTTP on SQLite and PostgreSQL: data sets uploaded as NDJSON,
skills configured on a bot and shared through the allowlist, each skill called in a session."""

from __future__ import annotations

import asyncio
import logging

import orjson
import pytest

from tests.api.test_calls import call
from tests.conftest import Api, TenantKeys
from tests.servers import served

SKILL_TOOLS = [
    "qa_lookup", "search_catalog", "classify_text", "recommend_for_customer", "recommend_similar",
    "record_preference", "collect_lead", "submit_form", "available_slots", "book_appointment",
    "recall_memory",
]  # fmt: skip

FAQ = [
    {
        "id": "hours",
        "question": "What are your opening hours?",
        "answer": "9 to 5, Monday to Friday.",
        "category": "store",
    },  # fmt: skip
    {
        "id": "returns",
        "question": "How do I return an item?",
        "answer": "Send it back within 30 days with the receipt.",
        "category": "orders",
    },  # fmt: skip
    {
        "id": "shipping",
        "question": "How long does shipping take?",
        "answer": "Two to four working days.",
        "category": "orders",
    },  # fmt: skip
    {
        "id": "warranty",
        "question": "Is there a warranty on electronics?",
        "answer": "Two years on every device.",
        "category": "store",
    },  # fmt: skip
    {
        "id": "tokyo",
        "question": "東京に店舗はありますか？",
        "answer": "はい、渋谷にあります。",
        "category": "store",
    },  # fmt: skip
]
PRODUCTS = [
    {
        "id": "p1",
        "fields": {
            "title": "Trail running shoe",
            "body": "Light shoe for muddy trails",
            "brand": "Peak",
        },
        "meta": {"price": 120},
    },  # fmt: skip
    {
        "id": "p2",
        "fields": {
            "title": "Road running shoe",
            "body": "Cushioned shoe for asphalt",
            "brand": "Peak",
        },
        "meta": {"price": 100},
    },  # fmt: skip
    {
        "id": "p3",
        "fields": {
            "title": "Rain jacket",
            "body": "Waterproof jacket, good for trail running in the rain",
            "brand": "Dry",
        },
        "meta": {"price": 90},
    },  # fmt: skip
    {
        "id": "p4",
        "fields": {"title": "東京タワーの模型", "body": "金属製の模型です", "brand": "Model"},
        "meta": {},
    },  # fmt: skip
    {
        "id": "p5",
        "fields": {"title": "北京の寿司セット", "body": "人気の寿司", "brand": "Food"},
        "meta": {},
    },  # fmt: skip
    {
        "id": "p6",
        "fields": {"title": "Hiking boot", "body": "Boot for trail hikes and mud", "brand": "Peak"},
        "meta": {},
    },  # fmt: skip
    {
        "id": "p7",
        "fields": {"title": "Yoga mat", "body": "Mat for yoga at home", "brand": "Calm"},
        "meta": {},
    },  # fmt: skip
]


def ndjson(rows: list[dict]) -> bytes:
    return b"\n".join(orjson.dumps(r) for r in rows) + b"\n"


async def upload(t: TenantKeys, name: str, kind: str | None, rows: list[dict] | bytes) -> dict:
    body = rows if isinstance(rows, bytes) else ndjson(rows)
    query = f"?kind={kind}" if kind else ""
    response = await t.dev.put(f"/v1/datasets/{name}{query}", content=body, headers={"Content-Type": "application/x-ndjson"})  # fmt: skip
    return {"status": response.status_code, **response.json()}


async def skilled(api: Api, name: str = "acme", skills: dict | None = None, customer: str | None = None) -> tuple[TenantKeys, str]:  # fmt: skip
    """A tenant allowed the skill tools, with a bot using ``skills`` and a session of it."""
    t = await api.tenant(name, shared=SKILL_TOOLS)
    created = await t.dev.post(
        "/v1/bots", json={"name": "shop", "tools": [], "skills": skills or {}}
    )
    assert created.status_code == 201, created.text
    attached = await t.agent.post("/v1/sessions", json={"bot": "shop", **({"customer": customer} if customer else {})})  # fmt: skip
    assert attached.status_code == 201, attached.text
    return t, attached.json()["id"]


async def test_a_data_set_is_uploaded_listed_paged_replaced_and_deleted(api: Api) -> None:
    acme = await api.tenant("acme")
    first = await upload(acme, "faq", "faq", FAQ)
    listed = (await acme.dev.get("/v1/datasets")).json()
    page1 = (await acme.dev.get("/v1/datasets/faq?limit=2")).json()
    page2 = (await acme.dev.get(f"/v1/datasets/faq?limit=2&cursor={page1['next_cursor']}")).json()
    second = await upload(acme, "faq", None, FAQ[:2])  # the set keeps its kind
    after = (await acme.dev.get("/v1/datasets/faq")).json()
    by_agent = await acme.agent.get("/v1/datasets")
    deleted = await acme.dev.delete("/v1/datasets/faq")
    gone = await acme.dev.get("/v1/datasets/faq")

    assert first["status"] == 201 and (first["kind"], first["version"], first["items"]) == (
        "faq",
        1,
        5,
    )
    assert [d["name"] for d in listed["datasets"]] == ["faq"]
    assert [e["id"] for e in page1["data"] + page2["data"]] == [
        "hours",
        "returns",
        "shipping",
        "warranty",
    ]
    assert second["status"] == 200 and (second["version"], second["items"]) == (2, 2)
    assert [e["id"] for e in after["data"]] == ["hours", "returns"]
    assert by_agent.status_code == 403
    assert deleted.status_code == 204 and gone.status_code == 404


@pytest.mark.parametrize(
    ("body", "line", "field"),
    [
        (ndjson([FAQ[0], FAQ[1], {"id": "x", "question": "q?"}]), 3, "answer"),
        (ndjson([FAQ[0], {**FAQ[1], "id": "hours"}]), 2, "id"),
        (ndjson([FAQ[0]]) + b"{not json}\n", 2, None),
        (ndjson([FAQ[0], {**FAQ[1], "answer": "nul \u0000 here"}]), 2, "answer"),
        (ndjson([FAQ[0], {**FAQ[1], "extra": 1}]), 2, "extra"),
        (ndjson([FAQ[0]]) + b"[1, 2]\n", 2, None),
        (ndjson([FAQ[0], {**FAQ[1], "question": 42}]), 2, "question"),
    ],
    ids=[
        "missing-field",
        "duplicate-id",
        "not-json",
        "nul",
        "unknown-field",
        "not-an-object",
        "wrong-type",
    ],
)
async def test_a_bad_line_is_named_and_nothing_of_the_upload_is_stored(api: Api, body: bytes, line: int, field: str | None) -> None:  # fmt: skip
    acme = await api.tenant("acme")
    await upload(acme, "faq", "faq", FAQ[:1])
    good = [{**e, "id": f"good-{e['id']}"} for e in FAQ[1:4]]
    refused = await upload(
        acme, "faq", None, ndjson(good) + body
    )  # the bad line comes after good ones
    kept = (await acme.dev.get("/v1/datasets/faq")).json()

    assert refused["status"] == 422 and refused["code"] == "validation_error"
    assert refused["errors"][0]["line"] == line + 3
    assert refused["errors"][0].get("field") == field
    assert (kept["version"], [e["id"] for e in kept["data"]]) == (1, ["hours"])


async def test_uploads_without_a_kind_or_items_or_over_the_allowance_are_refused(api: Api) -> None:
    acme = await api.tenant("acme")
    no_kind = await upload(acme, "faq", None, FAQ)
    bad_kind = await upload(acme, "faq", "poems", FAQ)
    empty = await upload(acme, "faq", "faq", b"\n\n")
    api.runtime.settings.dataset_max_bytes = 2000
    too_big = await upload(acme, "big", "faq", [{**e, "id": f"{e['id']}{i}"} for i in range(20) for e in FAQ])  # fmt: skip
    api.runtime.settings.dataset_max_bytes = 64 * 1024 * 1024
    endless = await upload(acme, "long", "documents", b'{"id": "a", "text": "' + b"x" * (2 * 1024 * 1024))  # fmt: skip
    listed = (await acme.dev.get("/v1/datasets")).json()

    assert no_kind["status"] == 422 and no_kind["errors"][0]["field"] == "kind"
    assert bad_kind["status"] == 422
    assert empty["status"] == 422 and empty["errors"][0]["field"] == "body"
    assert too_big["status"] == 413 and too_big["code"] == "payload_too_large"
    assert (
        endless["status"] == 422
        and endless["errors"][0]["line"] == 1
        and "longer than" in endless["detail"]
    )
    assert listed["datasets"] == []


async def test_a_skill_joins_the_bots_snapshot_when_configured_and_shared(api: Api) -> None:
    t, sid = await skilled(api, skills={"qa": {"dataset": "faq", "top_k": 3}})
    await t.dev.post("/v1/bots", json={"name": "plain", "tools": None})
    unshared = await api.tenant("other")
    await unshared.dev.post("/v1/bots", json={"name": "shop", "tools": None, "skills": {"qa": {}}})

    skilled_tools = (await t.agent.get(f"/v1/sessions/{sid}/snapshot")).json()["tools"]
    plain = (await t.dev.get("/v1/bots/plain/snapshot")).json()["tools"]
    other = (await unshared.dev.get("/v1/bots/shop/snapshot")).json()["tools"]
    bad = await t.dev.put("/v1/bots/shop", json={"name": "shop", "tools": [], "skills": {"qa": {"top_k": 0}, "poetry": {}}})  # fmt: skip

    assert [(x["name"], x["parameters"]["required"]) for x in skilled_tools] == [("qa_lookup", ["question"])]  # fmt: skip
    assert [x["name"] for x in plain] == []  # unconfigured skills stay out of a bot's "all tools"
    assert other == []  # configured but not shared with the tenant
    assert bad.status_code == 422


async def test_qa_lookup_answers_with_a_score_and_a_confidence(api: Api) -> None:
    t, sid = await skilled(api, skills={"qa": {"top_k": 2}})
    await upload(t, "faq", "faq", FAQ)

    hours = await call(t, sid, "qa_lookup", {"question": "how about your opening hours on the store?"})  # fmt: skip
    tokyo = await call(t, sid, "qa_lookup", {"question": "東京の店舗"})
    unrelated = await call(t, sid, "qa_lookup", {"question": "zebra xylophone quantum"})
    mars = await call(t, sid, "qa_lookup", {"question": "What's the weather on Mars?"})
    only_function_words = await call(t, sid, "qa_lookup", {"question": "what is it about, and how?"})  # fmt: skip
    blank = await call(t, sid, "qa_lookup", {"question": "   ?! "})

    answers = hours["result"]["answers"]
    exact = await call(t, sid, "qa_lookup", {"question": "What are your opening hours?"})
    assert exact["result"]["answered"] is True and exact["result"]["answers"][0]["id"] == "hours"
    assert answers[0]["id"] == "hours" and len(answers) == 2  # "store": the warranty's category
    assert 0 <= answers[1]["confidence"] <= answers[0]["confidence"] <= 1
    assert answers[0]["score"] > answers[1]["score"]
    assert tokyo["result"]["answers"][0]["id"] == "tokyo"
    assert unrelated["success"] and unrelated["result"] == {"answered": False, "answers": []}
    # matched only by "on" and "the" before: the FAQ knows nothing of the weather
    assert mars["result"] == {"answered": False, "answers": []}
    assert only_function_words["result"] == {"answered": False, "answers": []}
    assert blank["error"]["code"] == "invalid_input"


async def test_qa_lookup_says_when_it_has_no_answer_below_the_bots_threshold(api: Api) -> None:
    t, sid = await skilled(api, skills={"qa": {"threshold": 0.99}})
    await upload(t, "faq", "faq", FAQ)

    strict = await call(t, sid, "qa_lookup", {"question": "What are your opening hours?"})
    await t.dev.put("/v1/bots/shop", json={"name": "shop", "tools": [], "skills": {"qa": {"threshold": 0.01}}})  # fmt: skip
    lenient = await call(t, sid, "qa_lookup", {"question": "What are your opening hours?"})
    bad = await t.dev.put("/v1/bots/shop", json={"name": "shop", "tools": [], "skills": {"qa": {"threshold": 2}}})  # fmt: skip

    assert strict["result"]["answered"] is False
    assert strict["result"]["answers"][0]["id"] == "hours"  # the candidates, all the same
    assert lenient["result"]["answered"] is True
    assert bad.status_code == 422 and "threshold" in bad.text


async def test_search_catalog_ranks_by_weighted_fields_and_finds_two_character_cjk_words(api: Api) -> None:  # fmt: skip
    t, sid = await skilled(api, skills={"search": {"dataset": "products", "top_k": 3}})
    await upload(t, "products", "catalog", PRODUCTS)
    titles_first = {"title": 5, "body": 1, "brand": 1}
    await t.dev.put("/v1/bots/shop", json={"name": "shop", "tools": [], "skills": {"search": {"dataset": "products", "field_weights": titles_first}}})  # fmt: skip

    trail = await call(t, sid, "search_catalog", {"query": "trail running"})
    tokyo = await call(t, sid, "search_catalog", {"query": "東京"})
    beijing = await call(t, sid, "search_catalog", {"query": "北京"})
    sushi = await call(t, sid, "search_catalog", {"query": "寿司"})

    hits = trail["result"]["hits"]
    assert hits[0]["id"] == "p1"
    assert set(hits[0]) == {"id", "fields", "meta", "score"} and hits[0]["meta"] == {"price": 120}
    # the two-character word is its own term (its bigram), so it outranks a shared character
    assert [h["id"] for h in tokyo["result"]["hits"]] == ["p4", "p5"]
    assert [h["id"] for h in beijing["result"]["hits"]] == ["p5", "p4"]
    assert [h["id"] for h in sushi["result"]["hits"]] == ["p5"]


async def test_field_weights_change_the_ranking(api: Api) -> None:
    t, sid = await skilled(api, skills={"search": {"field_weights": {"title": 10, "body": 0.1}}})
    await upload(t, "products", "catalog", PRODUCTS)
    by_title = [h["id"] for h in (await call(t, sid, "search_catalog", {"query": "rain jacket trail"}))["result"]["hits"]]  # fmt: skip
    await t.dev.put("/v1/bots/shop", json={"name": "shop", "tools": [], "skills": {"search": {"field_weights": {"title": 0.1, "body": 10}}}})  # fmt: skip
    by_body = [h["id"] for h in (await call(t, sid, "search_catalog", {"query": "trail"}))["result"]["hits"]]  # fmt: skip

    assert by_title[0] == "p3"
    assert by_body[0] in ("p3", "p6")  # "trail" in their bodies; p1's body says "trails"


async def test_a_new_version_of_a_data_set_reaches_the_index_at_once(api: Api) -> None:
    t, sid = await skilled(api, skills={"search": {}})
    await upload(t, "products", "catalog", PRODUCTS)
    before = await call(t, sid, "search_catalog", {"query": "yoga"})
    old_index = await api.runtime.indexes.get(t.id, "products", "catalog")
    await upload(t, "products", None, [{"id": "y2", "fields": {"title": "Yoga block"}}])
    after = await call(t, sid, "search_catalog", {"query": "yoga"})

    assert [h["id"] for h in before["result"]["hits"]] == ["p7"]
    assert [h["id"] for h in after["result"]["hits"]] == ["y2"]
    # a query that began on the old version finishes on it: indexes are immutable
    assert [old_index.items[h.position]["id"] for h in old_index.index.search("yoga")] == ["p7"]


async def test_skills_without_a_data_set_or_with_several_say_so(api: Api) -> None:
    t, sid = await skilled(api, skills={"search": {}, "qa": {"dataset": "nope"}})
    none_yet = await call(t, sid, "search_catalog", {"query": "shoe"})
    await upload(t, "a", "catalog", PRODUCTS)
    await upload(t, "b", "catalog", PRODUCTS)
    several = await call(t, sid, "search_catalog", {"query": "shoe"})
    missing = await call(t, sid, "qa_lookup", {"question": "hours?"})

    assert none_yet["error"]["code"] == "not_configured"
    assert several["error"]["code"] == "not_configured"
    assert missing["error"]["code"] == "not_configured" and "nope" in missing["error"]["message"]


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_data_set_change_on_node_1_reaches_node_2s_index(api: Api, settings) -> None:
    import time

    from tests.servers import bearer_client, node_process

    t, sid = await skilled(api, skills={"search": {}})
    await upload(t, "products", "catalog", PRODUCTS)
    with node_process(settings) as node2:
        remote = bearer_client(node2.base, t.agent_key)

        async def remote_hits() -> list[str]:
            answer = await remote.post(f"/v1/sessions/{sid}/calls", json={"tool": "search_catalog", "arguments": {"query": "yoga"}})  # fmt: skip
            return [h["id"] for h in answer.json()["result"]["hits"]]

        before = await remote_hits()  # node 2 builds and keeps its index of version 1
        await upload(t, "products", None, [{"id": "y2", "fields": {"title": "Yoga block"}}])
        # each look is a call to node 2; looks are bounded in time, not spaced by sleeps (NOTIFY
        # takes milliseconds: the first or second look sees the new version)
        deadline = time.monotonic() + 10
        after = await remote_hits()
        while after != ["y2"] and time.monotonic() < deadline:
            after = await remote_hits()
        await remote.aclose()

    assert before == ["p7"]
    assert after == ["y2"]


async def test_a_client_leaving_mid_upload_stores_nothing_and_logs_one_line(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    acme = await api.tenant("acme")
    part = ndjson(FAQ * 50)
    head = (
        f"PUT /v1/datasets/faq?kind=faq HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {acme.dev_key}\r\nContent-Type: application/x-ndjson\r\n"
        f"Content-Length: {len(part) * 10}\r\n\r\n"
    ).encode()
    caplog.set_level(logging.INFO)
    seen = asyncio.Event()
    heard = logging.Handler()
    heard.emit = lambda record: seen.set() if "the client left" in record.getMessage() else None  # type: ignore[method-assign]
    logging.getLogger("quiver").addHandler(heard)
    try:
        async with served(api.app) as base:
            host, port = base.removeprefix("http://").split(":")
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(head + part)  # a tenth of what it said it would send, then it leaves
            await writer.drain()
            writer.close()
            await writer.wait_closed()
            await asyncio.wait_for(seen.wait(), 30)  # bounded: the server saw the client go
    finally:
        logging.getLogger("quiver").removeHandler(heard)
    listed = await acme.dev.get("/v1/datasets")

    left = [r for r in caplog.records if "the client left" in r.getMessage()]
    assert len(left) == 1 and left[0].exc_info is None
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
    assert listed.json()["datasets"] == []  # nothing of the cut upload was stored


async def test_the_end_user_browses_the_bots_faq_and_catalog_in_a_panel(api: Api) -> None:
    """dddk's PanelSkill: an agent key reads, a page at a time, the FAQ and catalog the bot's
    skills answer from — only those (not another data set, nor a skill the bot does not use)."""
    t, _ = await skilled(api, skills={"qa": {"dataset": "faq"}})
    await upload(t, "faq", "faq", FAQ)
    await upload(t, "secret_notes", "faq", FAQ[:1])

    first = (await t.agent.get("/v1/bots/shop/panel/qa?limit=2")).json()
    rest = (await t.agent.get(f"/v1/bots/shop/panel/qa?limit=2&cursor={first['next_cursor']}")).json()  # fmt: skip
    no_catalog = await t.agent.get("/v1/bots/shop/panel/search")
    no_such_panel = await t.agent.get("/v1/bots/shop/panel/leads")
    other = await (await api.tenant("globex")).agent.get("/v1/bots/shop/panel/qa")
    await upload(t, "products", "catalog", PRODUCTS)
    await t.dev.put("/v1/bots/shop", json={"name": "shop", "tools": [], "skills": {"qa": {"dataset": "faq"}, "search": {}}})  # fmt: skip
    catalog = (await t.agent.get("/v1/bots/shop/panel/search")).json()

    assert first["dataset"] == "faq" and len(first["items"]) == 2
    assert set(first["items"][0]) == {"id", "question", "answer", "category"}
    assert [i["id"] for i in first["items"] + rest["items"]] == [e["id"] for e in FAQ][
        : 2 + len(rest["items"])
    ]
    assert no_catalog.status_code == 404 and no_such_panel.status_code == 422
    assert other.status_code == 404
    assert catalog["dataset"] == "products" and len(catalog["items"]) == len(PRODUCTS)
    assert set(catalog["items"][0]) == {"id", "fields", "meta"}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_bad_first_line_is_refused_before_the_rest_of_a_large_body_is_sent(api: Api) -> None:  # fmt: skip
    """15 MB announced, one bad line and a few good ones sent: the 422 naming line 1 arrives
    while the client has not sent the rest (a client on a slow link learns at once)."""
    acme = await api.tenant("acme")
    async with served(api.app) as base:
        host, port = base.rsplit("/", 1)[1].split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        head = (f"PUT /v1/datasets/faq?kind=faq HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {acme.dev_key}\r\n"
                f"Content-Type: application/x-ndjson\r\nContent-Length: {15 * 1024 * 1024}\r\n\r\n").encode()  # fmt: skip
        good = b'{"id": "b", "question": "q?", "answer": "x"}\n'
        writer.write(head + b'{"id": "a", "question": "q?"}\n' + good * 100)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(65536), 10)  # bounded: it must not wait
        writer.close()

    status, _, body = answer.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 422")
    assert b'"line":1' in body and b'"field":"answer"' in body
