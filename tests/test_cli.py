"""The ``quiver`` command: a real server process started the way the README says."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from server.storage import migrate
from tests.api.test_packages import SLUGKIT, wheel

QUIVER = [sys.executable, "-m", "server.cli"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
    env["QUIVER_DATA_DIR"] = str(data_dir)
    return env


def _wait_for_line(proc: subprocess.Popen, needle: str, timeout: float = 30) -> list[str]:
    """The lines ``proc`` printed up to the one holding ``needle``; bounded even when the
    process prints nothing more and never exits (a thread reads, this waits on a queue)."""
    lines: list[str] = []
    arrived: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in proc.stdout:
            arrived.put(line)
            if needle in line:
                return
        arrived.put(None)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = arrived.get(timeout=left)
        except queue.Empty:
            break
        if line is None:
            break
        lines.append(line)
        if needle in line:
            return lines
    raise AssertionError(f"{needle!r} never printed; got {''.join(lines)}")


@contextlib.contextmanager
def demo_server(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """``quiver serve --demo`` as a real process: its base URL and the lines it printed."""
    port = _free_port()
    proc = subprocess.Popen(
        [*QUIVER, "serve", "--demo", "--port", str(port)],
        env=_env(tmp_path / "data"),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    try:
        lines = _wait_for_line(proc, "agent key")
        base = f"http://127.0.0.1:{port}"
        _wait_for_ready(base)
        yield base, lines
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _key(lines: list[str], role: str) -> str:
    return next(line for line in lines if f"{role} key" in line).split()[-1]


def test_serve_demo_prints_url_and_keys_and_serves_the_demo(tmp_path: Path) -> None:
    with demo_server(tmp_path) as (base, lines):
        snapshot = httpx.get(
            f"{base}/v1/bots/support/snapshot?format=openai",
            headers={"Authorization": f"Bearer {_key(lines, 'agent')}"},
        )
        order = httpx.get(f"{base}/demo/orders/AB1234")
        docs = httpx.get(f"{base}/openapi.json")
        agent = {"Authorization": f"Bearer {_key(lines, 'agent')}"}
        sid = httpx.post(f"{base}/v1/sessions", json={"bot": "support"}, headers=agent).json()["id"]
        faq = httpx.post(f"{base}/v1/sessions/{sid}/calls", json={"tool": "qa_lookup", "arguments": {"question": "when are your opening hours?"}}, headers=agent, timeout=30).json()  # fmt: skip

    text = "".join(lines)
    assert "admin key" in text and base in text and "developer key" in text
    assert snapshot.status_code == 200
    assert {t["function"]["name"] for t in snapshot.json()["tools"]} == {
        "check_order",
        "order_status",
        "escalate_to_human",
        "qa_lookup",  # the built-in FAQ skill over the demo's FAQ data set
    }
    assert order.json()["order_id"] == "AB1234"
    assert "/v1/tools/validate" in docs.json()["paths"]
    assert faq["success"] and faq["result"]["answers"][0]["id"] == "hours"


def _wait_for_ready(base: str) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/readyz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError("server never became ready")


def quiver(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*QUIVER, *args], env=env, capture_output=True, text=True, cwd=cwd)


def user_error(done: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    """A user error: its exit code, a ``quiver:`` line saying what went wrong, no traceback."""
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    message = [line for line in done.stderr.splitlines() if line.startswith(("quiver:", "Error:"))]
    assert message, done.stderr
    for word in words:
        assert word in done.stderr, (word, done.stderr)


def test_db_upgrade_tenants_and_keys_commands(tmp_path: Path) -> None:
    env = _env(tmp_path / "data")

    def run(*args: str) -> str:
        done = quiver(*args, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout

    upgraded = run("db", "upgrade")
    created = json.loads(run("tenants", "create", "acme", "--name", "Acme", "--json"))
    key = json.loads(run("keys", "create", "--role", "developer", "--tenant", "acme", "--json"))
    listed = run("tenants", "list")
    again = quiver("tenants", "create", "acme", env=env, cwd=tmp_path)
    bad_id = quiver("tenants", "create", "Not An Id", env=env, cwd=tmp_path)
    no_tenant = quiver("keys", "create", "--role", "agent", env=env, cwd=tmp_path)
    unknown_tenant = quiver("keys", "create", "--role", "agent", "--tenant", "nope", env=env, cwd=tmp_path)  # fmt: skip

    assert f"schema at {migrate.head_revision()}" in upgraded
    assert created["id"] == "acme" and created["name"] == "Acme"
    assert key["key"].startswith("qk_") and key["tenant"] == "acme"
    assert "acme" in listed.splitlines()[1]
    user_error(again, 6, "already exists")
    user_error(bad_id, 1, "invalid tenant id")
    user_error(no_tenant, 2, "--tenant")
    user_error(unknown_tenant, 5, "not found")
    assert "database: sqlite" in again.stderr  # it says which database it used


def test_outside_a_project_folder_no_database_is_created_silently(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    listed = quiver("tenants", "list", env=env, cwd=elsewhere)
    created = quiver("tenants", "create", "acme", env=env, cwd=elsewhere)
    rotated = quiver("secrets", "rotate", env=env, cwd=elsewhere)

    for done in (listed, created, rotated):
        user_error(done, 2, "no database at", "quiver db upgrade")
    assert list(elsewhere.iterdir()) == []


GREET = """def execute(params, context):
    return {"success": True, "message": "hello " + params["name"]}


