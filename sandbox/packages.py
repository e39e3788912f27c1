"""Reviewed Python packages inside a sandbox: an admin's pure-Python wheel, granted to a tenant,
imported by its tool files as read-only modules.

A package's files arrive with a tool file's source (``{"key", "name", "language", "files"}``,
``files`` mapping each ``.py`` path in the wheel to its text). Its code is plain Python, compiled
once per process by content hash — the admin's review vouches for it, as the standard library
vouches for the functions behind the facades — but it runs with the sandbox's import table, never
the interpreter's: a package reaches the facades (all of the reviewed table, and the few modules
packages are made of: ``typing``, ``dataclasses``, ``enum``, ``abc``, ``__future__``), its own
modules and nothing else. Its source may not name the attributes every published escape walks
through (``ESCAPE_NAMES``: checked at upload); its builtins have no ``open``, ``exec``, ``eval``,
``compile``, ``globals``, ``vars`` or ``print``, and its ``getattr``/``setattr``/``delattr``/
``hasattr`` refuse double-underscore names (but a few harmless ones) and frame names, so a tool
that hands a package a name cannot walk it out of the sandbox either.

Modules are executed per tool load (``Importer``): a package's module state is the loading
tool's, like the tool's own, and never another tenant's. What an import hands out is a
``ReadOnlyModule``: its public names, read live, and no way to set or delete one.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import CodeType, ModuleType
from typing import Any

# double-underscore names a package's getattr may still read (never a way out)
SAFE_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__", "__module__", "__wrapped__"})
# names that walk from an object to frames, code, globals or every class: what every published
# Python sandbox escape goes through. A package's source may not name them (checked at upload)
# and its getattr refuses them (and every other double-underscore name but SAFE_DUNDERS).
FRAME_NAMES = frozenset(
    [
        "gi_frame",
        "gi_code",
        "cr_frame",
        "cr_code",
        "ag_frame",
        "ag_code",
        "f_back",
        "f_globals",
        "f_locals",
        "f_builtins",
        "f_code",
        "tb_frame",
        "tb_next",
        "co_code",
        "cell_contents",
    ]
)
ESCAPE_NAMES = FRAME_NAMES | frozenset(
    [
        "__subclasses__",
        "__globals__",
        "__builtins__",
        "__code__",
        "__closure__",
        "__bases__",
        "__base__",
        "__mro__",
        "__traceback__",
        "__import__",
        "__loader__",
        "__spec__",
        "__reduce__",
        "__reduce_ex__",
    ]
)
HIDDEN_BUILTINS = frozenset(
    [
        "open",
        "exec",
        "eval",
        "compile",
        "input",
        "breakpoint",
        "help",
        "exit",
        "quit",
        "globals",
        "locals",
        "vars",
        "memoryview",
        "print",
        "copyright",
        "credits",
        "license",
        "__import__",
        "__loader__",
        "__spec__",
    ]
)
MAX_COMPILED = 64  # packages' compiled code a process keeps (each a few hundred KiB at most)

Import = Callable[..., Any]


class PackageImportError(ImportError):
    """A package's module failed while it was imported (its message names the module)."""


@dataclass(frozen=True)
class Package:
    """One reviewed package, compiled: ``code`` by module name (``pkg``, ``pkg.sub``)."""

    key: str
    name: str
    code: Mapping[str, CodeType]
    packages: frozenset[str]  # the module names that are packages (folders)

    @property
    def tops(self) -> frozenset[str]:
        return frozenset(module.partition(".")[0] for module in self.code)


_compiled: dict[str, Package] = {}


def compile_package(spec: Mapping[str, Any]) -> Package:
    """A package's files compiled (kept per process by content hash: ``spec["key"]``)."""
    key = str(spec["key"])
    hit = _compiled.get(key)
    if hit is not None:
        return hit
    code: dict[str, CodeType] = {}
    folders: set[str] = set()
    for path, text in sorted(dict(spec["files"]).items()):
        parts = path[: -len(".py")].split("/")
        if parts[-1] == "__init__":
            parts.pop()
            folders.add(".".join(parts))
        folders.update(".".join(parts[:i]) for i in range(1, len(parts)))
        module = ".".join(parts)
        code[module] = compile(text, f"<package {spec['name']}: {path}>", "exec")
    for folder in folders - set(code):  # a folder without __init__.py: an empty package
        code[folder] = compile("", f"<package {spec['name']}: {folder}/>", "exec")
    package = Package(key, str(spec["name"]), code, frozenset(folders))
    if len(_compiled) >= MAX_COMPILED:
        _compiled.pop(next(iter(_compiled)))
    _compiled[key] = package
    return package


