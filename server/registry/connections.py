"""An OAuth 2.1 provider of a tenant (``PUT /v1/oauth-providers/{name}``), checked (pure): where
its end users authorize, where Quiver gets their tokens, and the API origins the tokens are for.
A tool's ``metadata.auth`` naming one is checked with the rest of its metadata
(``server.credentials.auth_problems``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.credentials import PROVIDER_NAME, scope_problems
from server.egress import EgressDenied, origin, parse_url
from server.errors import Problems
from server.registry.definitions import KEEP, MAX_URL, _Keep

MAX_API = 8
FIELDS = frozenset({"authorize_url", "token_url", "client_id", "client_secret", "scopes", "api"})


@dataclass(frozen=True)
class ProviderSpec:
    name: str
    authorize_url: str
    token_url: str
    client_id: str
    scopes: tuple[str, ...]
    api: tuple[str, ...]  # origins (scheme://host[:port]) the access token is added to
    client_secret: str | None | _Keep = KEEP


def check_provider(name: str, body: Any) -> ProviderSpec:
    """The body of ``PUT /v1/oauth-providers/{name}`` (422 naming each problem)."""
    problems = Problems()
    if not PROVIDER_NAME.match(name):
        problems.add("name", "must match ^[a-z][a-z0-9_-]{0,31}$")
    if not isinstance(body, dict):
        problems.add(None, "must be a JSON object")
        problems.raise_if_any()
    for key in sorted(set(body) - FIELDS):
        problems.add(key, f"is not a field of a provider (fields: {', '.join(sorted(FIELDS))})")
    for key in ("authorize_url", "token_url"):
        _check_url(body.get(key), key, problems)
    client_id = body.get("client_id")
    if not isinstance(client_id, str) or not 0 < len(client_id) <= 256:
        problems.add("client_id", "must be a string of 1 to 256 characters")
    scopes = body.get("scopes", [])
    for where, message in scope_problems(scopes):
        problems.add(f"scopes{where}", message)
    api = body.get("api")
    if not isinstance(api, list) or not 0 < len(api) <= MAX_API:
        problems.add("api", f"must list 1 to {MAX_API} origins the tokens are for")
        api = []
    origins = []
    for i, item in enumerate(api):
        if _check_url(item, f"api[{i}]", problems):
            scheme, host, port = origin(item)
            origins.append(f"{scheme}://{host}:{port}")
    secret: str | None | _Keep = KEEP
    if "client_secret" in body:
        secret = body["client_secret"]
        if secret is not None and (not isinstance(secret, str) or not 0 < len(secret) <= 1024):
            problems.add("client_secret", "must be a string of at most 1024 characters, or null")
    problems.raise_if_any()
    return ProviderSpec(
        name=name,
        authorize_url=str(body["authorize_url"]),
        token_url=str(body["token_url"]),
        client_id=str(client_id),
        scopes=tuple(scopes),
        api=tuple(origins),
        client_secret=secret,
    )


def _check_url(value: Any, field: str, problems: Problems) -> bool:
    if not isinstance(value, str) or not value or len(value) > MAX_URL:
        problems.add(field, f"must be an http(s) URL of at most {MAX_URL} characters")
        return False
    try:
        parse_url(value)
    except EgressDenied as exc:
        problems.add(field, str(exc))
        return False
    return True
