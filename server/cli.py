"""The ``quiver`` command line.

Two kinds of commands. Server-side ones work on this machine's database (``serve``, ``db``,
``tenants``, ``keys``, ``secrets``): they say which database they use and never create one
silently (only ``serve`` and ``db upgrade`` create it). API ones talk to a running server through
``quiver.client`` (``tools``, ``allowlist``, ``limits``, ``usage``): ``--url`` / ``QUIVER_URL``,
``--key`` / ``QUIVER_KEY``, ``--tenant`` for admins, ``--json`` for machine-readable output.

No user error prints a traceback: one line saying what went wrong (the fields or lines at fault
below it), and an exit code a CI job can act on (``EXIT_CODES``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import difflib
import functools
import gc
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tarfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import click
import pydantic

from quiver.client import ApiError, Quiver, Tool, Unreachable
from server import first_key, logs
from server.settings import Settings
from server.version import VERSION

EXIT_OK = 0
EXIT_REFUSED = 1  # the server refused the request, a tool file is invalid, a tested tool failed
EXIT_USAGE = 2  # bad options or arguments, an unreadable file
EXIT_UNREACHABLE = 3  # no server at the URL, or the database cannot be reached; a 5xx answer
EXIT_AUTH = 4  # no key, a wrong or revoked key, or a key without the role this needs
EXIT_NOT_FOUND = 5  # no such tool, version, tenant or key
EXIT_CONFLICT = 6  # someone else changed it first, or it already exists
EXIT_CODES = {
    EXIT_OK: "success",
    EXIT_REFUSED: "refused: invalid input or tool file, or a tested tool failed",
    EXIT_USAGE: "usage error: bad options or arguments, unreadable file",
    EXIT_UNREACHABLE: "the server or the database cannot be reached (or answered 5xx)",
    EXIT_AUTH: "missing, invalid or insufficient API key",
    EXIT_NOT_FOUND: "not found",
    EXIT_CONFLICT: "conflict: already exists or changed concurrently",
}


class Failed(click.ClickException):
    """A user-facing failure: a message (and detail lines) and its exit code."""

    def __init__(self, message: str, code: int, details: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.exit_code = code  # type: ignore[misc]  # click reads it to exit the process
        self.details = list(details)

    def show(self, file: Any = None) -> None:
        click.echo(f"quiver: {self.message}", err=True)
        for line in self.details:
            click.echo(f"  {line}", err=True)


def _api_failure(exc: ApiError, source: str | None = None) -> Failed:
    code = {401: EXIT_AUTH, 403: EXIT_AUTH, 404: EXIT_NOT_FOUND, 409: EXIT_CONFLICT}.get(
        exc.status, EXIT_UNREACHABLE if exc.status >= 500 else EXIT_REFUSED
    )
    details = [_problem_line(p.line, p.field, p.message, source) for p in exc.errors]
    if exc.retry_after is not None:
        details.append(f"retry after {exc.retry_after:g} s")
    return Failed(f"{exc.detail} ({exc.status} {exc.code})", code, details)


def _problem_line(line: int | None, field: str | None, message: str, source: str | None) -> str:
    where = f"{source}:{line}" if source and line else f"line {line}" if line else field or ""
    return f"{where}: {message}" if where else message


# output -----------------------------------------------------------------------------------------
def _emit(as_json: bool, value: Any, human: Callable[[], None]) -> None:
    if as_json:
        click.echo(json.dumps(_plain(value), indent=2, sort_keys=True))
    else:
        human()


def _plain(value: Any) -> Any:
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _table(headers: list[str], rows: list[list[Any]]) -> None:
    cells = [headers, *[[("" if c is None else str(c)) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for row in cells:
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


# the API commands' options --------------------------------------------------------------------
def api_command(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--url``, ``--key``, ``--tenant`` and ``--json``; the function gets a ``Quiver`` client."""

    @click.option(
        "--url",
        envvar="QUIVER_URL",
        default="http://127.0.0.1:8000",
        show_default=True,
        help="the server (QUIVER_URL)",
    )
    @click.option("--key", envvar="QUIVER_KEY", default=None, help="an API key (QUIVER_KEY)")
    @click.option("--tenant", default=None, help="admins: the tenant to act for (* = global)")
    @click.option("--json", "as_json", is_flag=True, help="print JSON")
    @functools.wraps(func)
    def wrapper(url: str, key: str | None, tenant: str | None, as_json: bool, **kwargs: Any) -> Any:
        if not key:
            raise Failed("no API key: pass --key or set QUIVER_KEY", EXIT_AUTH)
        with Quiver(url, key, tenant=tenant) as client:
            try:
                return func(client, as_json, **kwargs)
            except ApiError as exc:
                raise _api_failure(exc, kwargs.get("file") and str(kwargs["file"])) from None
            except Unreachable as exc:
                raise Failed(f"cannot reach the server: {exc}", EXIT_UNREACHABLE) from None

    return wrapper


def _json_option(value: str | None, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint=name) from None
    if not isinstance(parsed, dict):
        raise click.BadParameter("must be a JSON object", param_hint=name)
    return parsed


def _read_text(path: Path) -> str:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise Failed(f"cannot read {path}: {exc}", EXIT_USAGE) from None


def _tool_body(path: Path, sandbox: str) -> dict[str, Any]:
    """A tool file (``.py``, ``.js``) or a JSON body (``.json``) as the API's tool body."""
    text = _read_text(path)
    if path.suffix == ".js":
        return {"kind": "javascript", "source": text}
    if path.suffix != ".json":
        return {"kind": "python", "sandbox": sandbox, "source": text}
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Failed(f"{path}:{exc.lineno}: not JSON: {exc.msg}", EXIT_REFUSED) from None
    if not isinstance(body, dict):
        raise Failed(f"{path}: must hold a JSON object (a tool body)", EXIT_REFUSED)
    return body


def _tool_name(path: Path, body: dict[str, Any]) -> str:
    name = body.get("name")
    if isinstance(name, str):
        return name
    if body.get("kind") == "javascript":  # a JavaScript file declares the tool named after it
        return path.stem
    from sandbox.toolfile import parse_tool_file

    specs, violations = parse_tool_file(body.get("source") or "")
    names = [str(s.name) for s in specs if isinstance(s.name, str)]
    if violations:
        details = [_problem_line(v.line, v.field, v.message, str(path)) for v in violations]
        raise Failed(f"{path} is not a valid tool file", EXIT_REFUSED, details)
    if len(names) != 1:
        raise Failed(f"{path} must declare exactly one tool (found {len(names)})", EXIT_REFUSED)
    return names[0]


