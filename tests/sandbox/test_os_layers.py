"""Defence in depth: with the RestrictedPython layer switched off (a test-only pool setting that
the server cannot set), plain Python in a worker still cannot read the server's secrets, write
files, open sockets, start processes or see the environment. Each OS layer is also tested alone.
"""

from __future__ import annotations

import os
import platform

import pytest
import pytest_asyncio

from sandbox.pool import PoolConfig
from sandbox.restricted.engine import RestrictedEngine
from tests.sandbox.conftest import CANARY_SECRET, run

pytestmark = pytest.mark.asyncio(loop_scope="module")
ROOT = os.geteuid() == 0


def plain(body: str) -> str:
    """A plain-Python tool that reports what its body did (or the exception it raised)."""
    indented = "\n".join("        " + line for line in body.strip().splitlines())
    return f"""
def execute(params, context):
    try:
{indented}
    except BaseException as exc:
        return {{"success": False, "message": type(exc).__name__ + ": " + str(exc)}}
    return {{"success": True, "message": str(out)}}


tool = {{"name": "t", "description": "probe", "execute": execute}}
"""


async def _engine(**config) -> RestrictedEngine:
    engine = RestrictedEngine(PoolConfig(size=1, restricted=False, **config))
    await engine.start()
    return engine


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def unrestricted():
    engine = await _engine()
    yield engine
    await engine.close()


def layers(engine: RestrictedEngine) -> dict[str, str]:
    return engine.pool.stats.layers


async def probe(engine, body: str) -> str:
    result = await run(engine, plain(body))
    assert result.ok, (result.code, result.message)
    return (
        result.value["message"] if result.value["success"] else "FAILED " + result.value["message"]
    )


async def test_all_layers_are_active_on_this_host(unrestricted) -> None:
    active = layers(unrestricted)

    assert active["environment"].startswith("active")
    assert active["rlimits"] == "active"
    if ROOT:
        assert active["network_namespace"] == "active"
        assert active["uid"].startswith("active")
    assert active["seccomp"] == "active"


async def test_environment_is_empty(unrestricted) -> None:
    out = await probe(unrestricted, "import os\nout = dict(os.environ)")

    assert out == "{}"


async def test_server_secret_file_cannot_be_read(unrestricted, canary_file) -> None:
    out = await probe(unrestricted, f"out = open({str(canary_file)!r}).read()")

    assert out.startswith("FAILED") and CANARY_SECRET not in out


async def test_files_cannot_be_written(unrestricted) -> None:
    out = await probe(
        unrestricted,
        "f = open('/tmp/quiver-escape-probe', 'w')\nf.write('x')\nf.close()\nout = 'wrote'",
    )

    assert out.startswith("FAILED")
    assert not os.path.exists("/tmp/quiver-escape-probe")  # noqa: ASYNC240 - a test probe


async def test_sockets_cannot_be_opened(unrestricted, canary_server) -> None:
    before = canary_server.hits

    out = await probe(
        unrestricted,
        f"import socket\ns = socket.create_connection(('127.0.0.1', {canary_server.port}), timeout=1)\nout = 'connected'",
    )

    assert out.startswith("FAILED") and canary_server.hits == before


async def test_processes_cannot_be_started(unrestricted) -> None:
    fork = await probe(
        unrestricted, "import os\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nout = 'forked'"
    )
    spawn = await probe(
        unrestricted, "import subprocess\nout = subprocess.run(['true']).returncode"
    )

    assert fork.startswith("FAILED") and spawn.startswith("FAILED")


@pytest.mark.skipif(not ROOT, reason="the uid drop needs root; elsewhere the worker keeps ours")
async def test_runs_as_its_own_unprivileged_user(unrestricted) -> None:
    out = await probe(unrestricted, "import os\nout = (os.getuid(), os.getgid(), os.getgroups())")

    assert out.startswith("(61000, 61000, [])")


async def test_memory_is_capped(unrestricted) -> None:
    out = await probe(unrestricted, "x = bytearray(2 * 1024 ** 3)\nout = len(x)")

    assert out.startswith("FAILED MemoryError")


async def test_working_directory_is_empty(unrestricted) -> None:
    out = await probe(unrestricted, "import os\nout = os.listdir('.')")

    assert out == "[]"


@pytest.mark.skipif(not ROOT, reason="network namespaces need root here")
async def test_network_namespace_alone_blocks_loopback(canary_server) -> None:
    engine = await _engine(seccomp=False)
    try:
        before = canary_server.hits
        out = await probe(
            engine,
            f"import socket\ns = socket.create_connection(('127.0.0.1', {canary_server.port}), timeout=1)\nout = 'connected'",
        )
    finally:
        await engine.close()

    assert layers(engine)["seccomp"] == "disabled"
    assert out.startswith("FAILED") and canary_server.hits == before


async def test_seccomp_alone_blocks_sockets_and_exec(canary_server) -> None:
    engine = await _engine(network_namespace=False, base_uid=None)
    try:
        before = canary_server.hits
        sock = await probe(
            engine,
            f"import socket\ns = socket.create_connection(('127.0.0.1', {canary_server.port}), timeout=1)\nout = 'connected'",
        )
        execv = await probe(engine, "import os\nos.execv('/bin/true', ['true'])\nout = 'exec'")
    finally:
        await engine.close()

    assert sock.startswith("FAILED") and canary_server.hits == before
    assert execv.startswith("FAILED")


