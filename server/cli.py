"""The ``quiver`` command line: serve, database, tenants, keys, tools, secrets."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

from server import logs
from server.settings import Settings


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {}
    for name in ("host", "port", "data_dir", "database_url"):
        value = getattr(args, name, None)
        if value is not None:
            overrides[name] = value
    if getattr(args, "demo", False):
        overrides["demo"] = True
    if getattr(args, "tools_dir", None) is not None:
        overrides["tools_dir"] = args.tools_dir
    if getattr(args, "watch", False):
        overrides["watch_tools"] = True
    return Settings(**overrides)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.api.app import create_app

    settings = _settings(args)
    logs.configure(settings.log_level)
    if not args.no_python_runner:
        _ensure_python_runner(settings)
    app = create_app(settings)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame) -> None:
            # uvicorn waits for open connections before the app's shutdown runs: end the event
            # streams first, or every attached agent would hold the shutdown up.
            runtime = getattr(app.state, "runtime", None)
            if runtime is not None:
                runtime.events.close()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None,  # uvicorn's loggers go through the JSON handler too
        proxy_headers=True,
        timeout_graceful_shutdown=10,
    )
    Server(config).run()
    return 0


def _ensure_python_runner(settings: Settings) -> None:
    """Build the Python WASM runner now if this node lacks it (once; printed as it goes)."""
    from sandbox.wasm.python import build

    try:
        build.ensure(settings.cache_dir, lambda line: print(line, file=sys.stderr, flush=True))
    except (RuntimeError, OSError) as exc:  # the rest of the server still works without it
        print(f"warning: {exc}", file=sys.stderr)


def cmd_wasm_runner(args: argparse.Namespace) -> int:
    from sandbox.wasm.python import build

    settings = Settings()
    build.build(settings.cache_dir, lambda line: print(line, flush=True), force=args.force)
    return 0


def cmd_sandbox_check(args: argparse.Namespace) -> int:
    """Start one sandbox worker as ``quiver serve`` would and report its isolation layers."""
    from sandbox.restricted.pool import WorkerPool
    from server import bootstrap, isolation

    async def layers() -> dict[str, str]:
        pool = WorkerPool(dataclasses.replace(bootstrap.pool_config(Settings()), size=1))
        try:
            await pool.start()
            return dict(pool.stats.layers)
        finally:
            await pool.close()

    found = asyncio.run(layers())
    print(json.dumps(found, indent=2))
    missing = isolation.inactive(found)
    if missing:
        print(f"inactive: {', '.join(missing)}. {isolation.HOW}", file=sys.stderr)
        return 1
    return 0


async def _with_runtime(settings: Settings, action):
    from server import bootstrap

    runtime = await bootstrap.start(settings)
    try:
        return await action(runtime)
    finally:
        await runtime.close()


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from server.storage import migrate
    from server.storage.database import create_engine

    async def run() -> None:
        engine = create_engine(_settings(args).effective_database_url)
        try:
            await migrate.upgrade(engine)
            print(f"schema at {await migrate.current_revision(engine)}")
        finally:
            await engine.dispose()

    asyncio.run(run())
    return 0


def cmd_tenants(args: argparse.Namespace) -> int:
    from server.api.views import tenant_public

    async def action(runtime):
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            if args.tenants_cmd == "create":
                row = await store.tenants.create(args.id, args.name or args.id)
                store.audit.record("cli", row.id, "tenant.create", row.id)
                return tenant_public(row)
            return [tenant_public(r) for r in await store.tenants.list()]

    print(json.dumps(asyncio.run(_with_runtime(_settings(args), action)), indent=2))
    return 0


def cmd_keys(args: argparse.Namespace) -> int:
    async def action(runtime):
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            if args.keys_cmd == "revoke":
                await store.keys.revoke(args.id)
                store.audit.record("cli", None, "key.revoke", args.id)
                return {"revoked": args.id}
            tenant = None if args.role == "admin" else args.tenant
            if tenant is None and args.role != "admin":
                raise SystemExit("--tenant is required for developer and agent keys")
            if tenant is not None:
                await store.tenants.get(tenant)
            row, key = await store.keys.create(args.role, tenant, args.label or "")
            store.audit.record("cli", tenant, "key.create", row.id, {"role": args.role})
            return {"id": row.id, "role": row.role, "tenant": tenant, "key": key.token}

    print(json.dumps(asyncio.run(_with_runtime(_settings(args), action)), indent=2))
    return 0


def cmd_secrets_rotate(args: argparse.Namespace) -> int:
    async def action(runtime):
        async with runtime.sessions() as session, session.begin():
            return await runtime.store(session).tools.rotate_secrets()

    print(
        f"re-encrypted {asyncio.run(_with_runtime(_settings(args), action))} secrets with the newest key"
    )
    return 0


def _client(args: argparse.Namespace):
    import httpx

    key = args.key or os.environ.get("QUIVER_KEY")
    if not key:
        raise SystemExit("pass --key or set QUIVER_KEY")
    url = args.url or os.environ.get("QUIVER_URL", "http://127.0.0.1:8000")
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30)


def _tool_body(path: Path, sandbox: str) -> dict[str, Any]:
    if path.suffix == ".json":
        return json.loads(path.read_text())
    return {"kind": "python", "sandbox": sandbox, "source": path.read_text()}


def cmd_tools(args: argparse.Namespace) -> int:
    with _client(args) as client:
        if args.tools_cmd == "list":
            response = client.get("/v1/tools")
        elif args.tools_cmd == "validate":
            response = client.post(
                "/v1/tools/validate", json=_tool_body(Path(args.file), args.sandbox)
            )
        elif args.tools_cmd == "test":
            response = client.post(
                f"/v1/tools/{args.name}/test", json={"arguments": json.loads(args.arguments)}
            )
        else:
            body = _tool_body(Path(args.file), args.sandbox)
            check = client.post("/v1/tools/validate", json=body)
            if check.status_code == 200 and not check.json().get("valid"):
                print(json.dumps(check.json(), indent=2))
                return 1
            name = body.get("name") or _name_from_validation(client, body)
            response = client.put(f"/v1/tools/{name}", json=body)
    print(json.dumps(response.json(), indent=2) if response.content else response.status_code)
    return 0 if response.is_success else 1


def _name_from_validation(client, body: dict[str, Any]) -> str:
    from sandbox.toolfile import parse_tool_file

    specs, _ = parse_tool_file(body.get("source", ""))
    if len(specs) != 1:
        raise SystemExit("the file must declare exactly one tool")
    return str(specs[0].name)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quiver", description="Quiver: a registry and sandboxed runner of tools for LLM agents"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def with_db(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--data-dir", type=Path, default=None)
        p.add_argument("--database-url", default=None)
        return p

    serve = with_db(sub.add_parser("serve", help="run the HTTP server"))
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument(
        "--demo", action="store_true", help="seed a demo tenant, keys, a bot and example tools"
    )
    serve.add_argument("--tools-dir", type=Path, default=None, help="a folder of global tool files")
    serve.add_argument(
        "--watch", action="store_true", help="development: reload the tools folder on every change"
    )
    serve.add_argument(
        "--no-python-runner",
        action="store_true",
        help="do not build the Python WASM runner at start if it is missing",
    )
    serve.set_defaults(func=cmd_serve)

    check = sub.add_parser(
        "sandbox-check",
        help="start a sandbox worker and report its isolation layers (exit 1 if one is inactive)",
    )
    check.set_defaults(func=cmd_sandbox_check)

    runner = sub.add_parser(
        "wasm-runner", help="build the Python WASM runner now (cached; `serve` does it if missing)"
    )
    runner.add_argument("--force", action="store_true", help="rebuild even if cached")
    runner.set_defaults(func=cmd_wasm_runner)

    db = sub.add_parser("db", help="database schema").add_subparsers(dest="db_cmd", required=True)
    with_db(db.add_parser("upgrade", help="apply migrations up to head")).set_defaults(
        func=cmd_db_upgrade
    )

    tenants = sub.add_parser("tenants", help="manage tenants").add_subparsers(
        dest="tenants_cmd", required=True
    )
    create = with_db(tenants.add_parser("create"))
    create.add_argument("id")
    create.add_argument("--name", default=None)
    create.set_defaults(func=cmd_tenants)
    with_db(tenants.add_parser("list")).set_defaults(func=cmd_tenants)

    keys = sub.add_parser("keys", help="manage API keys").add_subparsers(
        dest="keys_cmd", required=True
    )
    kcreate = with_db(keys.add_parser("create"))
    kcreate.add_argument("--role", choices=("admin", "developer", "agent"), required=True)
    kcreate.add_argument("--tenant", default=None)
    kcreate.add_argument("--label", default=None)
    kcreate.set_defaults(func=cmd_keys)
    krevoke = with_db(keys.add_parser("revoke"))
    krevoke.add_argument("id")
    krevoke.set_defaults(func=cmd_keys)

    secrets_ = sub.add_parser("secrets", help="stored secrets").add_subparsers(
        dest="secrets_cmd", required=True
    )
    with_db(
        secrets_.add_parser("rotate", help="re-encrypt every secret with the newest key")
    ).set_defaults(func=cmd_secrets_rotate)

    tools = sub.add_parser(
        "tools", help="tools, over the HTTP API (QUIVER_URL, QUIVER_KEY)"
    ).add_subparsers(dest="tools_cmd", required=True)
    for name in ("push", "validate", "list", "test"):
        p = tools.add_parser(name)
        p.add_argument("--url", default=None)
        p.add_argument("--key", default=None)
        if name in ("push", "validate"):
            p.add_argument("file", help="a tool file (.py) or a JSON body (.json)")
            p.add_argument("--sandbox", default="restricted", choices=("restricted", "wasm"))
        if name == "test":
            p.add_argument("name")
            p.add_argument("--arguments", default="{}")
        p.set_defaults(func=cmd_tools)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
