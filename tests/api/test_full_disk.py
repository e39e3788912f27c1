"""A disk that fills and stays full loses no answered call. A node process keeps its call-log
journal (and, on SQLite, its database) on a small tmpfs; while calls run, another writer fills
the tmpfs and keeps it full. Calls then answer 503 ``unavailable`` (saying whether the tool ran)
instead of a success the node could lose, ``/readyz`` says why, and a graceful stop leaves what
it holds in the journal. Given room again, the next start writes it: every call answered 200 is
in the database. SQLite and PostgreSQL, real processes, a real file system."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.engine import make_url

from server.settings import Settings
from server.storage.tables import ToolCallRow
from tests.api.test_calls import ORDER_TOOL, python, session_for
from tests.conftest import api_for
from tests.servers import node_process

CALLERS = 8


@contextlib.contextmanager
def tmpfs(path: Path, size_mib: int) -> Iterator[Path]:
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root)")
    path.mkdir()
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mib}m", "tmpfs", str(path)], check=True
    )
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


class Hog:
    """Another writer on the disk: fills it, then takes whatever is freed, until released."""

    def __init__(self, disk: Path) -> None:
        self.path = disk / "hog"
        self.full = threading.Event()
        self._release = threading.Event()
        self._thread = threading.Thread(target=self._fill, daemon=True)

    def __enter__(self) -> Hog:
        return self

    def start(self) -> None:
        self._thread.start()

    def _fill(self) -> None:
        with self.path.open("ab", buffering=0) as f:
            while not self._release.is_set():
                for size in (1 << 20, 64 << 10, 4 << 10, 512, 64):
                    with contextlib.suppress(OSError):
                        while True:
                            f.write(b"\0" * size)
                self.full.set()
                self._release.wait(0.02)

    def release(self) -> None:
        self._release.set()
        self._thread.join(10)
        self.path.unlink(missing_ok=True)

    def __exit__(self, *exc: object) -> None:
        if self._thread.is_alive():
            self.release()


async def test_a_disk_that_fills_and_stays_full_loses_no_answered_call(
    settings: Settings, tmp_path: Path
) -> None:
    with tmpfs(tmp_path / "disk", 16) as disk:
        if settings.is_sqlite:  # the database on the same small disk, as the embedded default
            shutil.copy(make_url(settings.effective_database_url).database or "", disk / "q.db")
            settings = settings.model_copy(
                update={"database_url": f"sqlite+aiosqlite:///{disk}/q.db"}
            )
        async with api_for(settings) as api:
            acme = await api.tenant("acme")
            sid = await session_for(acme, [python(ORDER_TOOL)])
        node_settings = {
            "QUIVER_DATA_DIR": str(disk / "node"),
            "QUIVER_CALL_LOG_RESERVE_MB": "1",
            "QUIVER_CALL_LOG_FLUSH_MS": "100",
        }
        answered: set[int] = set()
        refused: dict[bool | None, int] = {True: 0, False: 0, None: 0}  # did the tool run?
        hog = Hog(disk)
        with node_process(settings, **node_settings) as node, hog:
            async with httpx.AsyncClient(
                base_url=node.base,
                headers={"Authorization": f"Bearer {acme.agent_key}"},
                timeout=30,
            ) as client:
                numbers = iter(range(1, 10**9))
                enough = asyncio.Event()

                async def caller() -> None:
                    while not enough.is_set():
                        qty = next(numbers)
                        response = await client.post(
                            f"/v1/sessions/{sid}/calls",
                            json={
                                "tool": "check_order",
                                "arguments": {"order_id": "KL0001", "qty": qty},
                            },
                        )
                        if response.status_code == 200:
                            answered.add(qty)
                            if len(answered) == 300:  # the disk fills from here on
                                hog.start()
                        else:
                            assert response.status_code == 503, response.text
                            problem = response.json()
                            assert problem["code"] == "unavailable"
                            assert response.headers["Retry-After"]
                            refused[problem.get("toolRan")] += 1
                        if hog.full.is_set() and sum(refused.values()) >= 300:
                            enough.set()

                await asyncio.wait_for(asyncio.gather(*(caller() for _ in range(CALLERS))), 120)
                ready = await client.get("/readyz")
            os.kill(node.pid, signal.SIGTERM)  # a graceful stop while the disk is still full
            await asyncio.wait_for(_exited(node.pid), 30)
            hog.release()

        with node_process(settings, **node_settings):  # room again: the next start replays
            pass
        async with api_for(settings) as api, api.runtime.sessions() as session:
            stored = list(
                await session.scalars(
                    select(ToolCallRow.arguments).where(ToolCallRow.session_id == sid)
                )
            )
        left = list((disk / "node" / "call-log").glob("*.jsonl"))

    quantities = [arguments["qty"] for arguments in stored]
    assert len(answered) > 300 and refused[False] > 0, (len(answered), refused)
    assert ready.status_code == 503 and ready.json()["checks"]["call_log"].startswith("full: ")
    assert answered - set(quantities) == set()  # answered, then lost: none
    assert len(quantities) == len(set(quantities))  # and none written twice
    assert left == []  # the journal retired once its rows were written


async def _exited(pid: int) -> None:
    """Until ``pid`` (a child of this process) has exited (in a thread: it blocks)."""
    with contextlib.suppress(ChildProcessError):
        await asyncio.to_thread(os.waitpid, pid, 0)
