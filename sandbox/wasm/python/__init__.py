"""Python tools in WebAssembly: CPython compiled to WASI runs the tenant's tool file.

``guest`` runs *inside* wasmtime (it is built into the runner component and never imported on
the host); ``build`` makes the runner once per node (componentize-py, then compiled by
wasmtime) and caches it; ``host`` is the worker side: instances, limits, host calls.
"""
