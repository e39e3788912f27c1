"""Python tools inside WebAssembly, with real worker processes and the real runner.

The boundary is WASI's capability model: the runner's instances are granted nothing (no
directories, no environment, no sockets), so even code that gets past the import allowlist —
which is hygiene here, and these tests do get past it — reaches nothing of the host. Canaries:
a root-only file, an environment variable of the server, a loopback port.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from sandbox.engine import Limits, Run, RunResult, ToolSource
from sandbox.pool import PoolConfig, WorkerPool
from sandbox.wasm.python.config import ADDRESS_SPACE, SLOTS
from sandbox.wasm.python.engine import PythonWasmEngine
from sandbox.wasm.python.host import PER_TENANT_INSTANCES, REUSE_CALLS
from tests.sandbox.conftest import CANARY_SECRET, tool_file
from tests.sandbox.test_escapes import refusing_host

pytestmark = pytest.mark.asyncio(loop_scope="module")

# Any class whose __init__ was defined in a module that imported sys hands out the real sys.
REAL = """
def real(name):
    for cls in ().__class__.__base__.__subclasses__():
        found = getattr(getattr(cls, '__init__', None), '__globals__', None)
        if isinstance(found, dict) and 'sys' in found:
            return found['sys'] if name == 'sys' else found['sys'].modules.get(name)
    raise LookupError('no way out found')
"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(python_runner) -> AsyncIterator[PythonWasmEngine]:
    pool = WorkerPool(
        PoolConfig(
            size=2, wasm=True, python_runner=str(python_runner), base_uid=62_000,
            memory_bytes=(512 << 20) + (1 << 30) + ADDRESS_SPACE,
        )
    )  # fmt: skip
    yield PythonWasmEngine(pool, load_timeout_ms=1000)
    await pool.close()


@contextlib.asynccontextmanager
async def one_worker(
    engine: PythonWasmEngine, base_uid: int, load_timeout_ms: int = 1000
) -> AsyncIterator[PythonWasmEngine]:
    """An engine over a pool of one worker (so every call meets the same instances)."""
    config = engine.pool.config
    pool = WorkerPool(
        PoolConfig(size=1, wasm=True, python_runner=config.python_runner, base_uid=base_uid,
                   memory_bytes=config.memory_bytes)
    )  # fmt: skip
    try:
        yield PythonWasmEngine(pool, load_timeout_ms=load_timeout_ms)
    finally:
        await pool.close()


async def run(
    engine: PythonWasmEngine,
    source: str,
    tenant: str = "attacker",
    params: dict | None = None,
    host=None,
    **limits,
) -> RunResult:
    limits_ = Limits(
        **{"timeout_ms": 3000, "memory_bytes": 64 << 20, "fuel": 2_000_000_000, **limits}
    )
    return await engine.run(
        ToolSource("python", "wasm", source),
        Run(tenant, "t", params or {}, {"tenant_id": tenant}, limits_, host),
    )


async def probe(engine: PythonWasmEngine, body: str, **kw) -> str:
    """The tool's ``out``, or ``FAILED <code>: <message>``."""
    result = await run(
        engine,
        tool_file(
            f"try:\n{_indent(body)}\nexcept BaseException as e:\n    out = 'FAILED ' + type(e).__name__ + ': ' + str(e)",
            header=REAL,
        ),
        **kw,
    )
    if not result.ok:
        return f"FAILED {result.code}: {result.message}"
    return result.value["message"]


def _indent(body: str) -> str:
    return "\n".join("    " + line for line in body.strip().splitlines())


REFUSED_IMPORTS = {
    "import os": "import os\nout = os.environ",
    "import sys": "import sys\nout = sys.modules",
    "import subprocess": "import subprocess\nout = subprocess.run(['id'])",
    "import socket": "import socket\nout = socket.socket()",
    "import ctypes": "import ctypes\nout = ctypes.CDLL(None)",
    "import importlib": "import importlib\nout = importlib.import_module('os')",
    "import builtins": "import builtins\nout = builtins.open",
    "import io": "import io\nout = io.open('/etc/passwd')",
    "import pathlib": "import pathlib\nout = pathlib.Path('/').iterdir()",
    "import posix": "import posix\nout = posix.listdir('/')",
    "import _io (not loaded)": "import _pickle\nout = _pickle",
    "from os import environ": "from os import environ\nout = environ",
    "__import__": "out = __import__('os')",
    "exec import": "exec('import os')\nout = 'imported'",
    "exec with fresh globals": "exec('import os', {})\nout = 'imported'",
    "eval __import__": "out = eval(\"__import__('os')\", {})",
    "relative import": "from . import os\nout = os",
    "zoneinfo (no tz database)": "import zoneinfo\nout = zoneinfo",
}