# the command tree -------------------------------------------------------------------------------
@click.group(
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="Exit codes: " + "; ".join(f"{k} {v}" for k, v in EXIT_CODES.items()),
)
@click.version_option(
    VERSION, "--version", "-V", prog_name="quiver", message="%(prog)s %(version)s"
)
def cli() -> None:
    """Quiver: a registry and sandboxed runner of tools for LLM agents."""


def database_options(func: Callable[..., Any]) -> Callable[..., Any]:
    func = click.option(
        "--database-url",
        envvar="QUIVER_DATABASE_URL",
        default=None,
        help="SQLAlchemy URL (QUIVER_DATABASE_URL); default: SQLite in the data dir",
    )(func)
    return click.option(
        "--data-dir",
        envvar="QUIVER_DATA_DIR",
        type=click.Path(path_type=Path),
        default=None,
        help="the data folder (QUIVER_DATA_DIR; default ./.quiver)",
    )(func)


def _settings(**overrides: Any) -> Settings:
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        return Settings(**given)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise Failed(f"invalid setting {field}: {first['msg']}", EXIT_USAGE) from None


def _database(settings: Settings, *, create: bool) -> None:
    """Say which database this command uses; refuse to create one unless ``create``."""
    url = settings.effective_database_url
    shown = url
    if not settings.is_sqlite:
        from sqlalchemy.engine import make_url

        shown = make_url(url).render_as_string(hide_password=True)
    click.echo(f"database: {shown}", err=True)
    if settings.is_sqlite and not create:
        path = Path(url.split("///", 1)[1])
        if not path.exists():
            raise Failed(
                f"no database at {path}: run this in the folder that has one, pass --data-dir or "
                "--database-url, or create it with `quiver db upgrade`",
                EXIT_USAGE,
            )


def _run(coroutine: Any) -> Any:
    from sqlalchemy.exc import DBAPIError

    from server.errors import QuiverError

    try:
        return asyncio.run(coroutine)
    except QuiverError as exc:
        code = {401: EXIT_AUTH, 403: EXIT_AUTH, 404: EXIT_NOT_FOUND, 409: EXIT_CONFLICT}.get(
            exc.status, EXIT_REFUSED
        )
        raise Failed(exc.detail, code) from None
    except (DBAPIError, OSError) as exc:
        raise Failed(
            f"cannot use the database: {str(exc).splitlines()[0]}", EXIT_UNREACHABLE
        ) from None


async def _with_runtime(settings: Settings, action: Callable[[Any], Any]) -> Any:
    """This machine's database for the local commands: migrated as ``serve`` would, without the
    server's engines, pools or caches (a command starts in a fraction of the time)."""
    from types import SimpleNamespace

    from server import bootstrap
    from server.storage import migrate
    from server.storage.database import create_engine, session_factory
    from server.storage.repositories import Store

    engine = create_engine(settings.effective_database_url)
    try:
        if settings.auto_migrate:
            await migrate.upgrade(engine)
        sessions = session_factory(engine)
        box = bootstrap.load_secret_box(settings)
        local = SimpleNamespace(
            settings=settings,
            sessions=sessions,
            store=lambda session: Store(session, box, sessions),
        )
        token = await bootstrap.ensure_admin_key(local)  # type: ignore[arg-type]
        if token is not None:  # stdout is the command's own output
            kept = first_key.keep(token, settings.data_dir)
            click.echo(first_key.announcement(kept, sys.stderr.isatty()), err=True)
        return await action(local)
    finally:
        await engine.dispose()


# serve, sandbox check, runner, database ---------------------------------------------------------
@cli.command()
@database_options
@click.option("--host", default=None, help="address to listen on (default 127.0.0.1)")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="port (default 8000)")
@click.option("--demo", is_flag=True, help="seed a demo tenant, keys, a bot and example tools")
@click.option(
    "--tools-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="a folder of global tool files",
)
@click.option("--watch", is_flag=True, help="development: reload the tools folder on every change")
@click.option(
    "--no-python-runner",
    is_flag=True,
    help="do not build the Python WASM runner at start if it is missing",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="serving processes behind the port, each a node (PostgreSQL; SQLite is served by one)",
)
def serve(
    data_dir: Path | None,
    database_url: str | None,
    host: str | None,
    port: int | None,
    demo: bool,
    tools_dir: Path | None,
    watch: bool,
    no_python_runner: bool,
    workers: int,
) -> None:
    """Run the HTTP server (creates the database on first start)."""
    import uvicorn

    from server.api.app import create_app
    from server.api.http_protocol import OneWriteHttpTools

    settings = _settings(
        data_dir=data_dir,
        database_url=database_url,
        host=host,
        port=port,
        demo=demo or None,
        tools_dir=tools_dir,
        watch_tools=watch or None,
    )
    logs.configure(settings.log_level)
    if workers > 1 and settings.demo:
        raise Failed("--demo runs one process: leave out --workers", EXIT_USAGE)
    _preflight(settings)
    _database(settings, create=True)
    if not no_python_runner:
        _ensure_python_runner(settings)
    if workers > 1 and settings.is_sqlite:
        click.echo(
            "warning: SQLite is served by one process (one writer): --workers ignored; "
            "several processes need PostgreSQL",
            err=True,
        )
    elif workers > 1:
        options = {
            "data_dir": data_dir,
            "database_url": database_url,
            "host": host,
            "port": port,
            "demo": demo,
            "tools_dir": tools_dir,
            "watch": watch,
        }
        sys.exit(_supervise(settings, options, workers))
    app = create_app(settings)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            # uvicorn waits for open connections before the app's shutdown runs: end the event
            # streams first, or every attached agent would hold the shutdown up.
            runtime = getattr(app.state, "runtime", None)
            if runtime is not None:
                runtime.events.close()
            super().handle_exit(sig, frame)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            # What startup built (modules, the registry, the SDKs' types) lives as long as the
            # process: out of the collector's sight, a full collection no longer walks it on
            # the request path (measured: ~0.3 s pauses, ~36 us per call on average, gone).
            gc.collect()
            gc.freeze()

    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None,  # uvicorn's loggers go through the JSON handler too
        proxy_headers=True,
        timeout_graceful_shutdown=10,
        http=OneWriteHttpTools.bounded(_connection_cap(settings.max_connections)),
    )
    if settings.session_marks:  # one of `serve --workers N`'s processes: the port is shared
        from server.serving import reuse_port_socket

        Server(config).run(sockets=[reuse_port_socket(settings.host, settings.port)])
        return
    Server(config).run()


