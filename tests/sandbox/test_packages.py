"""Reviewed packages inside the RestrictedPython worker's loader (``sandbox.packages``), with
package code that the upload's checks would have refused: what holds here holds for a package
that slipped past them. (Through HTTP, every tier: tests/api/test_packages.py.)"""

from __future__ import annotations

import sys

import pytest

from sandbox.packages import ReadOnlyModule
from sandbox.restricted.facades import DEFAULT_MODULES
from sandbox.restricted.loader import load
from sandbox.toolcode import LoadedTool


def spec(key: str, **files: str) -> dict:
    return {"key": key, "name": "pkg", "language": "python", "files": files}


def tool_calling(expression: str) -> str:
    return f"""
import pkg


def execute(params, context):
    return {{"value": {expression}}}


tool = {{"name": "t", "description": "d", "execute": execute}}
"""


def run(tools: list[LoadedTool]) -> object:
    return tools[0].execute({}, None)["value"]


# (what package code tries, the code, what the refusal says)
REFUSED_NAME = "not allowed in the sandbox"
ESCAPES = [
    ("imports os by a computed name", "M = __import__('o' + 's')", "'os' is not available"),
    ("imports sys", "import sys", "'sys' is not available"),
    ("opens a file", "F = open('/etc/passwd').read()", "'open' is not defined"),
    ("evaluates text", "X = eval('1')", "'eval' is not defined"),
    ("executes text", "exec('X = 1')", "'exec' is not defined"),
    ("compiles text", "C = compile('1', 'x', 'eval')", "'compile' is not defined"),
    ("reads its globals", "G = globals()", "'globals' is not defined"),
    ("reads vars", "V = vars()", "'vars' is not defined"),
    ("prints to the worker's pipe", "print('garbage on fd 1')", "'print' is not defined"),
    ("walks to a function's globals", "def f(): pass\nG = getattr(f, '__globals__')", REFUSED_NAME),  # noqa: E501
    ("walks to subclasses", "S = getattr(object, '__subclasses__')", REFUSED_NAME),
    ("sets a dunder", "def f(): pass\nsetattr(f, '__code__', None)", REFUSED_NAME),
    ("imports beyond the package", "from .. import anything", "beyond the package"),
    (
        "walks a frame by a built name",
        "try:\n    1 / 0\nexcept Exception as e:\n    F = getattr(e.__traceback__, 'tb_' + 'frame')\n",  # noqa: E501
        REFUSED_NAME,
    ),
]


@pytest.mark.parametrize(("code", "said"), [c[1:] for c in ESCAPES], ids=[c[0] for c in ESCAPES])
def test_package_code_gets_the_sandboxs_import_table_and_no_dangerous_builtins(
    code: str, said: str
) -> None:
    package = spec(f"k-{hash(code)}", **{"pkg/__init__.py": code})
    with pytest.raises(Exception) as refused:
        load(tool_calling("1"), DEFAULT_MODULES, packages=[package])

    assert "importing pkg failed" in str(refused.value) and said in str(refused.value)


def test_a_modules_object_is_read_only_and_hides_its_namespace() -> None:
    tools = load(
        tool_calling("pkg"),
        DEFAULT_MODULES,
        packages=[spec("ro", **{"pkg/__init__.py": "X = 1\n_hidden = 2\n"})],
    )  # noqa: E501
    module = run(tools)

    assert isinstance(module, ReadOnlyModule) and module.X == 1
    for attempt in (
        lambda: module._hidden,
        lambda: module._quiver_namespace,
        lambda: module.__dict__,
        lambda: module.__dict__,
        lambda: setattr(module, "X", 2),
        lambda: delattr(module, "X"),
    ):
        with pytest.raises(AttributeError):
            attempt()
    assert module.X == 1 and dir(module) == ["X"]
    assert "pkg" not in sys.modules  # listed while its code ran only


def test_tool_code_cannot_write_to_a_package_or_reach_its_privates() -> None:
    source = """
import pkg


def execute(params, context):
    pkg.X = 2
    return {}


tool = {"name": "t", "description": "d", "execute": execute}
"""
    tools = load(source, DEFAULT_MODULES, packages=[spec("w", **{"pkg/__init__.py": "X = 1\n"})])
    with pytest.raises(Exception):  # noqa: B017 - RestrictedPython's write guard refuses it
        tools[0].execute({}, None)
    private = "import pkg\nY = pkg._quiver_namespace\n"
    with pytest.raises(Exception) as compiled:  # noqa: B017
        load(private, DEFAULT_MODULES, packages=[spec("w", **{"pkg/__init__.py": "X = 1\n"})])
    assert "_quiver_namespace" in str(getattr(compiled.value, "violations", compiled.value))


def test_each_load_runs_the_package_afresh() -> None:
    files = {
        "pkg/__init__.py": "SEEN = []\n\ndef seen(x):\n    SEEN.append(x)\n    return len(SEEN)\n"
    }  # noqa: E501
    first = load(tool_calling("pkg.seen(1)"), DEFAULT_MODULES, packages=[spec("s", **files)])
    second = load(tool_calling("pkg.seen(1)"), DEFAULT_MODULES, packages=[spec("s", **files)])

    assert [run(first), run(first), run(second)] == [1, 2, 1]


def test_relative_imports_submodules_and_cycles_work_as_in_python() -> None:
    files = {
        "pkg/__init__.py": "from .a import A\nfrom . import b\n",
        "pkg/a.py": "from .sub.c import C\nA = 'a' + C\n",
        "pkg/b.py": "import pkg\nB = 'b'\n\ndef late():\n    return pkg.A\n",
        "pkg/sub/c.py": "from ..b import B\nC = 'c' + B\n",
    }
    tools = load(
        tool_calling("[pkg.A, pkg.b.late(), pkg.sub.c.C]"),
        DEFAULT_MODULES,
        packages=[spec("r", **files)],
    )  # noqa: E501

    assert run(tools) == ["acb", "acb", "cb"]


def test_a_package_uses_metaclasses_but_hands_none_to_tools() -> None:
    files = {"pkg/__init__.py": "from abc import ABCMeta, ABC, abstractmethod\nT = type\n\n"
             "class Base(ABC):\n    @abstractmethod\n    def f(self): ...\n\n"
             "class Impl(Base):\n    def f(self):\n        return 'impl'\n"}  # fmt: skip
    tools = load(tool_calling("pkg.Impl().f()"), DEFAULT_MODULES, packages=[spec("m", **files)])
    module = run(load(tool_calling("pkg"), DEFAULT_MODULES, packages=[spec("m", **files)]))

    assert run(tools) == "impl"
    for metaclass in ("ABCMeta", "T"):
        with pytest.raises(AttributeError, match="metaclass"):
            getattr(module, metaclass)
