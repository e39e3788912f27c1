"""Escape attempts against the RestrictedPython layer, with real worker processes.

Each attempt is a tool file that tries to reach outside the sandbox. It must be refused (at
compile time, at load, or by a run-time guard), and nothing outside may be touched: the canary
file's secret, the canary environment variable and the canary loopback port.
"""

from __future__ import annotations

import httpx
import pytest

from server.calls.host import HttpHost
from server.egress import Allowlist, EgressGuard
from tests.sandbox.conftest import CANARY_SECRET, run, tool_file


def refusing_host():
    """The server's http host call with no egress allowlist: every host is refused."""
    http = HttpHost(EgressGuard(httpx.AsyncClient(trust_env=False), Allowlist()))

    async def handle(module: str, method: str, args: dict) -> object:
        return await http(method, args)

    return handle


pytestmark = pytest.mark.asyncio(loop_scope="module")

ATTEMPTS: dict[str, str] = {
    # imports
    "import os": "import os\nout = os.environ",
    "import sys": "import sys\nout = sys.modules",
    "import subprocess": "import subprocess\nout = subprocess.run(['id'])",
    "__import__ builtin": "out = __import__('os')",
    "import via getattr on builtins name": "out = getattr(getattr, '__self__')",
    "importlib": "import importlib\nout = importlib.import_module('os')",
    "relative import": "from . import os\nout = os",
    "typing re-export": "import typing\nout = typing.sys",
    "operator attrgetter": "import operator\nout = operator.attrgetter('__init__.__globals__')(min)",
    "gc objects": "import gc\nout = gc.get_objects()",
    "ctypes": "import ctypes\nout = ctypes.CDLL(None)",
    "pickle": "import pickle\nout = pickle.loads(b'cos\\nsystem\\n.')",
    "io open": "import io\nout = io.open('CANARY_PATH').read()",
    "pathlib": "import pathlib\nout = pathlib.Path('CANARY_PATH').read_text()",
    "inspect frames": "import inspect\nout = inspect.currentframe().f_back.f_globals",
    # re-exports through allowed modules (facades must not carry them)
    "json.codecs.sys": "import json\nout = json.codecs.sys.modules['os']",
    "from json import codecs": "from json import codecs\nout = codecs.sys",
    "datetime.sys": "import datetime\nout = datetime.sys",
    "from datetime import sys": "from datetime import sys\nout = sys.modules['os'].environ",
    "re.enum.sys": "import re\nout = re.enum.sys",
    "uuid.os": "import uuid\nout = uuid.os.environ",
    "statistics internals": "from statistics import sys\nout = sys",
    "random module object": "import random\nout = random._inst",
    "string.Formatter": "import string\nout = string.Formatter().get_field('0.__class__', [1], {})",
    "from string import Formatter": "from string import Formatter\nout = Formatter()",
    "decimal context": "import decimal\nout = decimal.getcontext()",
    # builtins
    "open builtin": "out = open('CANARY_PATH').read()",
    "__builtins__ dict": "out = __builtins__['open']('CANARY_PATH').read()",
    "exec builtin": "exec('import os')\nout = 1",
    "eval builtin": "out = eval('1+1')",
    "compile builtin": "out = compile('1', 'x', 'eval')",
    "globals()": "out = globals()",
    "vars()": "out = vars()",
    "type() three-arg": "out = type('X', (), {})",
    "breakpoint/input": "out = input()",
    # attribute walks
    "subclasses walk": "out = ().__class__.__bases__[0].__subclasses__()",
    "getattr underscore": "out = getattr((), '__class__')",
    "getattr name built at run time": "out = getattr((), '_' + '_class__').__base__",
    "hasattr probe then getattr": "out = getattr(min, '__self__', None)",
    "fullwidth letter (NFKC) in a dunder": "out = ().__\uff43lass__",
    "mro by name": "out = getattr(int, 'mro')()",
    "function globals": "def f():\n    pass\nout = getattr(f, '__globals__')",
    "closure cells of a host function": "out = getattr(context.update_context, '__closure__')",
    "lambda code object": "out = (lambda: 0).__code__",
    # format-string walks (CVE-2023-41039, CVE-2026-76825)
    "str.format attribute walk": "out = '{0.__class__.__base__}'.format(1)",
    "str.format via getattr": "out = getattr('{0.__class__}', 'format')(1)",
    "str.format_map": "out = '{x.__class__}'.format_map({'x': 1})",
    "f-string attribute": "out = f'{(1).__class__}'",
    "f-string with getattr inside": "out = f\"{getattr(1, '__class__')}\"",
    "percent format with getattr": "out = '%s' % (getattr(1, '__class__'),)",
    # frames (CVE-2023-37271, CVE-2024-47532)
    "generator expression frame": "g = (x for x in [1])\nout = g.gi_frame.f_back.f_globals",
    "generator frame via getattr": "g = (x for x in [1])\nout = getattr(g, 'gi_' + 'frame')",
    "generator function": "def gen():\n    yield 1\nout = gen().gi_frame",
    "coroutine": "async def co():\n    pass\nout = co().cr_frame",
    "async generator": "async def ag():\n    yield 1\nout = ag().ag_frame",
    "traceback frame": "try:\n    1 / 0\nexcept Exception as e:\n    out = e.__traceback__.tb_frame.f_globals",
    "traceback via getattr": "try:\n    1 / 0\nexcept Exception as e:\n    out = getattr(e, '__traceback__')",
    "with_traceback": "try:\n    1 / 0\nexcept Exception as e:\n    out = e.with_traceback(None)",
    "AttributeError.obj": "try:\n    context.nope\nexcept AttributeError as e:\n    out = e.obj",
    "except* exception groups": "try:\n    pass\nexcept* ValueError:\n    pass",
    # guard-name tricks (CVE-2026-55830)
    "positional-only param named like a guard": "def f(_getattr_, /):\n    return _getattr_\nout = f(getattr)",
    "keyword param shadowing guard": "def f(x, _getiter_=list):\n    return x\nout = f(1)",
    "assigning a guard name": "_getattr_ = getattr\nout = 1",
    # classes and metaclasses
    "class definition": "class X:\n    pass\nout = X",
    "metaclass": "class M(type):\n    pass\nout = M",
    # mutation of shared objects
    "poison json.dumps for others": "import json\njson.dumps = lambda *a, **k: 'pwned'\nout = 1",
    "poison via setattr": "import json\nsetattr(json, 'dumps', None)\nout = 1",
    "global statement": "global x\nout = 1",
    # host calls
    "http to loopback canary": "out = context.modules.http.get('http://127.0.0.1:CANARY_PORT/')",
    "http to metadata address": "out = context.modules.http.get('http://169.254.169.254/latest/meta-data/')",
    "http with file scheme": "out = context.modules.http.get('file:///etc/passwd')",
}
HEADER_ATTEMPTS: dict[str, str] = {
    "encoding declaration": "# -*- coding: utf-7 -*-\n",
    "top-level import of os": "import os\n",
}


