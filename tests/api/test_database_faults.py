"""The database fails under load: a private PostgreSQL cluster (never the machine's shared one)
restarted mid-load, and SQLite on a small filesystem that fills up. No call answers 500; every
call that answered 200 has its call-log row once the database is back."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from server import metrics
from server.secretbox import generate_key
from server.settings import Settings
from server.storage.tables import ToolCallRow
from tests.api.test_agent_loop import setup as agent_setup
from tests.api.test_calls import ORDER_TOOL, python, session_for
from tests.conftest import ADMIN_KEY, Api, api_for
from tests.fake_models import FakeModel
from tests.servers import free_port, served

UNSTORED = "quiver_unstored_user_messages_total"
BINARIES = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


class PrivateCluster:
    """initdb + pg_ctl on a free port, in a temporary folder owned by the postgres user."""

    def __init__(self, root: Path) -> None:
        self.bin = Path(BINARIES[-1])
        self.dir = root / "cluster"
        self.port = free_port()

    def _as_postgres(self, *args: str) -> None:
        command = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*command, *args], check=True, capture_output=True, timeout=60)

    def create(self) -> None:
        self.dir.mkdir(mode=0o700)
        if os.geteuid() == 0:
            self.dir.parent.chmod(0o711)  # the postgres user passes through to its own folder
            shutil.chown(self.dir, "postgres", "postgres")
        self._as_postgres(str(self.bin / "initdb"), "-D", str(self.dir), "-A", "trust",
                          "-U", "postgres", "--no-sync")  # fmt: skip
        self.start()
        self._as_postgres(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                          "-U", "postgres", "quiver")  # fmt: skip

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off"
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.dir), "-o", options, "-w",
                          "-l", str(self.dir / "log"), "start")  # fmt: skip

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.dir), "-m", "fast",
                              "-w", "stop")  # fmt: skip

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/quiver"


@pytest.fixture
def private_cluster() -> Iterator[PrivateCluster]:
    if not BINARIES or shutil.which("runuser") is None:
        pytest.skip("PostgreSQL server binaries are not installed here")
    root = Path(tempfile.mkdtemp(prefix="quiver-pg-"))  # not under pytest's root-only folders
    cluster = PrivateCluster(root)
    try:
        cluster.create()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def own_settings(tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None, data_dir=tmp_path / "data", admin_key=ADMIN_KEY,
        secret_key=generate_key(), workers=1, require_isolation=False,
    )  # fmt: skip


async def calls_under(
    t, sid: str, n: int, concurrency: int = 8, answering: asyncio.Event | None = None
) -> Counter:
    """``n`` calls, ``concurrency`` at a time; the status codes seen (exceptions by name).
    ``answering`` is set once 20 calls have answered."""
    seen: Counter = Counter()
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with gate:
            try:
                response = await t.agent.post(
                    f"/v1/sessions/{sid}/calls",
                    json={"tool": "check_order", "arguments": {"order_id": f"PG{i % 10000:04d}"}},
                )
                seen[response.status_code] += 1
                if answering is not None and seen.total() >= 20:
                    answering.set()
                if response.status_code == 503:
                    assert response.headers["retry-after"]
                    assert response.json()["code"] == "unavailable"
            except Exception as exc:  # noqa: BLE001 - counted and asserted on below
                seen[type(exc).__name__] += 1

    await asyncio.gather(*(one(i) for i in range(n)))
    return seen


async def logged(api: Api, sid: str) -> int:
    await api.runtime.call_log.flush()
    async with api.runtime.sessions() as session:
        stmt = select(func.count()).select_from(ToolCallRow).where(ToolCallRow.session_id == sid)
        return int(await session.scalar(stmt) or 0)


async def test_a_postgresql_restart_under_load_answers_503_not_500_and_loses_no_row(
    own_settings: Settings, private_cluster: PrivateCluster
) -> None:
    settings = own_settings.model_copy(update={"database_url": private_cluster.url})
    async with api_for(settings) as api:
        acme = await api.tenant("acme")
        sid = await session_for(acme, [python(ORDER_TOOL)])

        answering = asyncio.Event()

        async def restart() -> None:
            await asyncio.wait_for(answering.wait(), 30)  # mid-load, not before it starts
            await asyncio.to_thread(private_cluster.stop)
            await asyncio.to_thread(private_cluster.start)

        seen, _ = await asyncio.gather(calls_under(acme, sid, 300, answering=answering), restart())
        after = await calls_under(acme, sid, 20)
        rows = 0
        for _ in range(100):  # bounded: the log's next flushes find the database back
            rows = await logged(api, sid)
            if rows >= seen[200] + after[200]:
                break
            await asyncio.sleep(0.05)

    assert set(seen) <= {200, 503}, seen
    assert after == Counter({200: 20})
    assert rows == seen[200] + after[200]


async def test_agent_turns_across_a_postgresql_restart_answer_503_then_resume_and_keep_their_messages(  # fmt: skip
    own_settings: Settings, private_cluster: PrivateCluster, fake: FakeModel
) -> None:
    """The message log's own connections (asyncpg's, not SQLAlchemy's) die with the server: a
    turn while it is down is a 503 `unavailable`, never a 500, and the first turn after it is
    back is answered on a new connection, its messages beside the ones written before."""
    quick = {"database_url": private_cluster.url, "provider_retries": 0, "provider_timeout_s": 60.0}
    async with api_for(own_settings.model_copy(update=quick)) as api:
        acme, sid = await agent_setup(api, fake)
        fake.default = {"text": "hello"}
        path = f"/v1/sessions/{sid}/messages"
        first = await acme.agent.post(path, json={"content": "one"})

        await asyncio.to_thread(private_cluster.stop)
        unstored = metrics.REGISTRY.get_sample_value(UNSTORED, {"code": "unavailable"}) or 0
        down = await acme.agent.post(path, json={"content": "two"})
        unstored = (metrics.REGISTRY.get_sample_value(UNSTORED, {"code": "unavailable"}) or 0) - unstored  # fmt: skip
        await asyncio.to_thread(private_cluster.start)
        back = await acme.agent.post(path, json={"content": "three"})
        transcript = (await acme.agent.get(path)).json()["messages"]

    assert first.status_code == 200, first.text
    assert down.status_code == 503 and down.json()["code"] == "unavailable", down.text
    assert unstored == 1  # the model answered; the write of the turn's messages found no server
    assert back.status_code == 200, back.text
    said = [(m["role"], m["content"]) for m in transcript]
    assert said == [("user", "one"), ("assistant", "hello"), ("user", "three"), ("assistant", "hello")]  # fmt: skip


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small filesystem needs root")
async def test_sqlite_on_a_full_disk_answers_503_and_keeps_every_answered_row(
    own_settings: Settings, tmp_path: Path
) -> None:
    settings = own_settings
    small = tmp_path / "small"
    small.mkdir()
    mounted = subprocess.run(  # noqa: ASYNC221 - a one-off mount before the app starts
        ["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(small)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        db = small / "quiver.db"
        url = f"sqlite+aiosqlite:///{db}"
        async with api_for(settings.model_copy(update={"database_url": url})) as api:
            acme = await api.tenant("acme")
            sid = await session_for(acme, [python(ORDER_TOOL)])
            filler = small / "filler"
            with contextlib.suppress(OSError), filler.open("wb") as f:  # noqa: ASYNC230
                while True:
                    f.write(b"\0" * (1 << 20))
            full = await calls_under(acme, sid, 60, concurrency=4)
            tenant = await api.admin.post("/v1/tenants", json={"id": "later", "name": "Later"})
            filler.unlink()  # noqa: ASYNC240 - the disk has room again
            after = await calls_under(acme, sid, 10, concurrency=4)
            rows = 0
            for _ in range(100):
                rows = await logged(api, sid)
                if rows >= full[200] + after[200]:
                    break
                await asyncio.sleep(0.05)
    finally:
        subprocess.run(["umount", "-l", str(small)], check=False)  # noqa: ASYNC221

    assert set(full) <= {200, 503}, full
    assert tenant.status_code in (201, 503)
    assert tenant.status_code != 503 or tenant.json()["code"] == "unavailable"
    assert after == Counter({200: 10})
    assert rows == full[200] + after[200]


async def test_a_bug_answers_500_with_connection_close_and_the_next_request_works(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 500 keeps HTTP semantics: the server says it closes the connection, so a keep-alive
    client opens a new one for its next request instead of failing on a closed socket."""
    from server.storage.repositories import BotRepository

    acme = await api.tenant("acme")

    async def broken(self, tenant_id):
        raise RuntimeError("a bug")

    monkeypatch.setattr(BotRepository, "list", broken)
    async with (
        served(api.app) as base,
        httpx.AsyncClient(
            base_url=base, headers={"Authorization": f"Bearer {acme.dev_key}"}
        ) as client,
    ):
        failed = await client.get("/v1/bots")
        after = await client.get("/v1/tools")  # the same client, the next request

    assert failed.status_code == 500 and failed.json()["code"] == "internal"
    assert failed.headers["connection"] == "close"
    assert "a bug" not in failed.text
    assert after.status_code == 200
