"""Smoke-test a built Quiver image through its root file system, where no container can be run.

    python deploy/image/smoke.py [IMAGE]        (as root; IMAGE defaults to quiver:<version>)

The image's root file system is mounted (podman create + podman mount) and its own programs run
in it with chroot, under the image's environment and working directory, as its entry point would:

1. every module of the installed packages imports (the wheel holds all the code it needs);
2. as root with only SETUID, SETGID, SYS_ADMIN and KILL, `quiver sandbox-check` reports every
   isolation layer active, and without SYS_ADMIN `quiver serve` refuses to start;
3. `quiver serve --demo` answers /readyz; the demo tenant's restricted Python and webhook tools,
   and a Python-in-WASM and a JavaScript tool it uploads, each answer a call in a session; the
   image's health check passes;
4. a SIGTERM stops the server with exit status 0.

Every wait is bounded; the script exits non-zero, saying what failed, if anything does.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 120
STOP_TIMEOUT_S = 30

WASM_TOOL = """
def execute(params, context):
    return {"sum": params["a"] + params["b"]}


tool = {
    "name": "add_numbers",
    "description": "Add two numbers",
    "parameters": {"a": {"type": "number", "required": True},
                   "b": {"type": "number", "required": True}},
    "execute": execute,
}
"""
JAVASCRIPT_TOOL = """
module.exports = {
  name: 'shout',
  description: 'Say a text louder',
  parameters: { text: { type: 'string', required: true } },
  execute: async (params) => ({ text: params.text.toUpperCase() + '!' }),
};
"""


class SmokeFailed(Exception):
    pass


def run(*command: str, check: bool = True) -> str:
    done = subprocess.run(command, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SmokeFailed(f"{' '.join(command)} -> {done.returncode}: {done.stderr.strip()}")
    return done.stdout.strip()


@contextlib.contextmanager
def mounted(image: str) -> Iterator[Path]:
    """The image's root file system, writable (a container's layer), with /proc, /dev, /sys and
    a fresh /tmp mounted as a container runtime would."""
    name = f"quiver-smoke-{uuid.uuid4().hex[:8]}"
    run("podman", "create", "--no-healthcheck", "--name", name, image)
    mounts: list[Path] = []
    try:
        root = Path(run("podman", "mount", name))
        for fstype, target, options in (
            ("proc", "proc", []),
            ("sysfs", "sys", []),
            ("tmpfs", "tmp", ["-o", "mode=1777"]),
        ):
            run("mount", "-t", fstype, *options, fstype, str(root / target))
            mounts.append(root / target)
        run("mount", "--rbind", "/dev", str(root / "dev"))
        run("mount", "--make-rslave", str(root / "dev"))
        mounts.append(root / "dev")
        yield root
    finally:
        for target in reversed(mounts):
            run("umount", "--recursive", "--lazy", str(target), check=False)
        run("podman", "umount", name, check=False)
        run("podman", "rm", "--force", name, check=False)


def image_config(image: str) -> tuple[dict[str, str], str, list[str]]:
    """The image's environment, working directory and health check command."""
    inspected = json.loads(run("podman", "image", "inspect", image))[0]
    config = inspected["Config"]
    env = dict(item.split("=", 1) for item in config.get("Env") or [])
    health = (inspected.get("Healthcheck") or {}).get("Test") or []
    if health[:1] != ["CMD"] or not any("/healthz" in part for part in health):
        raise SmokeFailed(f"the image's health check is not a command on /healthz: {health}")
    return env, config.get("WorkingDir") or "/", health[1:]


# what deploy/compose.yaml and the Kubernetes manifest grant the container (docs/deploy.md)
CAPABILITIES = ("setuid", "setgid", "sys_admin", "kill")


def in_image(
    root: Path, env: dict[str, str], workdir: str, *command: str,
    capabilities: tuple[str, ...] = CAPABILITIES,
) -> list[str]:  # fmt: skip
    """A command line that runs `command` inside the image's root as its entry point would: as
    root holding only `capabilities` (the rest leave the bounding set before the exec)."""
    pairs = [f"{k}={v}" for k, v in env.items()]
    bounding = ",".join(["-all", *(f"+{c}" for c in capabilities)])
    return ["chroot", str(root), "/usr/bin/setpriv", f"--bounding-set={bounding}",
            "--inh-caps=-all", "/usr/bin/env", "-i", *pairs, "sh", "-c",
            'cd "$0" && exec "$@"', workdir, *command]  # fmt: skip


