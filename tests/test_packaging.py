"""What the wheel and the image ship: every package the product's code imports is in the wheel
and copied into the image's build, and every other package it imports is a declared dependency
(not a test extra that happens to be installed here). The image itself is built and run by
`make image-check` (deploy/image/smoke.py imports every module inside it)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PRODUCT = ("server", "quiver", "sandbox", "migrations")
# runs inside the WASM runner, against bindings componentize-py generates there
GUEST = ROOT / "sandbox" / "wasm" / "python" / "guest.py"
GUEST_ONLY = {"wit_world", "componentize_py_types", "componentize_py_runtime"}


def _imported_tops() -> set[str]:
    tops: set[str] = set()
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
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
    first_party = {top for top in _imported_tops() if (ROOT / top / "__init__.py").exists()}

    assert first_party - _packaged() == set()


def _not_copied(dockerfile: str) -> set[str]:
    copied = set(re.findall(r"^COPY (\S+) \1$", dockerfile, re.M))
    wheel = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]
    return (_packaged() | set(wheel.get("force-include", {}))) - copied


def test_the_image_build_copies_everything_the_wheel_is_built_from() -> None:
    assert _not_copied((ROOT / "Dockerfile").read_text()) == set()


def test_every_third_party_import_is_a_declared_dependency() -> None:
    declared = {_normal(Requirement(r).name) for r in PYPROJECT["project"]["dependencies"]}
    distributions = packages_distributions()
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    undeclared = {}
    for top in _imported_tops() - stdlib - _packaged() - GUEST_ONLY:
        owners = {_normal(d) for d in distributions.get(top, [])}
        if not owners & declared:
            undeclared[top] = sorted(owners) or "not installed"

    assert undeclared == {}


def test_the_checks_above_can_fail() -> None:
    """A package left out of the image's build, or a test extra imported by the product, is
    caught."""
    dockerfile = (ROOT / "Dockerfile").read_text().replace("COPY quiver quiver\n", "")
    declared = {_normal(Requirement(r).name) for r in PYPROJECT["project"]["dependencies"]}
    owners = {_normal(d) for d in packages_distributions().get("hypothesis", [])}

    assert _not_copied(dockerfile) == {"quiver"}
    assert owners and not owners & declared
