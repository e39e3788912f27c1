"""Dependencies that fail: a private Redis stopped and started under the server, a database that
does not answer. Calls go on, nothing answers 500, the log says it a few times, not thousands.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis

from tests.api.test_breakers import FLAKY, STEADY, attach
from tests.api.test_calls import call
from tests.api.test_result_cache import lucky
from tests.conftest import api_for
from tests.servers import free_port


class PrivateRedis:
    """A redis-server of the test's own on a free loopback port (never the machine's shared one)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port),
             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    break
            if time.monotonic() > deadline:
                raise AssertionError("the private redis-server did not start")
            time.sleep(0.02)
        client.close()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed here")
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


async def test_redis_stopped_and_started_under_load(
    settings, private_redis: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with api_for(settings.model_copy(update={"redis_url": private_redis.url})) as api:
        health = api.runtime.redis_health
        now = [0.0]
        health.clock = lambda: now[0]  # the test owns the retry clock
        acme = await api.tenant("acme")
        for body in (FLAKY, STEADY, lucky(scope="tenant")):
            assert (await acme.dev.post("/v1/tools", json=body)).status_code == 201
        await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
        sid = await attach(acme)
        assert (await call(acme, sid, "steady"))["success"] is True
        ready_before = (await api.client(None).get("/readyz")).json()

        private_redis.stop()
        during = []
        for i in range(40):
            now[0] += 0.5  # Redis is tried again every 2 s of this clock
            during.append(await call(acme, sid, "steady"))
            during.append(await call(acme, sid, "lucky", {"city": f"c{i % 3}"}))
        attached = await acme.agent.post("/v1/sessions", json={"bot": "b"})
        snapshot = await acme.agent.get(f"/v1/sessions/{sid}/snapshot")
        ready_during = await api.client(None).get("/readyz")
        metrics = (await api.client(None).get("/metrics")).text

        private_redis.start()
        now[0] += 5
        after = await call(acme, sid, "steady")
        ready_after = (await api.client(None).get("/readyz")).json()

    assert ready_before["checks"]["redis"] == "ok"
    assert all(r["success"] for r in during)
    assert attached.status_code == 201 and snapshot.status_code == 200
    assert ready_during.status_code == 200
    assert ready_during.json()["status"] == "degraded"
    assert ready_during.json()["checks"]["redis"].startswith("degraded")
    assert 'quiver_degraded{dependency="redis"} 1.0' in metrics
    assert after["success"] is True and ready_after["checks"]["redis"] == "ok"
    assert not health.degraded
    warnings = [r for r in caplog.records if r.name.startswith("quiver")]
    assert len(warnings) <= 4  # "unreachable" and "back": no traceback per call
    assert not any(r.exc_info for r in warnings)
