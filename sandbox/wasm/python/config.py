"""The Python runner's engine settings, which both the build and the workers' host use (the
compiled artefact is only valid with them). The reservation is also the largest memory a Python
tool may have: the pooling allocator gives every instance a slot of exactly this much address
space (not memory)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the server process never imports wasmtime
    import wasmtime

RESERVATION = 256 << 20
GUARD = 64 << 10
SLOTS = 8  # instance slots per worker: live ones + the one being made + retired ones
# what the slots reserve in a worker (memories, plus tables and instance state: ~150 MiB)
ADDRESS_SPACE = SLOTS * (RESERVATION + GUARD) + (256 << 20)
CONFIG_KEY = f"component;fuel+epoch;reserve={RESERVATION};guard={GUARD};cow=on"


def engine_config(parallel_compilation: bool = False) -> wasmtime.Config:
    """The runner's engine. Copy-on-write memory images make a fresh instance ~5× cheaper than
    copying the ~14 MiB pre-initialised heap; the build compiles with the same settings."""
    import wasmtime

    config = wasmtime.Config()
    config.consume_fuel = True
    config.epoch_interruption = True
    config.memory_reservation = RESERVATION
    config.memory_guard_size = GUARD
    config.memory_init_cow = True
    config.parallel_compilation = parallel_compilation
    return config
