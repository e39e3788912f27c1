"""What every worker process shares, whatever its pool: the pipe, host calls, the serve loop.

A pool starts its own worker module (``PoolConfig.module``): ``sandbox.restricted.worker`` for
RestrictedPython, ``sandbox.wasm.worker`` for WASI modules and the runners. Each reads one
configuration frame, loads what it will need, hardens itself (``serve``), says ``ready``, then
answers requests one at a time over fds 0 (in) and the reply fd until the pool closes the pipe
or kills it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from sandbox import channel
from sandbox.hardening import HardeningConfig, harden

IN = 0
_out = 1  # the reply fd: a WASM worker moves it off fd 1, which its modules' stdout becomes

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def read_config() -> dict[str, Any]:
    config: dict[str, Any] = channel.read_frame(IN)
    return config


def hardening(config: dict[str, Any], threads: int = 0, file_bytes: int = 0) -> HardeningConfig:
    """The layers the pool's configuration frame asks for, with what this kind of worker needs
    besides: threads (RLIMIT_NPROC) and bytes its files may grow to (RLIMIT_FSIZE)."""
    return HardeningConfig(
        uid=config.get("uid"),
        memory_bytes=config.get("memory_bytes", 512 * 1024 * 1024),
        network_namespace=config.get("network_namespace", True),
        seccomp=config.get("seccomp", True),
        threads=threads,
        file_bytes=file_bytes,
    )


def move_replies_off_stdout() -> None:
    """Keep replies on a fd of their own and point fd 1 at /dev/null (a WASM worker: each
    call's stdout becomes fd 1, and no byte a module writes may reach the pipe)."""
    global _out
    _out = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)


def host_call(module: str, method: str, args: dict[str, Any]) -> Any:
    """Ask the server to do something on the tool's behalf; policy is enforced there."""
    channel.write_frame(_out, {"op": "host", "module": module, "method": method, "args": args})
    reply = channel.read_frame(IN)
    if not reply.get("ok"):
        raise RuntimeError(reply.get("error", "host call failed"))
    return reply.get("value")


def serve(
    hardening: HardeningConfig,
    handlers: dict[str, Handler],
    after: Callable[[], None] = lambda: None,
) -> None:
    """Harden, say ``ready``, then answer requests by their ``op`` until the pipe closes;
    ``after`` runs once each reply has gone (idle work: retiring instances)."""
    layers = harden(hardening)
    channel.write_frame(_out, {"op": "ready", "layers": layers, "pid": os.getpid()})
    while True:
        try:
            request = channel.read_frame(IN)
        except EOFError:
            return
        reply = handlers[request["op"]](request)
        reply["op"] = "result"
        channel.write_frame(_out, reply)
        after()
