"""Reviewed packages: an admin's pure-Python wheel or npm tarball, read and checked at upload.
Pure: what is read here is an archive's bytes; trying an import for real is the engines' (the
use case in ``server.calls.packages``).

A package is pinned: its name, version and the SHA-256 of the archive the admin uploaded. What
is kept of it is its code only — a wheel's ``.py`` files, a tarball's ``.js``/``.cjs``/``.json``
files — as text. Refused, with every reason at once: anything that is not that archive, native
code or a start-up hook (``.so``/``.pyd``/``.dll``/``.dylib``/``.node``/``.wasm``, ``.pth``,
compiled bytecode, ``binding.gyp``), a wheel that is not ``py3-none-any``-style pure, links,
paths that leave the archive, an archive or a file past its size limits, a name or version that
is not the one the URL says, a Python import the sandbox's table and the package cannot satisfy,
a top-level module that would shadow a sandbox module, Python code that names an attribute
every published sandbox escape walks through (``sandbox.packages.ESCAPE_NAMES``), an
ES-module-only npm package.
"""

from __future__ import annotations

import ast
import email.parser
import gzip
import hashlib
import io
import json
import posixpath
import re
import tarfile
import zipfile
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from sandbox.packages import ESCAPE_NAMES
from sandbox.restricted.facades import NEVER, PACKAGE_TABLE
from server.errors import Problems

Language = Literal["python", "javascript"]
NAME = re.compile(r"^[a-z0-9](?:[a-z0-9._-]{0,98}[a-z0-9])?$")
VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+!_-]{0,63}$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")
MAX_ARCHIVE = 16 << 20  # the uploaded bytes
MAX_UNPACKED = 64 << 20  # every member of the archive, unpacked
MAX_MEMBERS = 5_000
MAX_CODE = 8 << 20  # the code kept (what every load of it sends a worker)
MAX_FILE = 2 << 20
NATIVE = (".so", ".pyd", ".dll", ".dylib", ".node", ".wasm", ".a", ".o", ".lib", ".exe", ".pyc")
PY_KEPT = (".py",)
JS_KEPT = (".js", ".cjs", ".json")


@dataclass(frozen=True)
class PackageContents:
    """What is kept of a checked archive."""

    name: str
    version: str
    language: Language
    sha256: str
    size: int
    files: dict[str, str]  # path -> text (code only)
    modules: tuple[str, ...] = ()  # Python: the top-level import names
    main: str | None = None  # JavaScript: the file ``require(name)`` loads
    ignored: int = 0  # members not kept (metadata, docs, data files)
    problems: Problems = field(default_factory=Problems)