def check_imports(root: Path, env: dict[str, str], workdir: str) -> None:
    script = (
        "import importlib, pkgutil, sys\n"
        "failed = []\n"
        "for top in ('quiver', 'server', 'sandbox'):\n"
        "    package = importlib.import_module(top)\n"
        "    for info in pkgutil.walk_packages(package.__path__, top + '.'):\n"
        "        if info.name == 'sandbox.wasm.python.guest':\n"
        "            continue  # runs inside the WASM runner only\n"
        "        try:\n"
        "            importlib.import_module(info.name)\n"
        "        except Exception as exc:\n"
        "            failed.append(f'{info.name}: {exc!r}')\n"
        "print('\\n'.join(failed))\n"
        "sys.exit(1 if failed else 0)\n"
    )
    done = subprocess.run(
        in_image(root, env, workdir, "python3", "-c", script), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SmokeFailed(f"modules that do not import in the image:\n{done.stdout}{done.stderr}")
    print("smoke: every module of quiver, server and sandbox imports")


def check_sandbox(root: Path, env: dict[str, str], workdir: str) -> None:
    done = subprocess.run(
        in_image(root, env, workdir, "quiver", "sandbox-check"), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SmokeFailed(f"sandbox-check failed: {done.stdout}{done.stderr}")
    layers = json.loads(done.stdout)
    inactive = [name for name, state in layers.items() if not state.startswith("active")]
    if inactive or not layers:
        raise SmokeFailed(f"inactive isolation layers: {inactive or 'none reported'}")
    print(f"smoke: sandbox-check: {', '.join(sorted(layers))} active")


def check_refusal(root: Path, env: dict[str, str], workdir: str) -> None:
    """Without SYS_ADMIN the workers get no network namespace of their own: serve must refuse."""
    lacking = tuple(c for c in CAPABILITIES if c != "sys_admin")
    command = in_image(root, env, workdir, "quiver", "serve", capabilities=lacking)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=START_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise SmokeFailed("quiver serve without SYS_ADMIN did not refuse to start") from None
    said = done.stdout + done.stderr
    if done.returncode == 0 or "refusing to start" not in said or "network_namespace" not in said:
        raise SmokeFailed(f"quiver serve without SYS_ADMIN: {done.returncode} {said[-2000:]}")
    print("smoke: without SYS_ADMIN, quiver serve refuses to start and names the layer")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(base: str, server: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SmokeFailed(f"quiver serve exited with {server.returncode} before it was ready")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        time.sleep(0.2)  # polling a starting server, within the deadline above
    raise SmokeFailed(f"/readyz did not answer 200 within {START_TIMEOUT_S} s")


def call_every_kind(base: str, keys: dict[str, str]) -> None:
    dev = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {keys['developer']}"})
    agent = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {keys['agent']}"})
    for body in (
        {"kind": "python", "sandbox": "wasm", "source": WASM_TOOL},
        {"kind": "javascript", "source": JAVASCRIPT_TOOL},
    ):
        saved = dev.post("/v1/tools", json=body, timeout=60)
        if saved.status_code not in (200, 201):
            raise SmokeFailed(f"uploading a {body['kind']} tool: {saved.status_code} {saved.text}")
    bot = dev.post("/v1/bots", json={"name": "smoke", "tools": None})
    if bot.status_code not in (200, 201):
        raise SmokeFailed(f"creating a bot: {bot.status_code} {bot.text}")
    session = agent.post("/v1/sessions", json={"bot": "smoke"}).json()["id"]
    expected = {
        "check_order": ({"order_id": "AB12345"}, lambda r: r["order_id"] == "AB12345"),
        "order_status": ({"order_id": "AB12345"}, lambda r: "status" in r),
        "add_numbers": ({"a": 2, "b": 3}, lambda r: r == {"sum": 5}),
        "shout": ({"text": "hi"}, lambda r: r == {"text": "HI!"}),
    }
    for tool, (arguments, holds) in expected.items():
        answer = agent.post(
            f"/v1/sessions/{session}/calls",
            json={"tool": tool, "arguments": arguments},
            timeout=60,
        )
        envelope = answer.json() if answer.status_code == 200 else {}
        if not envelope.get("success") or not holds(envelope.get("result")):
            raise SmokeFailed(f"calling {tool}: {answer.status_code} {answer.text}")
        print(f"smoke: {tool} answered {json.dumps(envelope['result'])}")


def check_serve(root: Path, env: dict[str, str], workdir: str, health: list[str]) -> None:
    port = free_port()
    env = {**env, "QUIVER_PORT": str(port)}
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        in_image(root, env, workdir, "quiver", "serve", "--demo"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    try:
        wait_ready(base, server)
        print(f"smoke: quiver serve --demo answers /readyz on port {port}")
        if subprocess.run(in_image(root, env, workdir, *health), timeout=30).returncode != 0:
            raise SmokeFailed(f"the image's health check failed: {health}")
        print("smoke: the image's health check passes")
        data_dir = root / env["QUIVER_DATA_DIR"].lstrip("/")
        keys = json.loads((data_dir / "demo-keys.json").read_text())
        call_every_kind(base, keys)
        server.send_signal(signal.SIGTERM)
        try:
            status = server.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise SmokeFailed(f"quiver serve did not stop within {STOP_TIMEOUT_S} s") from None
        assert server.stdout is not None
        output = server.stdout.read().splitlines()
        # uvicorn ends a graceful shutdown by raising the signal again (exit status 143 in a shell)
        if status not in (0, -signal.SIGTERM) or not any(
            "Application shutdown complete" in line for line in output
        ):
            raise SmokeFailed(f"quiver serve did not shut down cleanly (status {status})")
        print("smoke: quiver serve shut down cleanly on SIGTERM")
    except SmokeFailed:
        if server.poll() is None:
            server.kill()
        if not output and server.stdout is not None:
            server.wait()
            output = server.stdout.read().splitlines()
        print("\n".join(output[-40:]), file=sys.stderr)
        raise
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def main() -> int:
    if os.geteuid() != 0:
        print("smoke: run as root (it mounts the image's file system)", file=sys.stderr)
        return 2
    version = next(
        line.split('"')[1]
        for line in (ROOT / "pyproject.toml").read_text().splitlines()
        if line.startswith("version = ")
    )
    image = sys.argv[1] if len(sys.argv) > 1 else f"localhost/quiver:{version}"
    try:
        env, workdir, health = image_config(image)
        with mounted(image) as root:
            check_imports(root, env, workdir)
            check_sandbox(root, env, workdir)
            check_refusal(root, env, workdir)
            check_serve(root, env, workdir, health)
    except SmokeFailed as failure:
        print(f"smoke: FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"smoke: {image} passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
