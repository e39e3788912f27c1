"""Quiver's Python client (``quiver.client``); the server is the ``server`` package."""
