"""What the wheel and the image ship: every package the product's code imports is in the wheel
and copied into the image's build, and every other package it imports is a declared dependency
(not a test extra that happens to be installed here). The image itself is built and run by
`make image-check` (deploy/image/smoke.py imports every module inside it)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import distribution, packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
CLIENT = tomllib.loads((ROOT / "client" / "pyproject.toml").read_text())
# each package of the product, where its code lives (the client is a distribution of its own)
PRODUCT = {"server": ROOT / "server", "sandbox": ROOT / "sandbox", "migrations": ROOT / "migrations", "quiver": ROOT / "client" / "quiver"}  # fmt: skip
# runs inside the WASM runner, against bindings componentize-py generates there
GUEST = ROOT / "sandbox" / "wasm" / "python" / "guest.py"
GUEST_ONLY = {"wit_world", "componentize_py_types", "componentize_py_runtime"}


def _imported_tops(packages: tuple[str, ...] = tuple(PRODUCT)) -> set[str]:
    tops: set[str] = set()
    for where in (PRODUCT[p] for p in packages):
        for path in where.rglob("*.py"):
            if path == GUEST:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    tops.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    tops.add(node.module.split(".")[0])
    return tops


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _packaged() -> set[str]:
    return set(PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"])


def test_every_first_party_package_the_code_imports_is_in_the_wheel() -> None:
    first_party = {top for top in _imported_tops() if (PRODUCT.get(top, ROOT / top) / "__init__.py").exists()}  # fmt: skip

    # the client comes in its own wheel, which the server's declares
    assert first_party - _packaged() == {"quiver"}
    assert CLIENT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["quiver"]


def test_the_client_is_a_small_distribution_the_server_depends_on() -> None:
    client = CLIENT["project"]
    needs = {_normal(Requirement(r).name) for r in client["dependencies"]}
    pinned = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]

    assert needs == {"httpx", "httpx-sse", "pydantic"}
    assert any(r.name == client["name"] and str(r.specifier) == f"=={client['version']}" for r in pinned)  # fmt: skip


def test_the_client_imports_nothing_beyond_its_own_dependencies() -> None:
    """In a process where only the standard library, the client and what its distribution
    needs (transitively) can be imported, the client imports and makes a request."""
    allowed = set(sys.stdlib_module_names) | {"quiver"}
    pending, seen = ["quiver-registry-client"], set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for requirement in distribution(name).requires or []:
            parsed = Requirement(requirement)
            if parsed.marker is None or parsed.marker.evaluate({"extra": ""}):
                pending.append(_normal(parsed.name))
    allowed |= {top for top, owners in packages_distributions().items() if {_normal(o) for o in owners} & seen}  # fmt: skip
    script = f"""
import importlib.abc, sys
ALLOWED = {sorted(allowed)!r}
class Only(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top not in ALLOWED and not top.startswith("_sysconfigdata"):  # the stdlib's own
            raise ImportError(f"the client imported {{name}}, which it does not declare")
sys.meta_path.insert(0, Only())
from quiver.client import AsyncQuiver, Quiver, Unreachable
try:
    Quiver("http://127.0.0.1:9", "key").health()
except Unreachable:
    print("unreachable, as it should be")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "unreachable, as it should be"
    assert "fastapi" not in allowed and "server" not in allowed


def _not_copied(dockerfile: str) -> set[str]:
    copied = set(re.findall(r"^COPY (\S+) \1$", dockerfile, re.M))
    wheel = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]
    return (_packaged() | set(wheel.get("force-include", {})) | {"client"}) - copied


def test_the_image_build_copies_everything_the_wheel_is_built_from() -> None:
    assert _not_copied((ROOT / "Dockerfile").read_text()) == set()


@pytest.mark.parametrize(
    ("packages", "project"),
    [(("server", "sandbox", "migrations"), PYPROJECT), (("quiver",), CLIENT)],
    ids=["server", "client"],
)
def test_every_third_party_import_is_a_declared_dependency(packages: tuple[str, ...], project: dict) -> None:  # fmt: skip
    declared = {_normal(Requirement(r).name) for r in project["project"]["dependencies"]}
    distributions = packages_distributions()
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    undeclared = {}
    for top in _imported_tops(packages) - stdlib - set(PRODUCT) - GUEST_ONLY:
        owners = {_normal(d) for d in distributions.get(top, [])}
        if not owners & declared:
            undeclared[top] = sorted(owners) or "not installed"

    assert undeclared == {}


def test_the_checks_above_can_fail() -> None:
    """A package left out of the image's build, or a test extra imported by the product, is
    caught."""
    dockerfile = (ROOT / "Dockerfile").read_text().replace("COPY server server\n", "")
    declared = {_normal(Requirement(r).name) for r in PYPROJECT["project"]["dependencies"]}
    owners = {_normal(d) for d in packages_distributions().get("hypothesis", [])}

    assert _not_copied(dockerfile) == {"server"}
    assert owners and not owners & declared
