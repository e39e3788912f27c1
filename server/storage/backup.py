"""Backups of the embedded SQLite database: online and consistent (SQLite's backup API copies a
snapshot page by page while the node keeps serving), checked, and restored only into a stopped
node. PostgreSQL is backed up with its own tools (``pg_dump``; docs/deploy.md).

The generated secret key (``secret.key`` in the data directory, when ``QUIVER_SECRET_KEY`` is
not set) seals every tenant secret in the database: a backup takes a copy of it beside the
database file (``FILE.secret.key``, 0600) and a restore puts it back, or the secrets would be
unreadable.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

# One step: the copy is one read transaction, which writers do not wait for in WAL mode. (In
# steps, SQLite starts the copy again whenever another connection writes between two of them:
# under steady writes it might never end.)
PAGES_PER_STEP = -1
KEY_SUFFIX = ".secret.key"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class Copied:
    path: Path
    bytes: int
    revision: str | None
    key: Path | None  # the secret key copied beside it (or restored), if any


def backup(database: Path, target: Path, secret_key: Path | None) -> Copied:
    """Copy the live ``database`` to ``target`` (and ``secret_key`` beside it)."""
    if not database.exists():
        raise BackupError(f"no database at {database}")
    target = target.resolve()
    if target == database.resolve():
        raise BackupError("the backup would overwrite the database itself")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.unlink(missing_ok=True)
    _copy(database, partial)
    _check(partial)
    os.chmod(partial, 0o600)
    os.replace(partial, target)
    key = None
    if secret_key is not None and secret_key.exists():
        key = target.with_name(target.name + KEY_SUFFIX)
        _copy_private(secret_key, key)
    return Copied(target, target.stat().st_size, _revision(target), key)


def restore(source: Path, database: Path, journal: Path, secret_key: Path | None) -> Copied:
    """Replace ``database`` with the backup ``source``. The node must be stopped; what was there
    (the database, the call-log journal of calls after the backup, a different secret key) is
    moved aside with a timestamp, never deleted."""
    if not source.exists():
        raise BackupError(f"no backup at {source}")
    _check(source)
    if _revision(source) is None:
        raise BackupError(f"{source} is not a Quiver database (it has no schema revision)")
    if node_running(database):
        raise BackupError(
            "a node is running on this database: stop it first (a restore under a running node "
            "would be undone by what the node holds and writes)"
        )
    stamp = time.strftime("%Y%m%dT%H%M%S")
    aside = f".before-restore-{stamp}"
    database.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        present = database.with_name(database.name + suffix)
        if present.exists():
            present.rename(present.with_name(database.name + aside + suffix))
    if journal.exists():  # calls after the backup were recorded there: kept, not replayed
        journal.rename(journal.with_name(journal.name + aside))
    partial = database.with_name(database.name + ".part")
    partial.unlink(missing_ok=True)
    _copy(source, partial)
    os.chmod(partial, 0o600)
    os.replace(partial, database)
    key = None
    saved_key = source.with_name(source.name + KEY_SUFFIX)
    if secret_key is not None and saved_key.exists():
        if secret_key.exists() and secret_key.read_bytes() != saved_key.read_bytes():
            secret_key.rename(secret_key.with_name(secret_key.name + aside))
        if not secret_key.exists():
            _copy_private(saved_key, secret_key)
        key = secret_key
    return Copied(database, database.stat().st_size, _revision(database), key)


def lock_file(database: Path) -> Path:
    return database.with_name(database.name + ".node-lock")


def hold_node_lock(database: Path) -> int:
    """Taken by every node on ``database`` for its whole life (shared: several may hold it);
    the descriptor, to close when the node stops."""
    database.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_file(database), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_SH)
    return fd


def node_running(database: Path) -> bool:
    """Whether a live node holds ``database`` (its lock)."""
    try:
        fd = os.open(lock_file(database), os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing releases a lock this took
    return False


def _copy(source: Path, target: Path) -> None:
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst, pages=PAGES_PER_STEP)
        # one file a user can move about: no write-ahead log beside it
        dst.execute("PRAGMA journal_mode=DELETE")


def _check(path: Path) -> None:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a readable SQLite database: {exc}") from None
    if verdict != "ok":
        raise BackupError(f"{path} fails SQLite's integrity check: {verdict}")


def _revision(path: Path) -> str | None:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        try:
            row = db.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.OperationalError:
            return None
    return str(row[0]) if row else None


def _copy_private(source: Path, target: Path) -> None:
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out, source.open("rb") as src:
        shutil.copyfileobj(src, out)
    os.chmod(target, 0o600)
