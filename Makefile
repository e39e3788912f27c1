# The README's two commands: `make demo` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

INSPECTOR := $(VENV)/mcp-inspector/node_modules/.bin/mcp-inspector

.PHONY: demo test install runner inspector lint bench image image-check

# the server and its client (client/, a distribution of its own), both editable
$(BIN)/quiver: pyproject.toml client/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ./client -e '.[test]'
	touch $(BIN)/quiver

install: $(BIN)/quiver

# The Python WASM runner is built once per version and cached (~20-40 s the first time).
runner: install
	$(BIN)/quiver wasm-runner

# MCP Inspector (the official MCP debugging client) for the tests that drive it; needs npm.
$(INSPECTOR):
	@if command -v npm >/dev/null; then \
		npm install --prefix $(VENV)/mcp-inspector --no-audit --no-fund --loglevel=error \
			@modelcontextprotocol/inspector@2.12.0; \
	else echo "npm not found: the MCP Inspector tests will be skipped"; fi

inspector: $(INSPECTOR)

demo: runner
	$(BIN)/quiver serve --demo

test: runner inspector
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest -n 2 --dist worksteal

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: install
	$(BIN)/python -m benchmarks.snapshot
	$(BIN)/python -m benchmarks.analytics
	$(BIN)/python -m benchmarks.propagation
	$(BIN)/python -m benchmarks.fairness
	$(BIN)/python -m benchmarks.soak

# The container image, built the way CI can (no registry pull: a Debian base made from Debian's
# packages, podman with chroot isolation), then smoke-tested through its root file system.
image:
	deploy/image/build

image-check: install image
	$(BIN)/python deploy/image/smoke.py