@pytest.mark.parametrize("name", sorted(REFUSED_IMPORTS))
async def test_modules_outside_the_allowlist_cannot_be_imported(engine, name) -> None:
    out = await probe(engine, REFUSED_IMPORTS[name])

    assert out.startswith("FAILED"), out
    assert "ImportError" in out or "not available" in out, out


def attempts(canary_file, port: int) -> dict[str, str]:
    """Past the import hygiene (``real``), every capability of the host is still absent."""
    path = str(canary_file)
    return {
        "open the canary": f"out = open({path!r}).read()",
        "os.open the canary": f"os = real('os')\nout = os.read(os.open({path!r}, 0), 100)",
        "list /": "out = real('os').listdir('/')",
        "list .": "out = real('os').listdir('.')",
        "stat /etc/passwd": "out = real('os').stat('/etc/passwd')",
        "/proc/self/environ": "out = open('/proc/self/environ', 'rb').read()",
        "/proc/self/mem": "out = open('/proc/self/mem', 'rb').read(10)",
        "write a file": "f = open('/tmp/quiver-escape', 'w')\nf.write('x')\nout = 'written'",
        "environment": "env = dict(real('os').environ)\nassert env, 'empty'\nout = env",
        "getenv canary": "v = real('os').getenv('QUIVER_CANARY')\nassert v, 'none'\nout = v",
        "os.system": "out = real('os').system('id')",
        "os.fork": "out = real('os').fork()",
        "os.execv": "out = real('os').execv('/bin/sh', ['sh'])",
        "os.posix_spawn": "out = real('os').posix_spawn('/bin/sh', ['sh'], {})",
        "os.kill": "out = real('os').kill(1, 9)",
        "subprocess via sys.modules": "out = real('subprocess').run(['id'])",
        "socket via sys.modules": f"out = real('socket').create_connection(('127.0.0.1', {port}))",
        "_socket builtin, connect": (
            "imp = real('_imp')\ns = imp.create_builtin(type('S', (), {'name': '_socket'})())\n"
            f"c = s.socket(s.AF_INET, s.SOCK_STREAM)\nc.connect(('127.0.0.1', {port}))\nout = 'connected'"
        ),
        "_socket builtin, listen": (
            "imp = real('_imp')\ns = imp.create_builtin(type('S', (), {'name': '_socket'})())\n"
            "c = s.socket(s.AF_INET, s.SOCK_STREAM)\nc.bind(('0.0.0.0', 0))\nc.listen(1)\nout = 'listening'"
        ),
        "_socket builtin, resolve": (
            "imp = real('_imp')\ns = imp.create_builtin(type('S', (), {'name': '_socket'})())\n"
            "out = s.getaddrinfo('localhost', 80)"
        ),
        "ctypes via sys.modules": "out = real('ctypes').CDLL(None)",
        "_ctypes builtin": "imp = real('_imp')\nout = imp.create_builtin(type('S', (), {'name': '_ctypes'})()).dlopen",
        "import os past the hygiene": "out = real('sys').modules['os'].listdir('/')",
        "builtins.__import__ restored": "b = real('builtins')\nout = b.__import__('socket')",
        "importlib machinery": "m = real('importlib') or real('_frozen_importlib')\nout = m.import_module('socket') if hasattr(m, 'import_module') else m._bootstrap._gcd_import('socket')",
        "threads": "t = real('_thread')\nout = t.start_new_thread(print, ())",
        "signals": "out = real('signal').raise_signal(9)",
        "http to the canary port through the host": f"out = context.modules.http.get('http://127.0.0.1:{port}/')",
        "http to metadata through the host": "out = context.modules.http.get('http://169.254.169.254/latest/meta-data/')",
    }


async def test_escapes_past_the_import_allowlist_still_reach_nothing(
    engine, canary_file, canary_server
) -> None:
    before = canary_server.hits
    results = {}
    for name, body in attempts(canary_file, canary_server.port).items():
        results[name] = await probe(engine, body, host=refusing_host())

    leaked = {n: out for n, out in results.items() if not out.startswith("FAILED")}
    assert leaked == {}, leaked
    assert not any(CANARY_SECRET in out for out in results.values()), results
    assert canary_server.hits == before
    assert len(results) >= 25


async def test_the_hygiene_escape_itself_works_so_the_tests_above_mean_something(engine) -> None:
    out = await probe(engine, "out = sorted(real('sys').modules)[:3]")

    assert not out.startswith("FAILED"), out


