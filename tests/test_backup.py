"""`quiver backup` / `quiver restore` on the embedded SQLite, as a user runs them: a backup
taken while the node serves, restored into a fresh data directory, and a node started on it
serves every kind of data as before — keys, tools with their versions, a secret a tool reads,
a data set, a session and the call log."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx

from tests.test_cli import QUIVER, _env, _free_port, _key, _wait_for_ready, demo_server, quiver

SECRET_TOOL = """
def execute(params, context):
    return {"token_ends_with": context.secrets["CRM_TOKEN"][-4:]}

tool = {
    "name": "crm_probe",
    "description": "Shows that the CRM token is readable",
    "parameters": {},
    "execute": execute,
    "metadata": {"secrets": ["CRM_TOKEN"]},
}
"""


@contextlib.contextmanager
def node(data_dir: Path, cwd: Path) -> Iterator[str]:
    """``quiver serve`` (no demo) on ``data_dir``: its base URL."""
    port = _free_port()
    proc = subprocess.Popen(
        [*QUIVER, "serve", "--port", str(port)], env=_env(data_dir), cwd=cwd,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for_ready(base)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_backup_taken_while_serving_restores_everything_into_a_new_node(tmp_path: Path) -> None:
    backup_file = tmp_path / "backups" / "quiver.db"
    with demo_server(tmp_path) as (base, lines):
        dev_env = {**_env(tmp_path / "data"), "QUIVER_URL": base, "QUIVER_KEY": _key(lines, "developer")}  # fmt: skip
        agent = {"Authorization": f"Bearer {_key(lines, 'agent')}"}
        dev = {"Authorization": f"Bearer {_key(lines, 'developer')}"}
        subprocess.run([*QUIVER, "secrets", "set", "CRM_TOKEN"], input="crm-token-7890\n", env=dev_env, cwd=tmp_path, check=True, capture_output=True, text=True)  # fmt: skip
        httpx.post(f"{base}/v1/tools", json={"kind": "python", "source": SECRET_TOOL}, headers=dev).raise_for_status()  # fmt: skip
        httpx.post(f"{base}/v1/bots", json={"name": "probe", "tools": None}, headers=dev).raise_for_status()  # fmt: skip
        sid = httpx.post(f"{base}/v1/sessions", json={"bot": "probe"}, headers=agent).json()["id"]
        before = httpx.post(f"{base}/v1/sessions/{sid}/calls", json={"tool": "crm_probe", "arguments": {}}, headers=agent, timeout=30).json()  # fmt: skip
        # the call is in the database before the backup: listing the calls writes the node's
        # pending rows first (the call log is written in batches)
        listed = httpx.get(f"{base}/v1/calls", headers=dev).json()["calls"]
        assert [c["tool"] for c in listed] == ["crm_probe"]
        taken = quiver("backup", str(backup_file), env=_env(tmp_path / "data"), cwd=tmp_path)
        refused = quiver("restore", str(backup_file), "--yes", env=_env(tmp_path / "data"), cwd=tmp_path)  # fmt: skip

    restored = quiver("restore", str(backup_file), "--yes", env=_env(tmp_path / "new"), cwd=tmp_path)  # fmt: skip
    with node(tmp_path / "new", tmp_path) as base:
        snapshot = httpx.get(f"{base}/v1/bots/support/snapshot", headers=agent)
        versions = httpx.get(f"{base}/v1/tools/check_order/versions", headers=dev).json()
        after = httpx.post(f"{base}/v1/sessions/{sid}/calls", json={"tool": "crm_probe", "arguments": {}}, headers=agent, timeout=30).json()  # fmt: skip
        calls = httpx.get(f"{base}/v1/calls", params={"tool": "crm_probe"}, headers=dev).json()
        datasets = httpx.get(f"{base}/v1/datasets", headers=dev).json()

    assert before["success"] and before["result"] == {"token_ends_with": "7890"}
    assert taken.returncode == 0, taken.stderr
    assert "secret key" in taken.stdout and backup_file.with_name("quiver.db.secret.key").exists()
    assert oct(backup_file.stat().st_mode & 0o777) == "0o600"
    assert refused.returncode == 1 and "a node is running" in refused.stderr
    assert restored.returncode == 0, restored.stderr
    assert snapshot.status_code == 200  # the agent key and the bot
    assert [v["version"] for v in versions["versions"]] == [1]
    assert after["success"] and after["result"] == {"token_ends_with": "7890"}  # the same session
    assert len(calls["calls"]) == 2  # the call from before the backup, and the new one
    assert "faq" in {d["name"] for d in datasets["datasets"]}


def test_a_restore_over_an_existing_database_moves_it_aside(tmp_path: Path) -> None:
    env = _env(tmp_path / "data")
    assert quiver("db", "upgrade", env=env, cwd=tmp_path).returncode == 0
    quiver("tenants", "create", "kept", env=env, cwd=tmp_path)
    assert quiver("backup", str(tmp_path / "b.db"), env=env, cwd=tmp_path).returncode == 0
    quiver("tenants", "create", "later", env=env, cwd=tmp_path)

    restored = quiver("restore", str(tmp_path / "b.db"), "--yes", env=env, cwd=tmp_path)
    listed = quiver("tenants", "list", "--json", env=env, cwd=tmp_path)
    aside = sorted(p.name for p in (tmp_path / "data").glob("quiver.db.before-restore-*"))
    not_sqlite = tmp_path / "junk.db"
    not_sqlite.write_bytes(b"this is not a database" * 100)
    junk = quiver("restore", str(not_sqlite), "--yes", env=env, cwd=tmp_path)
    postgres = quiver("backup", str(tmp_path / "x.db"), "--database-url", "postgresql+asyncpg://u@h/d", env=env, cwd=tmp_path)  # fmt: skip

    assert restored.returncode == 0, restored.stderr
    assert "later" not in listed.stdout and "kept" in listed.stdout
    assert aside and aside[0].startswith("quiver.db.before-restore-")
    assert junk.returncode == 1 and "not a readable SQLite database" in junk.stderr
    assert postgres.returncode == 2 and "pg_dump" in postgres.stderr