async def test_rlimits_alone_block_file_writes() -> None:
    engine = await _engine(network_namespace=False, seccomp=False)
    try:
        write = await probe(
            engine,
            "f = open('/dev/shm/quiver-rlimit-probe', 'w')\nf.write('x' * 10)\nf.flush()\nout = 'wrote'",
        )
    finally:
        await engine.close()
        if os.path.exists("/dev/shm/quiver-rlimit-probe"):  # noqa: ASYNC240 - a test probe
            os.unlink("/dev/shm/quiver-rlimit-probe")

    assert write.startswith("FAILED")


@pytest.mark.skipif(not ROOT, reason="root ignores RLIMIT_NPROC; only the uid drop makes it apply")
async def test_rlimits_with_the_uid_drop_block_forks() -> None:
    engine = await _engine(network_namespace=False, seccomp=False)
    try:
        fork = await probe(
            engine, "import os\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nout = 'forked'"
        )
    finally:
        await engine.close()

    assert fork.startswith("FAILED")


@pytest.mark.skipif(not ROOT, reason="the uid drop needs root here")
async def test_uid_drop_alone_protects_root_only_files(canary_file) -> None:
    engine = await _engine(network_namespace=False, seccomp=False)
    try:
        out = await probe(engine, f"out = open({str(canary_file)!r}).read()")
    finally:
        await engine.close()

    assert out.startswith("FAILED PermissionError") and CANARY_SECRET not in out


# Each way to create a file or open one for writing, as plain Python with the language layer
# off, in a worker whose only remaining obstacle is seccomp: it runs as root (no uid drop) and
# /tmp is writable by all. ``{p}`` is the probe's path, ``{s}`` a file of the test's own.
X86_64 = platform.machine() == "x86_64"
CREATING = {
    "creat": "import ctypes\nout = ctypes.CDLL(None, use_errno=True).syscall(85, {p!r}.encode(), 0o644)\nassert out >= 0",
    "open O_CREAT": "import os\nout = os.open({p!r}, os.O_CREAT | os.O_RDONLY)",
    "open O_WRONLY": "import os\nout = os.open({p!r}, os.O_WRONLY | os.O_CREAT)",
    "open O_RDWR": "import os\nout = os.open({p!r}, os.O_RDWR | os.O_CREAT)",
    "openat2": (
        "import ctypes, os\n"
        "how = (ctypes.c_uint64 * 3)(os.O_CREAT | os.O_WRONLY, 0o644, 0)\n"
        "out = ctypes.CDLL(None, use_errno=True).syscall(437, -100, {p!r}.encode(), ctypes.byref(how), 24)\n"
        "assert out >= 0"
    ),
    "mkdir": "import os\nos.mkdir({p!r})\nout = 'made'",
    "mknod": "import os, stat\nos.mknod({p!r}, 0o644 | stat.S_IFREG)\nout = 'made'",
    "mkfifo": "import os\nos.mkfifo({p!r})\nout = 'made'",
    "symlink": "import os\nos.symlink('/etc/passwd', {p!r})\nout = 'made'",
    "link": "import os\nos.link({s!r}, {p!r})\nout = 'made'",
    "rename": "import os\nos.rename({s!r}, {p!r})\nout = 'moved'",
    "mq_open": (
        "import ctypes, os\n"
        "rt = ctypes.CDLL('librt.so.1', use_errno=True)\n"
        "out = rt.mq_open(b'/quiver-probe', os.O_CREAT | os.O_RDWR, 0o600, None)\nassert out >= 0"
    ),
    "memfd_create": "import os\nout = os.memfd_create('probe')",
    "shmget": "import ctypes\nout = ctypes.CDLL(None, use_errno=True).shmget(0, 4096, 0o1600)\nassert out >= 0",
}


@pytest.mark.skipif(not ROOT, reason="as root only seccomp stands between the worker and /tmp")
@pytest.mark.skipif(not X86_64, reason="the raw syscall numbers here are x86_64's")
@pytest.mark.parametrize("name", sorted(CREATING))
async def test_seccomp_alone_refuses_every_way_to_create_a_file(name: str) -> None:
    slug = name.replace(" ", "-")
    path, source = f"/tmp/quiver-seccomp-probe-{slug}", f"/tmp/quiver-seccomp-source-{slug}"
    with open(source, "w") as f:  # noqa: ASYNC230 - a test fixture file
        f.write("mine")
    engine = await _engine(network_namespace=False, base_uid=None)  # root, seccomp on
    try:
        out = await probe(engine, CREATING[name].format(p=path, s=source))
    finally:
        await engine.close()
    created = os.path.lexists(path)  # noqa: ASYNC240 - a test probe
    if created:
        os.rmdir(path) if os.path.isdir(path) else os.unlink(path)  # noqa: ASYNC240
    kept = os.path.exists(source)  # noqa: ASYNC240
    if kept:
        os.unlink(source)

    assert layers(engine)["seccomp"] == "active"
    assert out.startswith("FAILED"), out
    assert not created and kept


async def test_without_seccomp_the_same_creat_works_so_the_test_above_means_something() -> None:
    path = "/tmp/quiver-seccomp-control"
    engine = await _engine(network_namespace=False, base_uid=None, seccomp=False)
    try:
        out = await probe(engine, f"import os\nout = os.open({path!r}, os.O_CREAT | os.O_RDONLY)")
    finally:
        await engine.close()
    created = os.path.exists(path)  # noqa: ASYNC240 - a test probe
    if created:
        os.unlink(path)

    assert not out.startswith("FAILED") and created
