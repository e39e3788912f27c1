"""Console first-load benchmark: bytes and time until the console can be used, in Chromium.

    python -m benchmarks.console [--loads 20]

One ``quiver serve`` (SQLite). Each load is a fresh browser context (an empty cache) opening
``/``: the bytes transferred (navigation + every resource) and the time from navigation start
to the ``console-interactive`` mark (the sign-in form drawn and focused) — and, once signed in,
to the tools page drawn. The baseline, measured in the same run and browser, is the server's
smallest page (``/healthz``) loaded the same way: what any page costs here before its own work.
Budgets (issue: the console): ≤ 300 KB transferred, interactive ≤ 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from pathlib import Path

from benchmarks.propagation import ADMIN, node, seed
from server.secretbox import generate_key

CHROMIUM = os.environ.get("QUIVER_TEST_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
TIMING = """() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const all = [nav, ...performance.getEntriesByType("resource")];
    const mark = performance.getEntriesByName("console-interactive")[0];
    return {bytes: all.reduce((n, e) => n + e.transferSize, 0), requests: all.length,
            loaded: nav.loadEventEnd, interactive: mark ? mark.startTime : nav.loadEventEnd};
}"""


async def loads(browser, url: str, count: int, key: str | None = None) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"bytes": [], "requests": [], "interactive": [], "tools": []}
    for _ in range(count):
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(url)
        if key is not None:
            await page.get_by_label("API key").wait_for()
        timing = await page.evaluate(TIMING)
        for name in ("bytes", "requests", "interactive"):
            out[name].append(timing[name])
        if key is not None:  # then sign in: until the tools page is drawn
            started = await page.evaluate("() => performance.now()")
            await page.get_by_label("API key").fill(key)
            await page.get_by_role("button", name="Sign in").click()
            await page.get_by_role("columnheader", name="Calls (last day)").wait_for()
            out["tools"].append(await page.evaluate("() => performance.now()") - started)
        await context.close()
    return out


async def main() -> None:
    from playwright.async_api import async_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
        env.update(
            QUIVER_DATABASE_URL=f"sqlite+aiosqlite:///{tmp}/quiver.db", QUIVER_ADMIN_KEY=ADMIN,
            QUIVER_SECRET_KEY=generate_key(), QUIVER_DATA_DIR=str(Path(tmp) / "data"),
            QUIVER_WORKERS="1", QUIVER_LOG_LEVEL="warning",
        )  # fmt: skip
        with node(env) as base:
            developer = (await seed(base))["developer"]
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                await loads(browser, f"{base}/", 2, developer)  # warm the server
                bare = await loads(browser, f"{base}/healthz", args.loads)
                console = await loads(browser, f"{base}/", args.loads, developer)
                await browser.close()
    med = statistics.median
    print(f"console first load, {args.loads} loads each, a fresh browser context per load")
    print(f"{'page':>22} | {'bytes':>8} | {'requests':>8} | {'interactive p50':>15} | {'max':>8}")
    print("-" * 76)
    for label, found in (("/healthz (baseline)", bare), ("/ (console sign-in)", console)):
        print(f"{label:>22} | {med(found['bytes']):8.0f} | {med(found['requests']):8.0f} | "
              f"{med(found['interactive']):12.0f} ms | {max(found['interactive']):5.0f} ms")  # fmt: skip
    ratio = med(console["interactive"]) / med(bare["interactive"])
    print(
        f"console interactive = {ratio:.1f}x the bare page's load; "
        f"signed in to the tools page drawn: p50 {med(console['tools']):.0f} ms"
    )
    print(
        f"budgets: ≤ 307200 bytes ({'met' if max(console['bytes']) <= 307200 else 'NOT met'}), "
        f"interactive ≤ 1000 ms ({'met' if max(console['interactive']) <= 1000 else 'NOT met'})"
    )


if __name__ == "__main__":
    asyncio.run(main())
