"""QuickJS's engine settings, which both the build and the workers' host use (the compiled
artefact is only valid with them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the server process never imports wasmtime
    import wasmtime

RESERVATION = 64 << 20  # a JavaScript tool's memory is at most this (address space per instance)
GUARD = 64 << 10
CONFIG_KEY = f"core;fuel+epoch;reserve={RESERVATION};guard={GUARD}"


def engine_config() -> wasmtime.Config:
    """The workers' engine for QuickJS."""
    import wasmtime

    config = wasmtime.Config()
    config.consume_fuel = True
    config.epoch_interruption = True
    config.memory_reservation = RESERVATION
    config.memory_guard_size = GUARD
    return config
