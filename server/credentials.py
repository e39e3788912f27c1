"""Credentials the egress guard adds to a tool's requests, so that their values never enter the
sandbox: a tool declares them in ``metadata.credentials`` and calls the API without them.

    {"secret": "CRM_TOKEN", "url": "https://crm.example.com", "header": "Authorization",
     "format": "Bearer {secret}"}
    {"secret": "MAPS_KEY", "url": "https://maps.example.com", "query": "key"}

The guard puts the value into every request, redirect hops included, whose origin (scheme, host,
port) is the declared one, and into no other: a tool cannot send it anywhere else, since it
never held it. Over ``http`` it goes only to a host an allowlist admits (an internal one);
elsewhere it travels over ``https``. What the upstream answers is handed to the tool with the
value masked (``[secret NAME]``), so an API that echoes it back leaks nothing.
"""

from __future__ import annotations

import re
from typing import Any

from server.egress import Credential, EgressDenied, Origin, origin, parse_url

MAX_CREDENTIALS = 8
SECRET_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$")  # RFC 9110's header field name
QUERY_NAME = re.compile(r"^[A-Za-z0-9_.~-]{1,64}$")
# what the guard or the HTTP client owns: a credential may not set them
RESERVED_HEADERS = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer"}
)
KEYS = {"secret", "url", "header", "format", "query"}


def parse(raw: Any) -> tuple[list[Credential], list[tuple[str, str]]]:
    """``metadata.credentials`` as credentials, and the problems found (field under it, message);
    the credentials are only those without a problem."""
    if not isinstance(raw, list) or len(raw) > MAX_CREDENTIALS:
        return [], [("", f"must be a list of at most {MAX_CREDENTIALS} credentials")]
    found: list[Credential] = []
    problems: list[tuple[str, str]] = []
    for i, entry in enumerate(raw):
        at = f"[{i}]"
        if not isinstance(entry, dict):
            problems.append((at, "must be an object with secret, url, and header or query"))
            continue
        before = len(problems)
        for key in sorted(entry.keys() - KEYS):
            problems.append((f"{at}.{key}", f"unknown key (allowed: {', '.join(sorted(KEYS))})"))
        secret = entry.get("secret")
        if not isinstance(secret, str) or not SECRET_NAME.match(secret):
            problems.append((f"{at}.secret", f"must be a secret's name ({SECRET_NAME.pattern})"))
        where = _origin(entry.get("url"), f"{at}.url", problems)
        header, query, form = entry.get("header"), entry.get("query"), entry.get("format")
        if (header is None) == (query is None):
            problems.append((at, "must name a header or a query parameter (one of them)"))
        if header is not None and (
            not isinstance(header, str)
            or not TOKEN.match(header)
            or header.lower() in RESERVED_HEADERS
        ):
            problems.append((f"{at}.header", "must be a header name the guard may set"))
        if query is not None and (not isinstance(query, str) or not QUERY_NAME.match(query)):
            problems.append((f"{at}.query", f"must be a parameter name ({QUERY_NAME.pattern})"))
        if form is not None and (
            not isinstance(form, str)
            or form.count("{secret}") != 1
            or len(form) > 200
            or any(ord(c) < 0x20 or ord(c) == 0x7F for c in form)
        ):
            problems.append((f"{at}.format", "must hold {secret} once (e.g. 'Bearer {secret}')"))
        if len(problems) == before and where is not None:
            found.append(
                Credential(
                    secret=str(secret),
                    origin=where,
                    header=header,
                    format=form if isinstance(form, str) else "{secret}",
                    query=query,
                )
            )
    return found, problems


def _origin(raw: Any, at: str, problems: list[tuple[str, str]]) -> Origin | None:
    if not isinstance(raw, str):
        problems.append((at, "must be the API's origin, e.g. https://api.example.com"))
        return None
    try:
        url = parse_url(raw)
    except EgressDenied as exc:
        problems.append((at, str(exc)))
        return None
    if url.path not in ("", "/") or url.query or url.fragment:
        problems.append((at, "must be an origin only (scheme, host and port: no path or query)"))
        return None
    return origin(url)


# A tool that acts as its end user (``metadata.auth``): the token of the session's customer's
# connection to the provider, added by the guard to the provider's API origins
# (``server.calls.connections``).
PROVIDER_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
SCOPE = re.compile(r"^[\x21\x23-\x5b\x5d-\x7e]{1,128}$")  # RFC 6749's scope-token
MAX_SCOPES = 32


def scope_problems(raw: Any) -> list[tuple[str, str]]:
    """What is wrong with a list of OAuth scopes (field under it, message)."""
    if not isinstance(raw, list) or len(raw) > MAX_SCOPES:
        return [("", f"must list at most {MAX_SCOPES} scopes")]
    return [
        (f"[{i}]", "must be an OAuth scope (printable, no spaces, quotes or backslashes)")
        for i, scope in enumerate(raw)
        if not isinstance(scope, str) or not SCOPE.match(scope)
    ]


def auth_problems(raw: Any) -> list[tuple[str, str]]:
    """What is wrong with ``metadata.auth``: ``{"provider": name, "scopes": [...]}``."""
    if not isinstance(raw, dict) or set(raw) - {"provider", "scopes"}:
        return [("", 'must be {"provider": name, "scopes": [...]}')]
    problems = []
    if not isinstance(raw.get("provider"), str) or not PROVIDER_NAME.match(raw["provider"]):
        problems.append((".provider", "must name a provider (^[a-z][a-z0-9_-]{0,31}$)"))
    problems += [(f".scopes{w}", m) for w, m in scope_problems(raw.get("scopes", []))]
    return problems
