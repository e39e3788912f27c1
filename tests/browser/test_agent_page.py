"""A real page in headless Chromium (Debian's, driven by Playwright) uses quiver-agent.js against
a real uvicorn: attach, browser actions registered before and after attach, live changes,
a server tool call and a browser action call.

The page is served from a second origin, as a customer's site would be, so CORS is exercised.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from tests.api.test_breakers import STEADY, setup
from tests.conftest import Api
from tests.servers import served

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
CHROMIUM = os.environ.get("QUIVER_TEST_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture
def chromium() -> str:
    if shutil.which(CHROMIUM) is None:
        if os.environ.get("QUIVER_REQUIRE_BROWSER") == "1":
            raise AssertionError(f"{CHROMIUM} is missing; .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} not installed; browser tests skipped")
    return CHROMIUM


async def open_page(browser, page_origin: str, base: str, key: str, init_script: str | None = None):
    """tests/browser/page.html from the second origin, attached with ``key`` to bot ``b``."""
    page = await browser.new_page()
    if init_script:
        await page.add_init_script(init_script)
    await page.goto(f"{page_origin}/page.html#base={base}&key={key}&bot=b")
    await page.wait_for_function("window.ready || window.failed", timeout=15_000)
    return page


@pytest.fixture
def page_origin() -> Iterator[str]:
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(Path(__file__).parent))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


async def test_a_page_attaches_registers_actions_and_calls_tools(
    api: Api, chromium: str, page_origin: str
) -> None:
    from playwright.async_api import async_playwright

    acme = await api.tenant("acme")
    await setup(acme)
    async with served(api.app) as base, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        page = await open_page(browser, page_origin, base, acme.agent_key)
        assert await page.evaluate("window.failed || null") is None

        sid = await page.evaluate("window.quiver.default.session")
        server_view = (await acme.agent.get(f"/v1/sessions/{sid}/snapshot")).json()["tools"]
        page_tools = await page.evaluate("window.quiver.tools().map(t => [t.name, t.executor])")
        openai = await page.evaluate("window.quiver.toOpenAITools().map(t => t.function.name)")

        started = time.monotonic()
        fresh = {**STEADY, "source": STEADY["source"].replace('"steady"', '"fresh"')}
        assert (await acme.dev.post("/v1/tools", json=fresh)).status_code == 201
        await page.wait_for_function(
            "window.changes.some(c => c.added.includes('fresh'))", timeout=1_000
        )
        reached = time.monotonic() - started
        await acme.dev.delete("/v1/tools/fresh")
        await page.wait_for_function(
            "window.changes.some(c => c.removed.includes('fresh'))", timeout=1_000
        )

        server_call = await page.evaluate("window.quiver.call('steady', {})")
        action_call = await page.evaluate("window.quiver.call('highlight', {selector: '#cart'})")
        failed_call = await page.evaluate("window.quiver.call('broken', {})")
        declined = await page.evaluate("window.quiver.call('pay', {})")
        highlighted = await page.evaluate("document.querySelector('#cart').dataset.highlighted")
        slots = await page.evaluate("window.quiver.setVariables({order_id: 'AB1234'})")
        errors = await page.evaluate("window.errors")
        await browser.close()

    calls = (await acme.agent.get(f"/v1/sessions/{sid}/calls")).json()["calls"]
    js = await httpx.AsyncClient(transport=httpx.ASGITransport(app=api.app)).get(
        "http://quiver.test/quiver-agent.js"
    )

    assert [(t["name"], t["executor"]) for t in server_view] == [
        ("flaky", "server"), ("steady", "server"), ("highlight", "browser"), ("broken", "browser"),
        ("pay", "browser"),
    ]  # fmt: skip
    assert page_tools == [[t["name"], t["executor"]] for t in server_view]
    assert openai == ["flaky", "steady", "highlight", "broken", "pay"]
    assert reached < 1.0
    assert server_call["success"] is True and server_call["result"]["message"] == "steady"
    assert action_call["success"] is True and action_call["result"] == {"highlighted": "#cart"}
    assert highlighted == "yes"
    assert failed_call["success"] is False and "no such element" in failed_call["error"]["message"]
    assert declined["success"] is False and declined["error"]["code"] == "card_declined"
    assert declined["error"]["message"] == "The card was declined"
    assert [(c["tool"], c["kind"], c["success"]) for c in calls] == [
        ("steady", "python", True), ("highlight", "browser", True), ("broken", "browser", False),
        ("pay", "browser", False),
    ]  # fmt: skip
    assert calls[-1]["error"]["code"] == "card_declined"
    assert calls[1]["arguments"] == {"selector": "#cart"}  # what the page was asked to do
    assert slots == {"order_id": "AB1234"}  # a PATCH from another origin
    assert errors == []
    assert js.headers["content-type"].startswith("text/javascript")


async def test_send_lets_the_server_run_the_model_and_the_page_its_actions(
    api: Api, chromium: str, page_origin: str
) -> None:
    """``send()``: the answer streams in; the model's call of the page's action runs in the page
    through the handler it registered, its outcome goes back, and the answer goes on."""
    from playwright.async_api import async_playwright

    from tests.api.test_agent_loop import ORDER, tool_results
    from tests.fake_models import fake_model_server

    acme = await api.tenant("acme")
    async with fake_model_server() as fake:
        await api.admin.put("/v1/tenants/acme/egress", json={"allow": [fake.host]})
        provider = {"kind": "openai", "base_url": fake.base + "/v1", "api_key": "sk-page-test"}
        assert (await acme.dev.put("/v1/providers/main", json=provider)).status_code == 201
        assert (await acme.dev.post("/v1/tools", json=ORDER)).status_code == 201
        bot = {"name": "b", "tools": None, "model": "main/m"}
        assert (await acme.dev.post("/v1/bots", json=bot)).status_code == 201
        fake.reply(
            {"tool_calls": [{"name": "highlight", "arguments": {"selector": "#cart"}},
                            {"name": "check_order", "arguments": {"order_id": "AB1234"}}]},
            {"text": "I highlighted your cart and AB1234 has shipped."},
        )  # fmt: skip
        async with served(api.app) as base, async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
            page = await open_page(browser, page_origin, base, acme.agent_key)
            assert await page.evaluate("window.failed || null") is None
            outcome = await page.evaluate(
                """async () => {
                    const texts = [], tools = [];
                    const answer = await window.quiver.send("Highlight my cart; where is AB1234?",
                        { onText: (t) => texts.push(t), onTool: (e) => tools.push(e.type + ":" + e.name) });
                    return { answer, streamed: texts.join(""), tools };
                }"""
            )
            highlighted = await page.evaluate("document.querySelector('#cart').dataset.highlighted")
            await browser.close()

    assert outcome["answer"] == "I highlighted your cart and AB1234 has shipped."
    assert outcome["streamed"] == outcome["answer"]
    assert (
        "tool_result:highlight" in outcome["tools"] and "tool_call:check_order" in outcome["tools"]
    )
    assert highlighted == "yes"
    assert any('"highlighted":"#cart"' in r for r in tool_results(fake.requests[1]))


async def test_the_page_hears_when_a_person_takes_over(
    api: Api, chromium: str, page_origin: str
) -> None:
    from playwright.async_api import async_playwright

    acme = await api.tenant("acme", shared=["escalate_to_human"])
    await setup(acme)
    async with served(api.app) as base, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        page = await open_page(browser, page_origin, base, acme.agent_key)
        assert await page.evaluate("window.failed || null") is None
        sid = await page.evaluate("window.quiver.default.session")
        escalated = await acme.agent.post(
            f"/v1/sessions/{sid}/calls", json={"tool": "escalate_to_human", "arguments": {}}
        )
        await page.wait_for_function("window.handoffs.length > 0", timeout=10_000)
        heard = await page.evaluate("window.handoffs")
        await browser.close()

    assert escalated.json()["success"] is True
    assert heard == ["handed_off"]


async def test_one_line_skills_from_the_page_with_a_developer_key(
    api: Api, chromium: str, page_origin: str
) -> None:
    """dddk's ``tools.registerQA({items})`` and its kin: the data set and the bot's skill made
    through the API from the page, and the skill's tool answering at once."""
    from playwright.async_api import async_playwright

    from tests.api.test_skills import SKILL_TOOLS

    acme = await api.tenant("acme", shared=SKILL_TOOLS)
    assert (await acme.dev.post("/v1/bots", json={"name": "b", "tools": []})).status_code == 201
    async with served(api.app) as base, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        page = await open_page(browser, page_origin, base, acme.dev_key)
        assert await page.evaluate("window.failed || null") is None
        made = await page.evaluate("""async () => [
            await window.quiver.tools.registerQA({items: [
                {question: "When are you open?", answer: "9 to 5, Monday to Friday"},
                {question: "How do I return an item?", answer: "Within 30 days"}]}),
            await window.quiver.tools.registerSearch({items: [
                {id: "p1", title: "Acme Phone X", body: "a phone"},
                {id: "p2", title: "Garden hose", body: "green, 20 m"}], fieldWeights: {title: 3, body: 1}}),
            await window.quiver.tools.registerClassifier({samples: [
                {text: "where is my order", label: "orders"}, {text: "my parcel has not arrived", label: "orders"},
                {text: "i want my money back", label: "refunds"}, {text: "refund please", label: "refunds"}]}),
            await window.quiver.tools.registerRecommend({items: [{id: "p1", title: "Acme Phone X"}]}),
        ]""")  # fmt: skip
        names = await page.evaluate("window.quiver.tools().map(t => t.name)")
        answered = await page.evaluate(
            "window.quiver.call('qa_lookup', {question: 'when are you open'})"
        )
        found = await page.evaluate("window.quiver.call('search_catalog', {query: 'phone'})")
        by_agent = await page.evaluate("""async ([base, key]) => {
            const other = window.quiver.createAgent();
            await other.attach({baseUrl: base, key, bot: 'b'});
            try { await other.registerQA({items: [{question: 'q?', answer: 'a'}]}); return 'allowed'; }
            catch (e) { return e.status; }
        }""", [base, acme.agent_key])  # fmt: skip
        await browser.close()
    bot = (await acme.dev.get("/v1/bots/b")).json()

    assert [m["skill"] for m in made] == ["qa", "search", "classify", "recommend"]
    assert {"qa_lookup", "search_catalog", "classify_text", "recommend_similar"} <= set(names)
    assert answered["success"] and answered["result"]["answers"][0]["answer"].startswith("9 to 5")
    assert found["success"] and found["result"]["hits"][0]["id"] == "p1"
    search = bot["skills"]["search"]
    assert search["dataset"] == "products" and search["field_weights"] == {"title": 3, "body": 1}
    assert bot["skills"]["qa"]["dataset"] == "faq"  # each helper kept the others' skills
    assert by_agent == 403  # the data set and the bot are a developer's to change