tool = {"name": "greet", "description": "Greets", "parameters": {"name": {"type": "string", "required": True}}, "execute": execute}
"""


def test_tools_commands_talk_to_a_running_server(tmp_path: Path) -> None:
    tool = tmp_path / "greet.py"
    tool.write_text(GREET)
    broken = tmp_path / "broken.py"
    broken.write_text(
        'def execute(p, c):\n    return {}\n\ntool = {"name": "broken", "description": "d", "execute": execute, "extra": 1}\n'
    )
    with demo_server(tmp_path) as (base, lines):
        env = {
            **_env(tmp_path / "data"),
            "QUIVER_URL": base,
            "QUIVER_KEY": _key(lines, "developer"),
        }

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return quiver("tools", *args, env=env, cwd=tmp_path)

        validated = run("validate", str(tool), "--json")
        invalid = run("validate", str(broken))
        refused = run("push", str(broken))
        pushed = run("push", str(tool))
        pushed_again = run("push", str(tool), "--json")
        tool.write_text(GREET.replace("hello ", "hi "))
        changed = run("push", str(tool))
        versions = json.loads(run("versions", "greet", "--json").stdout)
        diff = run("diff", "greet")
        pulled = run("pull", "greet", "--version", "1", "-o", str(tmp_path / "pulled.py"))
        rolled = run("rollback", "greet", "1", "--json")
        tail = subprocess.Popen([*QUIVER, "logs", "tail", "--tool", "greet", "--count", "1"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)  # fmt: skip
        tested = run("test", "greet", "--arguments", '{"name": "Ada"}', "--json")
        deadline = time.monotonic() + 30
        while tail.poll() is None and time.monotonic() < deadline:  # until the tail has one
            run("test", "greet", "--arguments", '{"name": "Ada"}')
        tail.kill()
        tailed, tail_errors = tail.communicate()
        failed_test = run("test", "greet", "--arguments", "{}")
        listed = json.loads(run("list", "--json").stdout)
        disabled = run("disable", "greet")
        enabled = run("enable", "greet")
        not_asked = subprocess.run([*QUIVER, "tools", "delete", "greet"], env=env, capture_output=True, text=True, cwd=tmp_path, stdin=subprocess.DEVNULL)  # fmt: skip
        deleted = run("delete", "greet", "--yes")

    assert validated.returncode == 0 and json.loads(validated.stdout)["valid"] is True
    assert (
        invalid.returncode == 1 and f"{broken}:4:" in invalid.stdout and "extra" in invalid.stdout
    )
    user_error(refused, 1, "not a valid tool file", f"{broken}:4: unknown key 'extra'")
    assert pushed.returncode == 0 and "saved as version 1" in pushed.stdout
    assert json.loads(pushed_again.stdout)["version"] == 1  # unchanged: no new version
    assert json.loads(pushed_again.stdout)["unchanged"] is True
    assert "saved as version 2" in changed.stdout
    assert [v["version"] for v in versions] == [2, 1]
    assert '-    return {"success": True, "message": "hello "' in diff.stdout
    assert '+    return {"success": True, "message": "hi "' in diff.stdout
    assert pulled.returncode == 0 and (tmp_path / "pulled.py").read_text() == GREET
    assert json.loads(rolled.stdout)["version"] == 3
    assert tested.returncode == 0 and json.loads(tested.stdout)["result"]["message"] == "hello Ada"
    assert tail.returncode == 0, tail_errors
    assert "greet v3  ok" in tailed and "test run" in tailed  # `quiver logs tail`
    assert failed_test.returncode == 1 and "invalid_arguments" in failed_test.stdout
    assert "greet" in {t["name"] for t in listed}
    assert "disabled" in disabled.stdout and "enabled" in enabled.stdout
    user_error(not_asked, 2, "--yes")
    assert deleted.returncode == 0


def test_user_errors_are_one_line_and_a_documented_exit_code(tmp_path: Path) -> None:
    tool = tmp_path / "greet.py"
    tool.write_text(GREET)
    body = tmp_path / "body.json"
    body.write_text("{not json")
    env = {k: v for k, v in _env(tmp_path / "data").items()}
    with demo_server(tmp_path) as (base, lines):
        env.update(QUIVER_URL=base, QUIVER_KEY=_key(lines, "developer"))

        def run(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
            return quiver(*args, env={**env, **extra}, cwd=tmp_path)

        no_key = run("tools", "list", QUIVER_KEY="")
        wrong_key = run("tools", "list", QUIVER_KEY="qk_nope_nope")
        agent_key = run("tools", "list", QUIVER_KEY=_key(lines, "agent"))
        unknown_tool = run("tools", "versions", "nope")
        bad_arguments = run("tools", "test", "check_order", "--arguments", "{oops")
        missing_file = run("tools", "push", str(tmp_path / "missing.py"))
        bad_json_file = run("tools", "push", str(body))
        bad_option = run("tools", "list", "--colour")
        admin_only = run("allowlist", "set", "demo", "x")
    unreachable = quiver("tools", "list", env={**env, "QUIVER_URL": base}, cwd=tmp_path)

    user_error(no_key, 4, "QUIVER_KEY")
    user_error(wrong_key, 4, "invalid or revoked")
    user_error(agent_key, 4, "developer")
    user_error(unknown_tool, 5, "not found")
    user_error(bad_arguments, 2, "--arguments")
    user_error(missing_file, 2, "missing.py")
    user_error(bad_json_file, 1, "not JSON")
    user_error(bad_option, 2, "--colour")
    user_error(admin_only, 4, "admin")
    user_error(unreachable, 3, "cannot reach the server")


def test_admin_commands_allowlist_limits_and_usage(tmp_path: Path) -> None:
    with demo_server(tmp_path) as (base, lines):
        env = {**_env(tmp_path / "data"), "QUIVER_URL": base, "QUIVER_KEY": _key(lines, "admin")}

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return quiver(*args, env=env, cwd=tmp_path)

        allowed = run("allowlist", "set", "demo", "escalate_to_human", "qa_lookup")
        shown = json.loads(run("allowlist", "show", "demo", "--json").stdout)
        limited = run("limits", "set", "demo", "--calls-per-day", "100", "--requests", "50/second")
        bad_rate = run("limits", "set", "demo", "--requests", "fast")
        used = json.loads(run("usage", "--tenant", "demo", "--json").stdout)
        reset = json.loads(run("limits", "set", "demo", "--reset", "--json").stdout)
        archive = tmp_path / "slug_kit-1.0.0-py3-none-any.whl"
        archive.write_bytes(wheel("slug-kit", "1.0.0", SLUGKIT))
        uploaded = json.loads(run("packages", "upload", str(archive), "--json").stdout)
        granted = run("packages", "grant", "demo", "slug-kit==1.0.0")
        bad_pin = run("packages", "grant", "demo", "slug-kit")
        held = run("packages", "delete", "slug-kit", "1.0.0")
        listed = json.loads(run("packages", "list", "--json").stdout)

    assert allowed.returncode == 0
    assert shown == ["escalate_to_human", "qa_lookup"]
    assert limited.returncode == 0 and '"calls_per_day": 100' in limited.stdout
    user_error(bad_rate, 1, "requests")
    assert used["limits"]["calls_per_day"] == 100 and used["limits"]["requests"] == "50/second"
    assert reset == {}
    assert uploaded["name"] == "slug-kit" and uploaded["modules"] == ["slugkit"]
    assert granted.returncode == 0 and "slug-kit==1.0.0" in granted.stdout
    user_error(bad_pin, 2, "NAME==VERSION")
    assert held.returncode != 0 and "granted to demo" in held.stderr
    assert [(p["name"], p["version"]) for p in listed] == [("slug-kit", "1.0.0")]


def test_restarting_the_demo_keeps_its_keys(tmp_path: Path) -> None:
    """MCP client configs and scripts hold the demo keys: a restart must not revoke them."""
    with demo_server(tmp_path) as (_, first):
        pass
    with demo_server(tmp_path) as (base, second):
        agent = _key(second, "agent")
        snapshot = httpx.get(
            f"{base}/v1/bots/support/snapshot", headers={"Authorization": f"Bearer {agent}"}
        )

    assert _key(first, "agent") == agent and _key(first, "developer") == _key(second, "developer")
    assert snapshot.status_code == 200
    assert oct((tmp_path / "data" / "demo-keys.json").stat().st_mode & 0o777) == "0o600"


def test_secrets_commands_never_show_a_value(tmp_path: Path) -> None:
    with demo_server(tmp_path) as (base, lines):
        env = {**_env(tmp_path / "data"), "QUIVER_URL": base, "QUIVER_KEY": _key(lines, "developer")}  # fmt: skip
        value = "crm-secret-value-123"
        set_ = subprocess.run([*QUIVER, "secrets", "set", "CRM_TOKEN"], input=value + "\n", env=env, capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
        (tmp_path / "token.txt").write_text("from-a-file-value\n")
        from_file = quiver("secrets", "set", "OTHER_KEY", "--from-file", str(tmp_path / "token.txt"), env=env, cwd=tmp_path)  # fmt: skip
        listed = quiver("secrets", "list", "--json", env=env, cwd=tmp_path)
        deleted = quiver("secrets", "delete", "OTHER_KEY", env=env, cwd=tmp_path)
        too_short = subprocess.run([*QUIVER, "secrets", "set", "TINY"], input="ab", env=env, capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    rotated = quiver("secrets", "rotate", env=_env(tmp_path / "data"), cwd=tmp_path)

    assert set_.returncode == 0 and from_file.returncode == 0, set_.stderr + from_file.stderr
    assert [s["name"] for s in json.loads(listed.stdout)] == ["CRM_TOKEN", "OTHER_KEY"]
    assert value not in listed.stdout + set_.stdout + set_.stderr
    assert deleted.returncode == 0
    user_error(too_short, 1, "value")
    assert rotated.returncode == 0 and "re-encrypted" in rotated.stdout


def test_datasets_push_and_javascript_tool_files(tmp_path: Path) -> None:
    """``datasets push`` streams a file and names a bad line; ``tools push``/``pull`` take a
    JavaScript tool file and give it back (one demo server for both)."""
    source = "module.exports = {name: 'greetJs', description: 'Greets', parameters: {who: {type: 'string'}}, execute: async (p) => ({hello: p.who || 'you'})};\n"  # fmt: skip
    (tmp_path / "greetJs.js").write_text(source)
    good = tmp_path / "answers.ndjson"  # the demo has a data set named faq
    good.write_text("".join(json.dumps({"id": f"q{i}", "question": f"question {i}?", "answer": "yes"}) + "\n" for i in range(2000)))  # fmt: skip
    bad = tmp_path / "broken.ndjson"
    bad.write_text(json.dumps({"id": "a", "question": "q?", "answer": "a"}) + "\n" + json.dumps({"id": "b", "question": "q?"}) + "\n")  # fmt: skip
    with demo_server(tmp_path) as (base, lines):
        env = {**_env(tmp_path / "data"), "QUIVER_URL": base, "QUIVER_KEY": _key(lines, "developer")}  # fmt: skip
        pushed = quiver("datasets", "push", str(good), "--kind", "faq", env=env, cwd=tmp_path)
        again = quiver("datasets", "push", str(good), "--json", env=env, cwd=tmp_path)
        refused = quiver("datasets", "push", str(bad), "--kind", "faq", env=env, cwd=tmp_path)
        listed = quiver("datasets", "list", "--json", env=env, cwd=tmp_path)
        js_pushed = quiver("tools", "push", str(tmp_path / "greetJs.js"), env=env, cwd=tmp_path)
        js_again = quiver("tools", "push", str(tmp_path / "greetJs.js"), env=env, cwd=tmp_path)
        js_pulled = quiver("tools", "pull", "greetJs", "-o", "-", env=env, cwd=tmp_path)

    assert js_pushed.returncode == 0, js_pushed.stderr
    assert "greetJs: saved as version 1" in js_pushed.stdout
    assert "unchanged at version 1" in js_again.stdout
    assert js_pulled.stdout == source
    assert pushed.returncode == 0, pushed.stderr
    assert "answers: version 1, 2000 items (faq)" in pushed.stdout
    assert "answers" in pushed.stderr  # the progress bar's label
    assert json.loads(again.stdout)["version"] == 2
    user_error(refused, 1, f"{bad}:2", "answer")
    assert [d["name"] for d in json.loads(listed.stdout)] == ["answers", "faq"]


def test_the_demo_admits_its_own_endpoint_for_the_demo_tenant_only(tmp_path: Path) -> None:
    with demo_server(tmp_path) as (base, lines):
        admin_key = (tmp_path / "data" / "admin-key").read_text().strip()
        admin = {"Authorization": f"Bearer {admin_key}"}
        demo_dev = {"Authorization": f"Bearer {_key(lines, 'developer')}"}
        httpx.post(f"{base}/v1/tenants", json={"id": "other", "name": "Other"}, headers=admin).raise_for_status()  # fmt: skip
        other = httpx.post(f"{base}/v1/tenants/other/keys", json={"role": "developer"}, headers=admin).json()["key"]  # fmt: skip
        webhook = {"kind": "webhook", "name": "peek", "description": "d", "method": "GET",
                   "parameters": {"type": "object", "properties": {}},
                   "webhook_url": f"{base}/demo/orders/AB1234"}  # fmt: skip
        tried = {}
        for who, headers in (("demo", demo_dev), ("other", {"Authorization": f"Bearer {other}"})):
            httpx.post(f"{base}/v1/tools", json=webhook, headers=headers).raise_for_status()
            tried[who] = httpx.post(f"{base}/v1/tools/peek/test", json={"arguments": {}}, headers=headers, timeout=30).json()  # fmt: skip
        tenant = httpx.get(f"{base}/v1/tenants/demo", headers=admin).json()

    port = base.rsplit(":", 1)[1]
    assert tried["demo"]["success"] is True, tried["demo"]
    assert tried["other"]["success"] is False and tried["other"]["error"]["code"] == "egress_denied"
    assert tenant["egress_allow"] == [f"127.0.0.1:{port}"]
    assert any(f"may reach 127.0.0.1:{port}" in line for line in lines)


def test_the_first_admin_key_is_kept_0600_and_boxed_on_a_terminal(tmp_path: Path) -> None:
    import pty

    env = _env(tmp_path / "data")
    quiver("db", "upgrade", env=env, cwd=tmp_path)
    plain = quiver("tenants", "create", "acme", env=env, cwd=tmp_path)
    kept = tmp_path / "data" / "admin-key"
    token = kept.read_text().strip()

    leader, follower = pty.openpty()
    boxed_env = _env(tmp_path / "boxed")
    quiver("db", "upgrade", env=boxed_env, cwd=tmp_path)
    done = subprocess.run([*QUIVER, "tenants", "create", "acme"], env=boxed_env, cwd=tmp_path,
                          stdout=subprocess.PIPE, stderr=follower, timeout=60)  # fmt: skip
    os.close(follower)
    shown = b""
    with contextlib.suppress(OSError):  # the terminal's end reads EIO once the writer is gone
        while chunk := os.read(leader, 65536):
            shown += chunk
    os.close(leader)
    boxed = shown.decode()

    assert plain.returncode == 0 and token.startswith("qk_") and token in plain.stderr
    assert f"kept in {kept} (mode 0600)" in plain.stderr and "┌" not in plain.stderr
    assert "quiver keys create --role admin" in plain.stderr
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    assert done.returncode == 0 and "┌" in boxed and "└" in boxed
    assert (tmp_path / "boxed" / "admin-key").read_text().strip() in boxed


def test_version_and_a_production_start_without_its_settings_is_refused(tmp_path: Path) -> None:
    env = _env(tmp_path / "data")
    version = quiver("--version", env=env, cwd=tmp_path)
    refused = quiver("serve", env={**env, "QUIVER_ENVIRONMENT": "production"}, cwd=tmp_path)
    demo_workers = quiver("serve", "--demo", "--workers", "2", env=env, cwd=tmp_path)

    assert version.returncode == 0 and version.stdout.startswith("quiver 0.")
    user_error(refused, 1, "QUIVER_ENVIRONMENT=production", "QUIVER_SECRET_KEY",
               "QUIVER_DATABASE_URL", "QUIVER_CORS_ORIGINS")  # fmt: skip
    assert not (tmp_path / "data").exists()  # refused before anything was created
    user_error(demo_workers, 2, "--demo runs one process")


def test_a_complete_production_configuration_has_nothing_unsafe() -> None:
    from server.preflight import listens_beyond_loopback, unsafe_for_production
    from server.settings import Settings

    complete = Settings(
        environment="production", secret_key="k" * 44, cors_origins="https://shop.example",
        database_url="postgresql+asyncpg://q@db/q", redis_url="redis://cache:6379/0",
    )  # fmt: skip

    assert unsafe_for_production(complete) == []
    assert unsafe_for_production(complete.model_copy(update={"redis_url": None})) == [
        "QUIVER_REDIS_URL is not set: on PostgreSQL every node would count request rates and "
        "quotas on its own"
    ]
    assert [listens_beyond_loopback(h) for h in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "10.1.2.3", "example.com")] == [False, False, False, True, True, True]  # fmt: skip


def test_import_openapi_makes_tools_and_says_what_it_left_out(tmp_path: Path) -> None:
    document = Path(__file__).parent / "data" / "openapi" / "mlserver-1.7.1-dataplane.json"
    with demo_server(tmp_path) as (base, lines):
        env = {**_env(tmp_path / "data"), "QUIVER_URL": base, "QUIVER_KEY": _key(lines, "developer")}  # fmt: skip
        dry = quiver("import", "openapi", str(document), "--server", "https://ml.example", "--dry-run", env=env, cwd=tmp_path)  # fmt: skip
        made = quiver("import", "openapi", str(document), "--server", "https://ml.example", "--prefix", "ml", "--json", env=env, cwd=tmp_path)  # fmt: skip
        bad_credential = quiver("import", "openapi", str(document), "--credential", "nokey", env=env, cwd=tmp_path)  # fmt: skip
        listed = json.loads(quiver("tools", "list", "--json", env=env, cwd=tmp_path).stdout)
        helped = quiver("import", "openapi", "--help", env=env, cwd=tmp_path)

    assert dry.returncode == 0, dry.stderr
    assert "would make 7 tools" in dry.stdout and "left out POST /v2/models/" in dry.stdout
    assert "unknown type 'bytes'" in dry.stdout
    answer = json.loads(made.stdout)
    assert made.returncode == 0 and len(answer["tools"]) == 7 and len(answer["skipped"]) == 8
    assert all(t["name"].startswith("ml_") for t in answer["tools"])
    assert {t["name"] for t in answer["tools"]} <= {t["name"] for t in listed}
    user_error(bad_credential, 2, "SCHEME=VALUE")
    assert (
        helped.returncode == 0 and "--operation" in helped.stdout and "--dry-run" in helped.stdout
    )


def test_every_command_says_what_it_does() -> None:
    """``--help`` on every command and group, each with a line of its own."""
    import click
    from click.testing import CliRunner

    from server.cli import cli

    def walk(group: click.Group, path: list[str]):
        for name, command in group.commands.items():
            yield [*path, name], command
            if isinstance(command, click.Group):
                yield from walk(command, [*path, name])

    runner = CliRunner()
    found = list(walk(cli, []))
    silent = [" ".join(p) for p, c in found if not (c.help or "").strip()]
    helped = [runner.invoke(cli, [*p, "--help"]) for p, _ in found]

    assert len(found) > 40 and silent == []
    assert all(h.exit_code == 0 and "Usage:" in h.output for h in helped)
