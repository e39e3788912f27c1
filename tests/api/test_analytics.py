"""Analytics through HTTP on SQLite and PostgreSQL: the numbers equal what the test computes
from the calls it made; Prometheus metrics count the same calls."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from tests.api.test_breakers import FLAKY, attach
from tests.api.test_calls import call, simple_tool
from tests.api.test_result_cache import lucky
from tests.conftest import Api, TenantKeys

# the same tool with the default rolling-breaker thresholds (10 calls): it stays closed here
STEADILY_FLAKY = {
    **FLAKY,
    "source": FLAKY["source"].replace(
        ', "breaker": {"min_calls": 4, "failure_rate": 0.5, "cooldown_s": 1}', ""
    ),
}


def nearest_rank(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p * len(ordered))) - 1]


async def make_calls(t: TenantKeys) -> dict[str, list[dict]]:
    for body in (STEADILY_FLAKY, lucky(), simple_tool("ok_tool", 'return {"success": True}')):
        assert (await t.dev.post("/v1/tools", json=body)).status_code == 201
    await t.dev.post("/v1/bots", json={"name": "b", "tools": None})
    made: dict[str, list[dict]] = {"ok_tool": [], "flaky": [], "lucky": []}
    sid = await attach(t)
    for _ in range(5):
        made["ok_tool"].append(await call(t, sid, "ok_tool"))
    for fail in (True, False, False, True, False):
        made["flaky"].append(await call(t, await attach(t), "flaky", {"fail": fail}))
    broken = await attach(t)
    for _ in range(3):  # the third opens this session's breaker
        made["flaky"].append(await call(t, broken, "flaky", {"fail": True}))
    for _ in range(3):
        made["lucky"].append(await call(t, sid, "lucky", {"city": "Oslo"}))
    await t.dev.post("/v1/tools/ok_tool/test", json={"arguments": {}})  # test runs don't count
    return made


async def test_analytics_equal_the_calls_made(api: Api) -> None:
    acme, globex = await api.tenant("acme"), await api.tenant("globex")
    made = await make_calls(acme)
    await make_calls(globex)

    response = await acme.dev.get("/v1/analytics/tools")
    one = await acme.dev.get("/v1/analytics/tools", params={"tool": "flaky"})
    as_admin = await api.admin.get("/v1/analytics/tools")
    agent = await acme.agent.get("/v1/analytics/tools")
    spy = await acme.dev.get("/v1/analytics/tools", params={"tenant": "globex"})

    assert response.status_code == 200, response.text
    body = response.json()
    figures = {f["tool"]: f for f in body["tools"]}
    assert set(figures) == set(made)
    for name, envelopes in made.items():
        f = figures[name]
        times = [e["executionTime"] for e in envelopes]
        successes = sum(e["success"] for e in envelopes)
        assert f["calls"] == len(envelopes), name
        assert f["successes"] == successes and f["success_rate"] == round(
            successes / len(envelopes), 4
        )
        assert f["p50_ms"] == nearest_rank(times, 0.5), name
        assert f["p95_ms"] == nearest_rank(times, 0.95), name
        assert f["cache_hits"] == sum(bool(e.get("cached")) for e in envelopes)
    assert figures["lucky"]["cache_hits"] == 2 and figures["lucky"]["cache_hit_rate"] == 0.6667
    assert figures["flaky"]["breaker_openings"] == 1 and figures["ok_tool"]["breaker_openings"] == 0
    errors = figures["flaky"]["last_errors"]
    assert [e["code"] for e in errors] == ["tool_error"] * 5
    assert errors == sorted(errors, key=lambda e: e["at"], reverse=True)
    assert figures["ok_tool"]["last_errors"] == []
    assert body["most_used"] == ["flaky", "ok_tool", "lucky"]
    assert [f["tool"] for f in one.json()["tools"]] == ["flaky"]
    assert {(f["tenant"], f["tool"]) for f in as_admin.json()["tools"]} == {
        (tenant, tool) for tenant in ("acme", "globex") for tool in made
    }
    assert agent.status_code == 403 and spy.status_code == 403


async def test_analytics_range_is_validated_and_filters(api: Api) -> None:
    acme = await api.tenant("acme")
    await make_calls(acme)
    future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    later = (datetime.now(UTC) + timedelta(days=2)).isoformat()

    empty = await acme.dev.get("/v1/analytics/tools", params={"since": future, "until": later})
    backwards = await acme.dev.get(
        "/v1/analytics/tools", params={"since": future, "until": datetime.now(UTC).isoformat()}
    )
    naive = await acme.dev.get("/v1/analytics/tools", params={"since": "2026-01-01T00:00:00"})

    assert empty.status_code == 200 and empty.json()["tools"] == []
    assert backwards.status_code == 422 and backwards.json()["errors"][0]["field"] == "since"
    assert naive.status_code == 422 and naive.json()["errors"][0]["field"] == "since"


async def test_metrics_count_calls_by_kind_and_outcome_without_tenant_labels(api: Api) -> None:
    before = (await api.admin.get("/metrics")).text
    acme = await api.tenant("acme")
    await make_calls(acme)

    response = await api.client(None).get("/metrics")
    text = response.text

    def value(sample: str, body: str) -> float:
        line = next((x for x in body.splitlines() if x.startswith(sample + " ")), None)
        return float(line.split()[-1]) if line else 0.0

    ok = 'quiver_tool_calls_total{kind="python",outcome="ok"}'
    failed = 'quiver_tool_calls_total{kind="python",outcome="tool_error"}'
    hits = 'quiver_result_cache_hits_total{tier="local"}'
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    # ok_tool 5, flaky 3, lucky 3 (2 from the cache), and the test run: metrics count every call
    assert value(ok, text) - value(ok, before) == 5 + 3 + 3 + 1
    assert value(failed, text) - value(failed, before) == 5
    assert value(hits, text) - value(hits, before) == 2
    assert 'quiver_breaker_openings_total{scope="session"}' in text
    assert "quiver_worker_pool_busy" in text and "quiver_worker_pool_restarts" in text
    assert "quiver_tool_call_seconds_bucket" in text
    assert "acme" not in text and "flaky" not in text  # no tenant or tool labels


async def test_large_ranges_read_rollups_with_percentiles_within_four_percent(
    api: Api, monkeypatch
) -> None:
    from server.storage import calls as calls_module

    acme = await api.tenant("acme")
    made = await make_calls(acme)
    exact = {f["tool"]: f for f in (await acme.dev.get("/v1/analytics/tools")).json()["tools"]}
    monkeypatch.setattr(calls_module, "EXACT_LIMIT", 0)  # as if the range held millions

    rolled = {f["tool"]: f for f in (await acme.dev.get("/v1/analytics/tools")).json()["tools"]}

    assert set(rolled) == set(made)
    for name, f in rolled.items():
        assert f["percentiles"] == "within 4%" and exact[name]["percentiles"] == "exact"
        for key in ("calls", "successes", "cache_hits", "breaker_openings", "last_errors"):
            assert f[key] == exact[name][key], (name, key)
        for key in ("p50_ms", "p95_ms"):
            assert exact[name][key] <= f[key] <= exact[name][key] * 1.04 + 0.001, (name, key)


async def test_rollups_add_up_across_whole_days(api: Api) -> None:
    """Rows of earlier days are read from the rollups, today's from the raw rows; the figures
    are the same as a recomputation from scratch."""
    from sqlalchemy import update

    from server.storage import rollups
    from server.storage.tables import ToolCallRow

    acme = await api.tenant("acme")
    await make_calls(acme)
    await api.runtime.call_log.flush()
    async with api.runtime.sessions() as session, session.begin():
        old = datetime.now(UTC) - timedelta(days=3)
        await session.execute(
            update(ToolCallRow).where(ToolCallRow.tool == "ok_tool").values(at=old)
        )
    async with api.runtime.engine.begin() as conn:  # the rows moved: recount from scratch
        await rollups.rebuild(conn)

    figures = {f["tool"]: f for f in (await acme.dev.get("/v1/analytics/tools")).json()["tools"]}
    recent = await acme.dev.get(
        "/v1/analytics/tools", params={"since": (datetime.now(UTC) - timedelta(days=1)).isoformat()}
    )

    assert figures["ok_tool"]["calls"] == 5 and figures["flaky"]["calls"] == 8
    assert "ok_tool" not in {f["tool"] for f in recent.json()["tools"]}
