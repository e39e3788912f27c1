"""This process's call-log rows on local disk until the database has them.

A row is *recorded* once it is written to a segment file and that file is synced
(``fdatasync``): only then may its call answer as a success. Syncs are shared: the rows appended
while one sync runs wait for the next, which covers them all (group commit), so a busy node
syncs a few hundred times a second, not once per call, and no sync runs on the event loop: a
process of the journal's own runs them (``SyncProcess``), or a thread if that process cannot
run (``SyncThread``).

A disk that fills is seen before it refuses a write: ``DiskRoom`` reads the file system's free
space at most every quarter second and counts what is written between readings. Below the
reserve the journal does not accept calls (``accepting``), so the calls in flight still have
room to be journalled, and ``/readyz`` says so. A write or sync that fails anyway counts the
disk as full until a reading shows room again.

Segments are numbered files, each locked (``flock``) while its process lives, so a starting
process replays only the segments of processes that are gone. A segment is deleted once all
of its rows are in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import orjson

SEGMENT_ROWS = 5_000  # a journal segment is closed after this many rows (or at each flush)
RESERVE_BYTES = 4 << 20  # below this much free space, the journal takes no new calls


def free_bytes(path: Path) -> int:
    """Free space on ``path``'s file system for this process (root may use the reserved part)."""
    found = os.statvfs(path)
    blocks = found.f_bfree if os.geteuid() == 0 else found.f_bavail
    return blocks * found.f_frsize


class DiskRoom:
    """Is there ``reserve`` bytes of room on ``path``'s file system? Read at most every
    ``every_s``; between readings, what this process wrote (``spent``) is taken off."""

    def __init__(
        self,
        path: Path,
        reserve: int,
        clock: Callable[[], float] = time.monotonic,
        every_s: float = 0.25,
        free: Callable[[Path], int] = free_bytes,
    ) -> None:
        self.path = path
        self.reserve = reserve
        self.clock = clock
        self.every_s = every_s
        self.free = free
        self.left = 0
        self._read_at = -1e18

    def enough(self, times: int = 1) -> bool:
        now = self.clock()
        if now - self._read_at >= self.every_s:
            try:
                self.left = self.free(self.path)
            except OSError:  # the file system is gone: no room on it
                self.left = 0
            self._read_at = now
        return self.left >= self.reserve * times

    def spent(self, size: int) -> None:
        self.left -= size

    def exhausted(self) -> None:
        """A write failed for want of room: none until the next reading says otherwise."""
        self.left = 0


class _Sync:
    """One shared sync: the rows appended before it began are on disk when ``done`` is set,
    unless ``error`` says why not."""

    __slots__ = ("done", "error", "upto")

    def __init__(self, upto: int) -> None:
        self.done = asyncio.Event()
        self.error: OSError | None = None
        self.upto = upto


Done = Callable[[_Sync, OSError | None], None]  # told on the loop when a sync is over


class Syncer(Protocol):
    """Runs the journal's syncs off the event loop, one at a time."""

    loop: asyncio.AbstractEventLoop

    def start(self, sync: _Sync, sealed: list[int], open_fd: int | None) -> None:
        """On the loop, with no sync running: sync ``sealed`` (then close them) and ``open_fd``;
        ``done(sync, error)`` is called on the loop once they are."""

    def stop(self) -> None:
        """End, once the sync handed over, if any, has run (it still answers, if its event loop
        runs)."""


