"""A node checks the sandbox layers its workers got when it starts, reports them, and refuses
to start with a clear message when one is missing — unless told it may (docs/deploy.md)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import pytest

from server.api.app import create_app
from server.isolation import IsolationError
from tests.conftest import api_for

ROOT = os.geteuid() == 0
LAYERS = {"environment", "network_namespace", "rlimits", "uid", "seccomp"}


@pytest.mark.skipif(not ROOT, reason="every layer is active only when started as root")
async def test_a_node_reports_every_layer_active_at_start(
    settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="quiver.sandbox")
    async with api_for(settings.model_copy(update={"require_isolation": True})) as api:
        layers = dict(api.runtime.engines.restricted.pool.stats.layers)

    assert set(layers) == LAYERS and all(v.startswith("active") for v in layers.values())
    assert any(r.getMessage().startswith("sandbox layers: ") for r in caplog.records)


async def test_a_node_missing_a_layer_refuses_to_start_and_says_which(settings) -> None:
    weaker = settings.model_copy(update={"require_isolation": True, "worker_uid_base": None})
    app = create_app(weaker)

    with pytest.raises(IsolationError) as refused:
        async with app.router.lifespan_context(app):
            pass

    message = str(refused.value)
    assert "uid" in message and "QUIVER_REQUIRE_ISOLATION=false" in message
    assert "docs/deploy.md" in message


async def test_the_explicit_opt_out_starts_with_a_warning(
    settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="quiver.sandbox")
    weaker = settings.model_copy(
        update={"require_isolation": False, "demo": True, "worker_uid_base": None}
    )
    async with api_for(weaker) as api:
        healthy = await api.client(None).get("/healthz")

    assert healthy.status_code == 200
    assert any("inactive" in r.getMessage() and "uid" in r.getMessage() for r in caplog.records)


@pytest.mark.skipif(not ROOT, reason="every layer is active only when started as root")
def test_the_preflight_command_prints_the_layers() -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "server.cli", "sandbox-check"], capture_output=True, text=True,
        env={**os.environ, "QUIVER_WORKERS": "1"}, timeout=60,
    )  # fmt: skip

    assert checked.returncode == 0, checked.stderr
    assert set(json.loads(checked.stdout)) == LAYERS
