"""Quiver server: registry, storage, HTTP API and CLI."""