async def test_allowlisted_modules_work_inside_wasm(engine) -> None:
    body = """
import json, re, math, datetime, decimal, statistics, hashlib, hmac, base64, uuid
import urllib.parse, itertools, functools, collections, time, random, string
out = json.dumps([
    re.sub(r'\\d', '#', 'a1b2'), math.sqrt(16), datetime.datetime.strptime('2024-05-06', '%Y-%m-%d').day,
    str(decimal.Decimal('1.10') + 1), statistics.median([3, 1, 2]), hashlib.sha256(b'x').hexdigest()[:8],
    hmac.new(b'k', b'm', 'sha256').hexdigest()[:8], base64.b64encode(b'hi').decode(), len(str(uuid.uuid4())),
    urllib.parse.quote('a b'), list(itertools.islice(itertools.count(), 3)), functools.reduce(lambda a, b: a + b, [1, 2]),
    collections.Counter('aab').most_common(1)[0][0], time.time() > 1.7e9, 0 <= random.random() < 1, string.digits,
    'bücher.example'.encode('idna').decode(),
])
"""
    out = await probe(engine, body)

    assert out == (
        '["a#b#", 4.0, 6, "2.10", 2, "2d711642", "b60090e3", "aGk=", 36, "a%20b", [0, 1, 2], 3, '
        '"a", true, true, "0123456789", "xn--bcher-kva.example"]'
    ), out


async def test_randomness_is_reseeded_for_every_instance(engine) -> None:
    source = tool_file("import random\nout = random.getrandbits(64)")
    values = {(await run(engine, source, tenant=f"t{i}")).value["message"] for i in range(4)}

    assert len(values) == 4  # the snapshot's frozen generator state never repeats


async def test_the_stdlibs_own_generator_is_reseeded_for_every_instance(engine) -> None:
    # no table hands it out, but a loaded module can reach it: the snapshot froze its state
    source = tool_file("out = real('random').getrandbits(64)", header=REAL)
    values = {(await run(engine, source, tenant=f"s{i}")).value["message"] for i in range(4)}

    assert len(values) == 4


async def test_a_tools_own_seed_holds_for_the_rest_of_its_call(engine) -> None:
    source = tool_file(
        "import random\nrandom.seed(7)\nout = [random.random(), random.randint(1, 99)]"
    )
    expected = random.Random(7)

    first = (await run(engine, source, tenant="seeded")).value["message"]
    again = (await run(engine, source, tenant="seeded")).value["message"]  # the reused instance

    assert first == again == str([expected.random(), expected.randint(1, 99)])


async def test_one_tenants_module_state_never_reaches_another(engine) -> None:
    source = tool_file(
        "sys = real('sys')\n"
        "seen = getattr(sys.modules['json'], 'MARK', None)\n"
        "sys.modules['json'].MARK = params['tenant']\n"
        "COUNT.append(1)\n"
        "out = str(seen) + ':' + str(len(COUNT))",
        header=REAL + "\nCOUNT = []\n",
    )
    a1 = await run(engine, source, tenant="a", params={"tenant": "a"})
    b1 = await run(engine, source, tenant="b", params={"tenant": "b"})
    a2 = await run(engine, source, tenant="a", params={"tenant": "a"})
    b2 = await run(engine, source, tenant="b", params={"tenant": "b"})

    assert a1.value["message"] == "None:1" and b1.value["message"] == "None:1"
    # the same tool of the same tenant may meet its own state again (instances are reused per
    # tool, docs/wasm.md) — on whichever worker still holds its instance
    assert a2.value["message"] in ("a:2", "None:1") and b2.value["message"] in ("b:2", "None:1")


FAILURES = {
    "infinite loop (fuel)": ("while True:\n    pass", {}, "out_of_fuel"),
    "infinite loop (wall)": (
        "while True:\n    pass",
        {"fuel": 10**14, "timeout_ms": 1500},
        "timeout",
    ),
    "sleep past the deadline": ("import time\ntime.sleep(30)", {"timeout_ms": 1500}, "timeout"),
    "memory growth past the cap": ("x = 'a' * (200 << 20)\nout = len(x)", {}, "memory_limit"),
    "memory growth in a list": (
        "x = []\nwhile True:\n    x.append('y' * 4096)",
        {"fuel": 10**12},
        "memory_limit",
    ),
    "C stack overflow (a trap)": (
        "import json\nout = json.loads('[' * 200000 + ']' * 200000)",
        {},
        "trap",
    ),
    "Python recursion": ("def f(n):\n    return f(n + 1)\nout = f(0)", {}, "tool_error"),
    "result too large": ("return {'x': 'y' * (1 << 20)}", {}, "result_too_large"),
    "not JSON data": ("return {'x': {1, 2}}", {}, "malformed_output"),
    "exception": ("raise ValueError('nope')", {}, "tool_error"),
    "exit with a status": ("raise SystemExit(3)", {}, "tool_error"),
    "print flood": ("while True:\n    print('x' * 10000)", {"fuel": 200_000_000}, "out_of_fuel"),
}