def _supervise(settings: Settings, options: dict[str, Any], workers: int) -> int:
    """``serve --workers N``: the processes, their shared session marks, their supervisor."""
    import os

    from server.calls.session_marks import SharedMarks, shared_directory
    from server.serving import Supervisor, child_command, remove

    marks = SharedMarks.create(shared_directory())
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host  # noqa: S104
    host = f"[{host}]" if ":" in host else host
    try:
        return Supervisor(
            command=child_command(options),
            env={**os.environ, "QUIVER_SESSION_MARKS": str(marks)},
            workers=workers,
            ready_url=f"http://{host}:{settings.port}/readyz",
            say=lambda line: click.echo(line, err=True),
        ).run()
    finally:
        remove(marks)


def _preflight(settings: Settings) -> None:
    """Refuse a production start without what production needs; warn a development node that
    others can reach."""
    from server import preflight

    problems = preflight.unsafe_for_production(settings)
    if settings.environment == "production" and problems:
        raise Failed(
            "refusing to start with QUIVER_ENVIRONMENT=production (docs/deploy.md):",
            EXIT_REFUSED,
            problems,
        )
    if problems and not settings.demo and preflight.listens_beyond_loopback(settings.host):
        click.echo(
            f"warning: listening on {settings.host} as a development node; production "
            f"(QUIVER_ENVIRONMENT=production) would refuse: {'; '.join(problems)}",
            err=True,
        )


def _connection_cap(wanted: int) -> int:
    """The connections this process may hold: ``wanted``, within the files it may open (its
    soft limit raised to the hard one first), less room for its own files and sockets."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):  # not allowed: the soft limit stands
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    room = soft - 256 if soft != resource.RLIM_INFINITY else wanted
    if room < wanted:
        click.echo(f"warning: {room} connections at most (open files: {soft})", err=True)
    return max(16, min(wanted, room))


def _ensure_python_runner(settings: Settings) -> None:
    """Build the Python WASM runner now if this node lacks it (once; printed as it goes)."""
    from sandbox.wasm.python import build

    try:
        build.ensure(settings.cache_dir, lambda line: click.echo(line, err=True))
    except (RuntimeError, OSError) as exc:  # the rest of the server still works without it
        click.echo(f"warning: {exc}", err=True)


@cli.command("wasm-runner")
@click.option("--force", is_flag=True, help="rebuild even if cached")
def wasm_runner(force: bool) -> None:
    """Build the Python WASM runner and compile QuickJS now (cached; `serve` does it if missing)."""
    from sandbox.wasm.javascript import build as quickjs
    from sandbox.wasm.python import build

    try:
        build.build(Settings().cache_dir, click.echo, force=force)
        click.echo(f"QuickJS for JavaScript tools: {quickjs.ensure(Settings().cache_dir)}")
    except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        raise Failed(f"cannot build the WASM runners: {exc}", EXIT_REFUSED) from None


@cli.command("sandbox-check")
def sandbox_check() -> None:
    """Start one sandbox worker as `serve` would and report its isolation layers (exit 1 if one
    is inactive)."""
    from sandbox.pool import WorkerPool
    from server import bootstrap, isolation

    async def layers() -> dict[str, str]:
        pool = WorkerPool(dataclasses.replace(bootstrap.pool_config(Settings()), size=1, spares=0))
        try:
            await pool.start()
            return dict(pool.stats.layers)
        finally:
            await pool.close()

    found = asyncio.run(layers())
    click.echo(json.dumps(found, indent=2))
    missing = isolation.inactive(found)
    if missing:
        raise Failed(f"inactive: {', '.join(missing)}. {isolation.HOW}", EXIT_REFUSED)


@cli.group()
def db() -> None:
    """The database schema."""


@db.command("upgrade")
@database_options
def db_upgrade(data_dir: Path | None, database_url: str | None) -> None:
    """Apply migrations up to head (creates the SQLite database if it is not there)."""
    from server.storage import migrate
    from server.storage.database import create_engine

    settings = _settings(data_dir=data_dir, database_url=database_url)
    _database(settings, create=True)
    if settings.is_sqlite:
        settings.data_dir.mkdir(parents=True, exist_ok=True)

    async def run() -> str:
        engine = create_engine(settings.effective_database_url)
        try:
            await migrate.upgrade(engine)
            return await migrate.current_revision(engine) or ""
        finally:
            await engine.dispose()

    click.echo(f"schema at {_run(run())}")


@cli.command("migrate")
@database_options
@click.option("--check", is_flag=True, help="say what an upgrade would apply; change nothing")
@click.option("--downgrade", is_flag=True, help="undo the newest migration (asks first)")
@click.option("--yes", is_flag=True, help="do not ask before a downgrade")
def migrate_command(
    data_dir: Path | None, database_url: str | None, check: bool, downgrade: bool, yes: bool
) -> None:
    """Bring the schema to this release's (as a start does). --check lists what that would
    apply, exit 1 if anything; --downgrade undoes the newest migration."""
    from server.storage import migrate
    from server.storage.backup import node_running
    from server.storage.database import create_engine, local_file

    settings = _settings(data_dir=data_dir, database_url=database_url)
    if check and downgrade:
        raise click.BadParameter("choose one", param_hint="--check / --downgrade")
    _database(settings, create=not (check or downgrade))
    if settings.is_sqlite:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    database_file = local_file(settings.effective_database_url)
    if downgrade and database_file is not None and node_running(database_file):
        raise Failed("a node is running on this database: stop it before a downgrade", EXIT_REFUSED)
    if downgrade and not yes:
        click.confirm("undo the newest migration? (what it added is dropped)", abort=True)

    async def run() -> tuple[str | None, list[tuple[str, str]], tuple[str, str | None] | None]:
        engine = create_engine(settings.effective_database_url)
        try:
            if downgrade:
                return None, [], await migrate.downgrade_one(engine)
            todo = await migrate.pending(engine)
            if not check:
                await migrate.upgrade(engine)
            return await migrate.current_revision(engine), todo, None
        finally:
            await engine.dispose()

    try:
        current, todo, undone = _run(run())
    except ValueError as exc:
        raise Failed(f"cannot downgrade: {exc}", EXIT_REFUSED) from None
    if undone is not None:
        click.echo(f"undid {undone[0]}; schema at {undone[1]}")
        return
    for revision, doc in todo:
        click.echo(f"{'would apply' if check else 'applied'} {revision}: {doc}")
    if check:
        click.echo(f"schema at {current or 'none'}; head {migrate.head_revision()}")
        if todo:
            raise Failed(f"{len(todo)} migration(s) pending", EXIT_REFUSED)
    else:
        click.echo(f"schema at {current}")


@cli.command("backup")
@database_options
@click.argument("target", type=click.Path(path_type=Path, dir_okay=False))
def backup_command(data_dir: Path | None, database_url: str | None, target: Path) -> None:
    """Copy the embedded SQLite database to TARGET while the node runs (consistent: SQLite's
    backup API), with the generated secret key beside it. PostgreSQL: use pg_dump."""
    from server.storage import backup

    settings = _settings(data_dir=data_dir, database_url=database_url)
    database = _sqlite_file(settings, "backup")
    _database(settings, create=False)
    key = settings.data_dir / "secret.key" if settings.secret_key is None else None
    try:
        copied = backup.backup(database, target, key)
    except (backup.BackupError, OSError, sqlite3.Error) as exc:
        raise Failed(f"cannot back up: {exc}", EXIT_REFUSED) from None
    size = f"{copied.bytes} bytes, schema {copied.revision}"
    click.echo(f"backed up {database} to {copied.path} ({size})")
    if copied.key:
        click.echo(
            f"the secret key that seals its tenant secrets: {copied.key} (keep them together)"
        )
    elif settings.secret_key is not None:
        click.echo("its tenant secrets are sealed with QUIVER_SECRET_KEY: keep that key too")


@cli.command("restore")
@database_options
@click.argument("source", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--yes", is_flag=True, help="do not ask before replacing the database")
def restore_command(
    data_dir: Path | None, database_url: str | None, source: Path, yes: bool
) -> None:
    """Replace the embedded SQLite database with a backup (the node must be stopped; what was
    there is moved aside, never deleted). PostgreSQL: use pg_restore."""
    from server.storage import backup

    settings = _settings(data_dir=data_dir, database_url=database_url)
    database = _sqlite_file(settings, "restore")
    click.echo(f"database: {database}", err=True)
    if database.exists() and not yes:
        click.confirm(f"replace {database} with {source}?", abort=True)
    key = settings.data_dir / "secret.key" if settings.secret_key is None else None
    try:
        restored = backup.restore(source, database, settings.data_dir / "call-log", key)
    except (backup.BackupError, OSError, sqlite3.Error) as exc:
        raise Failed(f"cannot restore: {exc}", EXIT_REFUSED) from None
    later = "the next start migrates it if it is older"
    click.echo(f"restored {source} to {restored.path} (schema {restored.revision}; {later})")
    if restored.key:
        click.echo(f"with its secret key: {restored.key}")


def _sqlite_file(settings: Settings, verb: str) -> Path:
    if not settings.is_sqlite:
        tool = "pg_dump -Fc" if verb == "backup" else "pg_restore"
        raise Failed(
            f"{verb} works on the embedded SQLite database; for PostgreSQL use {tool} "
            "(docs/deploy.md)",
            EXIT_USAGE,
        )
    return Path(settings.effective_database_url.split("///", 1)[1])


# tenants and keys, on this machine's database ---------------------------------------------------
@cli.group()
def tenants() -> None:
    """Tenants, in this machine's database (admins elsewhere: the API)."""


