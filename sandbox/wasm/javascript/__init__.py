"""JavaScript tool files (LiteBot's shape) run by QuickJS-NG compiled to WASI, under wasmtime in
the WASM workers (``host``); the server side is ``engine``."""
