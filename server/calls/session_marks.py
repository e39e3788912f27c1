"""Marks that keep a session's cached state exact between the serving processes of one host
(``quiver serve --workers N``), at the cost of a memory read per call.

Each process caches session states (``server.calls.session_state``) and hears other nodes'
changes by announcement, which arrives moments after their commit. Processes behind one port
take a client's consecutive calls in turn, so "moments after" is not enough there: a call must
see the change the call before it made in another process. So the processes share a table of
slots in memory (a file under ``/dev/shm``, mapped by each): a process that commits a change to a
session writes a token no other write has used into the session's slot before it answers, and
a cached state is used only while its slot still holds the token read before the state was. A
slot is shared by many sessions (a hash): a collision costs a read from the database, never a
stale state. Tokens are unique (the process id and a counter), not counts, so two processes
writing one slot at once cannot leave it looking unchanged to either.

Without ``--workers`` a process has ``NoMarks``: every token is 0 and nothing is shared.
"""

from __future__ import annotations

import hashlib
import itertools
import mmap
import os
from collections.abc import Iterable
from pathlib import Path

SLOTS = 1 << 16  # 512 KiB of 8-byte slots
SLOT_BYTES = 8


class NoMarks:
    """One process: nothing to share."""

    path: Path | None = None

    def token(self, session_id: str) -> int:
        return 0

    def mark(self, session_ids: Iterable[str]) -> None:
        return None


class SharedMarks:
    def __init__(self, path: Path) -> None:
        self.path = path
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
        try:
            self._map = mmap.mmap(fd, SLOTS * SLOT_BYTES)
        finally:
            os.close(fd)
        self._slots = memoryview(self._map).cast("Q")  # aligned 8-byte loads and stores
        self._tokens = itertools.count(1)
        self._pid = os.getpid()

    @classmethod
    def create(cls, directory: Path) -> Path:
        """A new zeroed table in ``directory``, readable by its owner only; its path."""
        fd, name = _temporary(directory)
        try:
            os.ftruncate(fd, SLOTS * SLOT_BYTES)
        finally:
            os.close(fd)
        return Path(name)

    def token(self, session_id: str) -> int:
        return int(self._slots[_slot(session_id)])

    def mark(self, session_ids: Iterable[str]) -> None:
        for session_id in session_ids:
            # unique to this write: the process id above, its own counter below
            self._slots[_slot(session_id)] = (self._pid << 40) | next(self._tokens)


def _slot(session_id: str) -> int:
    digest = hashlib.blake2b(session_id.encode(), digest_size=4).digest()
    return int.from_bytes(digest, "little") % SLOTS


def _temporary(directory: Path) -> tuple[int, str]:
    import tempfile

    return tempfile.mkstemp(prefix="quiver-session-marks-", dir=directory)


def marks_from(path: str | None) -> NoMarks | SharedMarks:
    """The marks a process was given (``QUIVER_SESSION_MARKS``), or none."""
    return SharedMarks(Path(path)) if path else NoMarks()


def shared_directory() -> Path:
    """Memory-backed when the host has it (``/dev/shm``), else the temporary directory."""
    shm = Path("/dev/shm")  # noqa: S108 - a mode-0600 file of our own, made by mkstemp
    if shm.is_dir() and os.access(shm, os.W_OK):
        return shm
    import tempfile

    return Path(tempfile.gettempdir())
