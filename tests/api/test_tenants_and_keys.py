"""Admin endpoints: tenants, keys (shown once, stored hashed, revocable) and allowlists."""

from __future__ import annotations

from sqlalchemy import select

from server.storage.tables import ApiKeyRow, AuditRow
from tests.conftest import Api


async def test_admin_creates_lists_and_reads_tenants(api: Api) -> None:
    created = await api.admin.post("/v1/tenants", json={"id": "acme", "name": "Acme"})

    listed = await api.admin.get("/v1/tenants")
    one = await api.admin.get("/v1/tenants/acme")

    assert created.status_code == 201
    assert created.json()["shared_tools"] == []
    assert [t["id"] for t in listed.json()["tenants"]] == ["acme"]
    assert one.json()["name"] == "Acme"


async def test_duplicate_tenant_is_a_conflict(api: Api) -> None:
    await api.admin.post("/v1/tenants", json={"id": "acme"})

    again = await api.admin.post("/v1/tenants", json={"id": "acme"})

    assert again.status_code == 409
    assert again.headers["content-type"] == "application/problem+json"
    assert again.json()["code"] == "conflict"


async def test_tenant_id_is_validated_with_the_field_named(api: Api) -> None:
    response = await api.admin.post("/v1/tenants", json={"id": "Not Valid!"})

    assert response.status_code == 422
    assert response.json()["code"] == "validation_error"
    assert response.json()["errors"][0]["field"] == "id"


async def test_global_namespace_is_not_a_tenant(api: Api) -> None:
    assert (await api.admin.get("/v1/tenants/*")).status_code == 404
    assert "*" not in [t["id"] for t in (await api.admin.get("/v1/tenants")).json()["tenants"]]


async def test_key_is_shown_once_and_stored_only_as_a_hash(api: Api) -> None:
    await api.tenant("acme")

    created = await api.admin.post("/v1/tenants/acme/keys", json={"role": "agent", "label": "web"})
    listed = await api.admin.get("/v1/tenants/acme/keys")

    token = created.json()["key"]
    prefix, key_id, secret = token.split("_", 2)
    assert prefix == "qk" and key_id == created.json()["id"]
    assert len(secret) >= 43  # 32 random bytes, base64url
    assert token not in listed.text and secret not in listed.text
    async with api.runtime.sessions() as session:
        row = await session.get(ApiKeyRow, key_id)
        assert row.secret_hash != secret and secret not in row.secret_hash


async def test_revoked_key_is_refused(api: Api) -> None:
    acme = await api.tenant("acme")
    key_id = acme.dev_key.split("_")[1]
    assert (await acme.dev.get("/v1/tools")).status_code == 200

    revoked = await api.admin.delete(f"/v1/keys/{key_id}")
    after = await acme.dev.get("/v1/tools")

    assert revoked.status_code == 204
    assert after.status_code == 401
    assert after.json()["code"] == "unauthenticated"


async def test_last_used_time_is_recorded(api: Api) -> None:
    acme = await api.tenant("acme")

    await acme.dev.get("/v1/tools")

    keys = (await api.admin.get("/v1/tenants/acme/keys")).json()["keys"]
    used = {k["role"]: k["last_used_at"] for k in keys}
    assert used["developer"] is not None
    assert used["agent"] is None


async def test_bad_keys_are_unauthenticated(api: Api) -> None:
    acme = await api.tenant("acme")
    key_id = acme.dev_key.split("_")[1]
    forged = f"qk_{key_id}_{'x' * 43}"

    for headers in (
        {},
        {"Authorization": "Bearer nope"},
        {"Authorization": f"Bearer {forged}"},
        {"Authorization": f"Basic {acme.dev_key}"},
    ):
        response = await api.client(None).get("/v1/tools", headers=headers)
        assert response.status_code == 401, headers
        assert response.json()["code"] == "unauthenticated"


async def test_admin_keys_cannot_be_minted_for_a_tenant(api: Api) -> None:
    await api.tenant("acme")

    response = await api.admin.post("/v1/tenants/acme/keys", json={"role": "admin"})

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "role"


async def test_shared_tools_allowlist_is_replaced_and_audited(api: Api) -> None:
    await api.tenant("acme")

    first = await api.admin.put(
        "/v1/tenants/acme/shared-tools",
        json={"tools": ["qa_lookup", "qa_lookup", "escalate_to_human"]},
    )
    bad = await api.admin.put("/v1/tenants/acme/shared-tools", json={"tools": ["not a name"]})

    assert first.json()["shared_tools"] == ["qa_lookup", "escalate_to_human"]
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"].startswith("tools")
    async with api.runtime.sessions() as session:
        actions = [
            r.action
            for r in await session.scalars(select(AuditRow).where(AuditRow.tenant_id == "acme"))
        ]
    assert "tenant.shared_tools" in actions and "key.create" in actions


async def test_first_start_without_admin_key_creates_and_prints_one(settings, capsys) -> None:
    from server.api.app import create_app

    no_admin = settings.model_copy(update={"admin_key": None})
    app = create_app(no_admin)
    async with app.router.lifespan_context(app):
        printed = capsys.readouterr().out
        token = printed.strip().rsplit(" ", 1)[-1]
        import httpx

        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://t"
        ) as client:
            response = await client.get("/v1/tenants", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200
    app2 = create_app(no_admin)
    async with app2.router.lifespan_context(app2):
        assert "admin key" not in capsys.readouterr().out  # printed once, not on every start
