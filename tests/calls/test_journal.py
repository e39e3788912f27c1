"""The call log's journal and its disk (``server.calls.journal``): a call is not answered as a
success unless its row is synced to disk, none runs while the disk has no room, and a backlog is
written back only while the database's disk has room. Real files in a temporary folder; the
free space and the clock are fakes the test sets (the real full disk: tests/api/test_full_disk.py).
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from server.calls.calllog import CallLog
from server.calls.journal import DiskRoom, Journal, SyncProcess, SyncThread, _Sync
from server.errors import NotRecordedError
from tests.calls.test_use_cases import TENANT, World, ok

MIB = 1 << 20


class Disk:
    """A file system's free space, as the test says, read with the time it says."""

    def __init__(self, free: int) -> None:
        self.free, self.now, self.readings = free, 0.0, 0

    def __call__(self, path: Path) -> int:
        self.readings += 1
        return self.free

    def clock(self) -> float:
        return self.now


def journal(tmp_path: Path, disk: Disk, **kwargs: Any) -> Journal:
    return Journal(tmp_path / "journal", reserve=MIB, clock=disk.clock, free=disk, **kwargs)


def row(i: int) -> dict[str, Any]:
    return {"tenant_id": TENANT, "tool": "t", "uid": f"{i:032x}", "arguments": {"i": i}}


def test_free_space_is_read_at_most_every_quarter_second_and_writes_count_between() -> None:
    disk = Disk(free=3 * MIB)
    room = DiskRoom(Path("/"), MIB, disk.clock, free=disk)

    first = room.enough()
    room.spent(int(2.5 * MIB))  # written since the reading
    after_writes = room.enough()
    disk.now += 0.3  # a new reading: the disk says what it has
    read_again = room.enough()

    assert (first, after_writes, read_again) == (True, False, True)
    assert disk.readings == 2


async def test_rows_appended_meanwhile_share_one_sync(tmp_path: Path) -> None:
    log = CallLog(_nowhere, journal=journal(tmp_path, Disk(free=100 * MIB)))

    async def call(i: int) -> None:
        log.record(tenant_id=TENANT, tool="t", arguments={"i": i})
        await log.durable()

    await asyncio.gather(*(call(i) for i in range(200)))

    assert log.journal is not None
    assert log.journal.synced == log.journal.appended == 200
    assert 1 <= log.journal.syncs < 200  # group commit: far fewer syncs than rows
    syncer = log.journal._syncer
    assert isinstance(syncer, SyncProcess) and syncer._fallback is None  # by its process
    log.journal.close()
    assert syncer._process is not None and syncer._process.returncode == 0  # it ended


async def synced_by(syncer: Any, sealed: list[int], open_fd: int | None) -> OSError | None:
    """Hand ``syncer`` one sync; what it answered on the loop."""
    answered: asyncio.Future[OSError | None] = asyncio.get_running_loop().create_future()
    syncer.done = lambda sync, error: answered.set_result(error)
    syncer.start(_Sync(1), sealed, open_fd)
    return await asyncio.wait_for(answered, 10)


def environment(pid: int) -> bytes:
    return Path(f"/proc/{pid}/environ").read_bytes()


async def test_the_sync_process_syncs_and_closes_what_it_is_given_and_says_what_failed(
    tmp_path: Path,
) -> None:
    loop = asyncio.get_running_loop()
    syncer = SyncProcess(loop, lambda sync, error: None)
    sealed = os.open(tmp_path / "sealed", os.O_WRONLY | os.O_CREAT, 0o600)
    opened = os.open(tmp_path / "open", os.O_WRONLY | os.O_CREAT, 0o600)
    read_end, write_end = os.pipe()  # a pipe cannot be synced: EINVAL
    try:
        assert syncer._process is not None  # it holds none of the node's settings
        assert environment(syncer._process.pid) == b""
        assert await synced_by(syncer, [sealed], opened) is None
        with pytest.raises(OSError):
            os.fstat(sealed)  # a sealed segment is closed once synced; the open one is not
        os.fstat(opened)
        error = await synced_by(syncer, [], read_end)
        assert error is not None and error.errno == 22 and "Invalid argument" in str(error)
    finally:
        syncer.stop()
        for fd in (opened, read_end, write_end):
            os.close(fd)
    assert syncer._fallback is None