class SyncThread:
    """The journal's sync thread: the event loop hands it one sync at a time and it answers on
    the loop — one hand-off each way. Through an executor (``run_in_executor``: its futures,
    work queue and worker loop) the same sync cost the loop twice as much CPU, measured: ~37
    against ~19 us a sync, and a sync is one to three calls' under load.

    A sync's files: the sealed segments it syncs and closes, and the open one it only syncs.
    The loop closes no file while a sync may hold it (``Journal.seal`` hands an unsynced
    segment to the next sync; ``Journal.close`` stops this thread first)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, done: Done) -> None:
        self.loop = loop
        self.done = done
        self._wake = threading.Lock()
        self._wake.acquire()  # released to hand over a sync, or to stop
        self._job: tuple[_Sync, list[int], int | None] | None = None
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="journal-sync", daemon=True)
        self._thread.start()

    def start(self, sync: _Sync, sealed: list[int], open_fd: int | None) -> None:
        """On the loop, with no sync running: sync ``sealed`` (then close them) and ``open_fd``;
        ``done(sync, error)`` is called on the loop once they are."""
        self._job = (sync, sealed, open_fd)
        self._wake.release()

    def stop(self) -> None:
        """End the thread, once it has run the sync handed to it, if any."""
        self._stopping = True
        with contextlib.suppress(RuntimeError):  # released already: a sync handed over
            self._wake.release()
        self._thread.join()

    def _run(self) -> None:
        while True:
            self._wake.acquire()
            job, self._job = self._job, None
            if job is not None and not self._answer(*job):
                return
            if self._stopping:
                return

    def _answer(self, sync: _Sync, sealed: list[int], open_fd: int | None) -> bool:
        """Run one sync and tell the loop; False if the loop is gone."""
        error: OSError | None = None
        try:
            _sync_and_close(sealed)
            if open_fd is not None:
                os.fdatasync(open_fd)
        except OSError as exc:
            error = exc
        try:
            self.loop.call_soon_threadsafe(self.done, sync, error)
        except RuntimeError:  # the loop is closed: no one waits for this sync
            return False
        return True


# The sync process's program: it syncs the descriptors each message passes it, closes them, and
# answers "ok" or the error ("<errno> <message>"); it ends when the journal's end of the socket
# closes (the journal stopped, or its process died). Only the standard library's built-in
# modules: it starts without site-packages (-I -S).
_SYNC_PROGRAM = """
import os, socket, sys
channel = socket.socket(fileno=int(sys.argv[1]))
while True:
    try:
        message, fds, _, _ = socket.recv_fds(channel, 16, 253)
    except OSError:
        break
    if not message:
        break
    answer = b"ok"
    try:
        for fd in fds:
            os.fdatasync(fd)
    except OSError as exc:
        answer = f"{exc.errno or 0} {exc.strerror or exc}".encode()
    finally:
        for fd in fds:
            os.close(fd)
    channel.send(answer)
"""
MAX_FDS = 253  # descriptors one message may pass (the kernel's SCM_MAX_FD)
STOP_WAIT_S = 60.0  # at a stop, how long the sync handed over is waited for


class SyncProcess:
    """The journal's syncs in a process of its own: the loop passes it a sync's descriptors over
    a Unix socket and reads its answer when the socket turns readable, so no thread of this
    process needs the interpreter's lock back from the loop after each ``fdatasync`` (measured
    over HTTP, three paired runs: the call served 1.04-1.12x the calls a second it did with the
    sync thread).

    The process holds nothing but the descriptors of one sync at a time (and no environment:
    none of the node's settings). If it cannot start, or dies, the syncs go to a ``SyncThread``
    from then on: the sync it held is run again there (the journal keeps its own descriptors
    open until a sync answers)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, done: Done) -> None:
        self.loop = loop
        self.done = done
        self._job: tuple[_Sync, list[int], int | None] | None = None
        self._answers_due = 0
        self._error: OSError | None = None
        self._fallback: SyncThread | None = None
        self._channel: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        try:
            self._spawn()
        except OSError as exc:  # no process here (a limit, a missing interpreter): a thread
            _log_fallback(exc)
            self._fallback = SyncThread(loop, done)

    def _spawn(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:  # the process's end: it keeps its own copy
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-c", _SYNC_PROGRAM, str(theirs.fileno())],
                    pass_fds=[theirs.fileno()],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    env={},
                )
            except OSError:  # no process: this end is not left open
                ours.close()
                raise
        ours.setblocking(False)
        self._channel = ours
        self.loop.add_reader(ours.fileno(), self._answered)

    def start(self, sync: _Sync, sealed: list[int], open_fd: int | None) -> None:
        if self._fallback is not None:
            self._fallback.start(sync, sealed, open_fd)
            return
        self._job, self._error = (sync, sealed, open_fd), None
        fds = [*sealed, *([] if open_fd is None else [open_fd])]
        parts = [fds[i : i + MAX_FDS] for i in range(0, len(fds), MAX_FDS)] or [[]]
        self._answers_due = len(parts)
        try:
            for part in parts:
                if self._channel is None:
                    raise OSError("the journal's sync process ended")
                socket.send_fds(self._channel, [b"sync"], part)
        except OSError as exc:  # the process is gone
            self._died(exc)

    def _answered(self) -> None:
        """On the loop: the process answered (or its end of the socket closed)."""
        finished = self._read_answer()
        if finished is not None:
            self.done(*finished)

    def _read_answer(self) -> tuple[_Sync, OSError | None] | None:
        """Read one answer; the sync and its outcome once the last one it awaits is in."""
        channel = self._channel
        if channel is None:
            return None
        try:
            answer = channel.recv(512)
        except BlockingIOError:
            return None
        except OSError as exc:  # the process is gone, or (at a stop) did not answer in time
            self._died(exc)
            return None
        if not answer:
            self._died(None)
            return None
        if answer != b"ok" and self._error is None:
            number, _, message = answer.decode(errors="replace").partition(" ")
            self._error = OSError(int(number) if number.isdigit() else 0, message)
        self._answers_due -= 1
        if self._answers_due > 0 or self._job is None:
            return None
        (sync, sealed, _), self._job = self._job, None
        for fd in sealed:  # the process closed its copies; the journal's are closed here
            os.close(fd)
        return sync, self._error

    def _died(self, exc: OSError | None) -> None:
        """The process is gone: the sync it held, and every later one, go to a thread."""
        _log_fallback(exc or OSError("the journal's sync process ended"))
        self._close_channel()
        if self._process is not None:
            self._process.poll()  # reaped, if it has ended
        self._fallback = SyncThread(self.loop, self.done)
        job, self._job = self._job, None
        if job is not None:
            self._fallback.start(*job)

    def stop(self) -> None:
        channel = self._channel
        if channel is not None and self._job is not None:  # the sync handed over: waited for
            channel.setblocking(True)  # here, then answered on its loop as the thread's is
            channel.settimeout(STOP_WAIT_S)
            while self._job is not None and self._channel is not None:
                finished = self._read_answer()
                if finished is not None:
                    with contextlib.suppress(RuntimeError):  # its loop is closed: no one waits
                        self.loop.call_soon(self.done, *finished)
        self._close_channel()
        if self._process is not None:
            try:
                self._process.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:  # stuck in a sync of a dying disk
                self._process.kill()
                self._process.wait()
        if self._fallback is not None:
            self._fallback.stop()

    def _close_channel(self) -> None:
        channel, self._channel = self._channel, None
        if channel is None:
            return
        with contextlib.suppress(RuntimeError, ValueError):  # the loop is closed already
            self.loop.remove_reader(channel.fileno())
        channel.close()