class Stored(Protocol):
    """A package as engines are sent it: checked contents, or a stored row."""

    @property
    def name(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def sha256(self) -> str: ...
    @property
    def files(self) -> dict[str, str]: ...
    @property
    def main(self) -> str | None: ...


def engine_spec(package: Stored) -> dict[str, Any]:
    """What an engine is sent of a package (``sandbox.engine.PackageFiles``)."""
    return {
        "key": package.sha256,
        "name": package.name,
        "version": package.version,
        "language": package.language,
        "files": dict(package.files),
        "main": package.main,
    }


def normalise(name: str) -> str:
    """A package name as PEP 503 compares them (npm names are lowercase already)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def check_identity(name: str, version: str, sha256: str | None, problems: Problems) -> None:
    if not NAME.match(name):
        problems.add("name", "a package name is lowercase letters, digits, '.', '_' and '-'")
    if not VERSION.match(version):
        problems.add("version", "a version is letters, digits and . + ! _ - (64 at most)")
    if sha256 is not None and not SHA256.match(sha256):
        problems.add("sha256", "the archive's SHA-256, as 64 lowercase hex digits")


def read_archive(name: str, version: str, data: bytes, sha256: str) -> PackageContents:
    """Read and check an uploaded archive (a wheel or an npm tarball, told by its bytes);
    ``problems`` holds every reason it is refused."""
    problems = Problems()
    digest = hashlib.sha256(data).hexdigest()
    empty = PackageContents(name, version, "python", digest, len(data), {}, problems=problems)
    if len(data) > MAX_ARCHIVE:
        problems.add("archive", f"the archive is over {MAX_ARCHIVE >> 20} MiB")
        return empty
    if digest != sha256:
        problems.add("sha256", f"the archive's SHA-256 is {digest}, not the one given")
        return empty
    if data[:4] == b"PK\x03\x04":
        return _wheel(name, version, data, digest, problems)
    if data[:2] == b"\x1f\x8b":
        return _tarball(name, version, data, digest, problems)
    problems.add("archive", "not a wheel (.whl, a zip) or an npm tarball (.tgz)")
    return empty


def _safe_path(path: str, problems: Problems) -> bool:
    parts = path.split("/")
    if path.startswith("/") or "\\" in path or ".." in parts or "\0" in path:
        problems.add("archive", f"{path[:200]!r}: a path that leaves the archive")
        return False
    return True


def _native(path: str, problems: Problems) -> bool:
    lowered = path.lower()
    if (
        lowered.endswith(NATIVE)
        or lowered.endswith(".pth")
        or posixpath.basename(lowered) in ("binding.gyp",)
    ):
        problems.add("archive", f"{path[:200]}: native code or a start-up hook is not allowed")
        return True
    return False


def _text(path: str, raw: bytes, problems: Problems) -> str | None:
    if len(raw) > MAX_FILE:
        problems.add("archive", f"{path}: over {MAX_FILE >> 20} MiB")
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        problems.add("archive", f"{path}: not UTF-8 text")
        return None


# Python wheels ---------------------------------------------------------------------------------
def _wheel(
    name: str, version: str, data: bytes, digest: str, problems: Problems
) -> PackageContents:
    files: dict[str, str] = {}
    ignored = 0
    meta: dict[str, str] = {}
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        problems.add("archive", f"not a readable wheel: {exc}")
        members = []
    if len(members) > MAX_MEMBERS:
        problems.add("archive", f"more than {MAX_MEMBERS} files")
        members = []
    if sum(m.file_size for m in members) > MAX_UNPACKED:
        problems.add("archive", f"over {MAX_UNPACKED >> 20} MiB unpacked")
        members = []
    for member in members:
        path = member.filename
        if member.is_dir() or not _safe_path(path, problems) or _native(path, problems):
            continue
        if (member.external_attr >> 16) & 0o170000 == 0o120000:
            problems.add("archive", f"{path}: links are not allowed")
            continue
        top = path.split("/")[0]
        if top.endswith(".dist-info") and path.rsplit("/", 1)[-1] in ("WHEEL", "METADATA"):
            meta[path.rsplit("/", 1)[-1]] = archive.read(member).decode("utf-8", "replace")
        elif top.endswith(".data"):
            problems.add("archive", f"{path}: a wheel's .data (scripts, headers, data) is not code")
        elif path.endswith(PY_KEPT) and not top.endswith(".dist-info"):
            text = _text(path, archive.read(member), problems)
            if text is not None:
                files[path] = text
        else:
            ignored += 1
    _wheel_metadata(name, version, meta, problems)
    modules = _python_modules(files, problems)
    _python_code(files, modules, problems)
    _code_size(files, problems)
    return PackageContents(
        name, version, "python", digest, len(data), files, modules, None, ignored, problems
    )


def _wheel_metadata(name: str, version: str, meta: dict[str, str], problems: Problems) -> None:
    if "WHEEL" not in meta or "METADATA" not in meta:
        problems.add("archive", "not a wheel: no .dist-info/WHEEL and METADATA")
        return
    wheel = email.parser.Parser().parsestr(meta["WHEEL"])
    if (wheel.get("Root-Is-Purelib") or "").strip().lower() != "true":
        problems.add("archive", "not a pure-Python wheel (Root-Is-Purelib is not true)")
    for tag in wheel.get_all("Tag") or []:
        _, abi, platform = (tag.strip().split("-") + ["", ""])[:3]
        if abi != "none" or platform != "any":
            problems.add("archive", f"the wheel's tag {tag.strip()!r} is not pure (*-none-any)")
    metadata = email.parser.Parser().parsestr(meta["METADATA"])
    if normalise(metadata.get("Name") or "") != normalise(name):
        problems.add("name", f"the wheel is {metadata.get('Name')!r}, not {name!r}")
    if (metadata.get("Version") or "").strip() != version:
        problems.add(
            "version", f"the wheel is version {metadata.get('Version')!r}, not {version!r}"
        )


def _python_modules(files: dict[str, str], problems: Problems) -> tuple[str, ...]:
    tops = sorted({path.split("/")[0].removesuffix(".py") for path in files})
    for top in tops:
        if not top.isidentifier():
            problems.add("archive", f"{top!r} is not an importable module name")
        elif top in PACKAGE_TABLE or top.partition(".")[0] in NEVER or top == "urllib":
            problems.add("archive", f"the module {top!r} would shadow a module of the sandbox")
    if not tops:
        problems.add("archive", "the wheel has no Python modules")
    return tuple(tops)


def _python_code(files: dict[str, str], tops: tuple[str, ...], problems: Problems) -> None:
    """Every file parses, and imports only its package's modules and the sandbox's table."""
    for path, text in sorted(files.items()):
        try:
            tree = ast.parse(text, filename=path)
        except SyntaxError as exc:
            problems.add("archive", f"{path}: syntax error: {exc.msg}", exc.lineno)
            continue
        for node in ast.walk(tree):
            named = node.attr if isinstance(node, ast.Attribute) else None
            named = node.id if isinstance(node, ast.Name) else named
            if named in ESCAPE_NAMES:
                problems.add(
                    "archive",
                    f"{path}: names {named!r}, a way out of any Python sandbox",
                    getattr(node, "lineno", None),
                )
            names: list[str] = []
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
                if node.module == "urllib":
                    names = [f"urllib.{alias.name}" for alias in node.names]
            for imported in names:
                if imported in PACKAGE_TABLE or imported.partition(".")[0] in tops:
                    continue
                problems.add(
                    "archive",
                    f"{path}: imports {imported!r}, which the sandbox does not have (its table: "
                    "the reviewed modules and typing, dataclasses, enum, abc)",
                    node.lineno,
                )


def _code_size(files: dict[str, str], problems: Problems) -> None:
    if sum(len(text.encode()) for text in files.values()) > MAX_CODE:
        problems.add("archive", f"over {MAX_CODE >> 20} MiB of code")


# npm tarballs -----------------------------------------------------------------------------------
def _tarball(
    name: str, version: str, data: bytes, digest: str, problems: Problems
) -> PackageContents:
    files: dict[str, str] = {}
    ignored = 0
    manifest: dict[str, Any] | None = None
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as gz:  # read no more than the cap
            unpacked = gz.read(MAX_UNPACKED + 1)
    except (OSError, EOFError) as exc:
        problems.add("archive", f"not a readable tarball: {exc}")
        unpacked = b""
    if len(unpacked) > MAX_UNPACKED:
        problems.add("archive", f"over {MAX_UNPACKED >> 20} MiB unpacked")
        unpacked = b""
    for member, raw in _tar_members(unpacked, problems):
        if member.isdir():
            continue
        if not member.isfile():
            problems.add("archive", f"{member.name[:200]}: links and devices are not allowed")
            continue
        _, _, path = member.name.partition("/")
        if not path or not _safe_path(member.name, problems) or _native(path, problems):
            continue
        if path == "package.json":
            try:
                manifest = json.loads(raw)
            except (ValueError, UnicodeDecodeError):
                problems.add("archive", "package.json is not JSON")
        if path.endswith(JS_KEPT) and not path.startswith("node_modules/"):
            text = _text(path, raw, problems)
            if text is not None:
                files[path] = text
        else:
            ignored += 1
    main = _npm_manifest(name, version, manifest, files, problems)
    _code_size(files, problems)
    return PackageContents(
        name, version, "javascript", digest, len(data), files, (), main, ignored, problems
    )


def _tar_members(unpacked: bytes, problems: Problems) -> list[tuple[tarfile.TarInfo, bytes]]:
    """A tarball's members with their bytes (none for what is not a file)."""
    if not unpacked:
        return []
    try:
        with tarfile.open(fileobj=io.BytesIO(unpacked), mode="r:") as archive:
            members = archive.getmembers()
            if len(members) > MAX_MEMBERS:
                problems.add("archive", f"more than {MAX_MEMBERS} files")
                return []
            read = []
            for member in members:
                extracted = archive.extractfile(member) if member.isfile() else None
                read.append((member, extracted.read() if extracted is not None else b""))
            return read
    except tarfile.TarError as exc:
        problems.add("archive", f"not a readable tarball: {exc}")
        return []


def _npm_manifest(
    name: str,
    version: str,
    manifest: dict[str, Any] | None,
    files: dict[str, str],
    problems: Problems,
) -> str | None:
    if not isinstance(manifest, dict):
        if not problems.has("archive"):
            problems.add("archive", "not an npm tarball: no package/package.json")
        return None
    if manifest.get("name") != name:
        problems.add("name", f"the tarball is {manifest.get('name')!r}, not {name!r}")
    if manifest.get("version") != version:
        problems.add(
            "version", f"the tarball is version {manifest.get('version')!r}, not {version!r}"
        )
    main_field = manifest.get("main")
    declared = main_field if isinstance(main_field, str) else "index.js"
    wanted = posixpath.normpath(declared)
    wanted = "index" if wanted == "." else wanted
    for end in ("", ".js", ".cjs", ".json", "/index.js", "/index.cjs"):
        if wanted + end in files:
            main = wanted + end
            break
    else:
        problems.add("archive", f"its main file {declared!r} is not in the tarball")
        return None
    if manifest.get("type") == "module" and not main.endswith(".cjs"):
        problems.add("archive", "an ES-module package: only CommonJS packages load in the sandbox")
    return main
