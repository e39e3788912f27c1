"""Disk tools: tool files in a folder (``QUIVER_TOOLS_DIR``) and the bundled ``builtins/``.

Every ``.py`` file is read except ``__init__.py`` and names starting with ``template`` or a dot.
A file may declare several tools. A file that fails validation is reported by name and skipped;
the rest still load.
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

    def defs(self) -> list[ToolDef]:
        return [t.tool for t in self.tools.values()]


def is_tool_file(path: Path) -> bool:
    name = path.name
    return (
        path.suffix == ".py"
        and path.is_file()
        and name != "__init__.py"
        and not name.startswith(("template", "."))
    )


def _to_def(draft: ToolDraft, origin: Origin) -> ToolDef:
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
            problems = Problems()
            drafts = drafts_from_tool_file(
                source, limits, problems, sandbox="restricted", async_ok=origin == "builtin"
            )
            for draft in drafts:
                if draft.name in seen_here:
                    problems.add(
                        "tool.name",
                        f"{draft.name!r} is already declared by {seen_here[draft.name]}",
                    )
            if problems:
                result.errors[path.name] = problems.errors
                continue
            for draft in drafts:
                seen_here[draft.name] = path.name
                result.tools[draft.name] = DiskTool(_to_def(draft, origin), path, source)
    return result
