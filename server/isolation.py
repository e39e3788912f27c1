"""The sandbox layers a node got, checked at start: a node that cannot apply one refuses to
start (unless ``QUIVER_REQUIRE_ISOLATION=false``) rather than run tenant code with less
isolation than its operator believes (docs/deploy.md)."""

from __future__ import annotations

import logging

log = logging.getLogger("quiver.sandbox")
HOW = (
    "Start as root with SETUID, SETGID, SYS_ADMIN and KILL (docs/deploy.md), or set "
    "QUIVER_REQUIRE_ISOLATION=false to run without them."
)


class IsolationError(RuntimeError):
    """A sandbox layer is inactive and the node was not told it may run without it."""


def inactive(layers: dict[str, str]) -> dict[str, str]:
    return {name: state for name, state in layers.items() if not state.startswith("active")}


def check(layers: dict[str, str], required: bool) -> None:
    """Log the layers; raise ``IsolationError`` naming each inactive one when they are required."""
    missing = inactive(layers)
    log.info("sandbox layers: %s", layers)
    if not missing:
        return
    listed = ", ".join(f"{name} ({state})" for name, state in missing.items())
    if required:
        raise IsolationError(f"refusing to start: sandbox layers inactive: {listed}. {HOW}")
    log.warning("running with sandbox layers inactive (QUIVER_REQUIRE_ISOLATION=false): %s", listed)
