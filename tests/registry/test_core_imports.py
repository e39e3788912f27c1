"""The registry core knows nothing of FastAPI or SQLAlchemy."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import server.registry

FORBIDDEN = ("fastapi", "starlette", "sqlalchemy", "alembic")
CORE = Path(server.registry.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_core_module_imports_a_web_or_sql_framework() -> None:
    offenders = {
        f"{path.name}: {name}"
        for path in CORE.rglob("*.py")
        for name in _imports(path)
        if name.split(".")[0] in FORBIDDEN
    }

    assert not offenders


def test_importing_the_core_loads_no_web_or_sql_framework_transitively() -> None:
    modules = sorted(f"server.registry.{p.stem}" for p in CORE.glob("*.py") if p.stem != "__init__")
    code = f"import sys; import {', '.join(modules)}; print([m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}])"

    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout

    assert out.strip() == "[]"


def test_sandbox_knows_nothing_of_the_server() -> None:
    import sandbox

    offenders = {
        f"{path.name}: {name}"
        for path in Path(sandbox.__file__).parent.rglob("*.py")
        for name in _imports(path)
        if name.split(".")[0] in (*FORBIDDEN, "server")
    }

    assert not offenders


ROOT = CORE.parent.parent
WEB = ("fastapi", "starlette")
# Each layer, and what it may never import: imports point inwards (the API adapts the use
# cases, the use cases run the core and the engines, storage implements what they need).
LAYERS = {
    "server/registry": (*FORBIDDEN, "server.api", "server.storage", "server.calls", "server.agent"),
    # the use cases reach the database through storage's repositories, never SQLAlchemy itself;
    # the call path only through its ports (server/calls/ports.py), which storage implements
    "server/calls": (*WEB, "sqlalchemy", "server.api", "server.storage"),
    "server/agent": (*WEB, "sqlalchemy", "server.api"),
    "server/skills": (*WEB, "sqlalchemy", "server.api", "server.agent"),
    "server/storage": (*WEB, "server.api", "server.calls", "server.agent"),
    "quiver": ("server", "sandbox", *FORBIDDEN),
}


def test_every_layer_imports_point_inwards() -> None:
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for layer, forbidden in LAYERS.items()
        for path in (ROOT / layer).rglob("*.py")
        for name in _imports(path)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    }

    assert not offenders


def test_the_layer_rules_catch_a_wrong_import(tmp_path: Path) -> None:
    """The check above can fail: a module importing the API from the use cases is caught."""
    wrong = tmp_path / "wrong.py"
    wrong.write_text("from server.api.deps import StoreDep\nimport fastapi\n")

    found = {name for name in _imports(wrong) if any(name == f or name.startswith(f + ".") for f in LAYERS["server/calls"])}  # fmt: skip

    assert found == {"server.api.deps", "fastapi"}