@pytest.mark.parametrize("name", sorted(FAILURES))
async def test_every_limit_gives_its_code_in_time_and_the_next_call_works(engine, name) -> None:
    body, limits, code = FAILURES[name]
    source = (
        "def execute(params, context):\n" + _indent(body) + "\n    return {'ok': True}\n"
        "tool = {'name': 't', 'description': 'd', 'execute': execute}\n"
    )
    started = time.monotonic()
    result = await run(engine, source, tenant="limits", **limits)
    took = time.monotonic() - started
    after = await run(engine, tool_file("out = 'fine'"), tenant="limits")

    assert result.ok is False and result.code == code, (result.code, result.message)
    assert took < limits.get("timeout_ms", 3000) / 1000 + 1
    assert after.ok and after.value["message"] == "fine"


async def test_a_trap_recycles_the_instance(engine) -> None:
    source = tool_file(
        "COUNT.append(1)\nif params.get('spin'):\n    while True:\n        pass\nout = len(COUNT)",
        header="COUNT = []",
    )
    async with one_worker(engine, base_uid=62_010) as one:
        counts = [(await run(one, source, tenant="r")).value["message"] for _ in range(3)]
        trapped = await run(one, source, tenant="r", params={"spin": True}, fuel=10_000_000)
        again = (await run(one, source, tenant="r")).value["message"]

    assert counts == ["1", "2", "3"]  # reused for this tenant's tool on this worker
    assert trapped.code == "out_of_fuel" and again == "1"  # a fresh instance after the trap


async def test_randomness_is_reseeded_before_every_call_of_a_reused_instance(engine) -> None:
    source = tool_file(
        "import random\nif params.get('seed'):\n    random.seed(params['seed'])\nout = random.random()"
    )
    await run(engine, source, tenant="seeds", params={"seed": 42})
    following = (await run(engine, source, tenant="seeds")).value["message"]
    expected = random.Random(42)
    expected.random()

    assert following != str(expected.random())  # the seed of the last call does not carry over


async def test_an_instance_is_replaced_after_its_call_budget(engine) -> None:
    source = tool_file("COUNT.append(1)\nout = len(COUNT)", header="COUNT = []")
    async with one_worker(engine, base_uid=62_020) as one:
        counts = [
            (await run(one, source, tenant="n")).value["message"] for _ in range(REUSE_CALLS + 2)
        ]

    assert counts[REUSE_CALLS - 1] == str(REUSE_CALLS) and counts[REUSE_CALLS:] == ["1", "2"]


async def test_loading_reports_syntax_imports_and_the_load_time_limit(engine) -> None:
    syntax = await engine.inspect(ToolSource("python", "wasm", "def f(:\n"), "t")
    imports = await engine.inspect(ToolSource("python", "wasm", "x = 1\nimport socket\n"), "t")
    slow = await engine.inspect(ToolSource("python", "wasm", "while True:\n    pass\n"), "t")
    fine = await engine.inspect(ToolSource("python", "wasm", tool_file("out = 1")), "t")

    assert syntax.violations[0].line == 1 and "syntax" in syntax.violations[0].message
    assert imports.violations[0].line == 2 and "socket" in imports.violations[0].message
    assert slow.code == "load_timeout"
    assert fine.violations == [] and fine.tools[0]["name"] == "t"


async def test_load_time_bombs_and_traps_never_use_up_the_instance_slots(engine) -> None:
    """Every ending frees its instance slot at once (they were once held until a restart)."""
    counter = tool_file("COUNT.append(1)\nout = len(COUNT)", header="COUNT = []")
    async with one_worker(engine, base_uid=62_030, load_timeout_ms=200) as one:
        bombs = [
            await one.inspect(
                ToolSource("python", "wasm", f"n = {i}\nwhile True:\n    pass\n"), "evil"
            )
            for i in range(SLOTS * 3)
        ]
        spins = [
            await run(
                one, tool_file(f"n = {i}\nwhile True:\n    pass"), tenant="evil", fuel=10_000_000
            )
            for i in range(SLOTS * 2)
        ]
        other = [(await run(one, counter, tenant="victim")).value["message"] for _ in range(2)]

    assert {b.code for b in bombs} == {"load_timeout"}
    assert {s.code for s in spins} == {"out_of_fuel"}
    assert other == ["1", "2"]


async def test_one_tenant_cannot_evict_every_other_tenants_warm_instances(engine) -> None:
    counter = tool_file("COUNT.append(1)\nout = len(COUNT)", header="COUNT = []")
    async with one_worker(engine, base_uid=62_040) as one:
        before = [(await run(one, counter, tenant="quiet")).value["message"] for _ in range(2)]
        for i in range(PER_TENANT_INSTANCES * 4):  # each a distinct file: a new instance
            assert (await run(one, tool_file(f"out = {i}"), tenant="noisy")).ok
        after = (await run(one, counter, tenant="quiet")).value["message"]

    assert before == ["1", "2"] and after == "3"  # still the warm instance
