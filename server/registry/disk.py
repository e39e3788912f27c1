"""Disk tools: tool files in a folder (``QUIVER_TOOLS_DIR``) and the bundled ``builtins/``.

Every ``.py`` and ``.js`` file is read except ``__init__.py``, ``index.js`` (LiteBot's folder
index) and names starting with ``template``, ``_template`` or a dot. A Python file may declare
several tools; a JavaScript file one (named after the file: ``bookAppointment.js`` →
``bookAppointment``) or several (``module.exports = {tools: [...]}``): what it declares is only
known once QuickJS has loaded it, which the runtime does after this (``pending``). A file that
fails validation is reported by name and skipped; the rest still load.

Backup copies: when two files of a folder declare the same tool, the file named after the tool
wins (``check_order.py`` over ``check_order-old.py``, whatever their order), and the other is
reported as skipped, never loaded in its place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from server.errors import FieldError, Problems
from server.registry.definitions import DefinitionLimits, ToolDraft, drafts_from_tool_file
from server.registry.model import GLOBAL_TENANT, Origin, ToolDef


@dataclass(frozen=True)
class DiskTool:
    tool: ToolDef
    path: Path
    source: str


@dataclass
class DiskTools:
    tools: dict[str, DiskTool] = field(default_factory=dict)
    errors: dict[str, list[FieldError]] = field(default_factory=dict)
    generation: int = 0
    pending: list[tuple[Path, str, Origin]] = field(default_factory=list)  # JavaScript files

    def defs(self) -> list[ToolDef]:
        return [t.tool for t in self.tools.values()]

    def builtin(self, name: str) -> ToolDef | None:
        """The bundled built-in tool ``name`` (not a folder's tool of that name)."""
        found = self.tools.get(name)
        return found.tool if found is not None and found.tool.origin == "builtin" else None


def is_tool_file(path: Path) -> bool:
    name = path.name
    return (
        path.suffix in (".py", ".js")
        and path.is_file()
        and name not in ("__init__.py", "index.js")
        and not name.lower().startswith(("template", "_template", "."))
    )


def disk_def(draft: ToolDraft, origin: Origin) -> ToolDef:
    return ToolDef(
        name=draft.name,
        description=draft.description,
        parameters=draft.parameters,
        metadata=draft.metadata,
        kind=draft.kind,
        origin=origin,
        version=1,
        content_hash=draft.content_hash,
        tenant_id=GLOBAL_TENANT,
        sandbox="builtin" if origin == "builtin" else draft.sandbox,
        on_error=draft.on_error,
    )


def load_disk_tools(
    folders: list[tuple[Path, Origin]], limits: DefinitionLimits, generation: int = 0
) -> DiskTools:
    """Load folders in order of rising precedence: a later folder's tool replaces an earlier one."""
    result = DiskTools(generation=generation)
    for folder, origin in folders:
        if not folder.is_dir():
            continue
        seen_here: dict[str, str] = {}
        for path in sorted(p for p in folder.iterdir() if is_tool_file(p)):
            try:
                source = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                result.errors[path.name] = [FieldError(message=f"cannot read: {exc}")]
                continue
            if path.suffix == ".js":
                result.pending.append((path, source, origin))
                continue
            problems = Problems()
            drafts = drafts_from_tool_file(
                source, limits, problems, sandbox="restricted", async_ok=origin == "builtin"
            )
            if problems:
                result.errors[path.name] = problems.errors
                continue
            for draft in drafts:
                add(result, seen_here, DiskTool(disk_def(draft, origin), path, source))
    return result


def add(result: DiskTools, seen_here: dict[str, str], found: DiskTool) -> None:
    """Add a tool of a folder; of two files declaring one name, the file named after it wins."""
    name, path = found.tool.name, found.path
    holder = seen_here.get(name)
    if holder is not None:
        if path.stem != name or holder.rsplit(".", 1)[0] == name:
            result.errors.setdefault(path.name, []).append(
                FieldError(
                    f"skipped: {name!r} is declared by {holder} (the file named after the tool "
                    "wins)",
                    field="tool.name",
                )
            )
            return
        result.errors.setdefault(holder, []).append(
            FieldError(
                f"skipped: {name!r} is declared by {path.name} (the file named after the tool "
                "wins)",
                field="tool.name",
            )
        )
    seen_here[name] = path.name
    result.tools[name] = found


def javascript_tool(
    path: Path, source: str, origin: Origin, draft: ToolDraft
) -> DiskTool | FieldError:
    """A loaded JavaScript file's tool, if it is named after its file."""
    if draft.name != path.stem:
        return FieldError(
            f"a JavaScript file declares the tool named after it: {path.name} declares "
            f"{draft.name!r}",
            field="name",
        )
    return DiskTool(disk_def(draft, origin), path, source)
