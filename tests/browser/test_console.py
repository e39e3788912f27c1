"""The developer console in headless Chromium (Debian's, driven by Playwright) against a real
uvicorn: a developer writes a tool with an error, sees it at its line, fixes it, saves, tests,
rolls back and watches the call arrive in the live tail; a save that another writer overtook;
a key revoked mid-session; huge call logs paged; an admin creates a tenant and a key and edits
an allowlist; an agent key sees no developer page; /docs renders offline. Every page is
checked with axe-core (no serious or critical violation) and photographed (build/screenshots,
not committed); the first load's bytes and time are written beside the photographs."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from axe_playwright_python.async_playwright import Axe

from tests.browser.test_agent_page import FLAGS, chromium  # noqa: F401 - the fixture
from tests.conftest import Api
from tests.servers import served

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
SHOTS = Path(
    os.environ.get("QUIVER_SCREENSHOTS", Path(__file__).parents[2] / "build" / "screenshots")
)
FIRST_LOAD_BUDGET = 300 * 1024
WAIT = 15_000  # ms: the bound of every wait for the page

BROKEN = """def execute(params, context):
    context.modules.logger.info("greeting " + params["name"])
    return {"success": True, "message": "Hello " + params["name"]

tool = {
    "name": "greet",
    "description": "Greets someone",
    "parameters": {"name": {"type": "string", "required": True}},
    "execute": execute,
}
"""
FIXED = BROKEN.replace('params["name"]\n\ntool', 'params["name"]}\n\ntool')
SECOND = FIXED.replace('"Hello "', '"Hi "')


class Pages:
    """One browser; pages signed in with a key; each page checked and photographed."""

    def __init__(self, browser, base: str) -> None:
        self.browser, self.base, self.axe = browser, base, Axe()

    async def signed_in(self, key: str, hash_: str = ""):
        page = await self.browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        await page.goto(f"{self.base}/{hash_}")
        await page.get_by_label("API key").fill(key)
        await page.get_by_role("button", name="Sign in").click()
        await page.wait_for_selector("#who button", timeout=WAIT)
        return page

    async def check(self, page, name: str) -> None:
        """No serious accessibility problem, no script error; a photograph."""
        results = await self.axe.run(page)
        serious = [
            f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], f"{name}: {serious}"
        assert page.errors == [], f"{name}: {page.errors}"
        await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
async def console(api: Api, chromium: str) -> AsyncIterator[Pages]:  # noqa: F811
    from playwright.async_api import async_playwright

    async with served(api.app) as base, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        try:
            yield Pages(browser, base)
        finally:
            await browser.close()


async def _key_id(client: httpx.AsyncClient) -> str:
    return (await client.get("/v1/whoami")).json()["key_id"]


async def test_a_developer_writes_tests_ships_and_watches_a_tool(api: Api, console: Pages) -> None:
    acme = await api.tenant("acme")
    page = await console.signed_in(acme.dev_key)
    await console.check(page, "tools")

    # write a tool with an error: it shows at its line
    await page.get_by_role("link", name="New tool").click()
    await page.get_by_label("Tool source").fill(BROKEN)
    await page.get_by_role("button", name="Validate").click()
    await page.wait_for_selector(".gutter .err", timeout=WAIT)
    assert await page.locator(".gutter .err").all_inner_texts() == ["3"]
    assert "never closed" in await page.locator(".editor .note").inner_text()
    await console.check(page, "tool-editor-error")
    await page.get_by_role("button", name=re.compile("error at line 3")).click()  # jumps there
    assert await page.evaluate("document.activeElement.tagName") == "TEXTAREA"

    # fix it, validate, save
    await page.get_by_label("Tool source").fill(FIXED)
    await page.get_by_role("button", name="Validate").click()
    await page.get_by_text("Valid.", exact=True).wait_for(timeout=WAIT)
    assert await page.locator(".gutter .err").count() == 0
    await page.get_by_role("button", name="Create tool").click()
    await page.wait_for_url(re.compile(r"#/tools/greet/edit$"), timeout=WAIT)
    assert (await acme.dev.get("/v1/tools/greet")).json()["version"] == 1

    # test it with the form made from its schema
    await page.get_by_role("tab", name="Test").click()
    await page.get_by_label("name *").fill("Ada")
    await page.get_by_role("button", name="Run test").click()
    await page.get_by_text("Succeeded", exact=False).wait_for(timeout=WAIT)
    assert "Hello Ada" in await page.locator("pre.box").first.inner_text()
    assert "info: greeting Ada" in await page.locator("pre.box").nth(1).inner_text()
    await console.check(page, "tool-test")

    # a second version, then roll back to the first, after seeing the diff
    await page.get_by_role("tab", name="Edit").click()
    await page.get_by_label("Tool source").fill(SECOND)
    await page.get_by_role("button", name="Save new version").click()
    await page.get_by_text("Saved greet as version 2").wait_for(timeout=WAIT)
    await page.get_by_role("tab", name="Versions").click()
    await page.wait_for_selector("table.diff td.add", timeout=WAIT)
    assert '"Hi "' in await page.locator("table.diff td.add").first.inner_text()
    assert '"Hello "' in await page.locator("table.diff td.del").first.inner_text()
    await console.check(page, "tool-versions")
    await page.get_by_role("button", name="Roll back to version 1").click()
    await page.get_by_role("dialog").get_by_role("button", name="Roll back").click()
    await page.get_by_text("version 1 is now version 3").wait_for(timeout=WAIT)
    current = (await acme.dev.get("/v1/tools/greet")).json()
    assert current["version"] == 3 and current["source"] == FIXED

    # the live tail shows a call an agent makes
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    await page.get_by_role("link", name="Call log").click()
    await page.get_by_role("button", name="Start live tail").click()
    await page.get_by_text("Following new calls…").wait_for(timeout=WAIT)
    called = await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "greet", "arguments": {"name": "Tail"}})  # fmt: skip
    assert called.json()["success"]
    live = page.locator('table[aria-label="Live calls"] tbody tr')
    await live.first.wait_for(timeout=WAIT)
    assert "greet" in await live.first.inner_text() and sid[:8] in await live.first.inner_text()
    await live.first.click()  # the call's arguments, result and its own log lines
    await page.get_by_text("info: greeting Tail").wait_for(timeout=WAIT)
    await console.check(page, "call-log")
    await page.get_by_role("button", name="Stop live tail").click()

    await page.get_by_role("link", name="Analytics").click()
    await page.get_by_text("Success rate").wait_for(timeout=WAIT)
    assert await page.locator('figure svg[aria-label^="Calls: greet 1"]').count() == 1
    await console.check(page, "analytics")
    await page.get_by_role("link", name="Sessions").click()
    await page.get_by_role("link", name=sid[:8]).click()
    await page.get_by_role("heading", name="Transcript").wait_for(timeout=WAIT)
    await console.check(page, "session")
    await page.get_by_role("link", name="Audit log").click()
    await page.get_by_role("cell", name="tool.rollback").wait_for(timeout=WAIT)
    await console.check(page, "audit")

    await page.goto(f"{console.base}/#/tools/greet/edit")  # delete, once confirmed
    await page.get_by_role("button", name="Delete…").click()
    await page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    assert (await acme.dev.get("/v1/tools/greet")).status_code == 200  # cancelled: kept
    await page.get_by_role("button", name="Delete…").click()
    await page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    await page.wait_for_url(re.compile(r"#/tools$"), timeout=WAIT)
    assert (await acme.dev.get("/v1/tools/greet")).status_code == 404


async def test_a_save_overtaken_by_another_writer_shows_theirs_and_overwrites_nothing(api: Api, console: Pages) -> None:  # fmt: skip
    acme = await api.tenant("acme")
    assert (await acme.dev.post("/v1/tools", json={"kind": "python", "source": FIXED})).status_code == 201  # fmt: skip
    page = await console.signed_in(acme.dev_key, "#/tools/greet/edit")
    await page.get_by_label("Tool source").wait_for(timeout=WAIT)
    theirs = await acme.dev.put("/v1/tools/greet", json={"kind": "python", "source": SECOND})
    assert theirs.json()["version"] == 2
    await page.get_by_label("Tool source").fill(FIXED.replace('"Hello "', '"Mine "'))
    await page.get_by_role("button", name="Save new version").click()
    await page.get_by_text("Someone saved version 2 while you edited").wait_for(timeout=WAIT)
    assert '"Hi "' in await page.locator("table.diff").inner_text()  # theirs, shown
    now = (await acme.dev.get("/v1/tools/greet")).json()
    assert now["version"] == 2 and now["source"] == SECOND  # nothing overwritten
    await console.check(page, "save-conflict")
    await page.get_by_role("button", name="Save new version").click()  # knowingly, over v2
    await page.get_by_text("Saved greet as version 3").wait_for(timeout=WAIT)


async def test_a_key_revoked_mid_session_asks_to_sign_in_again_and_logs_are_paged(api: Api, console: Pages) -> None:  # fmt: skip
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json={"kind": "python", "source": FIXED})
    for i in range(55):
        await acme.dev.post("/v1/tools/greet/test", json={"arguments": {"name": f"n{i}"}})
    page = await console.signed_in(acme.dev_key, "#/calls")
    rows = page.locator('table[aria-label="Logged calls"] tbody tr')
    await page.get_by_role("button", name="Load more").wait_for(timeout=WAIT)
    assert await rows.count() == 50
    await page.get_by_role("button", name="Load more").click()
    await rows.nth(54).wait_for(timeout=WAIT)
    assert await rows.count() == 55
    assert await page.get_by_role("button", name="Load more").is_hidden()

    assert (await api.admin.delete(f"/v1/keys/{await _key_id(acme.dev)}")).status_code == 204
    await page.get_by_role("link", name="Tools").click()
    await page.get_by_text("Your key is no longer valid").wait_for(timeout=WAIT)
    assert await page.get_by_label("API key").is_visible()
    assert await page.evaluate("sessionStorage.getItem('quiver.key')") is None
    await console.check(page, "signed-out")


async def test_an_admin_creates_a_tenant_and_a_key_and_edits_an_allowlist(api: Api, console: Pages) -> None:  # fmt: skip
    from tests.conftest import ADMIN_KEY

    page = await console.signed_in(ADMIN_KEY)  # acting for no tenant yet: the tenants page
    await page.wait_for_url(re.compile(r"#/tenants$"), timeout=WAIT)
    await page.get_by_label("Tenant id").fill("globex")
    await page.get_by_role("button", name="Create tenant").click()
    await page.wait_for_url(re.compile(r"#/tenants/globex$"), timeout=WAIT)
    await page.get_by_role("button", name="Create key").click()
    secret = await page.locator(".secret").inner_text()
    assert secret.startswith("qk_")
    await page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=console.base)
    await page.get_by_role("button", name="Copy key").click()
    await page.get_by_role("button", name="Copied").wait_for(timeout=WAIT)
    assert await page.evaluate("navigator.clipboard.readText()") == secret
    async with httpx.AsyncClient(base_url=console.base, headers={"Authorization": f"Bearer {secret}"}) as new:  # fmt: skip
        me = (await new.get("/v1/whoami")).json()
    assert (me["role"], me["tenant"]) == ("developer", "globex")  # the shown secret works
    await page.get_by_label("Egress allowlist").fill("crm.internal.example\n10.20.0.0/16")
    await page.get_by_role("button", name="Save egress allowlist").click()
    await page.get_by_text("Saved.").wait_for(timeout=WAIT)
    tenant = (await api.admin.get("/v1/tenants/globex")).json()
    assert tenant["egress_allow"] == ["10.20.0.0/16", "crm.internal.example"]
    await console.check(page, "tenant")
    await page.reload()
    await page.get_by_role("heading", name="API keys").wait_for(timeout=WAIT)
    assert await page.locator(".secret").count() == 0  # the secret was shown once
    key_id = me["key_id"]
    await page.get_by_role("button", name=f"Revoke key {key_id}").click()
    await page.get_by_role("dialog").get_by_role("button", name="Revoke").click()
    await page.get_by_role("cell", name=re.compile("^revoked")).wait_for(timeout=WAIT)
    async with httpx.AsyncClient(base_url=console.base, headers={"Authorization": f"Bearer {secret}"}) as new:  # fmt: skip
        assert (await new.get("/v1/whoami")).status_code == 401
    await page.get_by_role("link", name="Tenants", exact=True).click()
    await page.get_by_role("link", name="globex").wait_for(timeout=WAIT)
    await console.check(page, "tenants")


async def test_an_agent_key_sees_no_developer_page(api: Api, console: Pages) -> None:
    acme = await api.tenant("acme")
    page = await console.signed_in(acme.agent_key, "#/tools")
    await page.get_by_role("heading", name="Nothing here for this key").wait_for(timeout=WAIT)
    links = await page.locator("#nav a").all_inner_texts()
    assert links == ["API docs"]
    for hash_ in ("#/calls", "#/tenants", "#/audit"):
        await page.goto(f"{console.base}/{hash_}")
        await page.get_by_role("heading", name="Nothing here for this key").wait_for(timeout=WAIT)
    await console.check(page, "agent-key")


async def test_a_wrong_key_at_sign_in_is_called_not_valid_not_expired(api: Api, console: Pages) -> None:  # fmt: skip
    page = await console.browser.new_page()
    await page.goto(f"{console.base}/")
    await page.get_by_label("API key").fill(
        "qk_0000000000000000_not-a-real-key-at-all-0000000000000000"
    )
    await page.get_by_role("button", name="Sign in").click()
    said = page.get_by_text("That key is not valid")
    await said.wait_for(timeout=WAIT)

    assert await page.get_by_text("revoked or expired").count() == 0


async def test_first_load_is_small_and_docs_render_offline(api: Api, console: Pages) -> None:
    page = await console.browser.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    outside: list[str] = []
    await page.route(re.compile(r"^(?!http://127\.0\.0\.1[:/]).*"), lambda route: (outside.append(route.request.url), route.abort()))  # fmt: skip
    await page.goto(console.base + "/")
    await page.get_by_label("API key").wait_for(timeout=WAIT)
    timing = await page.evaluate(
        """() => {
            const nav = performance.getEntriesByType("navigation")[0];
            const resources = performance.getEntriesByType("resource");
            const mark = performance.getEntriesByName("console-interactive")[0];
            return {
                transferred: nav.transferSize + resources.reduce((n, r) => n + r.transferSize, 0),
                decoded: nav.decodedBodySize + resources.reduce((n, r) => n + r.decodedBodySize, 0),
                requests: 1 + resources.length,
                interactive_ms: mark ? mark.startTime : null,
                dom_content_loaded_ms: nav.domContentLoadedEventEnd,
            };
        }"""
    )
    await page.screenshot(path=str(SHOTS / "first-load.png"))  # makes the folder
    await asyncio.to_thread((SHOTS / "first-load.json").write_text, json.dumps(timing, indent=2))
    assert 0 < timing["transferred"] <= FIRST_LOAD_BUDGET, timing
    assert timing["interactive_ms"] is not None, (
        timing
    )  # recorded, not asserted: see docs/benchmarks.md
    await console.check(page, "sign-in")

    await page.goto(console.base + "/docs")
    await page.locator(".swagger-ui .info .title").wait_for(timeout=WAIT)
    assert "Quiver" in await page.locator(".swagger-ui .info .title").inner_text()
    await page.get_by_text("/v1/calls/stream").first.wait_for(timeout=WAIT)
    await page.get_by_text("/mcp", exact=True).first.wait_for(timeout=WAIT)
    await page.screenshot(path=str(SHOTS / "docs.png"))
    await page.goto(console.base + "/redoc")
    await page.locator("h1", has_text="Quiver").first.wait_for(timeout=WAIT)
    await page.get_by_text("/v1/calls/stream").first.wait_for(timeout=WAIT)
    await page.screenshot(path=str(SHOTS / "redoc.png"))
    assert outside == []  # nothing fetched from anywhere but this server


async def test_webhook_and_wasm_tools_are_made_with_their_forms(
    api: Api, console: Pages, compiled: dict[str, bytes], tmp_path: Path
) -> None:
    acme = await api.tenant("acme")
    page = await console.signed_in(acme.dev_key, "#/tools/~new")
    await page.get_by_label("Kind").select_option("webhook")
    await page.get_by_label("Name").fill("weather")
    await page.get_by_label("Description").fill("Current weather for a city")
    await page.get_by_label(re.compile("^URL")).fill("https://api.example.com/weather/{city}")
    await page.get_by_label("Parameters (JSON Schema)").fill('{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}')  # fmt: skip
    await page.get_by_label(re.compile("^Authorization header")).fill("Bearer s3cr3t-token")
    await console.check(page, "tool-webhook-form")
    await page.get_by_role("button", name="Create tool").click()
    await page.wait_for_url(re.compile(r"#/tools/weather/edit$"), timeout=WAIT)
    webhook = (await acme.dev.get("/v1/tools/weather")).json()
    assert (webhook["kind"], webhook["webhook_url"]) == ("webhook", "https://api.example.com/weather/{city}")  # fmt: skip
    assert "s3cr3t-token" not in json.dumps(webhook)  # stored, never shown

    module = tmp_path / "word_count.wasm"
    await asyncio.to_thread(module.write_bytes, compiled["word_count"])
    await page.goto(f"{console.base}/#/tools/~new")
    await page.get_by_label("Kind").select_option("wasm")
    await page.get_by_label("Name").fill("word_count")
    await page.get_by_label("Module (.wasm)").set_input_files(str(module))
    await page.get_by_label("Parameters (JSON Schema)").fill('{"text": {"type": "string"}}')
    await page.get_by_role("button", name="Create tool").click()
    await page.get_by_text("error (description): must be a non-empty string").wait_for(timeout=WAIT)
    await page.get_by_label("Description").fill("Counts words")
    await page.get_by_role("button", name="Create tool").click()
    await page.wait_for_url(re.compile(r"#/tools/word_count/edit$"), timeout=WAIT)
    await page.get_by_role("tab", name="Test").click()
    await page.get_by_label("text").fill("one two three")
    await page.get_by_role("button", name="Run test").click()
    await page.get_by_text("Succeeded", exact=False).wait_for(timeout=WAIT)


async def test_the_console_works_from_the_keyboard(api: Api, console: Pages) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json={"kind": "python", "source": FIXED})
    await acme.dev.post("/v1/tools/greet/test", json={"arguments": {"name": "Kay"}})
    page = await console.browser.new_page()
    await page.goto(console.base + "/")
    await page.keyboard.type(acme.dev_key)  # the key field has the focus
    await page.keyboard.press("Enter")
    await page.get_by_role("heading", name="Tools").wait_for(timeout=WAIT)

    async def tab_to(name: str) -> None:
        for _ in range(60):  # bounded: a control that Tab never reaches fails
            await page.keyboard.press("Tab")
            focused = await page.evaluate("() => document.activeElement.textContent.trim() || document.activeElement.getAttribute('aria-label') || ''")  # fmt: skip
            if focused == name:
                return
        raise AssertionError(f"Tab never reached {name!r}")

    await tab_to("Call log")
    await page.keyboard.press("Enter")
    await page.get_by_role("heading", name="Call log").wait_for(timeout=WAIT)
    row = page.locator('table[aria-label="Logged calls"] tbody tr').first
    await row.wait_for(timeout=WAIT)
    await row.focus()
    await page.keyboard.press("Enter")  # a call's details open from the keyboard
    await page.get_by_text("info: greeting Kay").wait_for(timeout=WAIT)
    unreachable = await page.evaluate(
        """() => [...document.querySelectorAll("a, button, input, select, textarea, [onclick]")]
            .filter((e) => !e.disabled && !e.hidden && e.tabIndex < 0).map((e) => e.outerHTML)"""
    )
    assert unreachable == []


async def test_the_new_tool_templates_are_valid_tools(api: Api) -> None:
    """What the editor starts a new tool with validates as it is, in both languages."""
    source = (Path(__file__).parents[2] / "server" / "console" / "tools.js").read_text()
    acme = await api.tenant("acme")
    for constant, kind in (("PYTHON_TEMPLATE", "python"), ("JS_TEMPLATE", "javascript")):
        found = re.search(rf"const {constant} = `(.*?)`;", source, re.S)
        assert found is not None, constant
        checked = (await acme.dev.post("/v1/tools/validate", json={"kind": kind, "source": found.group(1)})).json()  # fmt: skip
        assert checked["valid"], (kind, checked)


async def test_the_transcript_shows_each_tool_call_with_its_arguments(agents: Api, fake, chromium: str) -> None:  # fmt: skip  # noqa: F811
    """An assistant turn that only called tools has no text: the transcript shows its calls and
    their arguments, never "assistant: null"."""
    from playwright.async_api import async_playwright

    from tests.api.test_agent_loop import setup

    acme, sid = await setup(agents, fake)
    fake.reply({"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]}, {"text": "It has shipped."})  # fmt: skip
    answered = await acme.agent.post(f"/v1/sessions/{sid}/messages", json={"content": "Where is AB1234?"})  # fmt: skip
    assert answered.status_code == 200, answered.text
    async with served(agents.app) as base, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        pages = Pages(browser, base)
        page = await pages.signed_in(acme.dev_key, f"#/sessions/{sid}")
        transcript = page.locator("section", has=page.get_by_role("heading", name="Transcript"))
        await transcript.get_by_text('{"order_id":"AB1234"}').wait_for(timeout=WAIT)
        shown = await transcript.inner_text()
        await pages.check(page, "transcript")
        await browser.close()

    assert "check_order" in shown and "It has shipped." in shown
    assert "null" not in shown


async def test_no_page_scrolls_sideways_on_a_phone(api: Api, console: Pages) -> None:
    """390 px wide (a phone): every page fits; a wide table scrolls inside itself."""
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json={"kind": "python", "source": FIXED})
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "greet", "arguments": {"name": "a-rather-long-name-for-a-narrow-screen"}})  # fmt: skip
    await api.runtime.call_log.flush()
    widths = {}
    from tests.conftest import ADMIN_KEY

    for key, pages in ((acme.dev_key, ("tools", "tools/greet", "calls", "analytics", "usage", "sessions", f"sessions/{sid}", "bots", "bots/b", "providers", "datasets", "secrets", "audit")),
                       (ADMIN_KEY, ("tenants", "audit"))):  # fmt: skip
        page = await console.browser.new_page(viewport={"width": 390, "height": 800})
        await page.goto(f"{console.base}/")
        await page.get_by_label("API key").fill(key)
        await page.get_by_role("button", name="Sign in").click()
        await page.wait_for_selector("#who button", timeout=WAIT)
        for hash_ in pages:
            await page.goto(f"{console.base}/#/{hash_}")
            await page.locator("main h1").first.wait_for(timeout=WAIT)
            await page.wait_for_function("!document.querySelector('main').textContent.includes('Loading…')", timeout=WAIT)  # fmt: skip
            widths[hash_] = await page.evaluate("document.documentElement.scrollWidth")
        await page.close()

    assert {p: w for p, w in widths.items() if w > 390} == {}


async def test_the_live_tail_reconnects_when_its_stream_drops(api: Api, console: Pages) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json={"kind": "python", "source": FIXED})
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    page = await console.signed_in(acme.dev_key, "#/calls")
    attempts = []

    async def flaky_network(route) -> None:  # the first connection fails, as a dropped link does
        attempts.append(route.request.headers.get("last-event-id"))
        await (route.abort("connectionreset") if len(attempts) == 1 else route.continue_())

    await page.route(re.compile(r".*/v1/calls/stream.*"), flaky_network)
    await page.get_by_role("button", name="Start live tail").click()
    await page.get_by_text("Following new calls…").wait_for(timeout=WAIT)
    called = await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "greet", "arguments": {"name": "Back"}})  # fmt: skip
    assert called.json()["success"]
    live = page.locator('table[aria-label="Live calls"] tbody tr')
    await live.first.wait_for(timeout=WAIT)

    assert len(attempts) == 2  # dropped once, connected again on its own
    assert "greet" in await live.first.inner_text()
    await page.get_by_role("button", name="Stop live tail").click()
    await page.get_by_text("Stopped.").wait_for(timeout=WAIT)


async def test_a_built_in_tool_opens_read_only(api: Api, console: Pages) -> None:
    acme = await api.tenant("acme", shared=["escalate_to_human"])
    page = await console.signed_in(acme.dev_key, "#/tools")
    await page.get_by_role("link", name="escalate_to_human").click()
    await page.get_by_text("A built-in tool").wait_for(timeout=WAIT)
    shown = await page.locator("main").inner_text()

    assert '"reason"' in shown and "builtin" in shown
    assert await page.get_by_role("button", name="Delete…").count() == 0  # nothing to change
    await console.check(page, "tool-read-only")


CHOOSER = """def execute(params, context):
    return {"success": True, "seen": params}

tool = {"name": "ship", "description": "Ships", "execute": execute, "parameters": {
    "speed": {"type": "string", "enum": ["standard", "express"]},
    "gift": {"type": "string", "enum": ["", "wrapped"]}}}
"""


async def test_the_test_form_sends_nothing_for_an_untouched_choice(
    api: Api, console: Pages
) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json={"kind": "python", "source": CHOOSER})
    page = await console.signed_in(acme.dev_key, "#/tools/ship/test")
    await page.get_by_role("button", name="Run test").click()
    await page.get_by_text("Succeeded", exact=False).wait_for(timeout=WAIT)
    untouched = await page.locator("main pre").first.inner_text()
    await page.get_by_label("gift").select_option(label='""')
    await page.get_by_label("speed").select_option("express".join('""'))
    await page.get_by_role("button", name="Run test").click()
    await page.get_by_text('"speed": "express"').wait_for(timeout=WAIT)
    chosen = await page.locator("main pre").first.inner_text()

    assert '"seen": {}' in untouched
    assert '"gift": ""' in chosen  # the enum's own "" is a choice


async def test_data_sets_upload_with_progress_page_their_items_and_delete(api: Api, console: Pages, tmp_path: Path) -> None:  # fmt: skip
    acme = await api.tenant("acme")
    faq = tmp_path / "faq.ndjson"
    await asyncio.to_thread(faq.write_text, "".join(json.dumps({"id": f"q{i}", "question": f"Question {i}?", "answer": f"Answer {i}."}) + "\n" for i in range(120)))  # fmt: skip
    broken = tmp_path / "broken.ndjson"
    await asyncio.to_thread(broken.write_text, '{"id": "a", "question": "q?"}\n')
    page = await console.signed_in(acme.dev_key, "#/datasets")
    await page.get_by_role("heading", name="Data sets").wait_for(timeout=WAIT)

    await page.get_by_label("File").set_input_files(str(broken))
    await page.get_by_role("button", name="Upload").click()
    await page.get_by_text("line 1: answer").wait_for(timeout=WAIT)  # the bad line, named
    await page.get_by_label("Name").fill("faq")
    await page.get_by_label("File").set_input_files(str(faq))
    await page.get_by_role("button", name="Upload").click()
    await page.get_by_text("faq: version 1, 120 items").wait_for(timeout=WAIT)
    size = (await asyncio.to_thread(faq.stat)).st_size
    await page.get_by_text(f"({size} bytes sent)").wait_for(
        timeout=WAIT
    )  # the progress, to the end
    await console.check(page, "datasets")
    await page.get_by_role("link", name="faq").click()
    await page.get_by_text("Question 0?").wait_for(timeout=WAIT)
    for shown in ("Question 50?", "Question 100?"):  # 50 a page
        await page.get_by_role("button", name="Load more").click()
        await page.get_by_text(shown).wait_for(timeout=WAIT)
    await page.get_by_text("Question 119?").wait_for(timeout=WAIT)
    assert await page.get_by_role("button", name="Load more").is_hidden()
    await console.check(page, "dataset")
    await page.get_by_role("button", name="Delete…").click()
    await page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    await page.wait_for_url(re.compile(r"#/datasets$"), timeout=WAIT)

    assert (await acme.dev.get("/v1/datasets/faq")).status_code == 404


async def test_secrets_are_set_listed_by_name_and_never_shown(api: Api, console: Pages) -> None:
    acme = await api.tenant("acme")
    value = "crm-secret-value-7f3a9c"
    page = await console.signed_in(acme.dev_key, "#/secrets")
    await page.get_by_label("Name").fill("CRM_TOKEN")
    await page.get_by_label("Value").fill(value)
    await page.get_by_role("button", name="Set secret").click()
    await page.get_by_text("CRM_TOKEN is set").wait_for(timeout=WAIT)
    await page.get_by_role("cell", name="CRM_TOKEN", exact=True).wait_for(timeout=WAIT)
    shown = await page.content()
    await console.check(page, "secrets")
    await page.get_by_role("button", name="Delete secret CRM_TOKEN").click()
    await page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    await page.get_by_text("No secrets.").wait_for(timeout=WAIT)

    assert value not in shown and await page.get_by_label("Value").input_value() == ""
    assert (await acme.dev.get("/v1/secrets")).json()["secrets"] == []


async def test_providers_and_bots_with_their_evals(agents: Api, fake, chromium: str) -> None:  # noqa: F811
    """A provider saved (its key never shown), a bot made and set to use it, its evals run."""
    from playwright.async_api import async_playwright

    from tests.api.test_agent_loop import KEY, setup

    acme, _ = await setup(agents, fake)  # a provider "main" on the fake model server, bot "b"
    fake.reply({"tool_calls": [{"name": "check_order", "arguments": {"order_id": "AB1234"}}]}, {"text": "Shipped."})  # fmt: skip
    async with served(agents.app) as base, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        pages = Pages(browser, base)
        page = await pages.signed_in(acme.dev_key, "#/providers")
        await page.get_by_role("cell", name="main", exact=True).wait_for(timeout=WAIT)
        await page.get_by_role("button", name="Edit provider main").click()
        await page.get_by_label("Models").fill("big, small, extra")
        await page.get_by_role("button", name="Save provider").click()
        await page.get_by_role("cell", name="big, small, extra").wait_for(timeout=WAIT)
        shown = await page.content()
        await pages.check(page, "providers")

        await page.goto(f"{base}/#/bots")
        await page.get_by_label("Name").fill("helper")
        await page.get_by_role("button", name="Create bot").click()
        await page.wait_for_url(re.compile(r"#/bots/helper$"), timeout=WAIT)
        settings = page.get_by_label("Settings (JSON)")
        assert json.loads(await settings.input_value()) == {"tools": None}  # as it is: every tool
        await settings.fill(json.dumps({"tools": None, "model": "main/big", "max_rounds": 3}))
        await page.get_by_role("button", name="Save bot").click()
        await page.get_by_text("Saved: attached agents get the new snapshot.").wait_for(
            timeout=WAIT
        )
        await settings.fill('{"tools": null, "max_rounds": 99}')
        await page.get_by_role("button", name="Save bot").click()
        await page.get_by_text("max_rounds").last.wait_for(
            timeout=WAIT
        )  # the field at fault, named
        cases = [{"name": "finds an order", "messages": ["Where is AB1234?"], "expect": {"tools": [{"name": "check_order"}]}}]  # fmt: skip
        await page.get_by_label("Eval cases (JSON)").fill(json.dumps(cases))
        await page.get_by_role("button", name="Save and run evals").click()
        await page.get_by_text("100% passed").wait_for(timeout=WAIT)
        await pages.check(page, "bot")
        await browser.close()
    helper = (await acme.dev.get("/v1/bots/helper")).json()

    assert KEY not in shown  # the provider's key is never on the page
    assert (helper["model"], helper["max_rounds"]) == ("main/big", 3)


async def test_usage_shows_the_limits_and_calls_per_day(api: Api, console: Pages) -> None:
    from datetime import UTC, datetime

    acme = await api.tenant("acme")
    await api.admin.put("/v1/tenants/acme/limits", json={"calls_per_day": 500})
    await acme.dev.post("/v1/tools", json={"kind": "python", "source": FIXED})
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    for name in ("a", "b"):
        await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": "greet", "arguments": {"name": name}})  # fmt: skip
    page = await console.signed_in(acme.dev_key, "#/usage")
    today = datetime.now(UTC).date().isoformat()
    calls = page.locator('svg[aria-label^="Calls per day"]')
    await calls.wait_for(timeout=WAIT)
    label = await calls.get_attribute("aria-label")
    limits = await page.get_by_role("table", name="Limits").inner_text()
    await console.check(page, "usage")

    assert f"{today} 2" in label
    assert "calls per day\t500\t2" in limits