@tenants.command("create")
@database_options
@click.argument("tenant_id")
@click.option("--name", default="", help="a display name (default: the id)")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def tenants_create(
    data_dir: Path | None, database_url: str | None, tenant_id: str, name: str, as_json: bool
) -> None:
    """Create a tenant (the id follows the API's rule: a-z, 0-9, _ and -, at most 64)."""
    from server.api.views import TenantCreate, tenant_public

    try:
        body = TenantCreate(id=tenant_id, name=name)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        raise Failed(f"invalid tenant {first['loc'][0]}: {first['msg']}", EXIT_REFUSED) from None
    settings = _settings(data_dir=data_dir, database_url=database_url)
    _database(settings, create=False)

    async def action(runtime: Any) -> dict[str, Any]:
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            row = await store.tenants.create(body.id, body.name or body.id)
            store.audit.record("cli", row.id, "tenant.create", row.id)
            return tenant_public(row)

    created = _run(_with_runtime(settings, action))
    _emit(as_json, created, lambda: click.echo(f"created tenant {created['id']}"))


@tenants.command("list")
@database_options
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def tenants_list(data_dir: Path | None, database_url: str | None, as_json: bool) -> None:
    """List the tenants."""
    from server.api.views import tenant_public

    settings = _settings(data_dir=data_dir, database_url=database_url)
    _database(settings, create=False)

    async def action(runtime: Any) -> list[dict[str, Any]]:
        async with runtime.sessions() as session, session.begin():
            return [tenant_public(r) for r in await runtime.store(session).tenants.list()]

    rows = _run(_with_runtime(settings, action))
    _emit(
        as_json,
        rows,
        lambda: _table(
            ["ID", "NAME", "SHARED TOOLS"],
            [[r["id"], r["name"], ",".join(r["shared_tools"])] for r in rows],
        ),
    )


@cli.group()
def keys() -> None:
    """API keys, in this machine's database."""


