"""Reviewed packages: what an upload must pass beyond reading its archive
(``server.registry.packages``) — importing it for real, in each tier that would load it, within
the load-time limit. A package whose import fails, raises or takes too long is refused with the
tier's words; nothing is stored.
"""

from __future__ import annotations

import json

from sandbox.engine import ToolSource, Violation
from sandbox.pooled import PooledEngine
from server.calls.engines import Engines
from server.registry.packages import PackageContents, engine_spec

TRIAL_TENANT = "_packages"  # the pool's queue the trials wait in (never a tenant's)


def trial_python(contents: PackageContents) -> str:
    """A tool file that imports every public module of a wheel."""
    modules = sorted(
        path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for path in contents.files
    )
    public = [m for m in modules if not any(p.startswith("_") for p in m.split("."))]
    imports = "".join(f"import {m}\n" for m in public)
    return (
        f"{imports}\n\ndef execute(params, context):\n    return {{}}\n\n"
        'tool = {"name": "trial", "description": "imports the package", "execute": execute}\n'
    )


def trial_javascript(contents: PackageContents) -> str:
    """A tool file that requires an npm package by its name."""
    return (
        f"const trial = require({json.dumps(contents.name)});\n"
        "module.exports = {name: 'trial', description: 'requires the package', "
        "execute: async () => ({})};\n"
    )


async def try_import(engines: Engines, contents: PackageContents) -> list[Violation]:
    """Every reason the package does not import in a tier that would load it (none: it does)."""
    spec = engine_spec(contents)
    tiers: list[tuple[str, PooledEngine, ToolSource]]
    if contents.language == "javascript":
        text = trial_javascript(contents)
        tiers = [("JavaScript", engines.javascript, ToolSource("javascript", "javascript", text))]
    else:
        text = trial_python(contents)
        tiers = [("RestrictedPython", engines.restricted, ToolSource("python", "restricted", text))]
        if engines.python_wasm is not None:
            tiers.append(
                ("Python in WASM", engines.python_wasm, ToolSource("python", "wasm", text))
            )
    found: list[Violation] = []
    for tier, engine, source in tiers:
        inspection = await engine.inspect(source, TRIAL_TENANT, trial=[spec])
        found += [
            Violation(f"importing it ({tier}) failed: {v.message}", v.line, "archive")
            for v in inspection.violations
        ]
    return found
