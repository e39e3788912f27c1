# The README's two commands: `make demo` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test install runner lint bench

$(BIN)/quiver: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(BIN)/quiver

install: $(BIN)/quiver

# The Python WASM runner is built once per version and cached (~20-40 s the first time).
runner: install
	$(BIN)/quiver wasm-runner

demo: runner
	$(BIN)/quiver serve --demo

test: runner
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: install
	$(BIN)/python -m benchmarks.snapshot
	$(BIN)/python -m benchmarks.analytics
	$(BIN)/python -m benchmarks.propagation
	$(BIN)/python -m benchmarks.fairness
	$(BIN)/python -m benchmarks.soak
