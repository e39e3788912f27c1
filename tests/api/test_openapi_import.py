"""OpenAPI import through HTTP: a YAML or JSON document becomes webhook tools (operations chosen
by operationId or tag, parameters and bodies mapped, auth kept encrypted), a dry run stores
nothing, and bad documents are refused whole with the place of each problem."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.api.test_webhooks import hooks  # noqa: F401 (the app that may reach 127.0.0.2)
from tests.conftest import Api
from tests.loopback import LoopbackServer

PETSTORE = """
openapi: 3.0.3
info: {title: Pets, version: "1"}
servers:
  - url: "{base}"
security:
  - bearer: []
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      summary: List pets
      parameters:
        - {name: limit, in: query, schema: {type: integer, maximum: 100}}
        - {name: X-Trace, in: header, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Tree"}
    post:
      operationId: createPet
      tags: [pets]
      summary: Create a pet
      parameters:
        - {name: dry, in: query, schema: {type: boolean}}
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/NewPet"}
      responses: {"201": {description: created}}
  /pets/{petId}:
    parameters:
      - $ref: "#/components/parameters/PetId"
    get:
      operationId: showPet
      tags: [pets]
      summary: One pet
      security: [{apiKey: []}]
      responses: {"200": {description: ok}}
  /stores:
    get:
      operationId: listStores
      tags: [stores]
      responses: {"200": {description: ok}}
components:
  parameters:
    PetId: {name: petId, in: path, required: true, description: the pet, schema: {type: string}}
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    apiKey: {type: apiKey, in: header, name: X-Api-Key}
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        tag: {type: string, nullable: true}
        owner: {$ref: "#/components/schemas/Owner"}
    Owner:
      type: object
      properties: {email: {type: string, format: email}}
    Tree:
      type: object
      properties:
        children: {type: array, items: {$ref: "#/components/schemas/Tree"}}
"""


def petstore(base: str) -> str:
    return PETSTORE.replace("{base}", base)


async def test_an_openapi_document_becomes_working_webhook_tools(
    hooks: Api,  # noqa: F811
    upstream_http: LoopbackServer,
) -> None:
    acme = await hooks.tenant("acme")
    credentials = {"bearer": "tok-123", "apiKey": "key-456"}
    dry = await acme.dev.post(
        "/v1/tools/import/openapi",
        json={
            "source": petstore(upstream_http.base),
            "tags": ["pets"],
            "credentials": credentials,
            "dry_run": True,
        },  # fmt: skip
    )
    nothing_yet = (await acme.dev.get("/v1/tools")).json()["tools"]
    imported = await acme.dev.post(
        "/v1/tools/import/openapi",
        json={
            "document": yaml.safe_load(petstore(upstream_http.base)),
            "tags": ["pets"],
            "credentials": credentials,
        },  # fmt: skip
    )
    await acme.dev.post("/v1/bots", json={"name": "b", "tools": None})
    sid = (await acme.agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]

    async def call(tool: str, arguments: dict) -> dict:
        response = await acme.agent.post(f"/v1/sessions/{sid}/calls", json={"tool": tool, "arguments": arguments})  # fmt: skip
        return response.json()

    listed = await call("listPets", {"limit": 5})
    created = await call("createPet", {"name": "Rex", "tag": None, "owner": {"email": "a@b.co"}, "dry": True})  # fmt: skip
    shown = await call("showPet", {"petId": "p 1"})
    invalid = await call("createPet", {"tag": "x"})
    tools = {t["name"]: t for t in (await acme.dev.get("/v1/tools")).json()["tools"]}
    seen = upstream_http.seen[-3:]

    assert dry.status_code == 200 and nothing_yet == []
    assert {t["name"] for t in dry.json()["tools"]} == {"listPets", "createPet", "showPet"}
    assert "tok-123" not in dry.text and "key-456" not in dry.text
    assert imported.status_code == 201, imported.text
    assert set(tools) == {"listPets", "createPet", "showPet"}  # not listStores (other tag)
    assert tools["showPet"]["parameters"]["required"] == ["petId"]
    assert tools["createPet"]["parameters"]["properties"]["tag"]["type"] == ["string", "null"]
    assert "tok-123" not in json.dumps(tools)
    assert listed["success"] and created["success"] and shown["success"], (listed, created, shown)
    assert seen[0]["method"] == "GET" and seen[0]["query"] == {"limit": "5"}
    assert seen[0]["headers"]["authorization"] == "Bearer tok-123"
    assert seen[1]["method"] == "POST" and seen[1]["query"] == {"dry": "true"}
    assert seen[1]["body"] == {"name": "Rex", "tag": None, "owner": {"email": "a@b.co"}}
    assert seen[2]["path"] == "/pets/p%201" and seen[2]["headers"]["x-api-key"] == "key-456"
    assert invalid["success"] is False and invalid["error"]["code"] == "invalid_arguments"


@pytest.mark.parametrize(
    ("document", "field"),
    [
        ({"openapi": "2.0", "paths": {}}, "document.openapi"),
        (
            {
                "openapi": "3.1.0",
                "servers": [{"url": "https://x.example"}],
                "paths": {
                    "/a": {
                        "get": {
                            "operationId": "a",
                            "parameters": [{"$ref": "https://evil.example/p.json"}],
                        }
                    }
                },
            },
            "paths./a.get.parameters[0].$ref",
        ),
        (
            {"openapi": "3.1.0", "paths": {"/a": {"get": {"operationId": "a"}}}},
            "server",
        ),
        (
            {
                "openapi": "3.1.0",
                "servers": [{"url": "https://x.example"}],
                "paths": {
                    "/a": {
                        "post": {"operationId": "a", "requestBody": {"content": {"text/plain": {}}}}
                    }
                },
            },
            "paths./a.post.requestBody",
        ),
        (
            {
                "openapi": "3.1.0",
                "servers": [{"url": "https://x.example"}],
                "paths": {f"/p{i}": {"get": {"operationId": f"op{i}"}} for i in range(250)},
            },
            "operations",
        ),
    ],
    ids=["swagger 2", "external ref", "no server", "not json body", "too many"],
)
async def test_bad_documents_are_refused_whole_naming_the_place(
    hooks: Api,  # noqa: F811
    document: dict,
    field: str,
) -> None:
    acme = await hooks.tenant("acme")

    response = await acme.dev.post("/v1/tools/import/openapi", json={"document": document})

    assert response.status_code == 422, response.text
    assert field in [e.get("field") for e in response.json()["errors"]], response.json()
    assert (await acme.dev.get("/v1/tools")).json()["tools"] == []


async def test_an_import_is_all_or_nothing(hooks: Api, upstream_http: LoopbackServer) -> None:  # noqa: F811
    acme = await hooks.tenant("acme")
    taken = {"kind": "webhook", "name": "showPet", "description": "mine", "webhook_url": "https://x.example/y"}  # fmt: skip
    assert (await acme.dev.post("/v1/tools", json=taken)).status_code == 201

    clash = await acme.dev.post(
        "/v1/tools/import/openapi", json={"source": petstore(upstream_http.base), "tags": ["pets"]}
    )
    unknown_op = await acme.dev.post(
        "/v1/tools/import/openapi",
        json={"source": petstore(upstream_http.base), "operations": ["nope"]},  # fmt: skip
    )
    not_yaml = await acme.dev.post("/v1/tools/import/openapi", json={"source": "openapi: [3"})

    assert clash.status_code == 409
    assert {t["name"] for t in (await acme.dev.get("/v1/tools")).json()["tools"]} == {"showPet"}
    assert unknown_op.status_code == 422 and unknown_op.json()["errors"][0]["field"] == "operations"
    assert not_yaml.status_code == 422 and not_yaml.json()["errors"][0]["field"] == "source"
