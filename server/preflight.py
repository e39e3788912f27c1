"""What a production node must have set, checked before it starts (``QUIVER_ENVIRONMENT``).

A development node (the default) only warns, and only when it listens beyond loopback; a node
started with ``QUIVER_ENVIRONMENT=production`` refuses to start while any of these holds, and
says every one at once. docs/deploy.md lists the same settings.
"""

from __future__ import annotations

import ipaddress

from server.settings import Settings

LOOPBACK_NAMES = {"localhost", "ip6-localhost"}


def listens_beyond_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return False
    try:
        return not ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name: it may resolve to anything
        return True


def unsafe_for_production(settings: Settings) -> list[str]:
    """Each setting a production node lacks, as one sentence naming it."""
    problems = []
    if settings.demo:
        problems.append("--demo / QUIVER_DEMO seeds well-known example tools and prints keys")
    if not settings.require_isolation:
        problems.append(
            "QUIVER_REQUIRE_ISOLATION=false runs tenant code without every sandbox layer"
        )
    if settings.secret_key is None:
        problems.append(
            "QUIVER_SECRET_KEY is not set (a key generated into the data directory is lost with "
            "it, and every tenant secret with it)"
        )
    if settings.database_url is None:
        problems.append(
            "QUIVER_DATABASE_URL is not set (the embedded SQLite in the working directory's "
            ".quiver is a development default; name the database, SQLite or PostgreSQL)"
        )
    elif not settings.is_sqlite and settings.redis_url is None:
        problems.append(
            "QUIVER_REDIS_URL is not set: on PostgreSQL every node would count request rates "
            "and quotas on its own"
        )
    if "*" in (o.strip() for o in settings.cors_origins.split(",")):
        problems.append(
            "QUIVER_CORS_ORIGINS is '*': list the origins of the pages that embed your agents "
            "(or set it empty)"
        )
    if "*" in (o.strip() for o in settings.mcp_origins.split(",")):
        problems.append("QUIVER_MCP_ORIGINS is '*': list the origins whose pages may use /mcp")
    return problems
