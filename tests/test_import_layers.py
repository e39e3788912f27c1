"""Dependencies point one way, for every package: the adapters (``server/api``, the CLI, the
demo) compose the node (``server.bootstrap``) and call the use cases (``server/calls``,
``server/agent``), which run the core (``server/registry``, ``server/skills``) and the engines
(``sandbox``), and reach storage only through ports that ``server/storage`` implements.

Imports are read from the source, ``TYPE_CHECKING`` blocks and function bodies included, and
``from server import X`` counts as an import of ``server.X``. The call path is also checked as
Python loads it: importing it must not load SQLAlchemy, storage, the web framework or the node.
No module imports itself through others (no import cycle between files). Each rule is shown to
catch a wrong import, so none can pass by accident."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB = ("fastapi", "starlette")
SQL = ("sqlalchemy", "alembic", "asyncpg", "aiosqlite")
NODE = ("server.bootstrap", "server.cli", "server.demo")  # the composition root and its callers
ADAPTERS = ("server.api", *NODE)

# Each package and what it may never import.
LAYERS: dict[str, tuple[str, ...]] = {
    "sandbox": ("server", "quiver", *WEB, *SQL),
    "server/registry": (
        *WEB,
        *SQL,
        *ADAPTERS,
        "server.storage",
        "server.calls",
        "server.agent",
        "server.skills",
    ),  # fmt: skip
    "server/skills": (*WEB, *SQL, *ADAPTERS, "server.calls", "server.agent"),
    # the call path reaches the database only through its ports (server/calls/ports.py)
    "server/calls": (*WEB, *SQL, *ADAPTERS, "server.storage", "server.agent"),
    "server/agent": (*WEB, *SQL, *ADAPTERS),
    "server/storage": (*WEB, *ADAPTERS, "server.calls", "server.agent"),
    "server/api": ("server.cli", "quiver"),
    # the client is a distribution of its own (client/): nothing of the server's
    "client/quiver": ("server", "sandbox", "migrations", *WEB, *SQL),
    "migrations": (*WEB, *ADAPTERS, "server.calls", "server.agent", "server.registry"),
}
# the modules beside the packages (settings, errors, egress, logs…) serve every layer
SHARED = ADAPTERS
NODE_USERS = ("server/api", "server/cli.py", "server/demo.py", "server/bootstrap.py")


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports; ``from a import b`` names ``a`` and ``a.b``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def forbidden(names: set[str], rules: tuple[str, ...]) -> set[str]:
    return {n for n in names if any(n == rule or n.startswith(rule + ".") for rule in rules)}


def sources(place: str) -> list[Path]:
    where = ROOT / place
    found = [where] if where.is_file() else sorted(where.rglob("*.py"))
    assert found, f"{place} holds no Python file: the rule names a place that moved"
    return found


def test_every_package_imports_point_inwards() -> None:
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for place, rules in LAYERS.items()
        for path in sources(place)
        for name in forbidden(imports(path), rules)
    }

    assert not offenders


def test_the_modules_beside_the_packages_import_no_adapter() -> None:
    shared = [p for p in (ROOT / "server").glob("*.py") if p.stem not in ("bootstrap", "cli", "demo")]  # fmt: skip

    offenders = {f"{p.name}: {n}" for p in shared for n in forbidden(imports(p), SHARED)}

    assert shared and not offenders


def test_only_the_adapters_import_the_node() -> None:
    users = {
        str(path.relative_to(ROOT))
        for path in sources("server") + sources("sandbox") + sources("client/quiver")
        if forbidden(imports(path), ("server.bootstrap",))
    }

    assert users and all(u.startswith(NODE_USERS) for u in users), users


@pytest.mark.parametrize("package", ["server.calls", "server.registry"])
def test_loading_the_call_path_loads_no_database_web_framework_or_node(package: str) -> None:
    where = ROOT / package.replace(".", "/")
    modules = sorted(f"{package}.{p.stem}" for p in where.glob("*.py") if p.stem != "__init__")
    code = (
        f"import sys; import {', '.join(modules)}; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {(*WEB, *SQL)!r} "
        f"or m.startswith(('server.storage', 'server.api', 'server.bootstrap', 'server.agent'))))"
    )

    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)  # fmt: skip

    assert loaded.stdout.strip() == "[]"


def module_graph(root: Path, places: tuple[str, ...]) -> dict[str, set[str]]:
    """Each module of ``places`` and the modules of ``places`` it imports."""
    files = {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for place in places
        for path in sorted((root / place).rglob("*.py"))
    }
    return {
        name: {other for other in imports(path) if other in files and other != name}
        for name, path in files.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, round a circle (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_through_others() -> None:
    graph = module_graph(ROOT, ("server", "sandbox", "quiver"))

    assert len(graph) > 100 and cycles(graph) == []


def test_an_import_cycle_is_caught(tmp_path: Path) -> None:
    """Through a function body too, as the build and host of a runner once were."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "build.py").write_text("def f():\n    from pkg.host import config\n")
    (tmp_path / "pkg" / "host.py").write_text("from pkg.build import GUARD\n")
    (tmp_path / "pkg" / "alone.py").write_text("import pkg.host\n")

    assert cycles(module_graph(tmp_path, ("pkg",))) == [["pkg.build", "pkg.host"]]


@pytest.mark.parametrize("place", sorted(LAYERS))
def test_each_rule_catches_a_wrong_import(place: str, tmp_path: Path) -> None:
    """Every forbidden name of every layer is caught, in each form an import can take."""
    for rule in LAYERS[place]:
        head, _, tail = rule.rpartition(".")
        wrong = tmp_path / "wrong.py"
        forms = [f"import {rule}\n", f"from {rule} import anything\n"]
        if head:
            forms.append(f"from {head} import {tail}\n")  # ``from server import bootstrap``
        for form in forms:
            wrong.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    " + form)

            assert forbidden(imports(wrong), LAYERS[place]), (place, form)
