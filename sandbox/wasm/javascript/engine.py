"""``JavaScriptEngine``: JavaScript tool files run by QuickJS-NG inside wasmtime, in the WASM
workers (``host``). The same contract as the Python tiers (the runners' shared ``RunnerEngine``):
the file is loaded at save within the load-time limit, and each call runs under fuel, an epoch
deadline, a memory cap and the result cap, with host calls (http, llm, knowledge_base) answered by
the server's policy. The server never imports wasmtime.
"""

from __future__ import annotations

from sandbox.engine import Capabilities
from sandbox.wasm.runner_engine import RunnerEngine


class JavaScriptEngine(RunnerEngine):
    name = "javascript"
    capabilities = Capabilities(imports=True, on_error=True, metered=True)
    language = "javascript"
    inspect_op = "js_inspect"
    call_op = "js_call"
    load_memory = 32 << 20