# navigator.modelContext as the WebMCP draft defines it (registerTool, unregisterTool), for a
# browser that has none yet: the page's agent is then the test, calling tools as an agent would
WEBMCP_POLYFILL = """
window.webmcp = new Map();
Object.defineProperty(navigator, 'modelContext', {value: {
  registerTool(tool) {
    if (window.webmcp.has(tool.name)) throw new Error('already registered: ' + tool.name);
    window.webmcp.set(tool.name, tool);
  },
  unregisterTool(name) { window.webmcp.delete(name); },
}});
"""


async def test_the_sessions_tools_are_offered_to_the_browsers_agent_through_webmcp(
    api: Api, chromium: str, page_origin: str
) -> None:
    from playwright.async_api import async_playwright

    acme = await api.tenant("acme")
    await setup(acme)
    async with served(api.app) as base, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        without = await open_page(browser, page_origin, base, acme.agent_key)
        absent = await without.evaluate("window.quiver.exposeToWebMCP()")

        page = await open_page(browser, page_origin, base, acme.agent_key, WEBMCP_POLYFILL)
        exposed = await page.evaluate("window.quiver.exposeToWebMCP()")
        offered = await page.evaluate("[...window.webmcp.keys()].sort()")
        schema = await page.evaluate("window.webmcp.get('highlight').inputSchema")
        server_call = await page.evaluate("window.webmcp.get('steady').execute({})")
        page_call = await page.evaluate(
            "window.webmcp.get('highlight').execute({selector: '#cart'})"
        )
        failed = await page.evaluate(
            "window.webmcp.get('pay').execute({}).then(() => 'ok', (e) => e.message)"
        )
        fresh = {**STEADY, "source": STEADY["source"].replace('"steady"', '"fresh"')}
        assert (await acme.dev.post("/v1/tools", json=fresh)).status_code == 201
        await page.wait_for_function("window.webmcp.has('fresh')", timeout=5_000)
        await acme.dev.delete("/v1/tools/fresh")
        await page.wait_for_function("!window.webmcp.has('fresh')", timeout=5_000)
        await page.evaluate("window.quiver.detach()")
        after_detach = await page.evaluate("window.webmcp.size")
        await browser.close()

    assert absent is False and exposed is True
    assert offered == ["broken", "flaky", "highlight", "pay", "steady"]
    assert schema["properties"]["selector"]["type"] == "string"
    assert server_call["message"] == "steady"
    assert page_call == {"highlighted": "#cart"}
    assert "declined" in failed.lower()
    assert after_detach == 0
