"""Webhook secrets: encrypted at rest, bound to their owner, masked on every read, never logged."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import select, text

from server.secretbox import SecretBox, SecretBoxError, generate_key
from server.storage.repositories import secret_binding
from server.storage.tables import ToolRow, ToolVersionRow
from tests.conftest import Api
from tests.factories import webhook_tool

SECRET = "Bearer sk-live-SECRET-123"


async def test_auth_header_never_appears_in_any_response_or_log(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    responses = [
        await acme.dev.post("/v1/tools/validate", json=webhook_tool(auth_header=SECRET)),
        await acme.dev.post("/v1/tools", json=webhook_tool(auth_header=SECRET)),
        await acme.dev.post("/v1/tools", json=webhook_tool(auth_header=SECRET)),  # conflict error
        await acme.dev.post(
            "/v1/tools", json=webhook_tool(name="bad", auth_header=SECRET, method="NOPE")
        ),  # validation error
        await acme.dev.get("/v1/tools/get_weather"),
        await acme.dev.get("/v1/tools"),
        await acme.dev.put(
            "/v1/tools/get_weather", json=webhook_tool(auth_header=None, description="v2")
        ),
        await acme.dev.get("/v1/tools/get_weather/versions"),
        await acme.dev.post("/v1/tools/get_weather/rollback", json={"version": 1}),
        await acme.dev.patch("/v1/tools/get_weather", json={"enabled": True}),
        await acme.agent.get("/v1/bots/b/snapshot"),
        await api.admin.get("/v1/tools?tenant=acme"),
    ]

    for response in responses:
        assert "sk-live" not in response.text, response.request.url
    assert "sk-live" not in caplog.text


async def test_secret_is_encrypted_at_rest(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=webhook_tool(auth_header=SECRET))

    async with api.runtime.sessions() as session:
        dump = "\n".join(
            str(row) for row in (await session.execute(text("SELECT * FROM tool_versions"))).all()
        )
        tool = await session.scalar(select(ToolRow).where(ToolRow.name == "get_weather"))
        version = await session.scalar(
            select(ToolVersionRow).where(ToolVersionRow.tool_id == tool.id)
        )

    assert "sk-live" not in dump
    assert version.auth_header_ct.startswith("v1.")
    assert (
        api.runtime.box.decrypt(version.auth_header_ct, secret_binding("acme", "get_weather"))
        == SECRET
    )


async def test_update_without_auth_header_keeps_it_and_null_removes_it(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=webhook_tool(auth_header=SECRET))

    kept = await acme.dev.put(
        "/v1/tools/get_weather", json=webhook_tool(auth_header=None, description="v2")
    )
    removed = await acme.dev.put(
        "/v1/tools/get_weather", json={**webhook_tool(auth_header=None), "auth_header": None}
    )

    assert kept.json()["auth_header"] == "********"
    assert removed.json()["auth_header"] is None


def test_ciphertext_moved_to_another_owner_does_not_decrypt() -> None:
    box = SecretBox.from_config(generate_key())
    token = box.encrypt(SECRET, secret_binding("acme", "hook"))

    with pytest.raises(SecretBoxError):
        box.decrypt(token, secret_binding("globex", "hook"))
    with pytest.raises(SecretBoxError):
        box.decrypt(
            token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1],
            secret_binding("acme", "hook"),
        )


def test_old_keys_decrypt_until_rotated() -> None:
    old, new = generate_key(), generate_key()
    token = SecretBox.from_config(old).encrypt(SECRET, "o")

    rotated_box = SecretBox.from_config(f"{new},{old}")

    assert rotated_box.decrypt(token, "o") == SECRET
    assert rotated_box.needs_rotation(token)
    assert not rotated_box.needs_rotation(rotated_box.encrypt(SECRET, "o"))
    with pytest.raises(SecretBoxError):
        SecretBox.from_config(new).decrypt(token, "o")


async def test_rotation_re_encrypts_every_stored_secret(api: Api) -> None:
    acme = await api.tenant("acme")
    await acme.dev.post("/v1/tools", json=webhook_tool("a", auth_header=SECRET))
    await acme.dev.post("/v1/tools", json=webhook_tool("b", auth_header=SECRET + "-b"))
    old_key = api.runtime.settings.secret_key.get_secret_value()
    new_key = generate_key()
    api.runtime.storage.box = SecretBox.from_config(f"{new_key},{old_key}")

    async with api.runtime.sessions() as session, session.begin():
        changed = await api.runtime.store(session).tools.rotate_secrets()
    async with api.runtime.sessions() as session, session.begin():
        again = await api.runtime.store(session).tools.rotate_secrets()
        rows = (
            await session.execute(
                select(ToolRow.name, ToolVersionRow.auth_header_ct).join(
                    ToolVersionRow, ToolVersionRow.tool_id == ToolRow.id
                )
            )
        ).all()

    only_new = SecretBox.from_config(new_key)
    assert (changed, again) == (2, 0)
    assert {only_new.decrypt(ct, secret_binding("acme", name)) for name, ct in rows} == {
        SECRET,
        SECRET + "-b",
    }