@keys.command("create")
@database_options
@click.option("--role", type=click.Choice(["admin", "developer", "agent"]), required=True)
@click.option("--tenant", default=None, help="the tenant (developer and agent keys)")
@click.option("--label", default="")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def keys_create(
    data_dir: Path | None,
    database_url: str | None,
    role: str,
    tenant: str | None,
    label: str,
    as_json: bool,
) -> None:
    """Create a key; its secret is printed once."""
    if role != "admin" and tenant is None:
        raise click.BadParameter("is required for developer and agent keys", param_hint="--tenant")
    if role == "admin" and tenant is not None:
        raise click.BadParameter("admin keys belong to no tenant", param_hint="--tenant")
    settings = _settings(data_dir=data_dir, database_url=database_url)
    _database(settings, create=False)

    async def action(runtime: Any) -> dict[str, Any]:
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            if tenant is not None:
                await store.tenants.get(tenant)
            row, key = await store.keys.create(role, tenant, label)
            store.audit.record("cli", tenant, "key.create", row.id, {"role": role})
            return {"id": row.id, "role": row.role, "tenant": tenant, "key": key.token}

    created = _run(_with_runtime(settings, action))
    _emit(as_json, created, lambda: click.echo(f"{role} key {created['id']}: {created['key']}"))


@keys.command("revoke")
@database_options
@click.argument("key_id")
def keys_revoke(data_dir: Path | None, database_url: str | None, key_id: str) -> None:
    """Revoke a key at once on this node (other nodes within their key cache's lifetime)."""
    settings = _settings(data_dir=data_dir, database_url=database_url)
    _database(settings, create=False)

    async def action(runtime: Any) -> None:
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            await store.keys.revoke(key_id)
            store.audit.record("cli", None, "key.revoke", key_id)

    _run(_with_runtime(settings, action))
    click.echo(f"revoked {key_id}")


@cli.group()
def secrets() -> None:
    """Secrets code tools read as context.secrets (set, list, delete: over the API; rotate: this
    machine's database)."""


@secrets.command("set")
@click.argument("name")
@click.option(
    "--from-file",
    type=click.File("r"),
    default=None,
    help="read the value from a file (- for stdin)",
)
@api_command
def secrets_set(client: Quiver, as_json: bool, name: str, from_file: Any) -> None:
    """Set a secret: the value from --from-file, else from stdin (never from the command line,
    where it would stay in the shell's history)."""
    if from_file is None:
        if sys.stdin.isatty():
            value = click.prompt(f"value of {name}", hide_input=True)
        else:
            value = sys.stdin.read()
    else:
        value = from_file.read()
    value = value.rstrip("\r\n")
    secret = client.set_secret(name, value)
    _emit(as_json, secret, lambda: click.echo(f"{name}: set"))


@cli.group()
def datasets() -> None:
    """The data sets the built-in skills read (FAQ, catalog, samples, documents)."""


@datasets.command("push")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--name",
    default=None,
    help="the data set's name (default: the file's name without its extension)",
)
@click.option(
    "--kind",
    type=click.Choice(["faq", "catalog", "samples", "documents"]),
    default=None,
    help="needed for a new data set",
)
@api_command
def datasets_push(
    client: Quiver, as_json: bool, file: Path, name: str | None, kind: str | None
) -> None:
    """Upload an NDJSON file (one item per line) as a data set, streamed, with a progress bar.
    A bad line is reported with its number and field, and nothing is stored."""
    name = name or file.name.split(".")[0]
    size = file.stat().st_size

    with click.progressbar(length=size, label=f"{name}", file=sys.stderr, show_pos=True) as bar:

        def chunks() -> Iterator[bytes]:
            with file.open("rb") as lines:
                while chunk := lines.read(256 * 1024):
                    bar.update(len(chunk))
                    yield chunk

        stored = client.push_dataset(name, chunks(), kind)
    _emit(
        as_json,
        stored,
        lambda: click.echo(
            f"{name}: version {stored['version']}, {stored['items']} items ({stored['kind']})"
        ),
    )


@datasets.command("list")
@api_command
def datasets_list(client: Quiver, as_json: bool) -> None:
    """The tenant's data sets."""
    items = client.list_datasets()
    _emit(
        as_json,
        items,
        lambda: _table(
            ["NAME", "KIND", "VERSION", "ITEMS", "BYTES"],
            [[d["name"], d["kind"], d["version"], d["items"], d["bytes"]] for d in items],
        ),
    )


@datasets.command("delete")
@click.argument("name")
@api_command
def datasets_delete(client: Quiver, as_json: bool, name: str) -> None:
    """Delete a data set and its items."""
    client.delete_dataset(name)
    _emit(as_json, {"deleted": name}, lambda: click.echo(f"{name}: deleted"))


@secrets.command("list")
@api_command
def secrets_list(client: Quiver, as_json: bool) -> None:
    """The tenant's secrets: names and dates, never values."""
    items = client.list_secrets()
    _emit(
        as_json,
        items,
        lambda: _table(
            ["NAME", "UPDATED", "BY"], [[s.name, s.updated_at, s.updated_by] for s in items]
        ),
    )


@secrets.command("delete")
@click.argument("name")
@api_command
def secrets_delete(client: Quiver, as_json: bool, name: str) -> None:
    """Delete a secret (tools that declare it then fail with missing_secret)."""
    client.delete_secret(name)
    _emit(as_json, {"deleted": name}, lambda: click.echo(f"{name}: deleted"))


@secrets.command("rotate")
@database_options
def secrets_rotate(data_dir: Path | None, database_url: str | None) -> None:
    """Re-encrypt every stored secret (tenants' and webhooks') with the newest key (the first of
    QUIVER_SECRET_KEY)."""
    settings = _settings(data_dir=data_dir, database_url=database_url)
    _database(settings, create=False)

    async def action(runtime: Any) -> int:
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            rotated: int = (
                await store.tools.rotate_secrets()
                + await store.secrets.rotate()
                + await store.mcp_servers.rotate()
                + await store.oauth.rotate()
            )
            rotated += await store.providers.rotate()
            return rotated

    click.echo(f"re-encrypted {_run(_with_runtime(settings, action))} secrets with the newest key")


# tools, over the API ----------------------------------------------------------------------------
@cli.group()
def tools() -> None:
    """Tools, over the HTTP API (QUIVER_URL, QUIVER_KEY)."""


SANDBOX = click.option(
    "--sandbox",
    type=click.Choice(["restricted", "wasm"]),
    default="restricted",
    show_default=True,
    help="for .py files",
)
FILE = click.argument("file", type=click.Path(path_type=Path, dir_okay=False))


