"""A fresh PostgreSQL database on this machine, for a benchmark's run."""

from __future__ import annotations

import subprocess


def fresh_postgres(name: str) -> str:
    """Drop and create database ``name``; its SQLAlchemy URL."""
    for sql in (f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}"):
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql], check=True)
    return f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
