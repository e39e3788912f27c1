"""``PythonWasmEngine``: Python tool files run by CPython inside wasmtime, in the WASM workers.

The same tool-file shape, ``context`` and import table as the RestrictedPython tier, but the
file is plain Python: the boundary is WebAssembly (and, around it, the worker's OS hardening),
not a language subset. Runs only where the runner has been built (``build``); the server side is
the runners' shared ``RunnerEngine``.
"""

from __future__ import annotations

from sandbox.engine import Capabilities
from sandbox.wasm.runner_engine import RunnerEngine


class PythonWasmEngine(RunnerEngine):
    name = "python-wasm"
    capabilities = Capabilities(imports=True, on_error=True, metered=True)
    inspect_op = "py_inspect"
    call_op = "py_call"
    load_memory = 64 << 20