async def test_a_sync_process_that_dies_hands_its_sync_and_the_next_ones_to_a_thread(
    tmp_path: Path,
) -> None:
    log = CallLog(_nowhere, journal=journal(tmp_path, Disk(free=100 * MIB)))
    assert log.journal is not None
    log.record(**row(1))
    await asyncio.wait_for(log.durable(), 10)
    syncer = log.journal._syncer
    assert isinstance(syncer, SyncProcess) and syncer._process is not None
    syncer._process.kill()  # as the kernel's OOM killer would
    syncer._process.wait()

    for i in range(2, 5):  # each is answered: synced on the thread that takes over
        log.record(**row(i))
        await asyncio.wait_for(log.durable(), 10)

    assert isinstance(syncer._fallback, SyncThread)
    assert log.journal.synced == log.journal.appended == 4
    log.journal.close()
    replayed = [r["arguments"] for _, rows in Journal(tmp_path / "journal").orphans() for r in rows]
    assert replayed == [{"i": i} for i in range(1, 5)]


async def test_a_sync_handed_to_a_dead_sync_process_is_run_by_a_thread(tmp_path: Path) -> None:
    syncer = SyncProcess(asyncio.get_running_loop(), lambda sync, error: None)
    assert syncer._process is not None
    syncer._process.kill()
    syncer._process.wait()  # gone before the loop has seen its end of the socket close
    sealed = os.open(tmp_path / "sealed", os.O_WRONLY | os.O_CREAT, 0o600)

    assert await synced_by(syncer, [sealed], None) is None  # sent to no one: a thread ran it
    assert isinstance(syncer._fallback, SyncThread)
    with pytest.raises(OSError):
        os.fstat(sealed)
    syncer.stop()


async def test_a_sync_process_that_cannot_start_leaves_the_syncs_to_a_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("server.calls.journal.sys.executable", str(tmp_path / "no-python"))
    answered: asyncio.Future[OSError | None] = asyncio.get_running_loop().create_future()
    syncer = SyncProcess(asyncio.get_running_loop(), lambda s, error: answered.set_result(error))
    sealed = os.open(tmp_path / "sealed", os.O_WRONLY | os.O_CREAT, 0o600)

    assert syncer._process is None and isinstance(syncer._fallback, SyncThread)
    syncer.start(_Sync(1), [sealed], None)
    assert await asyncio.wait_for(answered, 10) is None
    syncer.stop()
    with pytest.raises(OSError):
        os.fstat(sealed)


async def test_a_sync_process_stopped_while_it_syncs_answers_that_sync_first(
    tmp_path: Path,
) -> None:
    loop = asyncio.get_running_loop()
    answered: asyncio.Future[OSError | None] = loop.create_future()
    syncer = SyncProcess(loop, lambda sync, error: answered.set_result(error))
    sealed = os.open(tmp_path / "sealed", os.O_WRONLY | os.O_CREAT, 0o600)
    syncer.start(_Sync(1), [sealed], None)
    syncer.stop()  # before the loop has read the answer: stop waits for it

    assert await asyncio.wait_for(answered, 10) is None
    with pytest.raises(OSError):
        os.fstat(sealed)  # closed, as a synced sealed segment is


