"""Build the Python runner once per node: ``python -m sandbox.wasm.python.build``.

Two steps, each printed as it goes: componentize-py wraps ``guest`` (and the few ``sandbox``
modules it imports) with CPython compiled to WASI and pre-initialises it — the allowlisted
modules are imported and warmed in the snapshot — then wasmtime compiles the component with the
workers' engine settings. The compiled artefact is cached as
``<cache>/python-runner-<key>.cwasm``; the key covers the guest's files, the componentize-py and
wasmtime versions and the engine settings, so any change makes a new one and a stale one is never
loaded. Run at install and at the first ``quiver serve``; never at call time.

The artefact is native code that workers load without checking it: the cache directory must be
writable by the server's user only.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sandbox.wasm.cache import default_cache_dir
from sandbox.wasm.python.config import CONFIG_KEY, engine_config

ROOT = Path(__file__).resolve().parents[3]  # holds the `sandbox` package
# Everything the guest imports from this project (the build fails if one is missing here).
GUEST_FILES = (
    "sandbox/__init__.py",
    "sandbox/engine.py",
    "sandbox/toolfile.py",
    "sandbox/toolcode.py",
    "sandbox/packages.py",
    "sandbox/restricted/__init__.py",
    "sandbox/restricted/facades.py",
    "sandbox/wasm/__init__.py",
    "sandbox/wasm/python/__init__.py",
    "sandbox/wasm/python/guest.py",
    "sandbox/wasm/python/runner.wit",
)
Log = Callable[[str], None]


def runner_key() -> str:
    digest = hashlib.sha256()
    for part in (
        importlib.metadata.version("componentize-py"),
        importlib.metadata.version("wasmtime"),
        CONFIG_KEY,
    ):
        digest.update(part.encode() + b"\0")
    for name in GUEST_FILES:
        digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def runner_path(cache_dir: Path | None = None) -> Path:
    return (cache_dir or default_cache_dir()) / f"python-runner-{runner_key()}.cwasm"


def build(cache_dir: Path | None = None, log: Log = print, force: bool = False) -> Path:
    """Build and cache the runner unless it is there; its path. One build at a time per cache."""
    target = runner_path(cache_dir)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(target.parent / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.exists() and not force:
            log(f"Python runner ready: {target}")
            return target
        log("Building the Python runner for WASM tools (once per version, about 20-40 s)")
        with tempfile.TemporaryDirectory(prefix="quiver-runner-") as work:
            component = _componentize(Path(work), log)
            _compile(component, target, log)
    # Older runners stay: a running server's workers load theirs again whenever one respawns.
    # Remove python-runner-*.cwasm files no running server uses to reclaim ~50 MB each.
    return target


def _componentize(work: Path, log: Log) -> Path:
    started = time.perf_counter()
    app = work / "app"
    for name in GUEST_FILES:
        (app / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, app / name)
    output = work / "runner.wasm"
    log("  1/2 componentize-py: CPython for WASI + the guest, pre-initialised")
    command = [
        sys.executable,
        "-c",
        "import sys; from componentize_py import script; sys.exit(script())",
        "--quiet",
        "-d",
        str(app / "sandbox/wasm/python/runner.wit"),
        "-w",
        "runner",
        "componentize",
        "sandbox.wasm.python.guest",
        "-p",
        str(app),
        "-o",
        str(output),
    ]
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"componentize-py failed:\n{done.stdout}{done.stderr}")
    size = output.stat().st_size / 1e6
    log(f"      {size:.1f} MB component in {time.perf_counter() - started:.1f} s")
    return output


def _compile(component_path: Path, target: Path, log: Log) -> None:
    import wasmtime.component  # here only: the server process never imports wasmtime

    started = time.perf_counter()
    log("  2/2 wasmtime: compiling the component to native code")
    engine = wasmtime.Engine(engine_config(parallel_compilation=True))
    compiled = wasmtime.component.Component.from_file(engine, str(component_path))
    partial = target.with_suffix(".partial")
    partial.write_bytes(compiled.serialize())
    os.chmod(partial, 0o644)
    partial.replace(target)
    size = target.stat().st_size / 1e6
    log(f"      {size:.1f} MB artefact in {time.perf_counter() - started:.1f} s: {target}")


def ensure(cache_dir: Path | None = None, log: Log = print) -> Path:
    """The runner's path, built first (in a subprocess, with its progress output) if missing."""
    target = runner_path(cache_dir)
    if target.exists():
        return target
    command = [sys.executable, "-m", "sandbox.wasm.python.build"]
    if cache_dir is not None:
        command += ["--cache-dir", str(cache_dir)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert process.stdout is not None
    for line in process.stdout:
        log(line.rstrip())
    if process.wait() != 0 or not target.exists():
        raise RuntimeError("building the Python runner failed (see the output above)")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument("--force", action="store_true", help="rebuild even if cached")
    args = parser.parse_args()
    build(args.cache_dir, lambda line: print(line, flush=True), force=args.force)


if __name__ == "__main__":
    main()
