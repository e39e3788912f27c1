"""The tools folder: watched in development, reloaded on the admin endpoint or SIGHUP."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from server.settings import Settings
from tests.conftest import ADMIN_KEY, Api, api_for
from tests.factories import python_source
from tests.servers import EventReader, bearer_client, node_process, served

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


async def shared_session(api: Api) -> tuple:
    acme = await api.tenant("acme", shared=["*"])
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
    return acme, sid


async def names(api_client: httpx.AsyncClient, sid: str) -> list[str]:
    return [
        t["name"] for t in (await api_client.get(f"/v1/sessions/{sid}/snapshot")).json()["tools"]
    ]


async def test_watched_folder_reloads_on_change_and_reports_invalid_files(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "greet.py").write_text(python_source("greet"))
    async with api_for(
        settings.model_copy(update={"tools_dir": folder, "watch_tools": True})
    ) as api:
        app = api.app
        acme, sid = await shared_session(api)
        before = await names(acme.agent, sid)
        async with served(app) as base:
            agent = bearer_client(base, acme.agent_key)
            async with EventReader(agent, f"/v1/sessions/{sid}/events") as stream:
                await stream.next()
                started = time.monotonic()
                (folder / "farewell.py").write_text(python_source("farewell"))
                added = await stream.until(lambda d: d["added"] == ["farewell"], within=3.0)
                took = time.monotonic() - started
                (folder / "broken.py").write_text("def execute(:\n")
                (folder / "greet.py").unlink()
                await stream.until(lambda d: d["removed"] == ["greet"], within=3.0)
            await agent.aclose()
        report = (await api.admin.get("/v1/disk-tools")).json()

    assert "greet" in before and "farewell" not in before
    assert added["data"]["added"] == ["farewell"] and took < 3.0
    assert "broken.py" in report["errors"]
    assert "farewell" in {t["name"] for t in report["tools"]}


async def test_admin_endpoint_reloads_the_folder(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "tools"
    folder.mkdir()
    async with api_for(settings.model_copy(update={"tools_dir": folder})) as api:
        acme, sid = await shared_session(api)
        (folder / "greet.py").write_text(python_source("greet"))
        await asyncio.sleep(0.3)
        not_yet = await names(acme.agent, sid)  # not watched: nothing happens by itself
        denied = await acme.dev.post("/v1/disk-tools/reload")
        reloaded = await api.admin.post("/v1/disk-tools/reload")
        after = await names(acme.agent, sid)

    assert "greet" not in not_yet and denied.status_code == 403
    assert reloaded.status_code == 200 and "greet" in {t["name"] for t in reloaded.json()["tools"]}
    assert "greet" in after


def test_sighup_reloads_a_running_server(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "tools"
    folder.mkdir()
    with node_process(settings, QUIVER_TOOLS_DIR=str(folder)) as node:
        admin = httpx.Client(base_url=node.base, headers={"Authorization": f"Bearer {ADMIN_KEY}"})
        before = admin.get("/v1/disk-tools").json()["tools"]
        (folder / "greet.py").write_text(python_source("greet"))
        os.kill(node.pid, signal.SIGHUP)
        for _ in range(50):
            after = admin.get("/v1/disk-tools").json()["tools"]
            if any(t["name"] == "greet" for t in after):
                break
            time.sleep(0.1)
        admin.close()

    assert not any(t["name"] == "greet" for t in before)
    assert any(t["name"] == "greet" for t in after)
