"""WASI modules compiled from the C sources in ``tests/sandbox/wasm`` during the test run, with
Debian's clang, lld and wasi-libc (installed by ``.ci/run``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCES = Path(__file__).parent / "sandbox" / "wasm"
HEADER = Path(__file__).parent.parent / "sandbox" / "wasm"  # quiver.h, shipped with the package


@pytest.fixture(scope="session")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Every C file here as a wasm32-wasi command module."""
    clang = shutil.which("clang")
    if clang is None:
        if os.environ.get("QUIVER_REQUIRE_WASM_TOOLCHAIN") == "1":
            raise AssertionError("clang is missing; .ci/run installs clang, lld and wasi-libc")
        pytest.skip("clang/wasi-libc not installed; WASM tests skipped")
    out = tmp_path_factory.mktemp("wasm")
    modules = {}
    for source in sorted(SOURCES.glob("*.c")):
        target = out / (source.stem + ".wasm")
        subprocess.run(
            [clang, "--target=wasm32-wasi", "-O2", f"-I{HEADER}", "-o", str(target), str(source)],
            check=True,
        )
        modules[source.stem] = target.read_bytes()
    return modules


@pytest.fixture(scope="session")
def python_runner() -> Path:
    """The Python WASM runner, built once into the default cache if it is not there yet
    (``make test`` builds it before pytest starts; this covers a bare ``pytest``)."""
    from sandbox.wasm.python import build

    return build.ensure(log=lambda line: print(line, flush=True))
