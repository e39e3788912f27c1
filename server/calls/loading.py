"""Save-time loading: a Python tool file is compiled and its top level run in a worker, within
the load-time limit, before it is stored. What the running file declares is what is saved."""

from __future__ import annotations

from sandbox.engine import Inspection, SandboxName, ToolSource
from server.calls.ports import CallStore
from server.calls.services import Services
from server.errors import LoadTimeoutError, Problems
from server.records import StoredVersion
from server.registry.definitions import ToolDraft, apply_loaded


async def load_draft(
    services: Services, store: CallStore, tenant_id: str, draft: ToolDraft
) -> tuple[Problems, str | None]:
    """Problems found by loading the file for real, and the failure code when loading failed."""
    loader = services.engines.loader_for(draft.kind, draft.sandbox)
    source = _source(draft)
    if loader is None or source is None:
        # a Python WASM tool on a node without the runner: checked statically only; its calls
        # answer engine_unavailable
        return Problems(), None
    modules: tuple[str, ...] = ()
    if loader.capabilities.imports:
        modules = tuple((await store.tenants.sandbox(tenant_id))[0])  # imports see the grants
    inspection = await loader.inspect(source, tenant_id, modules)
    if draft.kind == "wasm":  # compiled in a worker now, so a call never compiles
        problems = Problems()
        for v in inspection.violations:
            problems.add(v.field or "module", v.message)
        return problems, "invalid_module" if problems else None
    return _loaded(services, draft, inspection)


def _source(draft: ToolDraft) -> ToolSource | None:
    if draft.kind == "wasm":
        return None if draft.module is None else ToolSource("wasm", "wasm", module=draft.module)
    if draft.kind == "javascript":
        return ToolSource("javascript", "javascript", draft.source)
    if draft.kind == "python":
        sandbox: SandboxName = "wasm" if draft.sandbox == "wasm" else "restricted"
        return ToolSource("python", sandbox, draft.source)
    return None


def _loaded(
    services: Services, draft: ToolDraft, inspection: Inspection
) -> tuple[Problems, str | None]:
    """What loading the file found: its violations (and why it failed), or what it declares."""
    problems = Problems()
    for v in inspection.violations:
        problems.add(v.field or "source", v.message, v.line)
    if problems:
        return problems, inspection.code
    return apply_loaded(draft, inspection.tools, services.limits), None


async def checked_draft(
    services: Services, store: CallStore, tenant_id: str, draft: ToolDraft
) -> ToolDraft:
    problems, code = await load_draft(services, store, tenant_id, draft)
    if problems and code == "load_timeout":
        raise LoadTimeoutError(problems.errors)
    problems.raise_if_any()
    return draft


async def keep_compiled(
    services: Services, store: CallStore, tenant_id: str, draft: ToolDraft, version: StoredVersion
) -> None:
    """A WASI module compiled at save is stored with its version: no node compiles it again."""
    if draft.kind != "wasm" or draft.module is None:
        return
    artefact = services.engines.wasm.artefact(
        tenant_id, ToolSource("wasm", "wasm", module=draft.module)
    )
    if artefact is not None:
        await store.tools.keep_artefact(version.id, services.engines.wasm.engine_id, artefact)