def _tool_rows(items: list[Tool]) -> None:
    _table(
        ["NAME", "KIND", "VERSION", "ENABLED", "ORIGIN"],
        [[t.name, t.kind, t.version, "yes" if t.enabled else "no", t.origin] for t in items],
    )


@tools.command("list")
@api_command
def tools_list(client: Quiver, as_json: bool) -> None:
    """The tenant's tools."""
    items = client.list_tools()
    _emit(as_json, items, lambda: _tool_rows(items))


@tools.command("validate")
@FILE
@SANDBOX
@api_command
def tools_validate(client: Quiver, as_json: bool, file: Path, sandbox: str) -> None:
    """Check a tool file (loaded for real, nothing stored); exit 1 when it is invalid."""
    result = client.validate(_tool_body(file, sandbox))

    def human() -> None:
        for kind, problems in (("error", result.errors), ("warning", result.warnings)):
            for p in problems:
                click.echo(f"{kind}: {_problem_line(p.line, p.field, p.message, str(file))}")
        click.echo(f"{file}: {'valid' if result.valid else 'invalid'}")

    _emit(as_json, result, human)
    if not result.valid:
        sys.exit(EXIT_REFUSED)


@tools.command("push")
@FILE
@SANDBOX
@api_command
def tools_push(client: Quiver, as_json: bool, file: Path, sandbox: str) -> None:
    """Save a tool file as the tool's newest version (unchanged content: no new version)."""
    body = _tool_body(file, sandbox)
    tool = client.push_tool(_tool_name(file, body), body)
    said = "unchanged at" if tool.unchanged else "saved as"
    _emit(as_json, tool, lambda: click.echo(f"{tool.name}: {said} version {tool.version}"))


@tools.command("pull")
@click.argument("name")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="where to write it (default NAME.py or NAME.json here; - for stdout)",
)
@click.option(
    "--version", "version", type=click.IntRange(min=1), default=None, help="an earlier version"
)
@api_command
def tools_pull(
    client: Quiver, as_json: bool, name: str, output: Path | None, version: int | None
) -> None:
    """Write a tool's source (Python) or its body (other kinds) to a file."""
    tool = client.get_version(name, version) if version else client.get_tool(name)
    text, suffix = _pullable(tool)
    if output is not None and str(output) == "-":
        click.echo(text, nl=False)
        return
    target = output or Path(f"{tool.name}{suffix}")
    target.write_text(text)
    _emit(
        as_json,
        {"name": tool.name, "version": tool.version, "path": str(target)},
        lambda: click.echo(f"{tool.name} version {tool.version} -> {target}"),
    )


def _pullable(tool: Tool) -> tuple[str, str]:
    if tool.kind == "python" and tool.source is not None:
        return tool.source, ".py"
    if tool.kind == "javascript" and tool.source is not None:
        return tool.source, ".js"
    body = tool.model_dump(
        exclude={
            "version",
            "enabled",
            "origin",
            "content_hash",
            "created_at",
            "updated_at",
            "unchanged",
        }
    )
    return json.dumps({k: v for k, v in body.items() if v is not None}, indent=2) + "\n", ".json"


@tools.command("versions")
@click.argument("name")
@api_command
def tools_versions(client: Quiver, as_json: bool, name: str) -> None:
    """A tool's versions, newest first."""
    items = client.versions(name)
    _emit(
        as_json,
        items,
        lambda: _table(
            ["VERSION", "CREATED", "BY", "HASH"],
            [[v.version, v.created_at, v.created_by, v.content_hash[:12]] for v in items],
        ),
    )


@tools.command("diff")
@click.argument("name")
@click.argument("old", type=click.IntRange(min=1), required=False)
@click.argument("new", type=click.IntRange(min=1), required=False)
@api_command
def tools_diff(client: Quiver, as_json: bool, name: str, old: int | None, new: int | None) -> None:
    """Compare two versions (default: the previous and the current one)."""
    current = client.get_tool(name)
    new = new or current.version
    old = old or new - 1
    if old < 1:
        raise Failed(f"{name} has only version {new}: nothing to compare", EXIT_REFUSED)
    texts = []
    for v in (old, new):
        texts.append(_pullable(client.get_version(name, v))[0])
    lines = list(
        difflib.unified_diff(
            texts[0].splitlines(keepends=True),
            texts[1].splitlines(keepends=True),
            f"{name} v{old}",
            f"{name} v{new}",
        )
    )
    _emit(
        as_json,
        {"name": name, "from": old, "to": new, "diff": "".join(lines)},
        lambda: click.echo(
            "".join(lines) or f"versions {old} and {new} are the same", nl=not lines
        ),
    )


@tools.command("rollback")
@click.argument("name")
@click.argument("version", type=click.IntRange(min=1))
@api_command
def tools_rollback(client: Quiver, as_json: bool, name: str, version: int) -> None:
    """Save an earlier version again as the newest."""
    tool = client.rollback(name, version)
    _emit(
        as_json,
        tool,
        lambda: click.echo(f"{name}: version {version} restored as version {tool.version}"),
    )


@tools.command("enable")
@click.argument("name")
@api_command
def tools_enable(client: Quiver, as_json: bool, name: str) -> None:
    """Offer the tool to agents again."""
    tool = client.set_enabled(name, True)
    _emit(as_json, tool, lambda: click.echo(f"{name}: enabled"))


@tools.command("disable")
@click.argument("name")
@api_command
def tools_disable(client: Quiver, as_json: bool, name: str) -> None:
    """Stop offering the tool (its versions stay)."""
    tool = client.set_enabled(name, False)
    _emit(as_json, tool, lambda: click.echo(f"{name}: disabled"))


@tools.command("delete")
@click.argument("name")
@click.option("--yes", is_flag=True, help="do not ask")
@api_command
def tools_delete(client: Quiver, as_json: bool, name: str, yes: bool) -> None:
    """Delete the tool and all its versions."""
    if not yes:
        if not sys.stdin.isatty():
            raise Failed(f"deleting {name} needs --yes when not run interactively", EXIT_USAGE)
        click.confirm(f"delete {name} and all its versions?", abort=True)
    client.delete_tool(name)
    _emit(as_json, {"deleted": name}, lambda: click.echo(f"{name}: deleted"))


