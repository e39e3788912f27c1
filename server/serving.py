"""Several serving processes behind one port (``quiver serve --workers N``, PostgreSQL).

Each process is a node as a node on another host would be (its own event loop, sandbox workers,
caches, LISTEN connection and call-log journal); the kernel spreads connections between them
(``SO_REUSEPORT``). What must be exact between them at once — a session's state, which a client's
consecutive calls may read in different processes — goes through the shared session marks
(``server.calls.session_marks``); everything else is what nodes already share.

The supervisor starts the first process and waits until it answers ``/readyz`` (it migrates
the database and makes the first admin key, once), then the others; it passes SIGTERM and
SIGINT on to them and waits for each to finish its graceful stop. A process that dies is
started again; one that dies within ``QUICK_DEATH_S`` of its start twice in a row stops the
whole server (a broken node is not restarted forever).
"""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

READY_WITHIN_S = 120.0  # the first process's start: migrations, the first key, the runners
QUICK_DEATH_S = 10.0
STOP_WITHIN_S = 20.0


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening address shared with the other processes of this server."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


@dataclass
class Child:
    number: int
    proc: subprocess.Popen[bytes]
    started: float
    quick_deaths: int = 0


@dataclass
class Supervisor:
    command: list[str]  # a serving process's command line
    env: dict[str, str]
    workers: int
    ready_url: str
    say: Callable[[str], None]
    clock: Callable[[], float] = time.monotonic
    children: list[Child] = field(default_factory=list)
    stopping: bool = False

    def run(self) -> int:
        """Serve until told to stop; the exit code."""
        previous = {sig: signal.signal(sig, self._stop) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            first = self._start(1)
            if not self._ready(first):
                self.say("the first serving process never became ready: stopping")
                return 1
            for number in range(2, self.workers + 1):
                self._start(number)
            self.say(f"{self.workers} serving processes on one port (PostgreSQL)")
            return self._watch()
        finally:
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _start(self, number: int) -> Child:
        proc = subprocess.Popen(self.command, env=self.env)  # noqa: S603 - our own command
        child = Child(number, proc, self.clock())
        self.children = [c for c in self.children if c.number != number] + [child]
        return child

    def _ready(self, child: Child) -> bool:
        deadline = self.clock() + READY_WITHIN_S
        while self.clock() < deadline and not self.stopping:
            if child.proc.poll() is not None:
                return False
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.ready_url, timeout=1).status_code == 200:
                    return True
            time.sleep(0.2)  # polling a process that is starting
        return False

    def _watch(self) -> int:
        while not self.stopping:
            for child in list(self.children):
                code = child.proc.poll()
                if code is None or self.stopping:
                    continue
                quick = self.clock() - child.started < QUICK_DEATH_S
                deaths = child.quick_deaths + 1 if quick else 0
                if deaths >= 2:
                    self.say(f"serving process {child.number} keeps dying (exit {code}): stopping")
                    return 1
                self.say(f"serving process {child.number} exited ({code}): starting it again")
                self._start(child.number).quick_deaths = deaths
            time.sleep(0.5)  # the supervisor's own pace, not a test's wait
        return 0

    def _stop(self, signum: int, frame: Any) -> None:
        self.stopping = True

    def _stop_all(self) -> None:
        for child in self.children:
            if child.proc.poll() is None:
                child.proc.send_signal(signal.SIGTERM)
        deadline = self.clock() + STOP_WITHIN_S
        for child in self.children:
            try:
                child.proc.wait(timeout=max(0.1, deadline - self.clock()))
            except subprocess.TimeoutExpired:
                child.proc.kill()
                child.proc.wait()


def child_command(options: dict[str, Any]) -> list[str]:
    """``quiver serve`` for one serving process, with the supervisor's options."""
    command = [sys.executable, "-m", "server.cli", "serve", "--no-python-runner"]
    for name, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        command += [flag] if value is True else [flag, str(value)]
    return command


def remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