def _log_fallback(exc: BaseException) -> None:
    logging.getLogger(__name__).warning(
        "the call-log journal syncs on a thread: its sync process cannot run (%s)", exc
    )


class Journal:
    def __init__(
        self,
        directory: Path,
        reserve: int = RESERVE_BYTES,
        clock: Callable[[], float] = time.monotonic,
        free: Callable[[Path], int] = free_bytes,
        sync: bool = True,
        syncer: Callable[[asyncio.AbstractEventLoop, Done], Syncer] = SyncProcess,
    ) -> None:
        self.directory = directory
        self.make_syncer = syncer  # runs the syncs, made on the first sync of an event loop
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.prefix = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.number = 0
        self.fd: int | None = None
        self.rows_in_open = 0
        self.outstanding: dict[int, int] = {}  # segment -> rows not yet in the database
        self.room = DiskRoom(directory, reserve, clock, free=free)
        self.sync = sync  # False: rows are written, never synced (they survive a killed process,
        # not a lost machine)
        self.last_error = ""
        self.appended = 0  # rows written, ever
        self.synced = 0  # of them, the first ``synced`` are on disk
        self.syncs = 0  # syncs run (each covers every row appended before it began)
        self._sealed: list[int] = []  # closed segments' descriptors, closed once synced
        self._next: _Sync | None = None  # the sync the rows appended now will wait for
        self._running: _Sync | None = None
        self._syncer: Syncer | None = None

    def accepting(self) -> bool:
        """Is there room to journal another call?"""
        return self.room.enough()

    def status(self) -> str:
        if self.accepting():
            return "ok"
        why = f" ({self.last_error})" if self.last_error else ""
        return f"full: {self.room.left} bytes free, {self.room.reserve} kept in reserve{why}"

    def append(self, row: dict[str, Any]) -> int:
        """Write one row (not yet synced: ``durable``); the segment it went to. ``OSError``: it
        was not written (the segment is closed, so a cut line never runs into the next)."""
        if self.fd is not None and self.rows_in_open >= SEGMENT_ROWS:
            self.seal()
        try:
            line = orjson.dumps(row, default=_iso, option=orjson.OPT_PASSTHROUGH_DATETIME)
        except TypeError:  # what orjson will not write (a huge integer): the slower encoder
            line = json.dumps(row, default=_iso).encode()
        line += b"\n"
        try:
            if self.fd is None:
                self.number += 1
                flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
                self.fd = os.open(self._path(self.number), flags, 0o600)
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.rows_in_open = 0
            view = memoryview(line)
            while view:  # a short write (the disk filling) says why on the next one
                view = view[os.write(self.fd, view) :]
        except OSError as exc:
            self.failed(exc)
            self.seal()
            raise
        self.room.spent(len(line))
        self.rows_in_open += 1
        self.appended += 1
        self.outstanding[self.number] = self.outstanding.get(self.number, 0) + 1
        return self.number

    def failed(self, exc: OSError) -> None:
        self.last_error = f"{type(exc).__name__}: {exc.strerror or exc}"
        self.room.exhausted()

    async def durable(self) -> None:
        """Return once every row appended so far is on disk; ``OSError`` if it could not be."""
        upto = self.appended
        if not self.sync or self.synced >= upto:
            return
        running = self._running
        waiting = running if running is not None and running.upto >= upto else self._want_sync()
        await waiting.done.wait()
        if waiting.error is not None:
            raise waiting.error

    def _want_sync(self) -> _Sync:
        """The next sync, to start once the loop has run what is ready now, so that the rows
        those steps append go with it (started at once, a sync covered half as many rows);
        ``RuntimeError`` outside an event loop."""
        wanted = self._next
        if wanted is None:
            loop = asyncio.get_running_loop()
            wanted = self._next = _Sync(self.appended)
            if self._running is None:
                loop.call_soon(self._start_next)
        return wanted

    def _start_next(self) -> None:
        """Hand the next sync to the sync thread: it covers every row appended before now."""
        sync = self._next
        if sync is None or self._running is not None:
            return
        loop = asyncio.get_running_loop()
        if self._syncer is None or self._syncer.loop is not loop:
            if self._syncer is not None:  # made on an event loop that is gone
                self._syncer.stop()
            self._syncer = self.make_syncer(loop, self._synced)
        self._next, self._running = None, sync
        sync.upto = self.appended
        sealed, self._sealed = self._sealed, []
        self.syncs += 1
        self._syncer.start(sync, sealed, self.fd)

    def _synced(self, sync: _Sync, error: OSError | None) -> None:
        """On the loop: a sync is over. Its rows are on disk (or ``error`` says why not); the
        rows appended meanwhile get the next one."""
        if error is None:
            self.synced = max(self.synced, sync.upto)
        else:
            sync.error = error
            self.failed(error)
        self._running = None
        sync.done.set()
        if self._next is not None:  # rows came meanwhile: theirs, with what is ready now
            asyncio.get_running_loop().call_soon(self._start_next)

    def seal(self) -> None:
        """Close the open segment: the next row starts another. A sealed segment is deleted
        once all its rows are in the database; its descriptor (and lock) is kept until it is
        synced."""
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        if self.sync and self.synced < self.appended:
            self._sealed.append(fd)
            with contextlib.suppress(RuntimeError):  # no event loop: ``close`` syncs it
                self._want_sync()
        else:
            os.close(fd)  # its lock goes with it
        self._retire_if_done(self.number)

    def written(self, segment: int) -> None:
        """One row of ``segment`` is in the database."""
        left = self.outstanding.get(segment, 0) - 1
        self.outstanding[segment] = left
        if left <= 0 and (segment != self.number or self.fd is None):
            self._retire_if_done(segment)

    def _retire_if_done(self, segment: int) -> None:
        if self.outstanding.get(segment, 0) <= 0:
            self.outstanding.pop(segment, None)
            with contextlib.suppress(FileNotFoundError):
                self._path(segment).unlink()

    def close(self) -> None:
        """Seal, and sync what is not yet on disk (here, not in the background: the process is
        ending)."""
        if self._syncer is not None:  # first: a sync it runs may hold a file this closes
            self._syncer.stop()  # (that sync still answers, if its event loop runs)
            self._syncer = None
        self._running = None  # a later row's sync may start (on a new thread)
        self.seal()
        sealed, self._sealed = self._sealed, []
        waiting, self._next = self._next, None
        try:
            _sync_and_close(sealed)
            self.synced = self.appended
        except OSError as exc:
            self.failed(exc)
            if waiting is not None:
                waiting.error = exc
        if waiting is not None:
            with contextlib.suppress(RuntimeError):  # its event loop is gone: no one waits
                waiting.done.set()

    def _path(self, segment: int) -> Path:
        return self.directory / f"{self.prefix}-{segment:06d}.jsonl"

    def orphans(self) -> list[tuple[Path, list[dict[str, Any]]]]:
        """Segments of processes that are gone, with their rows."""
        found = []
        for path in sorted(self.directory.glob("*.jsonl")):
            if path.name.startswith(self.prefix):
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # its process is alive
                os.close(fd)
                continue
            with os.fdopen(fd, "rb") as f:
                rows = [_load(line) for line in f.read().splitlines() if line.strip()]
            found.append((path, [r for r in rows if r is not None]))
        return found


def _sync_and_close(descriptors: list[int]) -> None:
    """``fdatasync`` each, then close each (in a thread: a sync may take a disk's while)."""
    try:
        for fd in descriptors:
            os.fdatasync(fd)
    finally:
        for fd in descriptors:
            os.close(fd)


def _iso(value: Any) -> Any:
    if isinstance(value, datetime):
        return {"$at": value.isoformat()}
    raise TypeError(type(value).__name__)


def _load(line: bytes) -> dict[str, Any] | None:
    try:
        row = json.loads(line)
    except ValueError:  # a line cut by the crash
        return None
    if not isinstance(row, dict):
        return None
    if isinstance(row.get("at"), dict):
        row["at"] = datetime.fromisoformat(row["at"]["$at"])
    return row