@tools.command("test")
@click.argument("name")
@click.option("--arguments", default="{}", show_default=True, help="a JSON object")
@click.option("--variables", default=None, help="session variables the run sees (JSON object)")
@api_command
def tools_test(
    client: Quiver, as_json: bool, name: str, arguments: str, variables: str | None
) -> None:
    """Run the tool for real in test mode; exit 1 when the call fails."""
    result = client.test_tool(
        name, _json_option(arguments, "--arguments"), _json_option(variables, "--variables")
    )

    def human() -> None:
        click.echo(json.dumps(_plain(result), indent=2))

    _emit(as_json, result, human)
    if not result.success:
        sys.exit(EXIT_REFUSED)


@cli.group("import")
def import_group() -> None:
    """Make tools from a description of an API (over the HTTP API)."""


@import_group.command("openapi")
@FILE
@click.option("--operation", "operations", multiple=True, help="an operationId (repeatable)")
@click.option("--tag", "tags", multiple=True, help="operations with this tag (repeatable)")
@click.option("--server", default=None, help="the API's base URL (default: the document's)")
@click.option("--prefix", default=None, help="put before every tool name, joined with _")
@click.option(
    "--credential",
    "credentials",
    multiple=True,
    help="SCHEME=VALUE: the credential for a security scheme (kept encrypted); repeatable",
)
@click.option("--dry-run", is_flag=True, help="show what would be made; store nothing")
@api_command
def import_openapi(
    client: Quiver,
    as_json: bool,
    file: Path,
    operations: tuple[str, ...],
    tags: tuple[str, ...],
    server: str | None,
    prefix: str | None,
    credentials: tuple[str, ...],
    dry_run: bool,
) -> None:
    """Webhook tools from an OpenAPI 3 document (JSON or YAML): one per operation; the
    operations that cannot be tools are listed with their reasons."""
    given = {}
    for item in credentials:
        scheme, sep, value = item.partition("=")
        if not sep or not scheme:
            raise Failed(f"--credential {item!r}: give it as SCHEME=VALUE", EXIT_USAGE)
        given[scheme] = value
    answer = client.import_openapi(
        _read_text(file),
        operations=list(operations) or None,
        tags=list(tags) or None,
        server=server,
        prefix=prefix,
        credentials=given or None,
        dry_run=dry_run,
    )

    def human() -> None:
        verb = "would make" if dry_run else "made"
        click.echo(f"{file}: {verb} {len(answer['tools'])} tools")
        for tool, operation in zip(answer["tools"], answer["operations"], strict=True):
            click.echo(f"  {tool['name']}  ({operation})")
        for skipped in answer.get("skipped", []):
            reasons = "; ".join(
                f"{e['field']}: {e['message']}" if e.get("field") else e["message"]
                for e in skipped["errors"]
            )
            click.echo(f"left out {skipped['operation']}: {reasons}")

    _emit(as_json, answer, human)


# admin: allowlists and limits; usage ----------------------------------------------------------
@cli.group()
def packages() -> None:
    """Reviewed packages tenants' code tools may import (admin; docs/packages.md)."""


def _package_identity(file: Path) -> tuple[str, str]:
    """A wheel's name and version from its file name (PEP 427), a tarball's from package.json."""
    if file.name.endswith(".whl"):
        parts = file.name[: -len(".whl")].split("-")
        if len(parts) >= 5:
            return parts[0].replace("_", "-").lower(), parts[1]
    else:
        unreadable = (tarfile.TarError, OSError, KeyError, ValueError, AttributeError)
        with contextlib.suppress(*unreadable), tarfile.open(file, "r:gz") as archive:
            manifest = archive.extractfile("package/package.json")
            data = json.loads(manifest.read()) if manifest is not None else {}
            return str(data["name"]), str(data["version"])
    raise Failed(f"{file.name}: not a wheel or an npm tarball; give --name and --version", 2)


@packages.command("upload")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", default=None, help="default: the archive's")
@click.option("--version", "version_", default=None, help="default: the archive's")
@api_command
def packages_upload(
    client: Quiver, as_json: bool, file: Path, name: str | None, version_: str | None
) -> None:
    """Upload a reviewed wheel or npm tarball, pinned by its SHA-256. Every reason it is
    refused is printed, and nothing is stored then."""
    if name is None or version_ is None:
        found = _package_identity(file)
        name, version_ = name or found[0], version_ or found[1]
    stored = client.upload_package(name, version_, file.read_bytes())
    _emit(
        as_json,
        stored,
        lambda: click.echo(
            f"{stored['name']} {stored['version']} ({stored['language']}): "
            f"sha256 {stored['sha256']}, {stored['files']} files"
        ),
    )


@packages.command("list")
@api_command
def packages_list(client: Quiver, as_json: bool) -> None:
    """Every uploaded package (admin), or the ones granted to the key's tenant."""
    items = client.list_packages()
    _emit(
        as_json,
        items,
        lambda: _table(
            ["NAME", "VERSION", "LANGUAGE", "SHA256"],
            [[p["name"], p["version"], p["language"], p["sha256"][:16]] for p in items],
        ),
    )


@packages.command("grant")
@click.argument("tenant_id")
@click.argument("pins", nargs=-1)
@api_command
def packages_grant(client: Quiver, as_json: bool, tenant_id: str, pins: tuple[str, ...]) -> None:
    """Replace the packages a tenant's tools may import: NAME==VERSION each (none: none)."""
    wanted: dict[str, str] = {}
    for pin in pins:
        name, sep, version = pin.partition("==")
        if not sep or not name or not version:
            raise Failed(f"{pin!r}: give NAME==VERSION", 2)
        wanted[name] = version
    tenant = client.grant_packages(tenant_id, wanted)
    shown = [f"{p['name']}=={p['version']}" for p in tenant.packages]
    _emit(
        as_json, tenant.packages, lambda: click.echo(f"{tenant_id}: {', '.join(shown) or '(none)'}")
    )


@packages.command("delete")
@click.argument("name")
@click.argument("version")
@api_command
def packages_delete(client: Quiver, as_json: bool, name: str, version: str) -> None:
    """Delete a package no tenant is granted."""
    client.delete_package(name, version)
    _emit(
        as_json, {"deleted": f"{name} {version}"}, lambda: click.echo(f"{name} {version}: deleted")
    )  # noqa: E501


