"""The installed release's version, from the package's own metadata (one place: pyproject.toml)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("quiver-registry")
except PackageNotFoundError:  # a source tree that was never installed
    VERSION = "0.0.0+unknown"
