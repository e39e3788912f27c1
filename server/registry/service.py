"""The registry service: a per-node cache of each tenant's resolved view, keyed by versions.

A request reads the tenant's and the global version counters (one small query) when this node's
copy is older than the TTL — one caller per tenant at a time, the others keeping the last copy
for that read's duration — or a change on this node dropped it; when they match the cached
view, resolution and snapshot rendering are not repeated, and a matching
``If-None-Match`` is answered without building anything.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from server.errors import NotFoundError
from server.guardrails import NONE, Policy
from server.registry.code_mode import CODE_TOOL
from server.registry.disk import DiskTools
from server.registry.formats import Format, render
from server.registry.model import GLOBAL_TENANT, BotDef, SessionInputs, Snapshot, ToolDef
from server.registry.ports import RegistryStore, RegistryVersions
from server.registry.resolution import resolve_visible
from server.registry.snapshot import NO_SESSION, SEARCH_TOOL, build_snapshot

MAX_RENDERED_PER_VIEW = 512


@dataclass
class TenantView:
    tenant_id: str
    key: tuple[int, int, int]
    visible: dict[str, ToolDef]
    bots: dict[str, BotDef]
    sandbox_modules: tuple[str, ...] = ()
    egress_allow: tuple[str, ...] = ()
    guardrails: Policy = NONE
    search_tool: ToolDef | None = None  # the built-in ``search_tools``, for searching bots
    code_tool: ToolDef | None = None  # the built-in ``run_code``, for code-mode bots
    rendered: OrderedDict[tuple[Any, ...], tuple[str, bytes]] = field(default_factory=OrderedDict)
    snapshots: OrderedDict[tuple[Any, ...], Snapshot] = field(default_factory=OrderedDict)
    pinned: dict[tuple[str, str, int], ToolDef] = field(default_factory=dict)
    _per_bot: dict[str, dict[str, ToolDef]] = field(default_factory=dict)
    _once: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def tools_for(self, bot: str) -> dict[str, ToolDef]:
        """The tools as ``bot`` sees them: the visible ones, with the versions it pinned in
        place of the newest (a pinned version that no longer exists leaves the tool out); a
        searching bot also has the built-in ``search_tools``, a code-mode bot ``run_code`` (in
        place of a tool so named)."""
        found = self._per_bot.get(bot)
        if found is not None:
            return found
        definition = self.bot(bot)
        pins = definition.pins
        if not pins:
            found = self.visible
        else:
            found = dict(self.visible)
            for name, version in pins:
                current = found.get(name)
                if current is None or current.version == version:
                    continue
                pinned = self.pinned.get((current.tenant_id, name, version))
                if pinned is None:
                    del found[name]
                else:
                    found[name] = pinned
        if definition.searches and self.search_tool is not None:
            found = {**found, SEARCH_TOOL: self.search_tool}
        if definition.code_language is not None and self.code_tool is not None:
            found = {**found, CODE_TOOL: self.code_tool}
        self._per_bot[bot] = found
        return found

    def once_per_session(self, bot: str) -> tuple[str, ...]:
        """The tools of ``bot`` that run once per session (found once per view: every call's
        session state asks which of them are done)."""
        found = self._once.get(bot)
        if found is None:
            found = self._once[bot] = tuple(
                name
                for name, tool in self.tools_for(bot).items()
                if tool.metadata.get("once_per_session")
            )
        return found

    @property
    def version(self) -> int:
        """Monotonic: a sum of counters that only grow."""
        return sum(self.key)

    def bot(self, name: str) -> BotDef:
        try:
            return self.bots[name]
        except KeyError:
            raise NotFoundError(f"bot {name!r} not found") from None


class Registry:
    """Caches each tenant's view. Changes committed on this node invalidate at once. Other
    nodes' (and processes') changes are pushed while ``changes_pushed`` says so (PostgreSQL's
    LISTEN/NOTIFY connected, or SQLite's watch polling): the version counters are then trusted
    until a change says otherwise, so a call reads no counter from the database however rarely
    its tenant calls. Otherwise they are trusted for ``version_ttl_s`` (and the one read that
    refreshes them)."""

    def __init__(
        self,
        disk: DiskTools,
        max_tenants: int = 10_000,
        version_ttl_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.disk = disk
        self._views: OrderedDict[str, TenantView] = OrderedDict()
        self._versions: dict[str, tuple[float, RegistryVersions]] = {}
        # a tenant whose stale counters one caller is reading again: the callers meanwhile keep
        # the last ones for that read's few milliseconds instead of each sending a query with a
        # pooled connection held. They never wait for that read: a waiter holding a connection
        # while the reader waits for one deadlocks a full pool.
        self._refreshing: set[str] = set()
        self._epoch = 0  # bumped by every invalidation: a read begun before one is not kept
        self._max_tenants = max_tenants
        self.version_ttl_s = version_ttl_s
        self.clock = clock
        self.changes_pushed: Callable[[], bool] = lambda: False

    def invalidate(self, tenant_ids: set[str]) -> None:
        """Forget cached version counters; a global change (``*``) concerns every tenant."""
        self._epoch += 1
        if GLOBAL_TENANT in tenant_ids:
            self._versions.clear()
        for tenant_id in tenant_ids:
            self._versions.pop(tenant_id, None)  # a caller from now on reads after the change

    def forget_all(self, views: bool = False) -> None:
        """Trust nothing cached about versions (and, with ``views``, drop the tenant views)."""
        self._epoch += 1
        self._versions.clear()
        if views:
            self._views.clear()

    async def _current_versions(
        self, store: RegistryStore, tenant_id: str
    ) -> RegistryVersions | None:
        cached = self._versions.get(tenant_id)
        now = self.clock()
        if cached is not None and (
            now - cached[0] <= self.version_ttl_s
            or tenant_id in self._refreshing
            or self.changes_pushed()
        ):
            return cached[1]
        first = tenant_id not in self._refreshing  # the mark is the first caller's to remove
        self._refreshing.add(tenant_id)
        epoch = self._epoch
        try:
            versions = await store.registry_versions(tenant_id)
        finally:
            if first:
                self._refreshing.discard(tenant_id)
        if versions is not None and self.version_ttl_s > 0 and epoch == self._epoch:
            if len(self._versions) >= 4 * self._max_tenants:
                self._versions.clear()
            self._versions[tenant_id] = (now, versions)
        return versions

    def replace_disk(self, disk: DiskTools) -> None:
        self.disk = disk
        self._views.clear()

    async def view(self, store: RegistryStore, tenant_id: str) -> TenantView:
        versions = await self._current_versions(store, tenant_id)
        if versions is None:
            raise NotFoundError(f"tenant {tenant_id!r} not found")
        key = (versions.tenant, versions.global_, self.disk.generation)
        cached = self._views.get(tenant_id)
        if cached is not None and cached.key == key:
            self._views.move_to_end(tenant_id)
            return cached
        data = await store.load_registry(tenant_id)
        visible = resolve_visible(
            data.tenant_tools, data.global_tools, self.disk.defs(), data.allowlist
        )
        view = TenantView(
            tenant_id,
            key,
            visible,
            data.bots,
            data.sandbox_modules,
            data.egress_allow,
            data.guardrails,
            search_tool=self.disk.builtin(SEARCH_TOOL),
            code_tool=self.disk.builtin(CODE_TOOL),
            pinned=data.pinned,
        )
        self._views[tenant_id] = view
        if len(self._views) > self._max_tenants:
            self._views.popitem(last=False)
        return view

    @staticmethod
    def snapshot(view: TenantView, bot: str, inputs: SessionInputs = NO_SESSION) -> Snapshot:
        """The snapshot of ``bot`` for ``inputs``, built once per view (snapshots are immutable)."""
        key = (bot, inputs.cache_key, inputs.ranking_epoch)
        hit = view.snapshots.get(key)
        if hit is None:
            hit = view.snapshots[key] = build_snapshot(
                view.tools_for(bot), view.bot(bot), inputs, base_version=view.version
            )
            if len(view.snapshots) > MAX_RENDERED_PER_VIEW:
                view.snapshots.popitem(last=False)
        return hit

    @staticmethod
    def etag(view: TenantView, bot: str, fmt: Format, inputs: SessionInputs = NO_SESSION) -> str:
        raw = repr((view.tenant_id, view.key, bot, fmt, inputs.cache_key)).encode()
        return '"' + hashlib.blake2b(raw, digest_size=12).hexdigest() + '"'

    def rendered(
        self, view: TenantView, bot: str, fmt: Format, inputs: SessionInputs = NO_SESSION
    ) -> tuple[str, bytes]:
        """(ETag, JSON body) of a snapshot, rendered once per view, bot, format and inputs."""
        cache_key = (bot, fmt, inputs.cache_key)
        hit = view.rendered.get(cache_key)
        if hit is not None:
            return hit
        snapshot = self.snapshot(view, bot, inputs)
        body = orjson.dumps(
            {"version": snapshot.version, "bot": bot, "format": fmt, "tools": render(snapshot, fmt)}
        )
        hit = view.rendered[cache_key] = (self.etag(view, bot, fmt, inputs), body)
        if len(view.rendered) > MAX_RENDERED_PER_VIEW:
            view.rendered.popitem(last=False)
        return hit