@cli.group()
def allowlist() -> None:
    """Which global tools a tenant may use (admin)."""


@allowlist.command("show")
@click.argument("tenant_id")
@api_command
def allowlist_show(client: Quiver, as_json: bool, tenant_id: str) -> None:
    """The tenant's shared-tools allowlist."""
    tenant = client.get_tenant(tenant_id)
    _emit(
        as_json, tenant.shared_tools, lambda: click.echo("\n".join(tenant.shared_tools) or "(none)")
    )


@allowlist.command("set")
@click.argument("tenant_id")
@click.argument("tools", nargs=-1)
@api_command
def allowlist_set(client: Quiver, as_json: bool, tenant_id: str, tools: tuple[str, ...]) -> None:
    """Replace the allowlist (no names: none; `*`: every global tool)."""
    tenant = client.set_shared_tools(tenant_id, list(tools))
    _emit(
        as_json,
        tenant.shared_tools,
        lambda: click.echo(f"{tenant_id}: {', '.join(tenant.shared_tools) or '(none)'}"),
    )


@cli.group()
def limits() -> None:
    """A tenant's request rates and daily quotas (admin)."""


@limits.command("set")
@click.argument("tenant_id")
@click.option(
    "--requests", default=None, help="the tenant's rate, e.g. 500/second (none: no limit)"
)
@click.option("--key-requests", default=None, help="each key's rate, e.g. 100/second")
@click.option("--calls-per-day", type=click.IntRange(min=0), default=None)
@click.option("--cpu-ms-per-day", type=click.IntRange(min=0), default=None)
@click.option("--reset", is_flag=True, help="drop every override (back to the server's defaults)")
@api_command
def limits_set(client: Quiver, as_json: bool, tenant_id: str, reset: bool, **given: Any) -> None:
    """Override some of the tenant's limits (the others keep their current override)."""
    current = {} if reset else dict(client.get_tenant(tenant_id).limits)
    for name, value in given.items():
        if value is not None:
            current[name] = None if value in ("none", "") else value
    tenant = client.set_limits(tenant_id, current)
    _emit(
        as_json,
        tenant.limits,
        lambda: click.echo(
            f"{tenant_id}: {json.dumps(tenant.limits) if tenant.limits else 'server defaults'}"
        ),
    )


@cli.group("logs")
def logs_group() -> None:
    """The tenant's tool calls and the tools' own log lines, over the HTTP API."""


@logs_group.command("tail")
@click.option("--tool", default=None, help="only this tool's calls")
@click.option(
    "--count", type=click.IntRange(min=1), default=None, help="stop after this many calls"
)
@api_command
def logs_tail(client: Quiver, as_json: bool, tool: str | None, count: int | None) -> None:
    """Follow the tenant's calls as they happen (every node's), with each tool's log lines."""
    for seen, call in enumerate(client.tail_calls(tool), start=1):
        if as_json:
            click.echo(json.dumps(call, sort_keys=True))
        else:
            error = call.get("error") or {}
            outcome = "ok" if call["success"] else error.get("code", "failed")
            where = (
                f"session {call['session_id']}"
                if call.get("session_id")
                else "test run"
                if call.get("test")
                else "no session"
            )
            click.echo(
                f"{call['at']}  {call['tool']} v{call['version']}  {outcome}  "
                f"{call['latency_ms']:.1f} ms  {where}"
            )
            if error.get("message"):
                click.echo(f"    error: {error['message']}")
            for line in call.get("logs") or ():
                click.echo(f"    | {line}")
        sys.stdout.flush()
        if count is not None and seen >= count:
            return


@cli.command()
@api_command
def usage(client: Quiver, as_json: bool) -> None:
    """The tenant's limits and today's calls and CPU time."""
    found = client.usage()

    def human() -> None:
        today = found.today
        click.echo(f"tenant {found.tenant}, {today['day']} (UTC)")
        click.echo(
            f"  calls:  {today['calls']}"
            + (f" of {found.limits['calls_per_day']}" if found.limits["calls_per_day"] else "")
        )
        click.echo(
            f"  cpu ms: {today['cpu_ms']}"
            + (f" of {found.limits['cpu_ms_per_day']}" if found.limits["cpu_ms_per_day"] else "")
        )
        click.echo(
            f"  rates:  tenant {found.limits['requests'] or 'unlimited'}, each key "
            f"{found.limits['key_requests'] or 'unlimited'}"
        )

    _emit(as_json, found, human)


@cli.command("eval")
@click.argument("bot")
@click.option(
    "--fail-under",
    type=click.FloatRange(0, 1),
    default=1.0,
    show_default=True,
    help="exit 1 when the pass rate is below this",
)
@api_command
def eval_bot(client: Quiver, as_json: bool, bot: str, fail_under: float) -> None:
    """Run the bot's eval cases through the agent loop (tools in test mode) — for a tenant's CI."""
    report = client.run_evals(bot)

    def human() -> None:
        _table(
            ["CASE", "RESULT", "WHY"],
            [
                [c["name"], "pass" if c["passed"] else "FAIL", "; ".join(c["failures"])]
                for c in report["cases"]
            ],
        )
        if report["tools"]:
            click.echo("")
            _table(
                ["TOOL", "PASS RATE"],
                [[name, f"{rate:.0%}"] for name, rate in report["tools"].items()],
            )
        click.echo(
            f"\n{report['passed']}/{report['total']} cases passed ({report['pass_rate']:.0%})"
        )

    _emit(as_json, report, human)
    if report["pass_rate"] < fail_under:
        sys.exit(EXIT_REFUSED)


def main(argv: list[str] | None = None) -> int:
    """Run the command; a user error is one line on stderr and an exit code, never a traceback."""
    try:
        cli.main(args=argv, prog_name="quiver", standalone_mode=False)
    except Failed as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("quiver: aborted", err=True)
        return EXIT_USAGE
    except click.ClickException as exc:  # usage errors: a bad option or argument
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug: say so in one line; the traceback only when asked
        if os.environ.get("QUIVER_DEBUG"):
            raise
        click.echo(
            f"quiver: internal error: {type(exc).__name__}: {exc} (QUIVER_DEBUG=1 shows the "
            "traceback)",
            err=True,
        )
        return 70
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