async def test_a_journal_closed_while_it_syncs_loses_no_row_and_syncs_the_rows_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    syncing, go_on, sync = threading.Event(), threading.Event(), os.fdatasync

    def held(fd: int) -> None:  # the journal's thread says when it syncs, and waits
        syncing.set()
        go_on.wait(10)
        sync(fd)

    monkeypatch.setattr("server.calls.journal.os.fdatasync", held)
    log = CallLog(_nowhere, journal=journal(tmp_path, Disk(free=100 * MIB), syncer=SyncThread))
    assert log.journal is not None
    log.record(**row(1))
    first = asyncio.ensure_future(log.durable())
    assert await asyncio.to_thread(syncing.wait, 10)  # its thread is in the sync
    go_on.set()
    log.journal.close()  # stops that thread once its sync is done, and syncs what is left
    await asyncio.wait_for(first, 10)
    log.record(**row(2))  # a row after the close: a new segment, and a new sync thread
    await asyncio.wait_for(log.durable(), 10)

    assert log.journal.synced == log.journal.appended == 2
    log.journal.close()
    replayed = [r["arguments"] for _, rows in Journal(tmp_path / "journal").orphans() for r in rows]
    assert replayed == [{"i": 1}, {"i": 2}]


async def test_no_call_runs_while_the_journal_has_no_room(tmp_path: Path) -> None:
    world, disk = World(), Disk(free=512 * 1024)  # under the 1 MiB reserve
    world.services.pipeline.log.journal = journal(tmp_path, disk)
    world.tool("check_order", ok({"status": "shipped"}))

    with pytest.raises(NotRecordedError) as refused:
        await world.call("check_order", {"order_id": "KL0001"})
    disk.free, disk.now = 50 * MIB, disk.now + 1  # room again, seen at the next reading
    result, _ = await world.call("check_order", {"order_id": "KL0002"})

    assert refused.value.ran is False and refused.value.status == 503
    assert refused.value.extra() == {"toolRan": False}
    assert world.engine.runs == [("check_order", {"order_id": "KL0002"})]
    assert result["success"] is True


async def test_a_row_that_cannot_be_synced_is_a_503_that_says_the_tool_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = World()
    log = world.services.pipeline.log
    log.journal = journal(tmp_path, Disk(free=50 * MIB), syncer=SyncThread)
    world.tool("check_order", ok({"status": "shipped"}))

    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("server.calls.journal.os.fdatasync", broken)
    with pytest.raises(NotRecordedError) as withheld:
        await world.call("check_order", {"order_id": "KL0001"})

    assert withheld.value.ran is True and withheld.value.extra() == {"toolRan": True}
    assert world.engine.runs == [("check_order", {"order_id": "KL0001"})]
    assert len(log._pending) == 1  # the row still waits for the database
    assert log.status().startswith("full: ") and "Input/output error" in log.status()
    log.journal.close()


async def test_a_backlog_waits_for_room_on_the_databases_disk_and_goes_in_batches(
    tmp_path: Path,
) -> None:
    written: list[int] = []
    room = {"ok": False}

    async def write(rows: list[dict[str, Any]]) -> None:
        written.append(len(rows))
        room["ok"] = len(written) < 2  # the second batch leaves too little room

    log = CallLog(write, journal=journal(tmp_path, Disk(free=100 * MIB)), room=lambda: room["ok"])
    for i in range(1_200):
        log.record(**row(i))

    await log.flush()  # no room: nothing written, all kept
    held = len(log._pending)
    room["ok"] = True
    await log.flush()  # one batch, then another; then no room again

    assert held == 1_200
    assert written == [500, 500]
    assert len(log._pending) == 200 and log.unavailable is True
    assert log.journal is not None
    log.journal.close()


async def test_a_stop_journals_the_rows_it_could_neither_write_nor_journal_before(
    tmp_path: Path,
) -> None:
    async def away(rows: list[dict[str, Any]]) -> None:
        raise ConnectionRefusedError("the database is away")

    disk = Disk(free=100 * MIB)
    log = CallLog(away, journal=journal(tmp_path, disk), unavailable=lambda exc: True)
    log.record(**row(1))
    log._pending.append((0, row(2)))  # recorded while the journal's disk was full
    await log.stop()

    replayed = [r for _, rows in Journal(tmp_path / "journal").orphans() for r in rows]
    assert sorted(r["arguments"]["i"] for r in replayed) == [1, 2]


async def _nowhere(rows: list[dict[str, Any]]) -> None:
    return None