@pytest.mark.parametrize("attack", list(ATTEMPTS), ids=list(ATTEMPTS))
async def test_escape_attempt_is_blocked(engine, attack: str, canary_file, canary_server) -> None:
    body = (
        ATTEMPTS[attack]
        .replace("CANARY_PATH", str(canary_file))
        .replace("CANARY_PORT", str(canary_server.port))
    )
    hits_before = canary_server.hits

    result = await run(engine, tool_file(body), host=refusing_host())

    assert not result.ok, f"{attack}: ran and returned {result.value!r}"
    assert result.code == "tool_error", (result.code, result.message)
    assert "IndentationError" not in result.message and "SyntaxError" not in result.message, (
        result.message
    )
    assert CANARY_SECRET not in (result.message or "") + "".join(result.logs)
    assert canary_server.hits == hits_before


@pytest.mark.parametrize("attack", list(HEADER_ATTEMPTS), ids=list(HEADER_ATTEMPTS))
async def test_file_level_attempt_is_refused_at_load(engine, attack: str) -> None:
    from sandbox.engine import ToolSource

    inspection = await engine.inspect(
        ToolSource("python", "restricted", tool_file("out = 1", header=HEADER_ATTEMPTS[attack]))
    )

    assert inspection.violations, attack


async def test_percent_format_is_allowed_but_reaches_nothing(engine) -> None:
    result = await run(engine, tool_file("out = '%s|%r' % ('a', 1)"))

    assert result.ok and result.value["message"] == "a|1"


async def test_poisoning_a_facade_does_not_reach_other_tenants(engine) -> None:
    attacker = tool_file(
        "import json\ntry:\n    json.dumps = None\nexcept Exception as e:\n    out = 'blocked'"
    )
    victim = tool_file("import json\nout = json.dumps({'a': 1})")

    await run(engine, attacker, tenant="attacker")
    result = await run(engine, victim, tenant="victim")

    assert result.ok and result.value["message"] == '{"a": 1}'


async def test_all_violations_of_a_file_are_reported_with_lines(engine) -> None:
    from sandbox.engine import ToolSource

    source = "import os\n\ndef execute(p, c):\n    x = p.__class__\n    y = c._secret\n    return {}\n\ntool = {'name': 't', 'description': 'd', 'execute': execute}\n"

    inspection = await engine.inspect(ToolSource("python", "restricted", source))

    assert {v.line for v in inspection.violations} >= {4, 5}


@pytest.mark.asyncio(loop_scope="module")
async def test_no_attempt_repeats_another() -> None:
    """Forty-odd attempts only count if each is its own program: a copy under a new name adds
    nothing (the check the old ">= 40" count could not make)."""
    bodies = [" ".join(b.split()) for b in (*ATTEMPTS.values(), *HEADER_ATTEMPTS.values())]
    repeated = {b for b in bodies if bodies.count(b) > 1}

    assert not repeated
    assert len(bodies) >= 40
