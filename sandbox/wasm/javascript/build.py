"""The compiled QuickJS module, once per node: ``python -m sandbox.wasm.javascript.build``.

The module is QuickJS-NG's WASI reactor from the data-only ``qjs-wasi-reactor.wasm`` package
(nothing is downloaded at run time). wasmtime compiles it with the workers' engine settings
(~1.3 s) into ``<cache>/quickjs-<key>.cwasm``; the key covers the module's bytes, the wasmtime
version and the settings, so a stale artefact is never loaded. The server never imports wasmtime:
``ensure`` compiles in a child process. The artefact is native code that workers load without
checking it: the cache directory must be writable by the server's user only.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from sandbox.wasm.cache import default_cache_dir
from sandbox.wasm.javascript.config import CONFIG_KEY, engine_config


def reactor_path() -> Path:
    """The QuickJS-NG WASI reactor module, from its data-only package."""
    dist = importlib.metadata.distribution("qjs-wasi-reactor.wasm")
    found = next(f for f in dist.files or () if str(f).endswith(".wasm"))
    return Path(str(dist.locate_file(found)))


def artefact_path(cache_dir: Path | None = None) -> Path:
    cache_dir = cache_dir or default_cache_dir()
    key = hashlib.sha256(
        reactor_path().read_bytes()
        + f"\0{importlib.metadata.version('wasmtime')}\0{CONFIG_KEY}".encode()
    ).hexdigest()[:24]
    return cache_dir / f"quickjs-{key}.cwasm"


def ensure(cache_dir: Path | None = None) -> Path:
    """The compiled module, compiled now (in a child process) if this node has none yet."""
    cache_dir = cache_dir or default_cache_dir()
    path = artefact_path(cache_dir)
    if not path.exists():
        subprocess.run(
            [sys.executable, "-m", "sandbox.wasm.javascript.build", "--cache", str(cache_dir)],
            check=True,
        )
    return path


def compile_into(cache_dir: Path) -> Path:
    import wasmtime

    path = artefact_path(cache_dir)
    cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    module = wasmtime.Module.from_file(wasmtime.Engine(engine_config()), str(reactor_path()))
    fd, tmp = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
    with os.fdopen(fd, "wb") as out:
        out.write(module.serialize())
    os.replace(tmp, path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description="compile QuickJS for the WASM workers")
    parser.add_argument("--cache", type=Path, required=True)
    print(compile_into(parser.parse_args().cache))


if __name__ == "__main__":
    main()
