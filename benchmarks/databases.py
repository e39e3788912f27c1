"""The database servers a benchmark may use, named one way everywhere.

``QUIVER_BENCH_PG_URL`` is a libpq URL of a PostgreSQL server and a database the benchmarks may
connect to (``postgresql://user@host:port/db``; default the local ``test``); each benchmark makes
databases of its own on that server and drops them. ``QUIVER_BENCH_REDIS_URL`` names a Redis
database (default db 15 of the local server) that a benchmark empties only when it was empty
already, or when told to (``--flush-redis``).
"""

from __future__ import annotations

import os
import subprocess

from sqlalchemy.engine import make_url

PG_URL = os.environ.get("QUIVER_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("QUIVER_BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")


def postgres(name: str | None = None, driver: str = "asyncpg") -> str:
    """The SQLAlchemy URL of database ``name`` (default: the one named) on the server."""
    url = make_url(PG_URL).set(drivername=f"postgresql+{driver}")
    return url.set(database=name or url.database).render_as_string(hide_password=False)


def libpq(name: str | None = None) -> str:
    """The same, as a plain libpq URL (for asyncpg and psql)."""
    return postgres(name).replace("postgresql+asyncpg://", "postgresql://", 1)


def fresh_postgres(name: str) -> str:
    """Drop and create database ``name`` on the server; its SQLAlchemy URL."""
    for sql in (f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", libpq(), "-qc", sql], check=True)
    return postgres(name)


def own_redis(url: str = REDIS_URL, flush: bool = False) -> str:
    """``url``, emptied for a run: refused if it holds keys and ``flush`` was not given."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        if client.dbsize() and not flush:
            raise SystemExit(
                f"{url} holds keys: pass --flush-redis to empty it, or name an empty database "
                "with QUIVER_BENCH_REDIS_URL"
            )
        client.flushdb()
    finally:
        client.close()
    return url
