"""The README's curl walk-through, run as written against a real ``quiver serve``: every step
answers, the ETag step gets its 304, rollback and disable work (nothing a newcomer pastes
fails)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import _free_port, _wait_for_ready

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "qk_readme_admin_" + "e" * 32


def walk_through() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Walk-through with curl", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


@pytest.mark.skipif(
    shutil.which("jq") is None or shutil.which("curl") is None, reason="needs jq and curl"
)
def test_the_readme_walk_through_runs_as_written(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
    env.update(QUIVER_DATA_DIR=str(tmp_path / "data"), QUIVER_ADMIN_KEY=ADMIN, QUIVER_WORKERS="1",
               QUIVER_LOG_LEVEL="warning", QUIVER_REQUIRE_ISOLATION="true" if os.geteuid() == 0 else "false")  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    script = walk_through().replace(
        "ADMIN=<the admin key printed at first start>", f"ADMIN={ADMIN}"
    )
    script = script.replace("export Q=http://127.0.0.1:8000", f"export Q=http://127.0.0.1:{port}")
    try:
        _wait_for_ready(f"http://127.0.0.1:{port}")
        ran = subprocess.run(
            ["bash", "-c", "set -e -o pipefail\n" + script + "\nkill $(jobs -p) 2>/dev/null || true\n"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=15)
    out = ran.stdout

    assert ran.returncode == 0, ran.stderr + out[-3000:]
    assert "HTTP/1.1 304" in out  # the ETag step reuses the real ETag
    assert "quiver.dev/problems/" not in out, out  # no step answered an error
    assert '"success":true' in out.replace(" ", "")  # the handoff tool ran