class ReadOnlyModule:
    """A package module as its importers see it: public names, read live; nothing written."""

    __slots__ = ("_quiver_name", "_quiver_namespace")

    def __init__(self, name: str, namespace: dict[str, Any]) -> None:
        object.__setattr__(self, "_quiver_name", name)
        object.__setattr__(self, "_quiver_namespace", namespace)

    def __getattr__(self, attr: str) -> Any:
        name = object.__getattribute__(self, "_quiver_name")
        if not attr.startswith("_") or attr in SAFE_DUNDERS:
            namespace = object.__getattribute__(self, "_quiver_namespace")
            if attr in namespace:
                value = namespace[attr]
                if isinstance(value, type) and issubclass(value, type):
                    # a metaclass makes classes: what the tools' policy refuses them
                    raise AttributeError(f"{name}.{attr} is a metaclass: not for tools")
                return value
        raise AttributeError(f"module {name!r} has no attribute {attr!r} in the sandbox")

    def __getattribute__(self, attr: str) -> Any:
        if attr in ("__class__", "__getattr__", "__repr__", "__dir__"):
            return object.__getattribute__(self, attr)
        return ReadOnlyModule.__getattr__(self, attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        raise AttributeError("reviewed packages are read-only")

    def __delattr__(self, attr: str) -> None:
        raise AttributeError("reviewed packages are read-only")

    def __dir__(self) -> list[str]:
        namespace = object.__getattribute__(self, "_quiver_namespace")
        return sorted(n for n in namespace if not n.startswith("_"))

    def __repr__(self) -> str:
        return f"<reviewed package module {object.__getattribute__(self, '_quiver_name')}>"


def _named(function: Callable[..., Any], attr: Any) -> None:
    if isinstance(attr, str) and (
        (attr.startswith("__") and attr not in SAFE_DUNDERS) or attr in FRAME_NAMES
    ):
        raise AttributeError(f"{function.__name__}() of {attr!r} is not allowed in the sandbox")


def _getattr(obj: Any, name: Any, *default: Any) -> Any:
    _named(getattr, name)
    return getattr(obj, name, *default)


def _hasattr(obj: Any, name: Any) -> bool:
    _named(hasattr, name)
    return hasattr(obj, name)


def _setattr(obj: Any, name: Any, value: Any) -> None:
    _named(setattr, name)
    setattr(obj, name, value)


def _delattr(obj: Any, name: Any) -> None:
    _named(delattr, name)
    delattr(obj, name)


class Importer:
    """The imports of one tool load: the tool's table, and its granted packages beside it.

    ``table`` imports what the tool itself may import (its facades); ``package_table`` what a
    package's code may (the whole reviewed table and ``PACKAGE_ONLY``)."""

    def __init__(self, packages: Iterable[Package], table: Import, package_table: Import) -> None:
        self.code: dict[str, CodeType] = {}
        self.folders: set[str] = set()
        for package in packages:
            self.code.update(package.code)
            self.folders |= package.packages
        self.tops = frozenset(module.partition(".")[0] for module in self.code)
        self.table = table
        self.package_table = package_table
        self.namespaces: dict[str, dict[str, Any]] = {}
        self.views: dict[str, ReadOnlyModule] = {}
        real = vars(builtins)
        self.builtins = {k: v for k, v in real.items() if k not in HIDDEN_BUILTINS}
        self.builtins.update(getattr=_getattr, hasattr=_hasattr, setattr=_setattr)
        self.builtins.update(delattr=_delattr, __import__=self.package_import)

    def wrap(self, table: Import) -> Import:
        """``table`` with this load's packages beside it (a tool's ``__import__``)."""

        def _import(
            name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
        ) -> Any:
            if level == 0 and name.partition(".")[0] in self.tops:
                return self._import(name, fromlist)
            return table(name, globals, locals, fromlist, level)

        return _import

    def package_import(
        self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        """``__import__`` inside a package's modules: relative imports within the package."""
        if level:
            base = str((globals or {}).get("__package__") or "")
            parts = base.split(".") if base else []
            if level > len(parts):
                raise ImportError("a relative import beyond the package")
            base = ".".join(parts[: len(parts) - (level - 1)])
            name = f"{base}.{name}" if name else base
            return self._import(name, fromlist or (), relative=True)
        if name.partition(".")[0] in self.tops:
            return self._import(name, fromlist)
        return self.package_table(name, globals, locals, fromlist, 0)

    def _import(self, name: str, fromlist: Any, relative: bool = False) -> Any:
        self._load(name)
        if fromlist:
            for attr in fromlist:
                if attr != "*" and f"{name}.{attr}" in self.code:
                    self._load(f"{name}.{attr}")
            return self.views[name]
        return self.views[name if relative else name.partition(".")[0]]

    def _load(self, name: str) -> None:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            module = ".".join(parts[:i])
            if module in self.views:
                continue
            code = self.code.get(module)
            if code is None:
                raise ImportError(f"no module named {module!r} in the granted packages")
            is_folder = module in self.folders
            # a module object, listed in sys.modules while its code runs only: the standard
            # library looks a class's module up there as it is made (dataclasses does)
            real = ModuleType(module)
            namespace = real.__dict__
            namespace["__package__"] = module if is_folder else module.rpartition(".")[0]
            namespace["__builtins__"] = self.builtins
            self.namespaces[module] = namespace
            self.views[module] = ReadOnlyModule(module, namespace)
            before = sys.modules.get(module)
            sys.modules[module] = real
            try:
                exec(code, namespace)
            except Exception as exc:
                del self.namespaces[module], self.views[module]
                raise PackageImportError(f"importing {module} failed: {exc!r}"[:500]) from None
            finally:
                if before is None:
                    sys.modules.pop(module, None)
                else:
                    sys.modules[module] = before
            if i > 1:
                parent = self.namespaces[".".join(parts[: i - 1])]
                parent.setdefault(parts[i - 1], self.views[module])


def importer_for(
    specs: Iterable[Mapping[str, Any]], table: Import, package_table: Import
) -> Importer | None:
    """The load's package importer, or ``None`` when it has no Python packages."""
    packages = [compile_package(s) for s in specs if s.get("language", "python") == "python"]
    return Importer(packages, table, package_table) if packages else None
