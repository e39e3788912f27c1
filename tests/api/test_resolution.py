"""Resolution over HTTP: tenant > global DB > disk/built-in, globals only when allowlisted."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.api.app import create_app
from tests.conftest import ADMIN_KEY, Api
from tests.factories import python_source, python_tool


async def _names(client, bot: str = "all") -> dict[str, str]:
    tools = (await client.get(f"/v1/bots/{bot}/snapshot")).json()["tools"]
    return {t["name"]: t["origin"] for t in tools}


async def test_global_tool_is_hidden_until_allowlisted(api: Api) -> None:
    acme = await api.tenant("acme")
    await api.admin.post("/v1/tools?tenant=*", json=python_tool("shared_lookup"))
    await acme.dev.post("/v1/bots", json={"name": "all", "tools": None})

    before = await _names(acme.agent)
    await api.admin.put("/v1/tenants/acme/shared-tools", json={"tools": ["shared_lookup"]})
    after = await _names(acme.agent)

    assert "shared_lookup" not in before
    assert after["shared_lookup"] == "global"


async def test_star_allowlist_admits_all_global_and_builtin_tools(api: Api) -> None:
    acme = await api.tenant("acme", shared=["*"])
    await api.admin.post("/v1/tools?tenant=*", json=python_tool("shared_lookup"))
    await acme.dev.post("/v1/bots", json={"name": "all", "tools": None})

    names = await _names(acme.agent)

    assert names["shared_lookup"] == "global"
    assert names["escalate_to_human"] == "builtin"


async def test_tenant_tool_overrides_global_tool_of_the_same_name(api: Api) -> None:
    acme = await api.tenant("acme", shared=["*"])
    globex = await api.tenant("globex", shared=["*"])
    await api.admin.post("/v1/tools?tenant=*", json=python_tool("lookup", description="global one"))
    await acme.dev.post("/v1/tools", json=python_tool("lookup", description="acme's own"))
    for t in (acme, globex):
        await t.dev.post("/v1/bots", json={"name": "all", "tools": ["lookup"]})

    acme_tool = (await acme.agent.get("/v1/bots/all/snapshot")).json()["tools"][0]
    globex_tool = (await globex.agent.get("/v1/bots/all/snapshot")).json()["tools"][0]

    assert (acme_tool["origin"], acme_tool["description"]) == ("tenant", "acme's own")
    assert (globex_tool["origin"], globex_tool["description"]) == ("global", "global one")


async def test_global_db_tool_overrides_builtin_of_the_same_name(api: Api) -> None:
    acme = await api.tenant("acme", shared=["escalate_to_human"])
    await acme.dev.post("/v1/bots", json={"name": "all", "tools": None})
    assert (await _names(acme.agent))["escalate_to_human"] == "builtin"

    await api.admin.post("/v1/tools?tenant=*", json=python_tool("escalate_to_human"))

    assert (await _names(acme.agent))["escalate_to_human"] == "global"


async def test_disabled_tenant_tool_hides_its_name(api: Api) -> None:
    acme = await api.tenant("acme", shared=["*"])
    await api.admin.post("/v1/tools?tenant=*", json=python_tool("lookup"))
    await acme.dev.post("/v1/tools", json=python_tool("lookup"))
    await acme.dev.post("/v1/bots", json={"name": "all", "tools": None})

    await acme.dev.patch("/v1/tools/lookup", json={"enabled": False})

    assert "lookup" not in await _names(acme.agent)


async def test_one_tenants_tool_never_reaches_another(api: Api) -> None:
    acme = await api.tenant("acme", shared=["*"])
    globex = await api.tenant("globex", shared=["*"])
    await acme.dev.post("/v1/tools", json=python_tool("acme_secret_tool"))
    await globex.dev.post("/v1/bots", json={"name": "all", "tools": None})

    assert "acme_secret_tool" not in await _names(globex.agent)


@pytest.fixture
def tools_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "tools"
    folder.mkdir()
    two = python_source("disk_one").replace("tool = {", "tools = [{").rstrip() + "\n"
    two = (
        two[: two.rindex("}")]
        + "}, "
        + '{"name": "disk_two", "description": "second", "execute": execute}]\n'
    )
    (folder / "pair.py").write_text(two)
    (folder / "__init__.py").write_text(python_source("from_init"))
    (folder / "template_example.py").write_text(python_source("from_template"))
    (folder / ".hidden.py").write_text(python_source("from_hidden"))
    (folder / "notes.txt").write_text(python_source("from_txt"))
    (folder / "broken.py").write_text(python_source("from_broken", extra='\n    "surprise": 1,'))
    (folder / "single.py").write_text(python_source("disk_single"))
    return folder


async def test_disk_folder_rules(settings, tools_dir: Path) -> None:
    import httpx

    app = create_app(settings.model_copy(update={"tools_dir": tools_dir}))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://t",
            headers={"Authorization": f"Bearer {ADMIN_KEY}"},
        ) as admin,
    ):
        report = (await admin.get("/v1/disk-tools")).json()
        await admin.post("/v1/tenants", json={"id": "acme"})
        await admin.put("/v1/tenants/acme/shared-tools", json={"tools": ["*"]})
        await admin.post("/v1/bots?tenant=acme", json={"name": "all", "tools": None})
        snapshot = (await admin.get("/v1/bots/all/snapshot?tenant=acme")).json()

    loaded = {t["name"]: t["file"] for t in report["tools"] if t["origin"] == "global"}
    assert loaded == {"disk_one": "pair.py", "disk_two": "pair.py", "disk_single": "single.py"}
    assert list(report["errors"]) == ["broken.py"]
    assert report["errors"]["broken.py"][0]["field"] == "tool.surprise"
    names = {t["name"] for t in snapshot["tools"]}
    assert {"disk_one", "disk_two", "disk_single", "escalate_to_human"} <= names
    assert not names & {"from_init", "from_template", "from_hidden", "from_txt", "from_broken"}
